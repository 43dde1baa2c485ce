import { Anchor, Text } from '@mantine/core';
import { UNOWNED } from '../../../../core/owners/test-owners.js';

/**
 * How many of the flaky tests listed no one owns (no CODEOWNERS entry, annotation or tag), with a
 * link to them; nothing from a server that does not count them (older than owners).
 */
export function UnownedLine({ unowned, all, owner, onShow }: { unowned: number | undefined; all: number; owner: string | null; onShow(): void }) {
  if (unowned === undefined || all === 0 || (owner !== null && owner !== UNOWNED)) return null;
  return (
    <Text size="sm" c={unowned > 0 ? 'orange.8' : 'dimmed'} mb="xs" data-testid="flaky-unowned">
      {unowned === 0
        ? 'Every flaky test here has an owner.'
        : `${unowned.toLocaleString('en-US')} of ${all.toLocaleString('en-US')} flaky ${all === 1 ? 'test has' : 'tests have'} no owner (no CODEOWNERS entry, owner annotation or @owner: tag)`}
      {unowned > 0 && owner === null && (
        <>
          {' · '}
          <Anchor component="button" type="button" size="sm" onClick={onShow}>
            show them
          </Anchor>
        </>
      )}
    </Text>
  );
}
