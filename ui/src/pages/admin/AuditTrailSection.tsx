import { Badge, Button, Code, Group, Paper, Select, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { AUDIT_ACTIONS, type AuditEntry } from '../../../../core/api/audit.js';
import { auditPage } from '../../api/calls.js';
import { ListPager } from '../../components/ListPager.js';
import { DataTable, type DataColumn } from '../../components/DataTable.js';
import { PageStates } from '../../components/PageState.js';
import { formatDateTime } from '../../lib/format.js';
import { useApi } from '../../lib/use-api.js';
import { usePhone } from '../../lib/use-phone.js';

const PAGE_SIZE = 50;

interface Filters {
  actor: string;
  action: string;
  target: string;
  since: string;
  until: string;
}
const NONE: Filters = { actor: '', action: '', target: '', since: '', until: '' };

// Every action, and each subject's prefix ("run." matches all of a run's actions).
const ACTION_CHOICES = [...new Set(AUDIT_ACTIONS.map((a) => `${a.split('.')[0]}.`)), ...AUDIT_ACTIONS].sort();

const who = (e: AuditEntry): string => {
  const name = e.actor.name ?? (e.actor.kind === 'user' ? 'unknown name' : '');
  return e.actor.kind === 'user' ? name : `${name}${name ? ' ' : ''}(${e.actor.kind})`;
};
const what = (e: AuditEntry): string => (e.target ? `${e.target.type}${e.target.id !== null ? ` ${e.target.id}` : ''}${e.target.label ? `: ${e.target.label}` : ''}` : '—');
const detail = (e: AuditEntry): string => (e.detail ? JSON.stringify(e.detail) : '');

const ActionBadge = ({ entry }: { entry: AuditEntry }) => (
  <Badge variant="light" style={{ textTransform: 'none' }}>
    {entry.action}
  </Badge>
);

const COLUMNS: DataColumn<AuditEntry>[] = [
  { key: 'time', header: 'Time', style: { whiteSpace: 'nowrap' }, cell: (e) => formatDateTime(e.at) },
  { key: 'actor', header: 'Actor', cell: who },
  { key: 'from', header: 'From', cell: (e) => e.source },
  { key: 'action', header: 'Action', cell: (e) => <ActionBadge entry={e} /> },
  { key: 'target', header: 'Target', style: { maxWidth: 320, overflowWrap: 'anywhere' }, cell: what },
  {
    key: 'detail',
    header: 'Detail',
    style: { maxWidth: 360, overflowWrap: 'anywhere' },
    cell: (e) => (
      <Text size="xs" ff="monospace">
        {detail(e)}
      </Text>
    ),
  },
];

/** One entry on a phone: the action and time on top, who and what under them, the detail last. */
function StackedEntry({ entry: e }: { entry: AuditEntry }) {
  return (
    <>
      <Group justify="space-between" gap="xs" wrap="nowrap">
        <ActionBadge entry={e} />
        <Text size="xs" c="dimmed">
          {formatDateTime(e.at)}
        </Text>
      </Group>
      <Text size="sm" mt={4} style={{ overflowWrap: 'anywhere' }}>
        {who(e)} from {e.source}
      </Text>
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {what(e)}
      </Text>
      {e.detail && (
        <Code block mt={4} style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {detail(e)}
        </Code>
      )}
    </>
  );
}

/** The audit trail: who changed what, when and from where, newest first, filtered on the server. */
export function AuditTrailSection({ reloadKey }: { reloadKey: number }) {
  const phone = usePhone();
  const [draft, setDraft] = useState<Filters>(NONE);
  const [filters, setFilters] = useState<Filters>(NONE);
  const [page, setPage] = useState(1);
  const entries = useApi(() => auditPage({ page, pageSize: PAGE_SIZE, ...filters }), [page, filters, reloadKey]);
  const apply = () => {
    setFilters({ ...draft, actor: draft.actor.trim(), target: draft.target.trim() });
    setPage(1);
  };
  const set = (key: keyof Filters) => (value: string | null) => setDraft((d) => ({ ...d, [key]: value ?? '' }));

  return (
    <Paper withBorder radius="md" p="md" data-testid="audit-trail">
      <Title order={4} mb={4}>
        Audit trail
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        Every change: sign-ins, reviews, deletes, quarantine, users, tokens and settings. Kept as long as the runs (prune removes both).
      </Text>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          apply();
        }}
      >
        <Group align="flex-end" gap="sm" mb="md" wrap="wrap">
          <TextInput label="Actor" placeholder="user name" value={draft.actor} onChange={(e) => set('actor')(e.currentTarget.value)} w={phone ? '100%' : 160} />
          <Select label="Action" placeholder="any" data={ACTION_CHOICES} value={draft.action || null} onChange={set('action')} clearable searchable w={phone ? '100%' : 200} />
          <TextInput label="Target" placeholder="run:42" value={draft.target} onChange={(e) => set('target')(e.currentTarget.value)} w={phone ? '100%' : 140} />
          <TextInput label="Since" type="date" value={draft.since} onChange={(e) => set('since')(e.currentTarget.value)} w={phone ? '100%' : 160} />
          <TextInput label="Until" type="date" value={draft.until} onChange={(e) => set('until')(e.currentTarget.value)} w={phone ? '100%' : 160} />
          <Button type="submit" fullWidth={phone}>
            Filter
          </Button>
        </Group>
      </form>
      <PageStates
        error={entries.error != null && entries.data === undefined ? { text: 'Failed to load the audit trail', onRetry: entries.reload } : null}
        loading={entries.data === undefined ? 'Loading audit trail...' : null}
      >
        <DataTable
          columns={COLUMNS}
          rows={entries.data?.items ?? []}
          rowKey={(e) => String(e.id)}
          empty={<Text c="dimmed">No entries match.</Text>}
          stacked={(e) => <StackedEntry entry={e} />}
          rowTestId="audit-row"
          minWidth={900}
          striped
        />
      </PageStates>
      {entries.data && <ListPager page={page} pageSize={PAGE_SIZE} total={entries.data.total} noun="entries" onPage={setPage} testId="audit-pager" />}
    </Paper>
  );
}
