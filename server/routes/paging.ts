import type { FastifyReply } from 'fastify';
import { sendJsonText } from './json-text.js';

/** Every list call pages the same way (docs/api.md#lists-and-paging; the query's schema: core/api/schemas/paging.ts). */
export interface PagingQuery {
  page?: number;
  pageSize: number;
}

/** The page asked for, or the first one: a call without `page` is still bounded. */
export const pageOf = (query: PagingQuery) => ({ page: query.page ?? 1, pageSize: query.pageSize });

/**
 * The bare lists made from the last cached pages, by the page's text. A cached answer is the same
 * string for every caller until the data changes, so a poller asking for a bare list gets it
 * without the page being parsed and its items written again each time (that was a fifth of what
 * a loaded server's thread allocated, docs/benchmarks.md "Where a slow health answer waits").
 * Few entries: one per list a client polls.
 */
const BARE_KEPT = 16;
const bareLists = new Map<string, { items: string; total: number }>();

function bareListOf(json: string): { items: string; total: number } {
  const kept = bareLists.get(json);
  if (kept) return kept;
  const { items, total } = JSON.parse(json) as { items: unknown[]; total: number };
  const bare = { items: JSON.stringify(items), total };
  if (bareLists.size >= BARE_KEPT) bareLists.delete(bareLists.keys().next().value!);
  bareLists.set(json, bare);
  return bare;
}

/**
 * With `page`, the answer is the page object as computed; without it, the bare list of docs/api.md (the
 * first page) with the total in X-Total-Count. The bare list is at most a page size (MAX_PAGE_SIZE of core/api/schemas/paging.ts) of items.
 */
export async function sendPage(reply: FastifyReply, paged: boolean, text: Promise<string> | string): Promise<FastifyReply> {
  const json = await text;
  if (paged) return sendJsonText(reply, json);
  const { items, total } = bareListOf(json);
  return sendJsonText(reply.header('x-total-count', String(total)), items);
}
