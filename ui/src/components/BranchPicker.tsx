import { Select } from '@mantine/core';
import { useMemo } from 'react';
import { branches as loadBranches } from '../api/calls.js';
import { useApi } from '../lib/use-api.js';

/** How many branches the picker offers: the most recently run; typing searches among them. */
const BRANCHES_LISTED = 100;
/** The "All branches" choice: a value no git branch can have (a NUL character). */
const ALL = '\u0000all';

/**
 * 'Branch' filter: All branches (the default) or one, most recently run first, searchable. A
 * branch named by the address but not among those listed is still offered, so the choice shows.
 */
export function BranchPicker({ value, onChange, w = 220 }: { value: string | null; onChange(branch: string | null): void; w?: number | string }) {
  const list = useApi(() => loadBranches(BRANCHES_LISTED), []);
  const data = useMemo(() => {
    const names = (list.data?.branches ?? []).map((b) => b.name);
    const offered = value !== null && !names.includes(value) ? [value, ...names] : names;
    return [{ value: ALL, label: 'All branches' }, ...offered.map((name) => ({ value: name, label: name }))];
  }, [list.data, value]);
  return (
    <Select
      label="Branch"
      data={data}
      value={value ?? ALL}
      onChange={(next) => onChange(next === null || next === ALL ? null : next)}
      allowDeselect={false}
      searchable
      nothingFoundMessage={list.loading ? 'Loading branches...' : 'No branch found'}
      maxDropdownHeight={280}
      comboboxProps={{ withinPortal: true }}
      w={w}
      data-testid="branch-picker"
    />
  );
}
