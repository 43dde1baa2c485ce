import type { PwProject, PwReport } from './report/playwright-types.js';

export const KNOWN_BROWSERS = ['chromium', 'firefox', 'webkit', 'edge'] as const;
export type BrowserFamily = (typeof KNOWN_BROWSERS)[number] | 'other';

/** docs/screens.md#browser-detection: lowercased; exactly chrome → chromium and safari → webkit; '' → unknown. */
export function normaliseBrowserName(name: string | undefined | null): string {
  const lower = (name ?? '').trim().toLowerCase();
  if (lower === '') return 'unknown';
  if (lower === 'chrome') return 'chromium';
  if (lower === 'safari') return 'webkit';
  return lower;
}

/**
 * What a config without projects runs: Playwright's default project has no name and runs
 * chromium unless the config says otherwise, which its JSON report does not carry. Its tests are
 * stored, listed and checked under this name rather than "unknown" or an empty one.
 */
export const DEFAULT_PROJECT = 'chromium';

/** A test's project name as shown and stored: a nameless (default) project is DEFAULT_PROJECT. */
export const projectNameOf = (name: string | undefined | null): string => name || DEFAULT_PROJECT;

/** The browser key of one project: its browser name when a report carries one, else its name. */
export function projectBrowser(project: Pick<PwProject, 'name' | 'use'>): string {
  return normaliseBrowserName(project.use?.browserName || projectNameOf(project.name));
}

/** For icons and colours only: "Mobile Chrome" is drawn as chromium, but stays its own key. */
export function browserFamily(browser: string): BrowserFamily {
  const b = browser.toLowerCase();
  if (b.includes('edge') || b.includes('msedge')) return 'edge';
  if (b.includes('chrom') || b.includes('android')) return 'chromium';
  if (b.includes('firefox') || b.includes('gecko')) return 'firefox';
  if (b.includes('webkit') || b.includes('safari') || b.includes('iphone') || b.includes('ipad')) return 'webkit';
  return 'other';
}

export interface DetectedBrowsers {
  /** The distinct browser keys, joined with ', ' when several (the run's browser label). */
  browser: string;
  browsers: string[];
  /** 'Multi-browser' when several browsers were found, else the first project's name. */
  project: string | null;
}

/**
 * The detection from config.projects (docs/screens.md#browser-detection). Projects that produced tests in this
 * report are preferred (a shard or a `--project` run lists every configured project but ran
 * one); merged reports before 1.59 have an empty config.projects, so the tests' project names
 * are used there.
 */
export function detectBrowsers(report: Pick<PwReport, 'config'>, projectNamesWithTests?: Iterable<string>): DetectedBrowsers {
  const configured = Array.isArray(report.config.projects) ? report.config.projects : [];
  const ran = projectNamesWithTests ? new Set(projectNamesWithTests) : null;
  let projects: Array<Pick<PwProject, 'name' | 'use'>> = configured;
  if (ran && ran.size > 0) {
    const running = configured.filter((p) => ran.has(p.name));
    const known = new Set(configured.map((p) => p.name));
    const unlisted = [...ran].filter((name) => !known.has(name)).map((name) => ({ name }));
    projects = [...running, ...unlisted];
  }
  if (projects.length === 0) return { browser: 'unknown', browsers: [], project: null };
  const browsers = [...new Set(projects.map(projectBrowser))];
  if (browsers.length > 1) return { browser: browsers.join(', '), browsers, project: 'Multi-browser' };
  return { browser: browsers[0]!, browsers, project: projectNameOf(projects[0]!.name) };
}
