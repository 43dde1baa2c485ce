import { DEFAULT_PROJECT } from '../core/browsers.js';
import type { ListedTest } from '../server/store/read/test-lists.js';

/**
 * Lines for `npx playwright test --test-list FILE`: `[project] › file › describe › title`.
 * Playwright trims each line and each part between the `›`, splits on every `›`, reads a
 * leading `[…]` as the project, a trailing `:line:col` as a location and a line starting with
 * `#` as a comment; it then matches titles exactly. A test whose names cannot survive that is
 * left out with the reason, rather than written as a line that runs something else or nothing.
 */
export function testListLine(test: ListedTest, withProject: boolean): { line: string } | { problem: string } {
  const names = [test.file, ...test.titlePath];
  if (names.some((n) => /[\r\n]/.test(n)) || /[\r\n]/.test(test.project)) return { problem: 'has a line break, and the list holds one test a line' };
  if (names.some((n) => n.includes('›')) || (withProject && test.project.includes('›'))) return { problem: 'contains “›”, which the list reads as a separator' };
  if (names.some((n) => n !== n.trim())) return { problem: 'starts or ends with a space, which the list trims away' };
  if (/:\d+(?::\d+)?$/.test(test.file)) return { problem: 'has a file name ending in :number, which the list reads as a line' };
  if (!withProject && /^[[#]/.test(test.file)) return { problem: 'has a file name starting with “[” or “#”, which the list reads as a project or a comment' };
  return { line: [...(withProject ? [`[${test.project}]`] : []), ...names].join(' › ') };
}

/**
 * A report of a config without projects names its one project "": flakeboard stores it as the
 * default project, a name the config does not have, so a line naming it would run nothing. When
 * the runs hold results of that one project only, the lines name none (which matches the same
 * tests, the one project there is); otherwise each line names its project.
 */
export const listNamesProjects = (projectsOfRuns: readonly string[]): boolean => projectsOfRuns.some((p) => p !== DEFAULT_PROJECT);
