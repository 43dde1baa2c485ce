/** The error categories of docs/screens.md#error-patterns, in the order they are shown. */
export const ERROR_CATEGORIES = [
  'Test Timeout',
  'Element Wait Timeout',
  'Page Load Timeout',
  'Assertion Error',
  'Browser Protocol Error',
  'Navigation Error',
  'other',
] as const;

export type ErrorCategory = (typeof ERROR_CATEGORIES)[number];
