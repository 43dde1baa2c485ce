import { Badge, Tooltip } from '@mantine/core';
import { browserFamily } from '../../../core/browsers.js';
import { isMultiBrowser } from '../lib/format.js';
import { WHOLE_BADGE } from './whole-badge.js';

const COLORS = { chromium: 'blue', firefox: 'orange', webkit: 'grape', edge: 'teal', other: 'gray' } as const;

/** A browser as a badge; a list ('chromium, firefox') shows 'Multi-browser' with the list as a tooltip. */
export function BrowserLabel({ browser }: { browser: string | null | undefined }) {
  const value = browser || 'unknown';
  if (isMultiBrowser(value)) {
    return (
      <Tooltip label={value}>
        <Badge variant="light" color="gray" style={{ ...WHOLE_BADGE, cursor: 'help' }}>
          Multi-browser
        </Badge>
      </Tooltip>
    );
  }
  return (
    <Badge variant="light" color={COLORS[browserFamily(value)]} tt="none" style={WHOLE_BADGE}>
      {value}
    </Badge>
  );
}
