import { Group, UnstyledButton } from '@mantine/core';
import type { BrowserEntry, FlakyTestGroup } from '../../../../core/api/analytics.js';
import { BrowserLabel } from '../../components/BrowserLabel.js';
import classes from './browser-buttons.module.css';

/** A group's browsers as badges that each open that browser's dialog; the click does not reach the row under them. */
export function BrowserButtons({ group, onOpen }: { group: FlakyTestGroup; onOpen(entry: BrowserEntry): void }) {
  return (
    <Group gap={4} data-testid="group-browsers">
      {group.browsers.map((entry) => (
        <UnstyledButton
          key={entry.browser}
          className={classes.button}
          aria-label={`Open ${entry.browser} details`}
          title={`History, trends and AI analysis on ${entry.browser}`}
          onClick={(event) => {
            event.stopPropagation();
            onOpen(entry);
          }}
          onKeyDown={(event) => event.stopPropagation()}
        >
          <BrowserLabel browser={entry.browser} />
        </UnstyledButton>
      ))}
    </Group>
  );
}
