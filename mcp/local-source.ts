import { existsSync } from 'node:fs';
import type { FastifyBaseLogger } from 'fastify';
import { QUERIES } from '../server/analytics/queries.js';
import { createAiRunner } from '../server/ai/runner.js';
import { MIGRATIONS } from '../server/store/engine/migrations.js';
import { isPostgresUrl } from '../server/store/engine/dialect.js';
import { openStore, schemaVersion } from '../server/store/engine/open.js';
import type { AnyStore } from '../server/store/engine/types.js';
import type { EvidenceStore } from '../server/store/evidence/evidence-store.js';
import { NoEvidenceStore } from '../server/store/evidence/no-store.js';
import { defaultEvidenceDir, openEvidenceStore, type EvidenceOptions } from '../server/store/evidence/open-evidence.js';
import { quarantineView } from '../core/api/quarantine.js';
import { listQuarantine } from '../server/store/read/quarantine.js';
import { findUpload, recentUploadCount, recentUploads } from '../server/store/write/uploads.js';
import type { HistorySource } from './source.js';

/**
 * The history in a database file or a PostgreSQL database (a postgres:// URL), opened
 * read-only: the same query functions the API routes run (server/analytics/queries.ts,
 * server/store/*), on this thread, for one agent at a time.
 */
export async function openLocalSource(target: string, options: { now?: () => number; evidence?: EvidenceStore; evidenceOptions?: EvidenceOptions } = {}): Promise<HistorySource> {
  const now = options.now ?? Date.now;
  const store = await openReadOnly(target);
  // Without a store given: the one the options name, else the folder beside a SQLite file when
  // there is one (a read-only tool makes no folder).
  const evidenceOptions = options.evidenceOptions ?? {};
  const named = Object.keys(evidenceOptions).length > 0 || (store.dialect === 'sqlite' && existsSync(defaultEvidenceDir(store.path)));
  const evidence = options.evidence ?? (named ? await openEvidenceStore(evidenceOptions, store) : new NoEvidenceStore());
  const analyses = createAiRunner(store);
  return {
    where: store.target,
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
      return (await listQuarantine(store)).map((q) => quarantineView(q, t));
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
      // The local engine only: an MCP call never sends report text to a remote model. The
      // server's path: in the analysis worker, within its time limit.
      return analyses.analyse('mcp', { request }, { env: {} }, stderrLog);
    },
    async evidence(sha256, maxBytes) {
      const blob = await evidence.get(sha256);
      if (!blob) return null;
      return readCapped(blob.stream, blob.size, maxBytes, sha256);
    },
    close: async () => {
      await analyses.close();
      if (!options.evidence) await evidence.close();
      await store.close();
    },
  };
}

// stdout carries the protocol: anything the engine logs goes to stderr.
const stderrLog = {
  warn: (obj: unknown, message?: string) => process.stderr.write(`flakeboard mcp: ${message ?? ''} ${JSON.stringify(obj)}\n`),
} as unknown as Pick<FastifyBaseLogger, 'warn'>;

/**
 * Read-only, the database is never migrated: one of an older or newer schema is named, not
 * misread. PostgreSQL: a pool of two (one agent asks one thing at a time), every transaction
 * read-only, its schema version read before anything else; idle connections do not keep the
 * process alive, so it ends when the client closes stdin, as on a file.
 */
async function openReadOnly(target: string): Promise<AnyStore> {
  if (isPostgresUrl(target)) {
    const { openPostgres, postgresError, postgresSchemaVersion } = await import('../server/store/engine/open-postgres.js');
    const store = await openPostgres(target, { max: 2, migrate: false, readOnly: true, exitOnIdle: true });
    let have: number;
    try {
      have = await postgresSchemaVersion(store.pool);
    } catch (error) {
      await store.close();
      throw postgresError(store.target, error);
    }
    await checkSchema(store, have);
    return store;
  }
  if (!existsSync(target)) throw new Error(`no database at ${target}: point --db at the file the runs are stored in (FLAKEBOARD_DB), or ask a server with --server`);
  const store = openStore(target, { readonly: true, busyTimeoutMs: 5_000 });
  await checkSchema(store, schemaVersion(store.sqlite));
  return store;
}

async function checkSchema(store: AnyStore, have: number): Promise<void> {
  const want = MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0;
  if (have === want) return;
  await store.close();
  if (have > want) throw new Error(`the database ${store.target} was written by a newer flakeboard (schema ${have}, this version knows ${want}): upgrade flakeboard`);
  throw new Error(`the database ${store.target} has schema ${have}, this flakeboard reads ${want}: run \`flakeboard import\` or \`flakeboard serve\` on it once to upgrade it (mcp opens it read-only)`);
}

/** A blob's bytes, refused (not read) past `maxBytes`. */
async function readCapped(stream: NodeJS.ReadableStream & { destroy(): void }, size: number, maxBytes: number, sha256: string): Promise<Uint8Array> {
  if (size > maxBytes) {
    stream.destroy();
    throw new Error(`evidence ${sha256.slice(0, 12)} is ${size} bytes, more than the ${maxBytes} this answer reads`);
  }
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}
