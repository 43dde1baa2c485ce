import { Stack } from '@mantine/core';
import { useEffect, useEffectEvent, useState } from 'react';
import { recentUploadsPage } from '../api/calls.js';
import { PageHeader } from '../components/PageHeader.js';
import { broadcastTestDataUpdated, onTestDataUpdated } from '../lib/events.js';
import { useApi } from '../lib/use-api.js';
import { useSession } from '../session/SessionProvider.js';
import { RecentUploadsSection, type StatusFilter } from './upload/RecentUploadsSection.js';
import { UploadForm } from './upload/UploadForm.js';

const UPLOADS_PER_PAGE = 50;

/** /upload: upload reports, then the recent uploads with their review status (docs/screens.md#upload). */
export function UploadPage() {
  const { refreshPendingCount } = useSession();
  const [status, setStatus] = useState<StatusFilter>('all');
  const [page, setPage] = useState(1);
  const uploads = useApi(() => recentUploadsPage(page, UPLOADS_PER_PAGE, status === 'all' ? undefined : status), [status, page]);
  const changeStatus = (next: StatusFilter) => {
    setStatus(next);
    setPage(1);
  };

  // One reload path for our own changes and anyone else's (the broadcast reaches this page too).
  const reloadUploads = useEffectEvent(() => uploads.reload());
  useEffect(() => onTestDataUpdated(reloadUploads), []);

  // docs/screens.md#upload: after a change the pending count refreshes and other screens reload.
  const dataChanged = () => {
    void refreshPendingCount();
    broadcastTestDataUpdated();
  };

  return (
    <Stack gap="lg">
      <PageHeader title="Upload" subtitle="Upload Playwright JSON reports; new uploads wait for review." />
      <UploadForm onUploaded={dataChanged} />
      <RecentUploadsSection status={status} onStatusChange={changeStatus} uploads={uploads} onPage={setPage} onDataChanged={dataChanged} />
    </Stack>
  );
}
