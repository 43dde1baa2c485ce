import { Badge, Button, Card, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import type { DeliveryView, WebhookView } from '../../../../core/api/webhooks.js';
import { removeWebhook, testWebhook, webhookDeliveries, webhookList } from '../../api/calls.js';
import { errorText } from '../../api/client.js';
import { ErrorState, LoadingState } from '../../components/PageState.js';
import { useApi } from '../../lib/use-api.js';
import { useSession } from '../../session/SessionProvider.js';
import { EVENT_LABELS, WebhookForm } from './WebhookForm.js';

const STATE_COLOR: Record<DeliveryView['state'], string> = { sent: 'green', pending: 'blue', failed: 'red', skipped: 'gray' };
const when = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace('T', ' ');

/** The alert webhooks and their delivery log, on the Admin screen (admins only; the server checks it too). */
export function WebhooksSection() {
  const { user } = useSession();
  const isAdmin = user?.role === 'admin';
  const state = useApi(async () => (isAdmin ? Promise.all([webhookList(), webhookDeliveries(50)]) : null), [isAdmin]);
  const [notice, setNotice] = useState<string | null>(null);

  if (state.error && !state.data) return <ErrorState text={errorText(state.error)} action={{ label: 'Try again', onClick: state.reload }} />;
  if (!state.data) return <LoadingState text="Loading webhooks…" />;
  const hooks: WebhookView[] = state.data[0].webhooks;
  const deliveries: DeliveryView[] = state.data[1].deliveries;
  const load = async () => state.reload();

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
          <Table.ScrollContainer minWidth={900} mb="md">
            <Table data-testid="webhook-table" verticalSpacing="xs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>Kind</Table.Th>
                  <Table.Th>URL</Table.Th>
                  <Table.Th>Events</Table.Th>
                  <Table.Th>Base</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {hooks.map((hook) => (
                  <Table.Tr key={hook.id}>
                    <Table.Td style={{ overflowWrap: 'anywhere', minWidth: 110 }}>{hook.name}</Table.Td>
                    <Table.Td>{hook.kind}</Table.Td>
                    <Table.Td style={{ overflowWrap: 'anywhere', minWidth: 170 }}>
                      <Text size="sm" ff="monospace">
                        {hook.url}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="xs">{hook.events.map((e) => EVENT_LABELS[e] ?? e).join(', ')}</Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="xs">
                        {hook.baseBranch}, below {hook.passRateThreshold}%, {hook.expiryDays} d
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Group gap={6} wrap="nowrap">
                        <Button size="xs" variant="default" onClick={() => void act(async () => { const r = await testWebhook(hook.id); return r.ok ? `Test alert to ${hook.name}: the receiver answered ${r.status}` : `Test alert to ${hook.name} failed: ${r.error}`; })}>
                          Test
                        </Button>
                        <Button size="xs" variant="light" color="red" onClick={() => void act(async () => { await removeWebhook(hook.id); return `Removed ${hook.name}`; })}>
                          Remove
                        </Button>
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
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
          <Table.ScrollContainer minWidth={760}>
            <Table data-testid="delivery-table" verticalSpacing="xs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>When (UTC)</Table.Th>
                  <Table.Th>Webhook</Table.Th>
                  <Table.Th>Event</Table.Th>
                  <Table.Th>State</Table.Th>
                  <Table.Th>Attempts</Table.Th>
                  <Table.Th>Answer</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {deliveries.map((d) => (
                  <Table.Tr key={d.id}>
                    <Table.Td>{when(d.createdAt)}</Table.Td>
                    <Table.Td style={{ overflowWrap: 'anywhere' }}>{d.webhookName}</Table.Td>
                    <Table.Td>
                      <Text size="sm">{EVENT_LABELS[d.event] ?? d.event}</Text>
                      <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                        {d.summary}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Badge color={STATE_COLOR[d.state]} variant="light">
                        {d.state}
                      </Badge>
                    </Table.Td>
                    <Table.Td>{d.attempts}</Table.Td>
                    <Table.Td>
                      <Text size="xs" style={{ overflowWrap: 'anywhere' }}>
                        {d.lastStatus ?? ''} {d.lastError ?? ''}
                        {d.state === 'pending' && d.nextAttemptAt ? ` next ${when(d.nextAttemptAt)}` : ''}
                      </Text>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Card>
    </Stack>
  );
}
