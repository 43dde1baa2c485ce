import type { TestResultDetail } from '../../core/api/analytics.js';
import { lastTitlePart } from '../../server/store/read/test-history.js';
import { ToolInputError, type HistorySource } from '../source.js';

/**
 * Where a test without a named project is looked for: the projects of the flaky list and of the
 * newest runs (the API has no list of a test's projects), at most this many.
 */
const MAX_PROJECTS = 20;
const RUNS_FOR_PROJECTS = 100;

export interface TestRef {
  file: string;
  title: string;
  project?: string | undefined;
}

export interface ProjectResults {
  project: string;
  /** All stored results of the test on this project. */
  total: number;
  /** The newest of them, newest first. */
  items: TestResultDetail[];
}

/**
 * The test's newest results per project (newest first), `perProject` at most on each; the
 * projects are the one named, else those the flaky list and the recent runs know. A test with
 * no stored result is a tool error that says where it was looked for.
 */
export async function resultsOfTest(source: HistorySource, test: TestRef, perProject: number): Promise<{ title: string; file: string; projects: ProjectResults[] }> {
  const projects = test.project ? [test.project] : await candidateProjects(source, test);
  const lookUp = async (title: string, file: string) => {
    const found: ProjectResults[] = [];
    for (const project of projects) {
      const page = await source.testResults({ title, file, browser: project, page: 1, pageSize: perProject });
      if (page.total > 0) found.push({ project, total: page.total, items: page.items });
    }
    return found;
  };
  // An agent may pass the whole describe path ("Cart › adds"); the store keys the last part.
  const titles = lastTitlePart(test.title) !== test.title ? [test.title, lastTitlePart(test.title)] : [test.title];
  let title = test.title;
  let file = test.file;
  let found: ProjectResults[] = [];
  for (const candidate of titles) {
    title = candidate;
    found = await lookUp(title, file);
    if (found.length > 0) break;
    // The file as the repository names it (tests/demo.spec.ts) while the store holds it relative
    // to Playwright's testDir (demo.spec.ts), or the other way round.
    const stored = await storedFileOf(source, title, test.file, projects);
    if (stored !== null) {
      file = stored;
      found = await lookUp(title, file);
      if (found.length > 0) break;
    }
  }
  if (found.length === 0) {
    const stored = projects.length > 0 || (await source.recentRuns({ page: 1, pageSize: 1 })).total > 0;
    const where = test.project
      ? `on project ${JSON.stringify(test.project)}`
      : projects.length > 0
        ? `on the projects ${projects.map((p) => JSON.stringify(p)).join(', ')}`
        : stored
          ? 'in any project of the newest runs'
          : 'in any project (no runs are stored)';
    throw new ToolInputError(
      `unknown test: no stored results for title ${JSON.stringify(test.title)} in file ${JSON.stringify(test.file)} ${where} in ${source.where}. ` +
        'The title is the test\'s own title and the file is the spec file as stored (relative, e.g. "checkout.spec.ts"); list_flaky_tests and last_run_failures name stored tests.',
    );
  }
  return { title, file, projects: found };
}

/** A spec file's path with forward slashes and no leading "./". */
const specPath = (file: string) => file.replace(/\\/g, '/').replace(/^(?:\.\/)+/, '');

/** Whether two names of a spec file are the same file: equal, or one ends in the other after a "/". */
export function sameSpecFile(a: string, b: string): boolean {
  const x = specPath(a);
  const y = specPath(b);
  return x === y || x.endsWith(`/${y}`) || y.endsWith(`/${x}`);
}

/** The stored file of a test with this title whose path matches `file` either way round; null when none. */
async function storedFileOf(source: HistorySource, title: string, file: string, projects: readonly string[]): Promise<string | null> {
  for (const project of projects) {
    const page = await source.testResults({ title, file: null, browser: project, page: 1, pageSize: 100 });
    const match = page.items.find((r) => r.test_file !== file && sameSpecFile(r.test_file, file));
    if (match) return match.test_file;
  }
  return null;
}

async function candidateProjects(source: HistorySource, test: TestRef): Promise<string[]> {
  const names = new Set<string>();
  // Searched by the file's own name: the stored path may hold fewer directories than the one given.
  const base = specPath(test.file).split('/').pop() || test.file;
  const flaky = await source.flakyTests({ days: 0, search: base, browser: null, page: 1, pageSize: 50 });
  for (const group of flaky.items) if (sameSpecFile(group.test_file, test.file)) for (const b of group.browsers) names.add(b.browser);
  const runs = await source.recentRuns({ page: 1, pageSize: RUNS_FOR_PROJECTS });
  // "unknown" included: runs of a config without projects were stored so before they were named.
  for (const run of runs.items) for (const b of run.browser.split(',')) if (b.trim()) names.add(b.trim());
  return [...names].slice(0, MAX_PROJECTS);
}

/** The newest `limit` results over every project, newest first. */
export function newestFirst(projects: ProjectResults[], limit: number): Array<TestResultDetail & { project: string }> {
  return projects
    .flatMap((p) => p.items.map((r) => ({ ...r, project: p.project })))
    .sort((a, b) => (a.run_date < b.run_date ? 1 : a.run_date > b.run_date ? -1 : b.id - a.id))
    .slice(0, limit);
}
