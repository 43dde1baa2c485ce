/**
 * The cause classes of a diagnosis: what the local engine answers in `causeClass`,
 * and what the diagnosis corpus's truth is written in. Shared by server, UI and fixtures.
 */
export const CAUSE_CLASSES = [
  'assertion-mismatch',
  'locator-missing',
  'locator-late',
  'project-only',
  'network-refused',
  'http-status',
  'slow-response',
  'protocol-error',
  'thrown-error',
  'unexpected-pass',
  'test-timeout',
  'closed-page',
  'strict-mode',
  'snapshot-mismatch',
  'not-sure',
] as const;

export type CauseClass = (typeof CAUSE_CLASSES)[number];

export const isCauseClass = (value: unknown): value is CauseClass => typeof value === 'string' && (CAUSE_CLASSES as readonly string[]).includes(value);

/** Short plain-words names, for the AI tab's heading. */
export const CAUSE_LABELS: Record<CauseClass, string> = {
  'assertion-mismatch': 'Steady assertion mismatch',
  'locator-missing': 'Element never found',
  'locator-late': 'Element found late',
  'project-only': 'Fails in one project only',
  'network-refused': 'Connection refused',
  'http-status': 'HTTP error status',
  'slow-response': 'Slow response',
  'protocol-error': 'Browser protocol error',
  'thrown-error': 'Error thrown by the test or app',
  'unexpected-pass': 'Expected failure passed',
  'test-timeout': 'Test timeout',
  'closed-page': 'Page or browser closed',
  'strict-mode': 'Strict-mode violation',
  'snapshot-mismatch': 'Snapshot mismatch',
  'not-sure': 'Not sure',
};
