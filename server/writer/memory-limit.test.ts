/**
 * The writer worker parses a whole upload in memory, and JSON made to be
 * costly to read takes far more than a real report (a 20 MB body of "{}," needs over 800 MB,
 * a real 25 MB report is stored within 80 MB). Before, such a body ran the worker out of
 * memory inside JSON.parse and V8 ended the whole server. Now its cost is read before parsing
 * and it is answered 413 naming the figures, the server's memory stays within the writer's
 * bound, and the next upload is stored. Through the built binary (needs `npm run build`).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bigReportText } from '../../fixtures/testing/big-report.js';
import { pollHealth, startServe, type ServeProcess } from '../../fixtures/testing/serve-process.js';
import { makeTempDir } from '../../fixtures/testing/temp.js';
import { writerHeapMb } from './runner.js';

let temp: ReturnType<typeof makeTempDir>;
let serve: ServeProcess | null = null;
beforeEach(() => {
  temp = makeTempDir('flakeboard-writer-memory-');
});
afterEach(async () => {
  serve?.child.kill('SIGKILL');
  await serve?.child.catch(() => {});
  serve = null;
  temp.cleanup();
});

const MB = 1024 * 1024;

/** A report whose "errors" list is millions of empty objects: about 40 times its size once parsed. */
function costlyBody(bytes: number): string {
  const head = '{"testResults":{"config":{},"suites":[],"errors":[';
  const tail = '{}]}}';
  return head + '{},'.repeat(Math.floor((bytes - head.length - tail.length) / 3)) + tail;
}

/** The most memory the process has held (Linux), in MB. */
const peakRssMb = (pid: number): number => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

describe('the writer worker under a costly upload', () => {
  it('answers 413 naming the limit, keeps the server and health up, and stores the next upload', async () => {
    const dbPath = join(temp.dir, 'f.db');
    serve = await startServe(dbPath, { cwd: temp.dir, args: ['--body-limit', '20'] });
    const headers = { ...(await serve.signIn()), 'content-type': 'application/json' };
    const body = costlyBody(20 * MB - 1024);
    const real = `{"metadata":{"fileName":"real.json"},"testResults":${bigReportText(15, 4)}}`;

    const health = pollHealth(serve.url);
    const res = await fetch(`${serve.url}/api/upload`, { method: 'POST', headers, body });
    const times = await health.stop();

    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: string }).error).toMatch(
      new RegExp(
        `^This upload's JSON would take about \\d+ MB of memory to read \\(69\\d{5} objects and arrays, 69\\d{5} keys and items in 20 MB of text\\), more than the ${writerHeapMb(20 * MB) / 2} MB the server allows for uploads up to 20 MB: nothing was stored\\. A real report takes a few times its size; if this is one, raise --body-limit\\.$`,
      ),
    );
    // The same process answers, and never held the 800 MB and more that parsing it takes.
    expect(serve.child.exitCode).toBeNull();
    expect(peakRssMb(serve.child.pid!)).toBeLessThan(400);
    expect(Math.max(...times)).toBeLessThan(2000);

    const next = await fetch(`${serve.url}/api/upload`, { method: 'POST', headers, body: real });
    expect(next.status).toBe(200);
    const db = new Database(dbPath, { readonly: true, fileMustExist: true });
    try {
      expect(db.prepare('SELECT file_name AS name FROM runs').all()).toEqual([{ name: 'real.json' }]);
    } finally {
      db.close();
    }
  }, 120_000);
});
