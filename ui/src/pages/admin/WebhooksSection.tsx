import { Badge, Box, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import type { DeliveryView, WebhookView } from '../../../../core/api/webhooks.js';
import { removeWebhook, testWebhook, webhookDeliveries, webhookList } from '../../api/calls.js';
import { errorText } from '../../api/client.js';
import { DataTable, type DataColumn } from '../../components/DataTable.js';
import { PageStates } from '../../components/PageState.js';
import { useApi } from '../../lib/use-api.js';
import { useSession } from '../../session/SessionProvider.js';
import { EVENT_LABELS, WebhookForm } from './WebhookForm.js';

const STATE_COLOR: Record<DeliveryView['state'], string> = { sent: 'green', pending: 'blue', failed: 'red', skipped: 'gray' };
const when = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace('T', ' ');

/** The webhooks; `act` runs a row's Test or Remove and shows what it says. */
function hookColumns(act: (work: () => Promise<string>) => Promise<void>): DataColumn<WebhookView>[] {
  return [
    { key: 'name', header: 'Name', style: { overflowWrap: 'anywhere', minWidth: 110 }, cell: (hook) => hook.name },
    { key: 'kind', header: 'Kind', cell: (hook) => hook.kind },
    {
      key: 'url',
      header: 'URL',
      style: { overflowWrap: 'anywhere', minWidth: 170 },
      cell: (hook) => (
        <Text size="sm" ff="monospace">
          {hook.url}
        </Text>
      ),
    },
    { key: 'events', header: 'Events', cell: (hook) => <Text size="xs">{hook.events.map((e) => EVENT_LABELS[e] ?? e).join(', ')}</Text> },
    {
      key: 'base',
      header: 'Base',
      cell: (hook) => (
        <Text size="xs">
          {hook.baseBranch}, below {hook.passRateThreshold}%, {hook.expiryDays} d
        </Text>
      ),
    },
    {
      key: 'actions',
      header: '',
      cell: (hook) => (
        <Group gap={6} wrap="nowrap">
          <Button size="xs" variant="default" onClick={() => void act(async () => { const r = await testWebhook(hook.id); return r.ok ? `Test alert to ${hook.name}: the receiver answered ${r.status}` : `Test alert to ${hook.name} failed: ${r.error}`; })}>
            Test
          </Button>
          <Button size="xs" variant="light" color="red" onClick={() => void act(async () => { await removeWebhook(hook.id); return `Removed ${hook.name}`; })}>
            Remove
          </Button>
        </Group>
      ),
    },
  ];
}

const DELIVERY_COLUMNS: DataColumn<DeliveryView>[] = [
  { key: 'when', header: 'When (UTC)', cell: (d) => when(d.createdAt) },
  { key: 'webhook', header: 'Webhook', style: { overflowWrap: 'anywhere' }, cell: (d) => d.webhookName },
  {
    key: 'event',
    header: 'Event',
    cell: (d) => (
      <>
        <Text size="sm">{EVENT_LABELS[d.event] ?? d.event}</Text>
        <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {d.summary}
        </Text>
      </>
    ),
  },
  {
    key: 'state',
    header: 'State',
    cell: (d) => (
      <Badge color={STATE_COLOR[d.state]} variant="light">
        {d.state}
      </Badge>
    ),
  },
  { key: 'attempts', header: 'Attempts', cell: (d) => d.attempts },
  {
    key: 'answer',
    header: 'Answer',
    cell: (d) => (
      <Text size="xs" style={{ overflowWrap: 'anywhere' }}>
        {d.lastStatus ?? ''} {d.lastError ?? ''}
        {d.state === 'pending' && d.nextAttemptAt ? ` next ${when(d.nextAttemptAt)}` : ''}
      </Text>
    ),
  },
];

/** The alert webhooks and their delivery log, on the Admin screen (admins only; the server checks it too). */
export function WebhooksSection() {
  const { user } = useSession();
  const isAdmin = user?.role === 'admin';
  const state = useApi(async () => (isAdmin ? Promise.all([webhookList(), webhookDeliveries(50)]) : null), [isAdmin]);

  return (
    <PageStates error={state.error && !state.data ? { text: errorText(state.error), onRetry: state.reload } : null} loading={state.data ? null : 'Loading webhooks…'}>
      {state.data && <WebhooksContent hooks={state.data[0].webhooks} deliveries={state.data[1].deliveries} reload={state.reload} />}
    </PageStates>
  );
}

/** The webhook list with its form, and the delivery log; every change reloads both. */
function WebhooksContent({ hooks, deliveries, reload }: { hooks: WebhookView[]; deliveries: DeliveryView[]; reload(): void }) {
  const [notice, setNotice] = useState<string | null>(null);
  const load = async () => reload();

  const act = async (work: () => Promise<string>) => {
    try {
      setNotice(await work());
    } catch (failure) {
      setNotice(errorText(failure));
    }
    await load();
  };

  return (
    <Stack gap="lg">
      <Card withBorder padding="lg">
        <Title order={4} mb="sm">
          Webhooks
        </Title>
        {notice && (
          <Text size="sm" mb="sm" data-testid="webhook-notice">
            {notice}
          </Text>
        )}
        {hooks.length === 0 ? (
          <Text c="dimmed" size="sm" mb="md">
            No webhooks yet: add one below.
          </Text>
        ) : (
          <Box mb="md">
            <DataTable columns={hookColumns(act)} rows={hooks} rowKey={(hook) => String(hook.id)} minWidth={900} testId="webhook-table" />
          </Box>
        )}
        <WebhookForm onAdded={() => void load()} />
      </Card>
      <Card withBorder padding="lg">
        <Group justify="space-between" mb="sm">
          <Title order={4}>Delivery log</Title>
          <Button size="xs" variant="default" onClick={() => void load()}>
            Refresh
          </Button>
        </Group>
        {deliveries.length === 0 ? (
          <Text c="dimmed" size="sm">
            Nothing sent yet.
          </Text>
        ) : (
          <DataTable columns={DELIVERY_COLUMNS} rows={deliveries} rowKey={(d) => String(d.id)} minWidth={760} testId="delivery-table" />
        )}
      </Card>
    </Stack>
  );
}
