/** Every list call pages the same way (docs/api.md#lists-and-paging). */
import { z } from 'zod';

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 200;

/**
 * A whole number written in a query string or path: `?days=` (empty) or `?days=x` is refused
 * with a 400 rather than read as 0, which for a window means all history.
 */
export const queryWhole = (min: number, max: number) =>
  z.preprocess((value) => (typeof value === 'string' && value.trim() === '' ? Number.NaN : value), z.coerce.number().int().min(min).max(max));

export const pageNumber = queryWhole(1, 1_000_000).optional().describe('From 1; with it the answer is the page object');
export const pageSize = queryWhole(1, MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE);
