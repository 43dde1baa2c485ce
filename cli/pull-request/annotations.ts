import { isAbsolute, join, relative, sep } from 'node:path';
import { isGateTest } from '../../core/gate/answer.js';
import type { GateAnswer, GateFailure } from '../../core/gate/types.js';
import type { NormalisedRun } from '../../core/report/normalised.js';
import { inertLine } from '../../core/terminal-text.js';
import { projectOf } from '../gate-output.js';

/** GitHub shows at most 10 error annotations of a step; more would be dropped unseen. */
export const ANNOTATION_LIMIT = 10;

/** Where a failure points in the repository: the line that failed, else the test's own line. */
export interface Place {
  file: string;
  line: number;
  /** The error's first line, colour codes stripped. */
  error: string | null;
}

/**
 * Each judged test's place, in the order of gateTests, so the answer's failures line up.
 * Playwright writes a test's file relative to its `rootDir` (the tests' folder) and an error's
 * location as an absolute path; annotations want a path from the checkout's root
 * (`GITHUB_WORKSPACE`), so both are brought there when they can be.
 */
export function failurePlaces(run: NormalisedRun, rootDir: string | undefined, workspace: string | undefined): Place[] {
  const fromRoot = (path: string) => {
    const absolute = isAbsolute(path) ? path : rootDir ? join(rootDir, path) : null;
    if (!absolute || !workspace) return path.split(sep).join('/');
    const inside = relative(workspace, absolute);
    return inside.startsWith('..') || isAbsolute(inside) ? path.split(sep).join('/') : inside.split(sep).join('/');
  };
  return run.tests.filter(isGateTest).map((test) => {
    const file = fromRoot(test.file);
    let line = test.line;
    const at = test.error?.location ? parseLocation(test.error.location) : null;
    // The failing line when it is in the test's own file; a helper's line elsewhere would
    // annotate a file the change may not touch.
    if (at && fromRoot(at.file) === file) line = at.line;
    return { file, line: Math.max(1, line), error: test.error?.summary ?? null };
  });
}

/** "file:line:column", the file possibly holding colons itself (a Windows drive). */
function parseLocation(location: string): { file: string; line: number } | null {
  const column = location.lastIndexOf(':');
  const line = location.lastIndexOf(':', column - 1);
  if (line <= 0) return null;
  const number = Number(location.slice(line + 1, column));
  return Number.isInteger(number) && number > 0 ? { file: location.slice(0, line), line: number } : null;
}

/**
 * `::error` workflow commands for the new failures, at most ANNOTATION_LIMIT, then a plain line
 * for the rest. Report text is made inert first (no control character, no line break), then
 * escaped as the runner reads it: `%`, CR and LF in the message; also `:` and `,` in properties.
 */
export function githubAnnotations(answer: GateAnswer, places: readonly Place[]): string[] {
  // The answer's failures follow the judged tests one for one; a mismatch (a server that answers
  // otherwise) costs the places, never a wrong line.
  const aligned = places.length === answer.failures.length;
  const fresh = answer.failures.flatMap((f, i) => (f.class === 'new' ? [{ f, place: aligned ? places[i] : undefined }] : []));
  const lines = fresh.slice(0, ANNOTATION_LIMIT).map(({ f, place }) => annotation(f, place));
  if (fresh.length > ANNOTATION_LIMIT) lines.push(`flakeboard check: ${fresh.length - ANNOTATION_LIMIT} more new failure(s) are not annotated (GitHub shows ${ANNOTATION_LIMIT} a step); the job summary lists them all`);
  return lines;
}

function annotation(f: GateFailure, place: Place | undefined): string {
  const title = `flakeboard: new failure: ${f.title}${projectOf(f) ? ` [${projectOf(f)}]` : ''}`;
  const message = [`${f.title}: ${f.reason}`, ...(place?.error ? [place.error] : [])].map(inertLine).join('\n');
  const properties = place ? `file=${property(place.file)},line=${place.line},title=${property(title)}` : `title=${property(title)}`;
  return `::error ${properties}::${data(message)}`;
}

export const data = (text: string) => text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
export const property = (text: string) => data(inertLine(text)).replace(/:/g, '%3A').replace(/,/g, '%2C');
