import { Stack } from '@mantine/core';
import { useState } from 'react';
import { PageHeader } from '../components/PageHeader.js';
import { EmptyState } from '../components/PageState.js';
import { useSession } from '../session/SessionProvider.js';
import { AuditTrailSection } from './admin/AuditTrailSection.js';
import { SettingsSection } from './admin/SettingsSection.js';
import { WebhooksSection } from './admin/WebhooksSection.js';

/** Admins' screen: the settings, the alert webhooks and the audit trail (the server refuses them to anyone else). */
export function AdminPage() {
  const { user } = useSession();
  // A setting changed is an audit entry: the trail reloads to show it.
  const [changes, setChanges] = useState(0);
  if (user?.role !== 'admin') {
    return <EmptyState title="Admins only">This screen holds the settings, the alert webhooks and the audit trail; ask an admin.</EmptyState>;
  }
  return (
    <>
      <PageHeader title="Admin" subtitle="Settings, alert webhooks and the audit trail" />
      <Stack gap="lg">
        <SettingsSection onChanged={() => setChanges((n) => n + 1)} />
        <WebhooksSection />
        <AuditTrailSection reloadKey={changes} />
      </Stack>
    </>
  );
}
