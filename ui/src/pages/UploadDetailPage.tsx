import { Button, Grid, Stack } from '@mantine/core';
import { useParams } from 'react-router-dom';
import { uploadDetail } from '../api/calls.js';
import { ApiError } from '../api/client.js';
import { PageHeader } from '../components/PageHeader.js';
import { PageStates } from '../components/PageState.js';
import { StatusDonut } from '../components/StatusDonut.js';
import { useApi } from '../lib/use-api.js';
import { RunErrorPatterns } from './upload-detail/RunErrorPatterns.js';
import { RunFlakyTests } from './upload-detail/RunFlakyTests.js';
import { RunMetadata } from './upload-detail/RunMetadata.js';
import { RunNotices } from './upload-detail/RunNotices.js';
import { RunStatCards } from './upload-detail/RunStatCards.js';
import { SlowestTestsChart } from './upload-detail/SlowestTestsChart.js';
import { TestResultsTable } from './upload-detail/TestResultsTable.js';
import { useGoBack } from './upload-detail/use-go-back.js';

/** /upload/{id}: one test run in detail (docs/screens.md#run-details). */
export function UploadDetailPage() {
  const { id = '' } = useParams();
  const goBack = useGoBack();
  // An id that is not a positive integer cannot name an upload: not found, without asking.
  const valid = /^[1-9]\d*$/.test(id);
  const detail = useApi(() => (valid ? uploadDetail(id) : Promise.reject(new ApiError(404, 'Upload not found', null))), [id]);
  const back = (
    <Button variant="subtle" size="compact-sm" onClick={goBack} w="fit-content">
      ← Back
    </Button>
  );

  const notFound = detail.error instanceof ApiError && detail.error.status === 404;
  const error = detail.error && !detail.loading ? { text: notFound ? 'Upload not found' : 'Failed to load upload details', onBack: goBack } : null;
  // useApi keeps the previous run while the next loads; never show one run under another's address.
  const data = detail.data && String(detail.data.upload.id) === id ? detail.data : undefined;
  if (error || !data) {
    return (
      <Stack gap="md">
        {error && <PageHeader title="Test Run Details" />}
        <PageStates error={error} loading="Loading upload details...">
          {null}
        </PageStates>
      </Stack>
    );
  }

  const { upload, stats } = data;
  return (
    <Stack gap="lg">
      <Stack gap={4}>
        {back}
        <PageHeader title="Test Run Details" subtitle={`Run #${upload.id} · ${upload.file_path}`} />
      </Stack>
      <RunNotices upload={upload} />
      <RunMetadata detail={data} />
      <RunStatCards stats={stats} />
      <Grid>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <StatusDonut passed={stats.passed} failed={stats.failed} skipped={stats.skipped} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 8 }}>
          <SlowestTestsChart slowest={data.slowestTests} browserCount={data.browserCount} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 6 }}>
          <RunFlakyTests tests={data.flakyTests} total={data.flakyTestsTotal} failedAfterRetries={data.failedAfterRetriesTotal} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 6 }}>
          <RunErrorPatterns patterns={data.topErrors} />
        </Grid.Col>
      </Grid>
      <TestResultsTable key={upload.id} runId={upload.id} first={data.testResults} total={data.testResultsTotal} />
    </Stack>
  );
}
