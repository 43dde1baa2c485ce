/**
 * Anti-patterns in the code around a failure (Playwright's code frame): waits and assertions
 * that do not retry, and forced actions. Each comes with the fix Playwright's docs recommend.
 */
import type { AiRecommendationDetail } from '../../core/api/ai.js';

export interface AntiPattern {
  id: 'fixed-wait' | 'element-handle' | 'non-retrying-assertion' | 'forced-action';
  /** What was found, for the pattern list. */
  finding: string;
  recommendation: AiRecommendationDetail;
}

/** A code frame's lines without the gutter ("> 12 |") and without the caret lines. */
export function codeOf(snippet: string): string {
  return snippet
    .split('\n')
    .filter((line) => !/^\s*\|\s*\^/.test(line))
    // Not /^\s*>?\s*\d+/: two blanks runs side by side split a long blank line every way.
    .map((line) => line.replace(/^\s*(?:>\s*)?\d+\s*\|/, ''))
    .join('\n');
}

const SAFE_LOCATOR = /^(?:page\.)?(?:locator|getBy\w+)\([^\n`$]{1,100}\)$/;

/** The locator to show in a code example: the one from the errors when it is a plain locator. */
function example(locator: string | null, fallback: string): string {
  return locator && SAFE_LOCATOR.test(locator) ? `page.${locator.replace(/^page\./, '')}` : fallback;
}

export function findAntiPatterns(snippets: readonly string[], locator: string | null): AntiPattern[] {
  const code = snippets.map(codeOf).join('\n');
  const target = example(locator, "page.getByRole('button', { name: 'Save' })");
  const found: AntiPattern[] = [];

  const waits = [
    [/\bwaitForTimeout\s*\(/, 'page.waitForTimeout()'],
    [/\bsetTimeout\s*\(/, 'setTimeout()'],
    [/\b(?:sleep|delay)\s*\(\s*\d/, 'sleep()'],
  ] as const;
  const fixedWaits = waits.filter(([pattern]) => pattern.test(code)).map(([, name]) => name);
  if (fixedWaits.length > 0) {
    found.push({
      id: 'fixed-wait',
      finding: `The code near the failure waits a fixed time (${fixedWaits.join(', ')}): too short on a slow run, wasted time on a fast one`,
      recommendation: {
        title: 'Replace the fixed wait with a web-first wait',
        description:
          'A fixed wait guesses how long the page needs; under load the guess is wrong and the test fails. Wait for the condition itself: web-first assertions retry until it holds or the timeout ends.',
        codeExample: `// Instead of: await page.waitForTimeout(3000);\nawait expect(${target}).toBeVisible();\n// After a navigation, wait for where it lands:\nawait page.waitForURL('**/orders/**');`,
      },
    });
  }

  if (/(?:\bpage|\bframe|\w)\.\$\$?\s*\(/.test(code)) {
    found.push({
      id: 'element-handle',
      finding: 'The code uses element handles (page.$() / page.$$()), which are taken once and do not retry',
      recommendation: {
        title: 'Use locators instead of element handles',
        description:
          'page.$() returns whatever matches at that instant (or null) and goes stale when the page re-renders. A locator is resolved again on every use and auto-waits.',
        codeExample: `// Instead of: const rows = await page.$$('.order-row');\nconst rows = page.locator('.order-row');\nawait expect(rows).toHaveCount(3);`,
      },
    });
  }

  const nonRetrying = nonRetryingAssertion(code);
  if (nonRetrying) {
    const { method, matcher } = nonRetrying;
    const webFirst: Record<string, string> = {
      isVisible: 'toBeVisible()',
      isHidden: 'toBeHidden()',
      isEnabled: 'toBeEnabled()',
      isDisabled: 'toBeDisabled()',
      isChecked: 'toBeChecked()',
      textContent: "toHaveText('…')",
      innerText: "toHaveText('…')",
      inputValue: "toHaveValue('…')",
      getAttribute: "toHaveAttribute('name', '…')",
      count: 'toHaveCount(3)',
    };
    found.push({
      id: 'non-retrying-assertion',
      finding: `The assertion reads ${method}() once and compares it with ${matcher}(): it does not wait for the page to catch up`,
      recommendation: {
        title: `Use the web-first assertion instead of expect(await …${method}())`,
        description: `${method}() answers immediately; if the page updates a moment later the assertion has already failed. The web-first matcher retries until the expectation holds or the expect timeout ends.`,
        codeExample: `// Instead of: expect(await ${target}.${method}()).${matcher}(…);\nawait expect(${target}).${webFirst[method] ?? 'toBeVisible()'};`,
      },
    });
  }

  if (/\bforce\s*:\s*true\b/.test(code)) {
    found.push({
      id: 'forced-action',
      finding: 'An action uses { force: true }, which skips the checks that the element is visible, enabled and not covered',
      recommendation: {
        title: 'Remove { force: true } and wait for what blocks the element',
        description:
          'Forcing hides the real problem (an overlay, a disabled button, an animation) and makes the outcome depend on timing. Wait for the blocker to go, then act normally.',
        codeExample: `await expect(page.locator('.loading-overlay')).toBeHidden();\nawait ${target}.click();`,
      },
    });
  }
  return found;
}

const EXPECT_AWAIT = /expect\s*\(\s*await\s/g;
const READ_ONCE = /\.(isVisible|isHidden|isEnabled|isDisabled|isChecked|textContent|innerText|inputValue|getAttribute|count)\s*\(/g;
const COMPARED = /\)\s*\)\s*\.\s*(?:not\s*\.\s*)?(toBe|toBeTruthy|toBeFalsy|toEqual|toContain|toBeGreaterThan)\b/g;

/**
 * expect(await x.isVisible()).toBe(true): the first "expect(await" of a statement, the first
 * read-once call after it that a comparison follows, and the first such comparison. One
 * backtracking regex with two lazy gaps did this in cubic time over a long frame; a statement
 * never spans a ";", so each is scanned once with three linear searches.
 */
export function nonRetryingAssertion(code: string): { method: string; matcher: string } | null {
  for (const statement of code.split(';')) {
    EXPECT_AWAIT.lastIndex = 0;
    const expect = EXPECT_AWAIT.exec(statement);
    if (!expect) continue;
    const comparisons = [...statement.matchAll(COMPARED)];
    READ_ONCE.lastIndex = EXPECT_AWAIT.lastIndex;
    let next = 0;
    for (let read = READ_ONCE.exec(statement); read; read = READ_ONCE.exec(statement)) {
      while (next < comparisons.length && comparisons[next]!.index! < READ_ONCE.lastIndex) next++;
      if (next < comparisons.length) return { method: read[1]!, matcher: comparisons[next]![1]! };
    }
  }
  return null;
}
