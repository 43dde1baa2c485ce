import { Select } from '@mantine/core';
import { useMemo } from 'react';
import { UNOWNED } from '../../../core/owners/test-owners.js';
import { owners as loadOwners } from '../api/calls.js';
import { useApi } from '../lib/use-api.js';

/** The "All owners" choice: a value no owner can have (a NUL character). */
const ALL = '\u0000all';

/**
 * 'Owner' filter: all owners (the default), the tests no one owns, or one owner's (from
 * CODEOWNERS, annotations and tags), searchable.
 */
export function OwnerPicker({ value, onChange, w = 200 }: { value: string | null; onChange(owner: string | null): void; w?: number | string }) {
  const list = useApi(() => loadOwners(), []);
  const data = useMemo(() => {
    const names = (list.data?.owners ?? []).map((o) => o.owner);
    const offered = value !== null && value !== UNOWNED && !names.includes(value) ? [value, ...names] : names;
    return [{ value: ALL, label: 'All owners' }, { value: UNOWNED, label: 'Unowned' }, ...offered.map((name) => ({ value: name, label: name }))];
  }, [list.data, value]);
  return (
    <Select
      label="Owner"
      data={data}
      value={value ?? ALL}
      onChange={(next) => onChange(next === null || next === ALL ? null : next)}
      allowDeselect={false}
      searchable
      nothingFoundMessage={list.loading ? 'Loading owners...' : 'No owner found'}
      maxDropdownHeight={280}
      comboboxProps={{ withinPortal: true }}
      w={w}
      data-testid="owner-picker"
    />
  );
}
