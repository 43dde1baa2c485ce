import { Alert, Button, Checkbox, Code, Group, NumberInput, PasswordInput, Select, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { WEBHOOK_DEFAULTS } from '../../../../core/api/webhooks.js';
import { WEBHOOK_EVENTS, type WebhookKind } from '../../../../core/api/webhook-names.js';
import { addWebhook } from '../../api/calls.js';
import { errorText } from '../../api/client.js';

const KINDS = [
  { value: 'slack', label: 'Slack incoming webhook' },
  { value: 'teams', label: 'Microsoft Teams incoming webhook' },
  { value: 'generic', label: 'Generic JSON (signed)' },
];

export const EVENT_LABELS: Record<string, string> = {
  'new-flaky': 'New flaky test',
  'broken-on-base': 'Test broken on the base branch',
  'pass-rate': 'Base-branch pass rate below the threshold',
  'quarantine-expiring': 'Quarantine entry expiring',
  'quarantine-expired': 'Quarantine entry expired',
  'upload-pending': 'Upload waiting for review',
  test: 'Test alert',
};

/** Adding a hook: the server checks everything again and its refusal is shown as it says it. */
export function WebhookForm({ onAdded }: { onAdded(): void }) {
  const [name, setName] = useState('');
  const [kind, setKind] = useState<WebhookKind>('slack');
  const [url, setUrl] = useState('');
  const [secret, setSecret] = useState('');
  const [events, setEvents] = useState([...WEBHOOK_EVENTS]);
  const [baseBranch, setBaseBranch] = useState<string>(WEBHOOK_DEFAULTS.baseBranch);
  const [threshold, setThreshold] = useState<number>(WEBHOOK_DEFAULTS.passRateThreshold);
  const [expiryDays, setExpiryDays] = useState<number>(WEBHOOK_DEFAULTS.expiryDays);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [shownSecret, setShownSecret] = useState<{ name: string; secret: string } | null>(null);

  const submit = async () => {
    setBusy(true);
    setError(null);
    try {
      const answer = await addWebhook({ name, kind, url, events, baseBranch, passRateThreshold: threshold, expiryDays, ...(kind === 'generic' && secret ? { secret } : {}) });
      setShownSecret(answer.secret ? { name: answer.webhook.name, secret: answer.secret } : null);
      setName('');
      setUrl('');
      setSecret('');
      onAdded();
    } catch (failure) {
      setError(errorText(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack gap="sm" data-testid="webhook-form">
      {shownSecret && (
        <Alert color="yellow" title={`Signing secret of ${shownSecret.name}`} withCloseButton onClose={() => setShownSecret(null)} data-testid="webhook-secret">
          <Text size="sm">Shown only this once: give it to the receiver to check X-Flakeboard-Signature.</Text>
          <Code block style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
            {shownSecret.secret}
          </Code>
        </Alert>
      )}
      <Group grow align="flex-start" wrap="wrap">
        <TextInput label="Name" placeholder="#ci-alerts" value={name} onChange={(e) => setName(e.currentTarget.value)} required maxLength={100} miw={200} />
        <Select label="Kind" data={KINDS} value={kind} onChange={(value) => setKind((value as WebhookKind) ?? 'slack')} allowDeselect={false} miw={200} />
      </Group>
      <TextInput label="URL" placeholder="https://hooks.slack.com/services/…" value={url} onChange={(e) => setUrl(e.currentTarget.value)} required maxLength={2000} />
      {kind === 'generic' && (
        <PasswordInput label="Signing secret" description="Left empty, one is made and shown once" value={secret} onChange={(e) => setSecret(e.currentTarget.value)} maxLength={500} />
      )}
      <Checkbox.Group label="Events" value={events} onChange={(chosen) => setEvents(WEBHOOK_EVENTS.filter((event) => chosen.includes(event)))}>
        <Stack gap={6} mt={6}>
          {WEBHOOK_EVENTS.map((event) => (
            <Checkbox key={event} value={event} label={EVENT_LABELS[event]} />
          ))}
        </Stack>
      </Checkbox.Group>
      <Group grow align="flex-start" wrap="wrap">
        <TextInput label="Base branch" value={baseBranch} onChange={(e) => setBaseBranch(e.currentTarget.value)} maxLength={200} miw={140} />
        <NumberInput label="Pass-rate threshold (%)" value={threshold} onChange={(v) => setThreshold(Number(v))} min={1} max={100} miw={140} />
        <NumberInput label="Warn days before expiry" value={expiryDays} onChange={(v) => setExpiryDays(Number(v))} min={0} max={365} allowDecimal={false} miw={140} />
      </Group>
      {error && (
        <Text size="sm" c="red" role="alert">
          {error}
        </Text>
      )}
      <Group>
        <Button onClick={() => void submit()} loading={busy} disabled={!name.trim() || !url.trim() || events.length === 0}>
          Add webhook
        </Button>
      </Group>
    </Stack>
  );
}
