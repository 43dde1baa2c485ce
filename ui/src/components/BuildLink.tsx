import { Anchor, Text } from '@mantine/core';
import { buildUrlProblem } from '../../../core/ci-env.js';

/**
 * A run's CI build: its id, linked to the build's page when the URL is http(s). The server
 * checks the scheme on upload; checked again here because older rows or a direct database
 * write could hold anything, and a javascript: link must never render.
 */
export function BuildLink({ id, url, size = 'sm' }: { id: string | null; url: string | null; size?: 'xs' | 'sm' }) {
  const label = id ? `Build ${id}` : 'CI build';
  if (url && buildUrlProblem(url) === null) {
    return (
      <Anchor href={url} target="_blank" rel="noopener noreferrer" size={size} data-testid="build-link" onClick={(event) => event.stopPropagation()}>
        {label}
      </Anchor>
    );
  }
  return id ? (
    <Text size={size} span>
      {label}
    </Text>
  ) : null;
}
