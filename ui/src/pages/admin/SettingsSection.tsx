import { Alert, Paper, Switch, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { adminSettings, saveAdminSettings } from '../../api/calls.js';
import { useApi } from '../../lib/use-api.js';

/** The admin settings: today one, second-person approval of uploads. Each change is audited. */
export function SettingsSection({ onChanged }: { onChanged(): void }) {
  const settings = useApi(adminSettings, []);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const change = async (on: boolean) => {
    setSaving(true);
    setError(null);
    try {
      await saveAdminSettings({ secondPersonApproval: on });
      settings.reload();
      onChanged();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setSaving(false);
    }
  };
  return (
    <Paper withBorder radius="md" p="md" data-testid="admin-settings">
      <Title order={4} mb="sm">
        Settings
      </Title>
      <Switch
        label="Second-person approval"
        description="An upload can only be approved by someone other than the person (or the token's user) who uploaded it. Rejecting stays possible."
        checked={settings.data?.secondPersonApproval ?? false}
        disabled={settings.data === undefined || saving}
        onChange={(event) => void change(event.currentTarget.checked)}
        data-testid="second-person-approval"
      />
      {settings.error != null && (
        <Text c="red" size="sm" mt="xs">
          Could not read the settings.
        </Text>
      )}
      {error && (
        <Alert color="red" variant="light" mt="sm" title="The setting was not changed">
          {error}
        </Alert>
      )}
    </Paper>
  );
}
