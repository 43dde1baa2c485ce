import type { GateAnswer, GateClass, GateFailure } from '../core/gate/types.js';
import { inertLine } from '../core/terminal-text.js';
import { gateNotes, gateVerdictLine, projectOf } from './gate-output.js';

/** GitHub's limit for a comment body; a job summary and a GitLab note take as much. */
export const COMMENT_LIMIT = 65_536;
/** The most characters of one piece of report text in a cell: one hostile title cannot fill the comment. */
const CELL_MAX = 400;
/** Room kept for the closing lines and the "and N more" lines. */
const TAIL_RESERVE = 2_000;

interface Section {
  cls: GateClass;
  heading: (n: number, base: string) => string;
  head: string[];
  row: (f: GateFailure, test: string) => string[];
}

const SECTIONS: Section[] = [
  { cls: 'new', heading: (n) => `✗ New failures (${n}): these fail the check`, head: ['test', 'project', 'why'], row: (f, test) => [test, cell(projectOf(f)), why(f)] },
  { cls: 'broken-on-base', heading: (n, base) => `! Broken on ${cell(base)} too (${n})`, head: ['test', 'project', 'why'], row: (f, test) => [test, cell(projectOf(f)), why(f)] },
  {
    cls: 'flaky',
    heading: (n, base) => `~ Flaky on ${cell(base)} (${n})`,
    head: ['test', 'project', 'failure rate on base', 'quarantine', 'why'],
    row: (f, test) => [test, cell(projectOf(f)), rate(f), 'not quarantined', why(f)],
  },
  {
    cls: 'quarantined',
    heading: (n) => `◦ Quarantined (${n})`,
    head: ['test', 'project', 'failure rate on base', 'owner', 'reason', 'through'],
    row: (f, test) => [test, cell(projectOf(f)), rate(f), cell(f.quarantine?.owner ?? '—'), cell(f.quarantine?.reason ?? f.reason), cell(f.quarantine?.through ?? 'no end')],
  },
];

export interface MarkdownOptions {
  /** The dashboard's address: each test links to its flaky-screen entry. */
  dashboard: string | null;
  /** The CI build that ran the check (a workflow run, a pipeline). */
  buildUrl?: string | null;
  /** At most this many characters; rows that do not fit are counted as "and N more". */
  limit?: number;
}

/**
 * The gate's answer in Markdown for a job summary, a pull-request comment or a merge-request
 * note: one table per class, each flaky or quarantined test with its failure rate on the base
 * branch and its quarantine entry, so a reviewer can decide without opening anything.
 */
export function gateMarkdown(answer: GateAnswer, options: MarkdownOptions): string {
  const limit = options.limit ?? COMMENT_LIMIT;
  const out = [`### flakeboard check: ${answer.verdict === 'pass' ? '✅ pass' : '❌ fail'}`, '', gateVerdictLine(answer), ''];
  for (const note of gateNotes(answer)) out.push(`> ${inertLine(note)}`, '');
  let used = out.join('\n').length;
  let full = false;
  const left: string[] = [];
  for (const section of SECTIONS) {
    const failures = answer.failures.filter((f) => f.class === section.cls);
    if (failures.length === 0) continue;
    const top = [`#### ${section.heading(failures.length, answer.base)}`, '', `| ${section.head.join(' | ')} |`, `|${section.head.map(() => '---|').join('')}`];
    const topLength = top.join('\n').length + 1;
    if (full || used + topLength + TAIL_RESERVE > limit) {
      full = true;
      left.push(`and ${failures.length} more ${section.cls}`);
      continue;
    }
    out.push(...top);
    used += topLength;
    let shown = 0;
    for (const f of failures) {
      const line = `| ${section.row(f, testCell(f, options.dashboard)).join(' | ')} |`;
      if (used + line.length + 1 + TAIL_RESERVE > limit) {
        full = true;
        break;
      }
      out.push(line);
      used += line.length + 1;
      shown++;
    }
    if (shown < failures.length) out.push('', `and ${failures.length - shown} more ${section.cls}`);
    out.push('');
  }
  if (left.length > 0) out.push(`${left.join(', ')} (too many to show here: \`flakeboard check --json\` lists them all)`, '');
  out.push(footer(answer, options), '');
  const text = out.join('\n');
  // The reserve holds the tail; this only guards against a miscount.
  return text.length <= limit ? text : `${text.slice(0, limit - 20)}\n\n(cut short)\n`;
}

function footer(answer: GateAnswer, options: MarkdownOptions): string {
  const links = [
    options.dashboard ? `[dashboard](${linkTarget(dashboardUrl(options.dashboard, '#/flaky-tests'))})` : null,
    options.buildUrl ? `[this build](${linkTarget(options.buildUrl)})` : null,
  ].filter((l): l is string => l !== null);
  return `<sub>Base branch ${cell(answer.base)}, ${answer.baseRuns} run(s) in the last ${answer.windowDays} days. Only a new failure fails the check.${links.length > 0 ? ` ${links.join(' · ')}` : ''}</sub>`;
}

function testCell(f: GateFailure, dashboard: string | null): string {
  const owners = f.owners && f.owners.length > 0 ? ` · owner ${cell(f.owners.join(' '))}` : '';
  const test = `${cell(f.title)}<br><sub>${cell(f.file)}${owners}</sub>`;
  return dashboard ? `[${test}](${linkTarget(flakyLink(dashboard, f))})` : test;
}

const why = (f: GateFailure) => `${cell(f.reason)}${evidenceNote(f)}`;

/** "2 of 5 runs (40 %), 1 passed on a retry": first attempts that failed, as the dashboard counts them. */
function rate(f: GateFailure): string {
  if (!f.onBase) return '—';
  const { runs, failed, passedOnRetry } = f.onBase;
  if (runs === 0) return 'no runs in the window';
  const percent = Math.round((failed / runs) * 1000) / 10;
  return `${failed} of ${runs} runs (${percent} %)${passedOnRetry > 0 ? `, ${passedOnRetry} passed on a retry` : ''}`;
}

function evidenceNote(f: GateFailure): string {
  if (f.evidence.length === 0) return '';
  const shown = f.evidence.slice(0, 3).map((e) => `run ${e.runId} ${e.date.slice(0, 10)}${e.commit ? ` ${e.commit.slice(0, 8)}` : ''} ${e.passedOnRetry ? 'passed on retry' : e.status}`);
  return `<br><sub>${cell(shown.join('; '))}</sub>`;
}

function dashboardUrl(dashboard: string, hash: string): string {
  const base = dashboard.endsWith('/') ? dashboard : `${dashboard}/`;
  return `${base}${hash}`;
}

function flakyLink(dashboard: string, f: GateFailure): string {
  const query = new URLSearchParams({ test: f.title, file: f.file, browser: f.browser });
  return dashboardUrl(dashboard, `#/flaky-tests?${query.toString()}`);
}

/** A URL as a Markdown link target: nothing in it can close the link or open HTML. */
function linkTarget(url: string): string {
  return url.replace(/[()<>\s"'`]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

/**
 * Report text in Markdown (a table cell, a heading): no HTML or entity, no breaking the table,
 * no emphasis, code, math or link syntax, no @mention that pings someone, no bare address made
 * a link. Backslash escapes are CommonMark's; a zero-width space splits what an escape cannot.
 */
export function cell(text: string): string {
  const inert = inertLine(text);
  const clipped = inert.length > CELL_MAX ? `${inert.slice(0, CELL_MAX)}…` : inert;
  return clipped
    .replace(/[\\|`*_[\]<>#&~!$]/g, (c) => `\\${c}`)
    .replace(/@/g, '@\u200b')
    .replace(/:\/\//g, ':\u200b//')
    .replace(/www\./gi, (w) => `${w.slice(0, 3)}\u200b.`);
}
