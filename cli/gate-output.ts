import type { GateAnswer, GateClass, GateFailure } from '../core/gate/types.js';
import { inertLine } from '../core/terminal-text.js';

const MARK: Record<GateClass, string> = { new: '✗', flaky: '~', 'broken-on-base': '!', quarantined: '◦' };
const ORDER: GateClass[] = ['new', 'broken-on-base', 'flaky', 'quarantined'];

// Report text as one inert line (core/terminal-text.ts): a test title can never start a line
// that a CI reads as a command (`::error …`) or a terminal as an escape.
const inert = inertLine;

const byClass = (answer: GateAnswer) => [...answer.failures].sort((a, b) => ORDER.indexOf(a.class) - ORDER.indexOf(b.class));
/** The project a failure ran in: its name, else its browser; never an empty one. */
export const projectOf = (f: GateFailure) => f.project || f.browser;
const name = (f: GateFailure) => inert(`${f.file} › ${f.title}${projectOf(f) ? ` [${projectOf(f)}]` : ''}`);

/** The gate's answer for a CI log: one line per failing test, then the verdict and why. */
export function gateText(answer: GateAnswer): string {
  const lines = [`flakeboard check: ${answer.failures.length} failing test(s) of ${answer.counts.tests}, against ${answer.base} (${answer.baseRuns} run(s) in the last ${answer.windowDays} days)`];
  for (const note of gateNotes(answer)) lines.push(`  note: ${note}`);
  for (const f of byClass(answer)) lines.push(`  ${MARK[f.class]} ${f.class.padEnd(14)} ${name(f)}: ${inert(f.reason)}`);
  lines.push(gateVerdictLine(answer));
  return `${lines.join('\n')}\n`;
}

/** The verdict and the count of each class, in one line. */
export function gateVerdictLine(answer: GateAnswer): string {
  const count = (c: GateClass) => answer.failures.filter((f) => f.class === c).length;
  const parts = ORDER.map((c) => [c, count(c)] as const).filter(([, n]) => n > 0).map(([c, n]) => `${n} ${c}`);
  const summary = parts.length > 0 ? parts.join(', ') : 'no failing tests';
  return answer.verdict === 'fail'
    ? `verdict: fail — ${summary}: a new failure needs a look before merging`
    : `verdict: pass — ${summary}: nothing new fails`;
}

/** What the answer should be read with: a run that looks broken, a thin base history. */
export function gateNotes(answer: GateAnswer): string[] {
  const out: string[] = [];
  if (answer.runLooksBroken) out.push(`the run itself looks broken: ${answer.counts.failed} of ${answer.counts.tests} tests failed (over 80 %), which is usually an outage or a server that did not start, not ${answer.counts.failed} separate problems`);
  if (answer.littleHistory) out.push(`too little history on ${answer.base} (${answer.baseRuns} run(s) in ${answer.windowDays} days) to tell new failures from known ones with confidence: store the base branch's runs (the reporter or \`flakeboard upload\` on ${answer.base}) to sharpen the verdict`);
  return out;
}
