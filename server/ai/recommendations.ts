/**
 * Recommended fixes, most specific first: the fix of the diagnosed cause class (cause-text.ts),
 * then anti-patterns found in the code, then what the history says (a regression to bisect, a
 * browser to investigate), and retries last, as a stop-gap only for a flaky test.
 */
import type { AiRecommendationDetail } from '../../core/api/ai.js';
import { shortCommit } from './error-text.js';
import type { Signals } from './signals.js';

const MAX_RECOMMENDATIONS = 6;
const SAFE_PROJECT = /^[A-Za-z0-9 _.-]{1,40}$/;

export interface RecommendationContext {
  signals: Signals;
  /** The fixes of the diagnosed cause class. */
  primary: AiRecommendationDetail[];
  flaky: boolean;
  broken: boolean;
}

export function recommendFixes(ctx: RecommendationContext): AiRecommendationDetail[] {
  const { signals } = ctx;
  const out: AiRecommendationDetail[] = [...ctx.primary, ...signals.antiPatterns.map((a) => a.recommendation)];
  const start = signals.start;
  if (ctx.broken && start?.kind === 'broken-since' && start.commit) {
    const range = start.previousCommit && start.previousCommit !== start.commit ? `${hex(start.previousCommit)}..${hex(start.commit)}` : null;
    out.push({
      title: `Look at what changed at ${shortCommit(start.commit)}`,
      description:
        start.previousCommit === start.commit
          ? 'The failures began on a commit that had passed before, so the code did not change: look at the environment, test data or a dependency that changed that day.'
          : 'The test passed steadily before this commit and has failed every run since: the change it brought (to the app or the test) is the first suspect.',
      ...(range && /^[0-9a-f]+\.\.[0-9a-f]+$/i.test(range) ? { codeExample: `git log --stat ${range}\ngit bisect start ${hex(start.commit)} ${hex(start.previousCommit!)}` } : {}),
    });
  }
  const odd = signals.browsers.specific ?? signals.browsers.skewed;
  if (odd) {
    const project = SAFE_PROJECT.test(odd.browser) ? odd.browser : null;
    out.push({
      title: `Reproduce on ${odd.browser} alone`,
      description: `The failures concentrate on ${odd.browser}. Run only that project with the trace on to see what the engine does differently; until it is fixed, mark the test for that browser so the others keep their signal.`,
      codeExample: (project ? `npx playwright test --project=${JSON.stringify(project)} --trace on -g '…test title…'\n\n` : '') + skipOn(odd.browser),
    });
  }
  if (ctx.flaky) {
    out.push({
      title: 'Stop-gap only: retries while the race is fixed',
      description:
        'Retries hide the failure from CI but not the cost (a slower suite, a bug that may be real). Use them for this test only, and keep it visible here until the cause above is fixed.',
      codeExample: `test.describe.configure({ retries: 2 });`,
    });
  }
  const seen = new Set<string>();
  return out.filter((r) => !seen.has(r.title) && seen.add(r.title)).slice(0, MAX_RECOMMENDATIONS);
}

/** A stop-gap that keeps the other browsers running the test. */
function skipOn(browser: string): string {
  const name = SAFE_PROJECT.test(browser) ? browser : 'webkit';
  return /^(chromium|firefox|webkit)$/.test(name)
    ? `test('…', async ({ page, browserName }) => {\n  test.fixme(browserName === '${name}', 'Fails only on ${name}: tracked in #…');\n  // …\n});`
    : `test('…', async ({ page }, testInfo) => {\n  test.fixme(testInfo.project.name.toLowerCase() === '${name}', 'Fails only on ${name}: tracked in #…');\n  // …\n});`;
}

const hex = (commit: string): string => (/^[0-9a-f]{7,64}$/i.test(commit) ? commit.slice(0, 12) : 'COMMIT');
