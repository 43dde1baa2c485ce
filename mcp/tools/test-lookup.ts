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
export async function resultsOfTest(source: HistorySource, test: TestRef, perProject: number): Promise<{ title: string; projects: ProjectResults[] }> {
  const projects = test.project ? [test.project] : await candidateProjects(source, test);
  const lookUp = async (title: string) => {
    const found: ProjectResults[] = [];
    for (const project of projects) {
      const page = await source.testResults({ title, file: test.file, browser: project, page: 1, pageSize: perProject });
      if (page.total > 0) found.push({ project, total: page.total, items: page.items });
    }
    return found;
  };
  let title = test.title;
  let found = await lookUp(title);
  // An agent may pass the whole describe path ("Cart › adds"); the store keys the last part.
  if (found.length === 0 && lastTitlePart(title) !== title) {
    title = lastTitlePart(title);
    found = await lookUp(title);
  }
  if (found.length === 0) {
    const where = test.project ? `on project ${JSON.stringify(test.project)}` : projects.length > 0 ? `on the projects ${projects.map((p) => JSON.stringify(p)).join(', ')}` : 'in any project (no runs are stored)';
    throw new ToolInputError(
      `unknown test: no stored results for title ${JSON.stringify(test.title)} in file ${JSON.stringify(test.file)} ${where} in ${source.where}. ` +
        'The title is the test\'s own title and the file is the spec file as stored (relative, e.g. "checkout.spec.ts"); list_flaky_tests and last_run_failures name stored tests.',
    );
  }
  return { title, projects: found };
}

async function candidateProjects(source: HistorySource, test: TestRef): Promise<string[]> {
  const names = new Set<string>();
  const flaky = await source.flakyTests({ days: 0, search: test.file, browser: null, page: 1, pageSize: 50 });
  for (const group of flaky.items) if (group.test_file === test.file) for (const b of group.browsers) names.add(b.browser);
  const runs = await source.recentRuns({ page: 1, pageSize: RUNS_FOR_PROJECTS });
  for (const run of runs.items) for (const b of run.browser.split(',')) if (b.trim() && b.trim() !== 'unknown') names.add(b.trim());
  return [...names].slice(0, MAX_PROJECTS);
}

/** The newest `limit` results over every project, newest first. */
export function newestFirst(projects: ProjectResults[], limit: number): Array<TestResultDetail & { project: string }> {
  return projects
    .flatMap((p) => p.items.map((r) => ({ ...r, project: p.project })))
    .sort((a, b) => (a.run_date < b.run_date ? 1 : a.run_date > b.run_date ? -1 : b.id - a.id))
    .slice(0, limit);
}
