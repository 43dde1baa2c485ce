import { Stack } from '@mantine/core';
import { useEffect, useEffectEvent, useState } from 'react';
import { recentUploads } from '../api/calls.js';
import { PageHeader } from '../components/PageHeader.js';
import { broadcastTestDataUpdated, onTestDataUpdated } from '../lib/events.js';
import { useApi } from '../lib/use-api.js';
import { useSession } from '../session/SessionProvider.js';
import { RecentUploadsSection, type StatusFilter } from './upload/RecentUploadsSection.js';
import { UploadForm } from './upload/UploadForm.js';

/** /upload: upload reports, then the recent uploads with their review status (SPEC.md section 2). */
export function UploadPage() {
  const { refreshPendingCount } = useSession();
  const [status, setStatus] = useState<StatusFilter>('all');
  const uploads = useApi(() => recentUploads(status === 'all' ? undefined : status), [status]);

  // One reload path for our own changes and anyone else's (the broadcast reaches this page too).
  const reloadUploads = useEffectEvent(() => uploads.reload());
  useEffect(() => onTestDataUpdated(reloadUploads), []);

  // SPEC.md section 4: after a change the pending count refreshes and other screens reload.
  const dataChanged = () => {
    void refreshPendingCount();
    broadcastTestDataUpdated();
  };

  return (
    <Stack gap="lg">
      <PageHeader title="Upload" subtitle="Upload Playwright JSON reports; new uploads wait for review." />
      <UploadForm onUploaded={dataChanged} />
      <RecentUploadsSection status={status} onStatusChange={setStatus} uploads={uploads} onDataChanged={dataChanged} />
    </Stack>
  );
}
