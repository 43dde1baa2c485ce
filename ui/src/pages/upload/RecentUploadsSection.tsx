import { Group, Paper, Select, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import type { Paged } from '../../../../core/api/analytics.js';
import type { RecentUpload, ReviewStatus } from '../../../../core/api/uploads.js';
import { deleteRun } from '../../api/calls.js';
import { errorText } from '../../api/client.js';
import { DataTable } from '../../components/DataTable.js';
import { ListPager } from '../../components/ListPager.js';
import { PageStates } from '../../components/PageState.js';
import type { ApiState } from '../../lib/use-api.js';
import { ClearAllDataButton } from './ClearAllDataButton.js';
import { recentUploadColumns } from './RecentUploadColumns.js';

export type StatusFilter = ReviewStatus | 'all';

const FILTERS = [
  { value: 'all', label: 'All Status' },
  { value: 'pending', label: 'Pending' },
  { value: 'approved', label: 'Approved' },
  { value: 'rejected', label: 'Rejected' },
];

export const DELETE_CONFIRM = 'Are you sure you want to delete this test run and all its results? This cannot be undone.';

/** 'Recent Uploads': the server-filtered list, DELETE per row and Clear All Data. */
export function RecentUploadsSection({ status, onStatusChange, uploads, onPage, onDataChanged }: {
  status: StatusFilter;
  onStatusChange(status: StatusFilter): void;
  /** One page of the list, newest first. */
  uploads: ApiState<Paged<RecentUpload>>;
  onPage(page: number): void;
  /** A run was deleted or everything was cleared. */
  onDataChanged(): void;
}) {
  const navigate = useNavigate();
  const [deleting, setDeleting] = useState<number | null>(null);

  const remove = async (upload: RecentUpload) => {
    if (!window.confirm(DELETE_CONFIRM)) return;
    setDeleting(upload.id);
    try {
      await deleteRun(upload.id);
      window.alert('Test run deleted successfully');
      onDataChanged();
    } catch (error) {
      console.error(`Deleting run ${upload.id} failed`, error);
      window.alert(`Failed to delete test run: ${errorText(error)}`);
    } finally {
      setDeleting(null);
    }
  };

  return (
    <Paper withBorder p="lg" radius="md">
      <Group justify="space-between" mb="md" wrap="wrap">
        <Title order={3}>Recent Uploads</Title>
        <Group gap="sm">
          <Select
            aria-label="Status filter"
            data={FILTERS}
            value={status}
            onChange={(value) => onStatusChange((value ?? 'all') as StatusFilter)}
            allowDeselect={false}
            w={160}
          />
          <ClearAllDataButton onCleared={onDataChanged} />
        </Group>
      </Group>
      <RecentUploadsBody uploads={uploads} filtered={status !== 'all'} deleting={deleting} onOpen={(id) => navigate(`/upload/${id}`)} onDelete={(u) => void remove(u)} />
      {uploads.data && <ListPager page={uploads.data.page} pageSize={uploads.data.pageSize} total={uploads.data.total} noun="uploads" onPage={onPage} testId="uploads-pager" />}
    </Paper>
  );
}

function RecentUploadsBody({ uploads, filtered, deleting, onOpen, onDelete }: {
  uploads: ApiState<Paged<RecentUpload>>;
  filtered: boolean;
  deleting: number | null;
  onOpen(id: number): void;
  onDelete(upload: RecentUpload): void;
}) {
  // useApi keeps the last list on a failed reload; a stale list for another filter would mislead.
  return (
    <PageStates
      error={uploads.error && !uploads.loading ? { text: 'Failed to load recent uploads', onRetry: uploads.reload } : null}
      loading={uploads.data === undefined ? 'Loading uploads...' : null}
      empty={uploads.data?.items.length === 0 ? { title: 'No uploads yet.', body: filtered && <Text c="dimmed">None with this status.</Text> } : null}
    >
      {/* Wide enough that the project column keeps a run's name and uploader to a line or two each. */}
      <DataTable
        columns={recentUploadColumns({ deleting, onDelete })}
        rows={uploads.data?.items ?? []}
        rowKey={(upload) => String(upload.id)}
        rowTestId="recent-upload"
        rowData={(upload) => ({ 'data-id': upload.id })}
        rowDimmed={(upload) => deleting === upload.id}
        onRowClick={(upload) => onOpen(upload.id)}
        busy={uploads.loading}
        minWidth={1220}
        verticalSpacing="sm"
        highlightOnHover
      />
    </PageStates>
  );
}
