/**
 * bench/hostile-text: the readers of report text on the hostile corpus (fixtures/testing/hostile-text.ts), at 100,000
 * and 400,000 characters: the slowest shape per function and the largest growth between the
 * two sizes (4 for linear work, 16 for the quadratic regexes this replaced). CPU time, not wall
 * time, so the figures hold on a shared machine.
 *
 *   npm run bench -- text
 */
import { stripAnsi } from '../../core/ansi.js';
import { classifyError } from '../../core/errors/classify.js';
import { errorSummary, fingerprintError } from '../../core/errors/fingerprint.js';
import { normaliseError } from '../../core/report/errors.js';
import { CRAFTED_REDACTION_MESSAGE, HOSTILE_TEXTS, ESCAPED_QUOTES_50K, SPACES_100K } from '../../fixtures/testing/hostile-text.js';
import { excerpt, expectedReceivedIn, locatorIn } from '../../server/ai/error-text.js';
import { redactSecrets } from '../../server/ai/redact.js';
import { findAntiPatterns } from '../../server/ai/snippet-checks.js';
import { formatErrorMessage, parseCodeContext } from '../../ui/src/pages/flaky/error-display.js';

const FUNCTIONS: Array<[string, (text: string) => unknown]> = [
  ['stripAnsi', stripAnsi],
  ['classifyError', classifyError],
  ['errorSummary', errorSummary],
  ['fingerprintError', (t) => fingerprintError('other', t)],
  ['normaliseError (import)', (t) => normaliseError({ message: t, stack: t }, undefined, t)],
  ['redactSecrets', redactSecrets],
  ['excerpt', excerpt],
  ['locatorIn', locatorIn],
  ['expectedReceivedIn', expectedReceivedIn],
  ['findAntiPatterns', (t) => findAntiPatterns([t], null)],
  ['formatErrorMessage (UI)', formatErrorMessage],
  ['parseCodeContext (UI)', (t) => parseCodeContext(t)],
];

/** Median CPU milliseconds of the process (a shared machine's waits for a core left out). */
function median(fn: () => unknown, runs = 5): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = process.cpuUsage();
    fn();
    const used = process.cpuUsage(start);
    times.push((used.user + used.system) / 1000);
  }
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)]!;
}

const N = 100_000;
const rows: string[] = ['| function | slowest shape at 400,000 chars | ms | largest growth 100k → 400k, of shapes over 1 ms at 100k (shape) | reported strings (ms) |', '|---|---|---|---|---|'];
for (const [name, fn] of FUNCTIONS) {
  let slowest = { shape: '', ms: 0 };
  let growth = { shape: '', ratio: 0 };
  for (const h of HOSTILE_TEXTS) {
    const small = h.make(N);
    const large = h.make(4 * N);
    fn(small);
    const smallMs = median(() => fn(small));
    const largeMs = median(() => fn(large));
    if (largeMs > slowest.ms) slowest = { shape: h.name, ms: largeMs };
    // Growth only where there is something to measure: below 1 ms, timer and collector noise.
    const ratio = largeMs / smallMs;
    if (smallMs >= 1 && ratio > growth.ratio) growth = { shape: h.name, ratio };
  }
  const reported = [SPACES_100K, ESCAPED_QUOTES_50K, CRAFTED_REDACTION_MESSAGE].map((t) => median(() => fn(t)).toFixed(1)).join(' / ');
  rows.push(`| ${name} | ${slowest.shape} | ${slowest.ms.toFixed(1)} | ${growth.ratio ? `${growth.ratio.toFixed(1)} (${growth.shape})` : '—'} | ${reported} |`);
}
console.log(rows.join('\n'));
console.log('\nreported strings: 100,000 spaces / 50,000 \\\' / the crafted 4 KB message');
