import type { FastifyReply } from 'fastify';

/** Every list call pages the same way (docs/api.md#lists-and-paging; the query's schema: core/api/schemas/paging.ts). */
export interface PagingQuery {
  page?: number;
  pageSize: number;
}

/** The page asked for, or the first one: a call without `page` is still bounded. */
export const pageOf = (query: PagingQuery) => ({ page: query.page ?? 1, pageSize: query.pageSize });

/**
 * With `page`, the answer is the page object as computed; without it, the bare list of docs/api.md (the
 * first page) with the total in X-Total-Count. The bare list is at most a page size (MAX_PAGE_SIZE of core/api/schemas/paging.ts) of items,
 * so reading it back out of the cached text costs little.
 */
export async function sendPage(reply: FastifyReply, paged: boolean, text: Promise<string> | string): Promise<FastifyReply> {
  const json = await text;
  if (paged) return reply.type('application/json; charset=utf-8').send(json);
  const { items, total } = JSON.parse(json) as { items: unknown[]; total: number };
  return reply.header('x-total-count', String(total)).type('application/json; charset=utf-8').send(JSON.stringify(items));
}
