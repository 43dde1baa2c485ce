/**
 * bench/lists/remove.ts: what removing one 50,000-result run costs at 1,000,000 results
 * (bench/lists/setup.ts): deleteRun and a rejection, each on a fresh copy of the database, for a
 * run in the middle of the history and for the latest one. The daily rollups of the run's days
 * are rebuilt and the all-time totals move by those days (test-totals.ts).
 *
 *   npm run bench -- remove     (BENCH_ROOT=<checkout> measures another checkout's store code)
 */
import { copyFileSync, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { largeSuiteDatabase, root } from './setup.js';

const codeRoot = process.env.BENCH_ROOT ?? root;
/** The first of `paths` that the checkout has: checkouts older than the store's rooms keep its files flat. */
async function storeModule<T>(...paths: string[]): Promise<T> {
  const found = paths.map((path) => join(codeRoot, path)).find((path) => existsSync(path));
  if (!found) throw new Error(`${codeRoot} has none of ${paths.join(', ')}`);
  return (await import(pathToFileURL(found).href)) as T;
}
const { openStore } = await storeModule<typeof import('../../server/store/engine/open.js')>('server/store/engine/open.ts', 'server/store/open.ts');
const uploads = await storeModule<typeof import('../../server/store/write/uploads.js')>('server/store/write/uploads.ts', 'server/store/uploads.ts');

const source = await largeSuiteDatabase();
const copy = join(root, 'bench/.data/remove-copy.db');
const rows: Array<Record<string, string | number>> = [];
for (const action of ['delete', 'reject'] as const) {
  for (const [where, pick] of [['middle', 'SELECT id FROM runs ORDER BY started_at LIMIT 1 OFFSET 9'], ['latest', 'SELECT id FROM runs ORDER BY started_at DESC LIMIT 1']] as const) {
    for (const suffix of ['', '-wal', '-shm']) rmSync(copy + suffix, { force: true });
    copyFileSync(source, copy);
    const store = openStore(copy);
    const id = store.sqlite.prepare(pick).pluck().get() as number;
    const results = store.sqlite.prepare('SELECT count(*) FROM results WHERE run_id = ?').pluck().get(id) as number;
    if (action === 'reject') store.sqlite.prepare("UPDATE runs SET status = 'pending' WHERE id = ?").run(id);
    const reviewer = store.sqlite.prepare('SELECT id FROM users LIMIT 1').pluck().get() as number | undefined;
    const started = performance.now();
    if (action === 'delete') uploads.deleteRun(store, id);
    else uploads.reviewUploads(store, [{ id, action: 'reject' }], { id: reviewer ?? 1, notes: null });
    const ms = performance.now() - started;
    await store.close();
    rows.push({ action, run: where, results, ms: Math.round(ms) });
    process.stderr.write(`  ${action} the ${where} run (${results} results): ${Math.round(ms)} ms\n`);
  }
}
for (const suffix of ['', '-wal', '-shm']) rmSync(copy + suffix, { force: true });
console.table(rows);
