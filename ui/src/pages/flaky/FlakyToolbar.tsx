import { CloseButton, Group, Select, TextInput } from '@mantine/core';
import type { FlakySortKey } from '../../../../core/api/analytics.js';
import { OwnerPicker } from '../../components/OwnerPicker.js';

export type SortChoice = `${FlakySortKey}:${'asc' | 'desc'}`;

const SORTS: Array<{ value: SortChoice; label: string }> = [
  { value: 'pass_rate:asc', label: 'Worst pass rate first' },
  { value: 'score:desc', label: 'Highest flaky score first' },
  { value: 'runs:desc', label: 'Most runs first' },
  { value: 'last_failure:desc', label: 'Latest failure first' },
  { value: 'open_age:asc', label: 'Oldest open first' },
  { value: 'pass_rate:desc', label: 'Best pass rate first' },
  { value: 'score:asc', label: 'Lowest flaky score first' },
  { value: 'runs:asc', label: 'Fewest runs first' },
  { value: 'last_failure:asc', label: 'Oldest failure first' },
  { value: 'open_age:desc', label: 'Newest open first' },
];

interface Props {
  search: string;
  onSearch(value: string): void;
  browser: string | null;
  browsers: ReadonlyArray<{ browser: string; count: number }>;
  onBrowser(value: string | null): void;
  sort: SortChoice;
  onSort(value: SortChoice): void;
  owner: string | null;
  onOwner(value: string | null): void;
}

/** Search, browser and sort of the flaky table: each asks the server for a new first page. */
export function FlakyToolbar({ search, onSearch, browser, browsers, onBrowser, sort, onSort, owner, onOwner }: Props) {
  return (
    <Group gap="sm" mb="sm" align="flex-end" wrap="wrap">
      <TextInput
        label="Search"
        placeholder="Test title or file"
        value={search}
        onChange={(event) => onSearch(event.currentTarget.value)}
        rightSection={search !== '' ? <CloseButton size="sm" aria-label="Clear search" onClick={() => onSearch('')} /> : null}
        style={{ flex: '1 1 240px' }}
        data-testid="flaky-search"
      />
      <Select
        label="Browser"
        placeholder="All browsers"
        clearable
        value={browser}
        onChange={onBrowser}
        data={browsers.map((b) => ({ value: b.browser, label: `${b.browser} (${b.count.toLocaleString('en-US')})` }))}
        style={{ flex: '0 1 200px' }}
        data-testid="flaky-browser"
      />
      <OwnerPicker value={owner} onChange={onOwner} />
      <Select
        label="Sort"
        allowDeselect={false}
        value={sort}
        onChange={(value) => value && onSort(value as SortChoice)}
        data={SORTS}
        style={{ flex: '0 1 230px' }}
        data-testid="flaky-sort"
      />
    </Group>
  );
}
