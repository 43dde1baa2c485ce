import type { GateAnswer, GateClass, GateFailure } from '../core/gate/types.js';
import { inertLine } from '../core/terminal-text.js';

const MARK: Record<GateClass, string> = { new: '✗', flaky: '~', 'broken-on-base': '!', quarantined: '◦' };
const ORDER: GateClass[] = ['new', 'broken-on-base', 'flaky', 'quarantined'];

// Report text as one inert line (core/terminal-text.ts): a test title can never start a line
// that a CI reads as a command (`::error …`) or a terminal as an escape.
const inert = inertLine;

const byClass = (answer: GateAnswer) => [...answer.failures].sort((a, b) => ORDER.indexOf(a.class) - ORDER.indexOf(b.class));
/** The project a failure ran in: its name, else its browser; never an empty one. */
const projectOf = (f: GateFailure) => f.project || f.browser;
const name = (f: GateFailure) => inert(`${f.file} › ${f.title}${projectOf(f) ? ` [${projectOf(f)}]` : ''}`);

/** The gate's answer for a CI log: one line per failing test, then the verdict and why. */
export function gateText(answer: GateAnswer): string {
  const lines = [`flakeboard check: ${answer.failures.length} failing test(s) of ${answer.counts.tests}, against ${answer.base} (${answer.baseRuns} run(s) in the last ${answer.windowDays} days)`];
  for (const note of notes(answer)) lines.push(`  note: ${note}`);
  for (const f of byClass(answer)) lines.push(`  ${MARK[f.class]} ${f.class.padEnd(14)} ${name(f)}: ${inert(f.reason)}`);
  lines.push(verdictLine(answer));
  return `${lines.join('\n')}\n`;
}

/** A job summary or pull-request comment; links go to the dashboard when its address is known. */
export function gateMarkdown(answer: GateAnswer, dashboard: string | null): string {
  const out = [`### flakeboard check: ${answer.verdict === 'pass' ? '✅ pass' : '❌ fail'}`, '', verdictLine(answer), ''];
  for (const note of notes(answer)) out.push(`> ${note}`, '');
  if (answer.failures.length > 0) {
    out.push('| class | test | project | why |', '|---|---|---|---|');
    for (const f of byClass(answer)) {
      const test = `${cell(f.title)}<br><sub>${cell(f.file)}</sub>`;
      const linked = dashboard ? `[${test}](${flakyLink(dashboard, f)})` : test;
      out.push(`| ${MARK[f.class]} ${f.class} | ${linked} | ${cell(projectOf(f))} | ${cell(f.reason)}${evidenceNote(f)} |`);
    }
    out.push('');
  }
  out.push(`<sub>Base branch ${cell(answer.base)}, ${answer.baseRuns} run(s) in the last ${answer.windowDays} days. Only a new failure fails the check.</sub>`, '');
  return out.join('\n');
}

function verdictLine(answer: GateAnswer): string {
  const count = (c: GateClass) => answer.failures.filter((f) => f.class === c).length;
  const parts = ORDER.map((c) => [c, count(c)] as const).filter(([, n]) => n > 0).map(([c, n]) => `${n} ${c}`);
  const summary = parts.length > 0 ? parts.join(', ') : 'no failing tests';
  return answer.verdict === 'fail'
    ? `verdict: fail — ${summary}: a new failure needs a look before merging`
    : `verdict: pass — ${summary}: nothing new fails`;
}

function notes(answer: GateAnswer): string[] {
  const out: string[] = [];
  if (answer.runLooksBroken) out.push(`the run itself looks broken: ${answer.counts.failed} of ${answer.counts.tests} tests failed (over 80 %), which is usually an outage or a server that did not start, not ${answer.counts.failed} separate problems`);
  if (answer.littleHistory) out.push(`too little history on ${answer.base} (${answer.baseRuns} run(s) in ${answer.windowDays} days) to tell new failures from known ones with confidence: store the base branch's runs (the reporter or \`flakeboard upload\` on ${answer.base}) to sharpen the verdict`);
  return out;
}

function evidenceNote(f: GateFailure): string {
  if (f.evidence.length === 0) return '';
  const shown = f.evidence.slice(0, 3).map((e) => `run ${e.runId} ${e.date.slice(0, 10)}${e.commit ? ` ${e.commit.slice(0, 8)}` : ''} ${e.passedOnRetry ? 'passed on retry' : e.status}`);
  return `<br><sub>${cell(shown.join('; '))}</sub>`;
}

function flakyLink(dashboard: string, f: GateFailure): string {
  const base = dashboard.endsWith('/') ? dashboard : `${dashboard}/`;
  const query = new URLSearchParams({ test: f.title, file: f.file, browser: f.browser });
  return `${base}#/flaky-tests?${query.toString()}`;
}

/**
 * Report text in a Markdown table cell: no HTML, no breaking the table, no @mention that
 * pings a team, no bare link made clickable.
 */
function cell(text: string): string {
  return inert(text)
    .replace(/[\\|`*_[\]<>#]/g, (c) => `\\${c}`)
    .replace(/@/g, '@\u200b')
    .replace(/:\/\//g, ':\u200b//');
}
