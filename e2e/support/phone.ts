import { expect, type Locator, type Page } from '@playwright/test';
import { picture } from './fixtures.js';

export const PHONE = { width: 390, height: 844 };

/**
 * At 390 px a wide table scrolls sideways inside its own container, its first column stays in
 * place, and the page itself never scrolls sideways (no column lost off the edge).
 */
export async function expectTableUsableOnPhone(page: Page, table: Locator): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), 'the page scrolls sideways').toBeLessThanOrEqual(0);
  const first = table.locator('tbody tr').first().locator('td').nth(await stickyIndex(table));
  const before = await first.boundingBox();
  const scroller = await table.evaluateHandle((el) => {
    let node: HTMLElement | null = el.parentElement;
    // The element that scrolls: it clips what overflows (an inner wrapper only grows with the table).
    const scrolls = (n: HTMLElement) => n.scrollWidth > n.clientWidth && ['auto', 'scroll', 'hidden'].includes(getComputedStyle(n).overflowX);
    while (node && !scrolls(node)) node = node.parentElement;
    if (!node) throw new Error('the table does not scroll sideways inside a container');
    return node;
  });
  // The last column is reachable inside the table's container: its right edge meets the container's.
  await scroller.evaluate((el: HTMLElement) => el.scrollTo({ left: el.scrollWidth }));
  await expect
    .poll(async () => {
      const box = await scroller.evaluate((el: HTMLElement) => el.getBoundingClientRect().right);
      const last = await table.locator('thead th').last().boundingBox();
      return last ? Math.round(Math.abs(last.x + last.width - box)) : -1;
    })
    .toBeLessThanOrEqual(1);
  const after = await first.boundingBox();
  expect(after?.x, 'the first column stays in place').toBeCloseTo(before?.x ?? -1, 0);
  await scroller.evaluate((el: HTMLElement) => el.scrollTo({ left: 0 }));
}

/** The flaky table's first column is its expand arrow; the name is the second and sticky too. */
async function stickyIndex(table: Locator): Promise<number> {
  return (await table.locator('thead th').first().getAttribute('aria-label')) === 'Expand' ? 1 : 0;
}

/** A picture for people at phone width (NAME-390); nothing unless the run takes pictures. */
export async function shootPhone(page: Page, name: string): Promise<void> {
  await picture(page, `${name}-390`);
}

/**
 * At 390 px a wide table stacks each row: its figures sit in the card under their column names,
 * nothing waits off the right edge, and the page never scrolls sideways.
 */
export async function expectRowsStackedOnPhone(page: Page, table: Locator, labels: readonly string[]): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), 'the page scrolls sideways').toBeLessThanOrEqual(0);
  await expect(table).toHaveAttribute('data-layout', 'stacked');
  const card = await table.boundingBox();
  const figures = table.getByTestId('row-figures');
  expect(await figures.count()).toBeGreaterThan(0);
  for (const row of await figures.all()) {
    await expect(row).toHaveText(new RegExp(`^${labels.map((l) => `${l}.+`).join('')}$`));
    const box = await row.boundingBox();
    expect(box, 'a row of figures has a place on screen').not.toBeNull();
    expect(box!.x).toBeGreaterThanOrEqual(card!.x - 1);
    expect(box!.x + box!.width, 'the figures end inside the card').toBeLessThanOrEqual(card!.x + card!.width + 1);
    expect(box!.x + box!.width, 'the figures end inside the screen').toBeLessThanOrEqual(PHONE.width);
  }
}
