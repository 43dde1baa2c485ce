import { Alert, Anchor, List, Stack, Text } from '@mantine/core';
import { Link } from 'react-router-dom';
import { stripAnsi } from '../../../../core/ansi.js';
import type { UploadDetailResponse } from '../../../../core/api/uploads.js';

/** What a reader must know before the numbers: the run failed to load, or it repeats another run. */
export function RunNotices({ upload }: { upload: UploadDetailResponse['upload'] }) {
  const loadFailed = upload.load_failed === 1;
  const duplicateOf = upload.duplicate_of;
  if (!loadFailed && duplicateOf === null) return null;
  return (
    <Stack gap="sm">
      {loadFailed && (
        <Alert color="red" variant="light" title="This run failed to load" data-testid="load-errors">
          <Text size="sm" mb="xs">
            Playwright reported an error before any test ran, so the run has no test results.
          </Text>
          <List size="sm" spacing="xs">
            {upload.load_errors.map((error, i) => (
              <List.Item key={i}>
                <Text size="sm" ff="monospace" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
                  {stripAnsi(error.message)}
                </Text>
                {error.location && (
                  <Text size="xs" c="dimmed" ff="monospace">
                    at {error.location}
                  </Text>
                )}
              </List.Item>
            ))}
          </List>
        </Alert>
      )}
      {duplicateOf !== null && (
        <Alert color="orange" variant="light" title={`Duplicate of run #${duplicateOf}`} data-testid="duplicate-notice">
          <Text size="sm">
            This upload has the same content as{' '}
            <Anchor component={Link} to={`/upload/${duplicateOf}`}>
              run #{duplicateOf}
            </Anchor>
            ; the results shown are the original's.
          </Text>
        </Alert>
      )}
    </Stack>
  );
}
