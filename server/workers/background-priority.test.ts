import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bigReportText } from '../../fixtures/testing/big-report.js';
import { startServe, type ServeProcess } from '../../fixtures/testing/serve-process.js';
import { makeTempDir } from '../../fixtures/testing/temp.js';
import { BACKGROUND_NICE } from './background-priority.js';

/** The nice value of each thread of process `pid`, by thread id (Linux: /proc/PID/task/TID/stat, field 19). */
function threadNices(pid: number): Map<number, number> {
  const nices = new Map<number, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    // The command name in parentheses may hold spaces: count fields after its closing one.
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    nices.set(Number(tid), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]));
  }
  return nices;
}
const lowered = (nices: Map<number, number>) => [...nices.values()].filter((nice) => nice === BACKGROUND_NICE).length;

const onLinux = process.platform === 'linux';
if (!onLinux) console.log('background-priority.test.ts: skipped, a thread\'s own nice value is a Linux feature');

describe.runIf(onLinux)('worker threads run below the server thread (the built `serve`)', () => {
  let temp: ReturnType<typeof makeTempDir>;
  let serve: ServeProcess | null = null;
  beforeEach(() => {
    temp = makeTempDir('flakeboard-priority-');
  });
  afterEach(async () => {
    await serve?.stop();
    serve = null;
    temp.cleanup();
  });

  it('the analytics thread from the start and the writer from the first upload, never the main thread', async () => {
    serve = await startServe(join(temp.dir, 'f.db'), { cwd: temp.dir });
    const pid = serve.child.pid!;
    const atStart = threadNices(pid);
    // The main thread's id is the process id; it answers health checks and must keep its priority.
    expect(atStart.get(pid)).toBe(0);
    expect(lowered(atStart)).toBe(1);

    const headers = await serve.signIn();
    const body = `{"metadata":{"fileName":"one.json"},"testResults":${bigReportText(3, 1)}}`;
    const res = await fetch(`${serve.url}/api/upload`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body });
    expect(res.status).toBe(200);
    const afterUpload = threadNices(pid);
    expect(afterUpload.get(pid)).toBe(0);
    expect(lowered(afterUpload)).toBe(2);
    // Only lowered, never raised: no thread runs above the server's.
    expect([...afterUpload.values()].every((nice) => nice === 0 || nice === BACKGROUND_NICE)).toBe(true);
  });
});
