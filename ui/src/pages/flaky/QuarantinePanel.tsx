import { Alert, Button, Group, Select, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import type { QuarantineView } from '../../../../core/api/quarantine.js';
import { addQuarantine, removeQuarantine } from '../../api/calls.js';
import { errorText } from '../../api/client.js';
import { broadcastQuarantineChanged } from '../../lib/quarantine.js';

const EXPIRY_CHOICES = [
  { value: '7d', label: '7 days' },
  { value: '14d', label: '14 days' },
  { value: '30d', label: '30 days' },
  { value: '90d', label: '90 days' },
];

/**
 * Quarantine of this test on this browser: what is in force, or a short form to add it. The
 * server decides who may (reviewers and admins) and its refusal is shown as it says it.
 */
export function QuarantinePanel({ title, file, browser, entry, defaultOwner = '' }: { title: string; file: string; browser: string; entry: QuarantineView | null; defaultOwner?: string }) {
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  // The test's owners (CODEOWNERS, annotations, tags) unless someone else takes it on.
  const [owner, setOwner] = useState(defaultOwner.slice(0, 200));
  const [expires, setExpires] = useState('30d');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const run = async (work: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await work();
      setOpen(false);
      broadcastQuarantineChanged();
    } catch (failure) {
      setError(errorText(failure));
    } finally {
      setBusy(false);
    }
  };

  if (entry) {
    return (
      <Alert color="grape" variant="light" title="Quarantined" data-testid="quarantine-status">
        <Stack gap={4}>
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {entry.reason}
          </Text>
          <Text size="xs" c="dimmed">
            {entry.owner ? `Owner ${entry.owner} · ` : ''}
            {entry.through ? `through ${entry.through}` : 'no end date'}
            {entry.createdBy ? ` · added by ${entry.createdBy}` : ''} · the CI gate lets its failures through
          </Text>
          {error && <Text size="sm" c="red">{error}</Text>}
          <Group>
            <Button size="xs" variant="light" color="grape" loading={busy} onClick={() => void run(() => removeQuarantine(entry.id))}>
              Lift quarantine
            </Button>
          </Group>
        </Stack>
      </Alert>
    );
  }
  if (!open) {
    return (
      <Group>
        <Button size="xs" variant="default" onClick={() => setOpen(true)}>
          Quarantine this test
        </Button>
        <Text size="xs" c="dimmed">
          Known flaky? Keep it from blocking merges for a while, with a reason and an owner.
        </Text>
      </Group>
    );
  }
  return (
    <Stack gap="xs" data-testid="quarantine-form">
      <TextInput label="Reason" placeholder="What is known, a ticket" value={reason} onChange={(e) => setReason(e.currentTarget.value)} required maxLength={2000} />
      <Group grow align="flex-end">
        <TextInput label="Owner" placeholder="Who is fixing it" data-testid="quarantine-owner" value={owner} onChange={(e) => setOwner(e.currentTarget.value)} maxLength={200} />
        <Select label="For" data={EXPIRY_CHOICES} value={expires} onChange={(value) => setExpires(value ?? '30d')} allowDeselect={false} />
      </Group>
      {error && <Text size="sm" c="red">{error}</Text>}
      <Group>
        <Button size="xs" color="grape" loading={busy} disabled={reason.trim() === ''} onClick={() => void run(() => addQuarantine({ title, file, project: browser, reason: reason.trim(), owner: owner.trim() || null, expires }))}>
          Quarantine
        </Button>
        <Button size="xs" variant="subtle" onClick={() => setOpen(false)}>
          Cancel
        </Button>
      </Group>
    </Stack>
  );
}
