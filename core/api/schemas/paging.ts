/** Every list call pages the same way (docs/api.md#lists-and-paging). */
import { z } from 'zod';

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 200;

export const pageNumber = z.coerce.number().int().min(1).max(1_000_000).optional().describe('From 1; with it the answer is the page object');
export const pageSize = z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE);
