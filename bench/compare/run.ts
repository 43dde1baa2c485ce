/**
 * bench/compare: GET /api/evidence/compare end to end on a listening server (buildApp on a
 * SQLite file, a folder evidence store), for a failing attempt and its passing retry whose
 * traces are each ~5 MB (thousands of actions, network entries and console lines, 200
 * screencast frames). Reports wall time per call (the route's own answer time, as a client sees
 * it) and this process's CPU time (user + system, the worker thread included) per call.
 *
 *   npm run bench -- compare
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../../server/app.js';
import { FolderEvidenceStore } from '../../server/store/evidence/folder-store.js';
import { openStore } from '../../server/store/engine/open.js';
import { hashPassword } from '../../server/auth/passwords.js';
import { createUser } from '../../server/store/accounts/users.js';
import { compareWorker } from '../../server/evidence/compare-runner.js';
import { bigTrace } from '../../fixtures/testing/big-trace.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const PASSWORD = 'correct horse battery';
const EVIDENCE = new URL('../../fixtures/reports/evidence/', import.meta.url);
const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const shape = { actions: 5000, requests: 12_000, consoleLines: 12_000, frames: 200, frameBytes: 22_000 };

const dir = mkdtempSync(join(tmpdir(), 'flakeboard-bench-compare-'));
const store = openStore(join(dir, 'bench.db'));
const scrypt = { N: 1024, r: 8, p: 1 };
await createUser(store, { username: 'max', passwordHash: await hashPassword(PASSWORD, scrypt), role: 'member' });
const app = await buildApp({ store, uiDir: null, scrypt, logger: false, evidence: new FolderEvidenceStore(join(dir, 'evidence')) });
const url = await app.listen({ host: '127.0.0.1', port: 0 });
const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { username: 'max', password: PASSWORD } });
const headers = { authorization: `Bearer ${login.json().token}`, 'x-xsrf-token': login.cookies.find((c) => c.name === 'XSRF-TOKEN')!.value };

// The evidence suite's report (one test passes on its retry), its traces replaced by big ones.
type Attachment = { name: string; contentType: string; path?: string; sha256?: string };
const report = JSON.parse(readFileSync(new URL('report.json', EVIDENCE), 'utf8'));
let traceBytes = 0;
for (const spec of report.suites[0].specs) {
  for (const [retry, result] of (spec.tests[0].results as Array<{ status: string; attachments: Attachment[] }>).entries()) {
    result.attachments = result.attachments.filter((a) => a.name === 'trace');
    for (const attachment of result.attachments) {
      const bytes = bigTrace({ ...shape, failing: result.status !== 'passed', seed: `${spec.title.length % 10}${retry}` });
      traceBytes = Math.max(traceBytes, bytes.length);
      attachment.sha256 = sha(bytes);
      delete attachment.path;
      const put = await fetch(`${url}/api/evidence/${attachment.sha256}`, { method: 'PUT', headers: { ...headers, 'content-type': 'application/zip' }, body: Buffer.from(bytes) });
      if (put.status !== 201) throw new Error(`evidence upload: ${put.status}`);
    }
  }
}
const upload = await fetch(`${url}/api/upload`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ testResults: report }) });
const runId = (await upload.json()).runId;
const detail = await (await fetch(`${url}/api/uploads/${runId}`, { headers })).json();
let flaky: { id: number } | null = null;
for (const row of detail.testResults as Array<{ id: number }>) {
  const probe = await (await fetch(`${url}/api/evidence/compare?result=${row.id}`, { headers })).json();
  if (probe.passing) flaky = row;
}
if (!flaky) throw new Error('no result with a passing partner in the report');

const times: number[] = [];
const cpu: number[] = [];
for (let round = 0; round <= ROUNDS; round++) {
  const usage = process.cpuUsage();
  const started = performance.now();
  const res = await fetch(`${url}/api/evidence/compare?result=${flaky!.id}`, { headers });
  const body = await res.json();
  const wall = performance.now() - started;
  const used = process.cpuUsage(usage);
  if (res.status !== 200 || body.tracesMissing || !body.comparison || body.note) throw new Error(`compare: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
  if (round === 0) continue; // the first call starts the worker
  times.push(wall);
  cpu.push((used.user + used.system) / 1000);
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(JSON.stringify({ traceMB: +(traceBytes / 1024 / 1024).toFixed(2), actions: shape.actions, requests: shape.requests, consoleLines: shape.consoleLines, frames: shape.frames, rounds: ROUNDS, wallMs: { median: Math.round(median(times)), max: Math.round(Math.max(...times)) }, cpuMs: { median: Math.round(median(cpu)) } }));
await app.close();
await compareWorker.close();
store.close();
rmSync(dir, { recursive: true, force: true });
