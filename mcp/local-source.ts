import { existsSync } from 'node:fs';
import type { FastifyBaseLogger } from 'fastify';
import { QUERIES } from '../server/analytics/queries.js';
import { analyseTest } from '../server/ai/analyse.js';
import { MIGRATIONS } from '../server/store/migrations.js';
import { openStore, schemaVersion, type Store } from '../server/store/open.js';
import { listQuarantine } from '../server/store/quarantine.js';
import { findUpload, recentUploadCount, recentUploads } from '../server/store/uploads.js';
import type { HistorySource } from './source.js';

/**
 * The history in a database file, opened read-only: the same query functions the API routes
 * run (server/analytics/queries.ts, server/store/*), on this thread, for one agent at a time.
 */
export function openLocalSource(path: string, options: { now?: () => number } = {}): HistorySource {
  const now = options.now ?? Date.now;
  if (!existsSync(path)) throw new Error(`no database at ${path}: point --db at the file the runs are stored in (FLAKEBOARD_DB), or ask a server with --server`);
  const store = openStore(path, { readonly: true, busyTimeoutMs: 5_000 });
  checkSchema(store);
  return {
    where: path,
    async flakyTests(q) {
      return QUERIES.flakyTestsPage(store, {
        days: q.days,
        now: now(),
        page: q.page,
        pageSize: q.pageSize,
        search: q.search,
        browser: q.browser,
        severity: null,
        critical: false,
        trend: null,
        sort: 'score',
        order: 'desc',
      });
    },
    async quarantine() {
      const t = now();
      return (await listQuarantine(store)).map((q) => ({ ...q, expired: q.expiresAt !== null && q.expiresAt <= t }));
    },
    async testResults(q) {
      return await QUERIES.testDetails(store, q);
    },
    async recentRuns(q) {
      const [items, total] = await Promise.all([recentUploads(store, { limit: q.pageSize, offset: (q.page - 1) * q.pageSize }), recentUploadCount(store)]);
      return { items, total, page: q.page, pageSize: q.pageSize };
    },
    async run(id, limit) {
      const upload = await findUpload(store, id);
      if (!upload) return null;
      // A duplicate has no results of its own: the original's are the same (as the route does).
      const resultsOf = upload.duplicate_of ?? upload.id;
      const { flakyTests, flakyTestsTotal } = await QUERIES.runSummary(store, { runId: upload.id, resultsOf });
      const failed = await QUERIES.runResults(store, { runId: resultsOf, status: 'failed', sort: 'status', page: 1, pageSize: limit });
      return { upload, failed, retried: { flakyTests, flakyTestsTotal } };
    },
    analyse(request) {
      // The local engine only: an MCP call never sends report text to a remote model.
      return analyseTest(request, { store, env: {}, fetch: globalThis.fetch, now, log: stderrLog });
    },
    close: () => store.close(),
  };
}

// stdout carries the protocol: anything the engine logs goes to stderr.
const stderrLog = {
  warn: (obj: unknown, message?: string) => process.stderr.write(`flakeboard mcp: ${message ?? ''} ${JSON.stringify(obj)}\n`),
} as unknown as Pick<FastifyBaseLogger, 'warn'>;

/** Read-only, the file is never migrated: an older one is named, not misread. */
function checkSchema(store: Store): void {
  const have = schemaVersion(store.sqlite);
  const want = MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0;
  if (have === want) return;
  void store.close();
  if (have > want) throw new Error(`the database ${store.path} was written by a newer flakeboard (schema ${have}, this version knows ${want}): upgrade flakeboard`);
  throw new Error(`the database ${store.path} has schema ${have}, this flakeboard reads ${want}: run \`flakeboard import\` or \`flakeboard serve\` on it once to upgrade it (mcp opens it read-only)`);
}
