import { createServer, type Server } from 'node:http';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildSqliteTestApp, signIn, smallReport, type SqliteTestApp } from '../../fixtures/testing/app.js';
import { cleanEnv, runCli } from '../../fixtures/testing/cli.js';
import { makeTempDir } from '../../fixtures/testing/temp.js';
import { API_TOKEN_PREFIX, hashToken, newToken } from '../../server/auth/tokens.js';
import { createApiToken } from '../../server/store/accounts/api-tokens.js';

let t: SqliteTestApp;
let temp: ReturnType<typeof makeTempDir>;
let server: string;
let token: string;

/**
 * The server the command talks to: the real app over HTTP on a SQLite file. It stores on its own
 * thread (writerWorker: false): these tests are about the command, the writer thread has its own
 * (server/writer, server/routes/uploads), and starting one from source costs each test a second.
 */
async function startApp(options: Parameters<typeof buildSqliteTestApp>[0] = {}): Promise<void> {
  t = await buildSqliteTestApp({ writerWorker: false, ...options });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  server = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  token = newToken(API_TOKEN_PREFIX);
  await createApiToken(t.store, { name: 'ci', tokenHash: hashToken(token), userId: 3 });
}

beforeEach(() => {
  temp = makeTempDir('flakeboard-upload-');
});
afterEach(async () => {
  await t?.close();
  temp.cleanup();
});

const write = (name: string, content: unknown) => {
  writeFileSync(join(temp.dir, name), typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return name;
};
const upload = (args: string[], env: Record<string, string> = {}) => runCli(['upload', ...args], { cwd: temp.dir, env: cleanEnv(env) });

describe('flakeboard upload', () => {
  it('sends reports with an API token, with git details, and prints one line per file', async () => {
    await startApp();
    write('a.json', smallReport('a'));
    write('b.json', smallReport('b'));
    const { exitCode, stdout, stderr } = await upload(['a.json', 'b.json', '--server', server, '--token', token, '--branch', 'main', '--commit', 'c0ffee']);
    expect([exitCode, stderr]).toEqual([0, '']);
    expect(stdout.split('\n')).toEqual(['✓ a.json: 2 tests uploaded as run 1 (pending review)', '✓ b.json: 2 tests uploaded as run 2 (pending review)']);
    const rows = t.store.sqlite.prepare('SELECT file_name, git_branch, git_commit, uploaded_by, uploaded_via, status FROM runs ORDER BY id').all();
    // The token's name tells the runs of one CI job from another's, though both act as one user.
    expect(rows).toEqual([
      { file_name: 'a.json', git_branch: 'main', git_commit: 'c0ffee', uploaded_by: 3, uploaded_via: 'token ci', status: 'pending' },
      { file_name: 'b.json', git_branch: 'main', git_commit: 'c0ffee', uploaded_by: 3, uploaded_via: 'token ci', status: 'pending' },
    ]);
  });

  it('--name calls the run what it is, slashes of a branch kept; an empty name is refused before sending', async () => {
    await startApp();
    write('a.json', smallReport('a'));
    const sent = await upload(['a.json', '--server', server, '--token', token, '--name', 'shop · feature/login · build 7']);
    expect(sent.exitCode).toBe(0);
    expect(t.store.sqlite.prepare('SELECT file_name FROM runs').all()).toEqual([{ file_name: 'shop · feature/login · build 7' }]);
    const refused = await upload(['a.json', '--server', server, '--token', token, '--name', '']);
    expect([refused.exitCode, refused.stderr]).toEqual([1, 'flakeboard upload: --name must not be empty']);
    expect(t.store.sqlite.prepare('SELECT count(*) AS n FROM runs').get()).toEqual({ n: 1 });
  });

  it('reads FLAKEBOARD_SERVER, FLAKEBOARD_TOKEN and the CI variables; --json reports duplicates', async () => {
    await startApp();
    write('a.json', smallReport('a'));
    const env = { FLAKEBOARD_SERVER: server, FLAKEBOARD_TOKEN: token, GITLAB_CI: 'true', CI_COMMIT_SHA: 'abc', CI_COMMIT_REF_NAME: 'feature' };
    await upload(['a.json'], env);
    const { exitCode, stdout } = await upload(['a.json', '--json'], env);
    expect(exitCode).toBe(0);
    expect(JSON.parse(stdout)).toEqual([{ file: 'a.json', runId: 2, tests: 2, duplicate: true, status: 'pending' }]);
    expect(t.store.sqlite.prepare('SELECT git_branch, git_commit FROM runs WHERE id = 1').get()).toEqual({ git_branch: 'feature', git_commit: 'abc' });
  });

  it('sends the CI build from the CI variables or --build-id/--build-url; a build URL that is not http(s) stops before sending', async () => {
    await startApp();
    write('a.json', smallReport('a'));
    write('b.json', smallReport('b'));
    const gitlab = { GITLAB_CI: 'true', CI_COMMIT_SHA: 'abc', CI_COMMIT_REF_NAME: 'main', CI_PIPELINE_ID: '314', CI_PIPELINE_URL: 'https://gitlab.example.com/g/p/-/pipelines/314' };
    expect((await upload(['a.json', '--server', server, '--token', token], gitlab)).exitCode).toBe(0);
    expect((await upload(['b.json', '--server', server, '--token', token, '--build-id', 'nightly-7', '--build-url', 'https://ci.example.com/7'], gitlab)).exitCode).toBe(0);
    const refused = await upload(['a.json', '--server', server, '--token', token, '--build-url', 'file:///etc/passwd']);
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toBe('flakeboard upload: --build-url: the build URL must start with http:// or https://, not file:');
    expect(t.store.sqlite.prepare('SELECT build_id, build_url FROM runs ORDER BY id').all()).toEqual([
      { build_id: '314', build_url: 'https://gitlab.example.com/g/p/-/pipelines/314' },
      { build_id: 'nightly-7', build_url: 'https://ci.example.com/7' },
    ]);
  });

  it('401: a clear message, a non-zero exit, and no further files are sent', async () => {
    await startApp();
    write('a.json', smallReport('a'));
    write('b.json', smallReport('b'));
    const { exitCode, stderr } = await upload(['a.json', 'b.json', '--server', server, '--token', `${API_TOKEN_PREFIX}wrong`]);
    expect(exitCode).toBe(1);
    expect(stderr).toContain('✗ a.json: the server did not accept the token (401): check --token or FLAKEBOARD_TOKEN');
    expect(stderr).toContain('✗ b.json: not sent: the server did not accept the token (401)');
    expect(t.store.sqlite.prepare('SELECT count(*) AS n FROM runs').get()).toEqual({ n: 0 });
  });

  it('403: a session token without the XSRF header may not upload', async () => {
    await startApp();
    const session = await signIn(t.app, 'max');
    write('a.json', smallReport('a'));
    const { exitCode, stderr } = await upload(['a.json', '--server', server, '--token', session.token]);
    expect(exitCode).toBe(1);
    expect(stderr).toContain('✗ a.json: the token may not upload (403): Missing or invalid XSRF token');
  });

  it('a report larger than the server takes is refused before it is sent, naming both sizes; the next file goes on', async () => {
    await startApp({ bodyLimit: 2000 });
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).json()).toMatchObject({ status: 'ok', maxUploadBytes: 2000 });
    write('big.json', smallReport('x'.repeat(5000)));
    write('small.json', smallReport('s'));
    const { exitCode, stdout, stderr } = await upload(['big.json', 'small.json', '--server', server, '--token', token]);
    expect(exitCode).toBe(1);
    expect(stderr).toBe("✗ big.json: the report is 6.4 KB, larger than the server accepts (2.0 KB); not sent: raise the server's --body-limit");
    expect(stdout).toBe('✓ small.json: 2 tests uploaded as run 1 (pending review)');
  });

  it('a file nested past the limits is named with the limit, and the batch goes on', async () => {
    await startApp();
    write('a.json', smallReport('a'));
    write('deep.json', `{"config":{},"suites":[${'{"title":"d","suites":['.repeat(3000)}{}${']}'.repeat(3000)}]}`);
    write('b.json', smallReport('b'));
    const { exitCode, stdout, stderr } = await upload(['a.json', 'deep.json', 'b.json', '--server', server, '--token', token]);
    expect(exitCode).toBe(1);
    expect(stderr).toMatch(/^✗ deep\.json: the report nests too deeply: "suites\[0\]\.suites\[0\].*" nests suites deeper than the limit of 100 levels$/);
    expect(stdout.split('\n')).toEqual(['✓ a.json: 2 tests uploaded as run 1 (pending review)', '✓ b.json: 2 tests uploaded as run 2 (pending review)']);
  });

  it('a UTF-16 file with a BOM is sent as UTF-8, and is the same report as its UTF-8 copy', async () => {
    await startApp();
    const text = JSON.stringify(smallReport('wide ✓'), null, 2);
    writeFileSync(join(temp.dir, 'utf16.json'), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text.replace(/\n/g, '\r\n'), 'utf16le')]));
    write('utf8.json', text);
    const { exitCode, stdout } = await upload(['utf16.json', 'utf8.json', '--server', server, '--token', token]);
    expect(exitCode).toBe(0);
    expect(stdout.split('\n')).toEqual(['✓ utf16.json: 2 tests uploaded as run 1 (pending review)', '✓ utf8.json: 2 tests uploaded as run 2, a duplicate of an earlier upload (pending review)']);
    expect(t.store.sqlite.prepare('SELECT DISTINCT title FROM tests').pluck().all()).toEqual(['wide ✓']);
  });

  it('a report captured from stdout, with lines before the JSON, is sent as its report', async () => {
    await startApp();
    write('captured.json', `[WebServer] listening on 3000\nRunning 2 tests using 1 worker\n${JSON.stringify(smallReport('captured'), null, 2)}\n`);
    const { exitCode, stdout } = await upload(['captured.json', '--server', server, '--token', token]);
    expect(exitCode).toBe(0);
    expect(stdout).toBe('✓ captured.json: 2 tests uploaded as run 1 (pending review)');
    expect(t.store.sqlite.prepare('SELECT title FROM tests').pluck().all()).toEqual(['captured']);
  });

  it('a broken file is refused locally; the others are still sent', async () => {
    await startApp();
    write('bad.json', '{"config": {}');
    write('good.json', smallReport('good'));
    const { exitCode, stdout, stderr } = await upload(['bad.json', 'good.json', '--server', server, '--token', token]);
    expect(exitCode).toBe(1);
    expect(stderr).toMatch(/^✗ bad\.json: invalid JSON: the file ends before the JSON is complete/m);
    expect(stdout).toContain('✓ good.json: 2 tests uploaded as run 1');
  });

  it('needs a server and a token', async () => {
    write('a.json', smallReport('a'));
    expect((await upload(['a.json', '--token', 'x'])).stderr).toBe('flakeboard upload: no server to upload to: pass --server URL or set FLAKEBOARD_SERVER');
    expect((await upload(['a.json', '--server', 'http://localhost:1'])).stderr).toMatch(/^flakeboard upload: no API token/);
  });
});

describe('flakeboard upload against a flaky network', () => {
  let fake: Server;
  afterEach(() => new Promise<void>((resolve) => fake.close(() => resolve())));

  /** A server that answers each request with the next scripted answer. */
  async function scripted(answers: Array<'reset' | [number, unknown]>, health: object = { status: 'ok' }): Promise<{ url: string; hits: () => number; paths: string[] }> {
    let hits = 0;
    const paths: string[] = [];
    fake = createServer((req, res) => {
      // `upload` asks for the body limit first; an answer without one leaves the check to the server.
      if (req.url?.endsWith('/api/health')) return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(health));
      paths.push(req.url ?? '');
      req.resume();
      req.on('end', () => {
        const answer = answers[Math.min(hits++, answers.length - 1)]!;
        if (answer === 'reset') return req.socket.destroy();
        res.writeHead(answer[0], { 'content-type': 'application/json' }).end(JSON.stringify(answer[1]));
      });
    });
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
    return { url: `http://127.0.0.1:${(fake.address() as AddressInfo).port}`, hits: () => hits, paths };
  }

  it('retries after a reset connection and a 503, then succeeds', async () => {
    const s = await scripted(['reset', [503, { error: 'restarting' }], [200, { success: true, runId: 7, testsProcessed: 2, duplicate: false, status: 'pending' }]]);
    write('a.json', smallReport('a'));
    const { exitCode, stdout } = await upload(['a.json', '--server', s.url, '--token', 'fbt_x']);
    expect(exitCode).toBe(0);
    expect(stdout).toBe('✓ a.json: 2 tests uploaded as run 7 (pending review)');
    expect(s.hits()).toBe(3);
  });

  it('keeps the path of a server behind a prefix', async () => {
    const s = await scripted([[200, { success: true, runId: 1, testsProcessed: 2, duplicate: false, status: 'pending' }]]);
    write('a.json', smallReport('a'));
    expect((await upload(['a.json', '--server', `${s.url}/flakeboard`, '--token', 'fbt_x'])).exitCode).toBe(0);
    expect(s.paths).toEqual(['/flakeboard/api/upload']);
  });

  it('413 from a server that does not say its limit: what to fix, and the batch goes on', async () => {
    const s = await scripted([[413, { error: 'The request body is larger than the limit of 2 KB' }], [200, { success: true, runId: 2, testsProcessed: 2, duplicate: false, status: 'pending' }]]);
    write('a.json', smallReport('a'));
    write('b.json', smallReport('b'));
    const { exitCode, stdout, stderr } = await upload(['a.json', 'b.json', '--server', s.url, '--token', 'fbt_x']);
    expect(exitCode).toBe(1);
    expect(stderr).toBe("✗ a.json: the report is larger than the server accepts (413): The request body is larger than the limit of 2 KB; raise the server's --body-limit");
    expect(stdout).toBe('✓ b.json: 2 tests uploaded as run 2 (pending review)');
  });

  it('the limit the server states is checked locally: nothing too big is sent', async () => {
    const s = await scripted([[200, { success: true, runId: 1, testsProcessed: 2, duplicate: false, status: 'pending' }]], { status: 'ok', maxUploadBytes: 3000 });
    write('big.json', smallReport('x'.repeat(5000)));
    write('a.json', smallReport('a'));
    const { exitCode, stderr } = await upload(['big.json', 'a.json', '--server', s.url, '--token', 'fbt_x']);
    expect(exitCode).toBe(1);
    expect(stderr).toMatch(/^✗ big\.json: the report is 6\.4 KB, larger than the server accepts \(2\.9 KB\)/);
    expect(s.paths).toEqual(['/api/upload']);
    expect(s.hits()).toBe(1);
  });

  it('does not retry a 400, and says what the server said', async () => {
    const s = await scripted([[400, { error: 'a.json: not a Playwright JSON report: the field "suites" is missing' }]]);
    write('a.json', smallReport('a'));
    const { exitCode, stderr } = await upload(['a.json', '--server', s.url, '--token', 'fbt_x']);
    expect(exitCode).toBe(1);
    expect(stderr).toBe('✗ a.json: the server refused the report (400): a.json: not a Playwright JSON report: the field "suites" is missing');
    expect(s.hits()).toBe(1);
  });

  it('gives up on a server that cannot be reached, naming it', async () => {
    const s = await scripted([[200, {}]]);
    const url = s.url;
    await new Promise<void>((resolve) => fake.close(() => resolve()));
    fake = createServer().listen(0);
    write('a.json', smallReport('a'));
    const { exitCode, stderr } = await upload(['a.json', '--server', url, '--token', 'fbt_x', '--retries', '1']);
    expect(exitCode).toBe(1);
    expect(stderr).toBe(`✗ a.json: cannot reach ${url}: connection refused (is the server running?) (gave up after 2 attempts)`);
  });
});
