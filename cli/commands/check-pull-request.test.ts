import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { GateAnswer } from '../../core/gate/types.js';
import { cleanEnv, runCli } from '../../fixtures/testing/cli.js';
import { humanComment, startFakeCodeHost, type FakeCodeHost } from '../../fixtures/testing/fake-code-host.js';
import { gateReport, writeGateHistory, type Outcome } from '../../fixtures/testing/gate-reports.js';
import { makeTempDir } from '../../fixtures/testing/temp.js';

const DAY = 86_400_000;
const day = (daysAgo: number) => new Date(Date.now() - daysAgo * DAY).toISOString();
const MARKER = '<!-- flakeboard -->';
const HOSTILE = 'pays @octocat <img src=x onerror=alert(1)> | [x](javascript:alert(1)) \r\n::warning::owned, %0A';

let temp: ReturnType<typeof makeTempDir>;
let db: string;
let workspace: string;
let hosts: FakeCodeHost[] = [];

/** main's history: "total" passes, "payment" passed on a retry once, "receipt" is quarantined. */
beforeAll(async () => {
  temp = makeTempDir('flakeboard-check-pr-');
  db = join(temp.dir, 'f.db');
  workspace = join(temp.dir, 'checkout');
  const main: Array<Record<string, Outcome>> = [
    { total: 'passed', payment: 'passed', receipt: 'passed' },
    { total: 'passed', payment: 'flaky', receipt: 'failed' },
    { total: 'passed', payment: 'passed', receipt: 'passed' },
  ];
  // One import of the three, oldest first: each report names its commit as Playwright writes it (config.metadata.gitCommit).
  const files = writeGateHistory(temp.dir, main, (i) => day(6 - i * 2));
  const imported = await runCli(['import', ...files, '--db', db, '--branch', 'main'], { env: cleanEnv() });
  expect(imported.exitCode, imported.stderr).toBe(0);
  const q = await runCli(['quarantine', 'add', 'receipt', '--reason', 'the mail stub drops messages', '--owner', 'rita', '--expires', '14d', '--db', db], { env: cleanEnv() });
  expect(q.exitCode, q.stderr).toBe(0);
}, 120_000);
afterEach(async () => {
  await Promise.all(hosts.map((h) => h.stop()));
  hosts = [];
});
afterAll(() => temp.cleanup());

async function host(kind: 'github' | 'gitlab') {
  const started = await startFakeCodeHost(kind);
  hosts.push(started);
  return started;
}

/**
 * The pull request's report as Playwright writes it in a checkout: tests under `tests/`, the
 * failing line of "total" in its error's location (an absolute path), "total" and a test with a
 * hostile title new, "payment" flaky, "receipt" quarantined.
 */
function prReport(name: string, outcomes: Record<string, Outcome>): string {
  const report = gateReport(outcomes, day(0));
  (report.config as Record<string, unknown>).rootDir = join(workspace, 'tests');
  for (const spec of report.suites[0]!.specs) {
    const error = (spec.tests[0]!.results[0] as { error?: Record<string, unknown> }).error;
    if (error && spec.title === 'total') error.location = { file: join(workspace, 'tests', 'checkout.spec.ts'), line: 42, column: 7 };
  }
  const path = join(temp.dir, name);
  writeFileSync(path, JSON.stringify(report));
  return path;
}
const FAILING = { total: 'failed', payment: 'failed', receipt: 'failed', [HOSTILE]: 'failed', login: 'passed' } as const;

function githubEnv(api: string, over: Record<string, string> = {}) {
  const event = join(temp.dir, 'event.json');
  writeFileSync(event, JSON.stringify({ action: 'synchronize', pull_request: { number: 7 } }));
  return cleanEnv({
    GITHUB_ACTIONS: 'true',
    GITHUB_API_URL: api,
    GITHUB_SERVER_URL: 'https://github.example',
    GITHUB_REPOSITORY: 'octo/shop',
    GITHUB_EVENT_NAME: 'pull_request',
    GITHUB_EVENT_PATH: event,
    GITHUB_REF: 'refs/pull/7/merge',
    GITHUB_RUN_ID: '99',
    GITHUB_WORKSPACE: workspace,
    GITHUB_STEP_SUMMARY: join(temp.dir, 'step-summary.md'),
    GITHUB_TOKEN: 'ghs_fake_token',
    ...over,
  });
}

const ours = (h: FakeCodeHost) => h.comments.filter((c) => c.body.startsWith(MARKER));

describe('check --github', () => {
  it('annotates new failures, appends the job summary, creates one pull-request comment and then updates it', async () => {
    const github = await host('github');
    // Three people's comments first, so flakeboard's sits on the second page of the list.
    github.comments.push(humanComment(1, 'LGTM'), humanComment(2, `> ${MARKER}\n> quoted`), humanComment(3, 'one more thing'));
    const env = githubEnv(github.url);

    const first = await runCli(['check', prReport('pr-1.json', FAILING), '--db', db, '--github', '--dashboard', 'https://flakeboard.example.com'], { env });
    expect(first.exitCode, first.stderr).toBe(1);
    const annotations = first.stdout.split('\n').filter((l) => l.startsWith('::'));
    expect(annotations).toHaveLength(2);
    expect(annotations[0]).toBe(
      '::error file=tests/checkout.spec.ts,line=42,title=flakeboard%3A new failure%3A total [chromium]::total: a new failure: passed in all 3 base-branch runs in the window%0Aexpect(received).toBe(expected)',
    );
    // The hostile title: its line break made a space, its colons and commas escaped in the title, `%` escaped everywhere.
    expect(annotations[1]).toMatch(/^::error file=tests\/checkout\.spec\.ts,line=\d+,title=flakeboard%3A new failure%3A pays @octocat <img src=x onerror=alert\(1\)> \| \[x\]\(javascript%3Aalert\(1\)\) {3}%3A%3Awarning%3A%3Aowned%2C %250A \[chromium\]::/);
    expect(first.stderr).toContain('flakeboard check: GitHub: created the pull-request comment on #7 (https://github.example/octo/shop/pull/7#issuecomment-1000)');

    expect(github.comments).toHaveLength(4);
    const [comment] = ours(github);
    expect(comment!.user.type).toBe('Bot');
    const body = comment!.body;
    expect(body.startsWith(`${MARKER}\n### flakeboard check: ❌ fail`)).toBe(true);
    expect(body).toContain('#### ✗ New failures (2): these fail the check');
    expect(body).toMatch(/#### ~ Flaky on main \(1\)\n\n.*\n.*\n\| \[payment<br><sub>checkout\.spec\.ts<\/sub>\]\(https:\/\/flakeboard\.example\.com\/#\/flaky-tests\?test=payment&file=checkout\.spec\.ts&browser=chromium\) \| chromium \| 1 of 3 runs \(33\.3 %\), 1 passed on a retry \| not quarantined \|/);
    const through = new Date(Math.floor(Date.now() / DAY) * DAY + 13 * DAY).toISOString().slice(0, 10);
    expect(body).toMatch(new RegExp(`\\| chromium \\| 1 of 3 runs \\(33\\.3 %\\) \\| rita \\| the mail stub drops messages \\| ${through} \\|`));
    expect(body).toContain('[this build](https://github.example/octo/shop/actions/runs/99)');
    expect(body).toContain('[dashboard](https://flakeboard.example.com/#/flaky-tests)');
    // The hostile title is text: no tag, no mention, no link of its own.
    expect(body).toContain('pays @\u200boctocat \\<img src=x onerror=alert(1)\\> \\| \\[x\\](javascript:alert(1))');
    expect(body).not.toMatch(/(?<!\\)<img|@octocat|\r/);

    const posted = github.requests.filter((r) => r.method !== 'GET');
    expect(posted.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /repos/octo/shop/issues/7/comments?per_page=100']);
    for (const r of github.requests) {
      expect(r.headers).toMatchObject({ accept: 'application/vnd.github+json', 'x-github-api-version': '2022-11-28', authorization: 'Bearer ghs_fake_token' });
    }

    // The same pull request again, its new failure fixed: the one comment changes, none is added.
    const second = await runCli(['check', prReport('pr-2.json', { ...FAILING, total: 'passed', [HOSTILE]: 'passed' }), '--db', db, '--github'], { env });
    expect(second.exitCode, second.stderr).toBe(0);
    expect(second.stdout.split('\n').filter((l) => l.startsWith('::'))).toEqual([]);
    expect(second.stderr).toContain('flakeboard check: GitHub: updated the pull-request comment on #7');
    expect(github.comments).toHaveLength(4);
    expect(ours(github)).toHaveLength(1);
    expect(ours(github)[0]!.id).toBe(comment!.id);
    expect(ours(github)[0]!.body).toContain('### flakeboard check: ✅ pass');
    expect(github.requests.filter((r) => r.method !== 'GET').map((r) => r.method)).toEqual(['POST', 'PATCH']);
    // The list was read to its last page each time.
    expect(github.requests.filter((r) => r.method === 'GET' && r.path.includes('page=2'))).toHaveLength(2);

    const summary = readFileSync(join(temp.dir, 'step-summary.md'), 'utf8');
    expect(summary.match(/### flakeboard check: /g)).toHaveLength(2);
    expect(summary).toContain('### flakeboard check: ❌ fail');
    expect(summary).toContain('### flakeboard check: ✅ pass');
    expect(summary).not.toContain(MARKER);
  }, 60_000);

  it('without a token or outside a pull request says what it skipped in one line, and still gates', async () => {
    const github = await host('github');
    const report = prReport('pr-skip.json', FAILING);
    const noToken = await runCli(['check', report, '--db', db, '--github'], { env: githubEnv(github.url, { GITHUB_TOKEN: '' }) });
    expect(noToken.exitCode).toBe(1);
    expect(noToken.stderr.trim().split('\n')).toEqual([
      'flakeboard check: GitHub: skipped the pull-request comment: GITHUB_TOKEN is not set (add `env: GITHUB_TOKEN: ${{ github.token }}` to the step, and `permissions: pull-requests: write` to the job)',
    ]);
    expect(noToken.stdout).toMatch(/^::error file=tests\/checkout\.spec\.ts,line=42,/m);

    const event = join(temp.dir, 'push.json');
    writeFileSync(event, JSON.stringify({ ref: 'refs/heads/main' }));
    const push = await runCli(['check', report, '--db', db, '--github'], { env: githubEnv(github.url, { GITHUB_EVENT_NAME: 'push', GITHUB_EVENT_PATH: event, GITHUB_REF: 'refs/heads/main', GITHUB_STEP_SUMMARY: '' }) });
    expect(push.exitCode).toBe(1);
    expect(push.stderr.trim().split('\n')).toEqual([
      'flakeboard check: GitHub: skipped the job summary: GITHUB_STEP_SUMMARY is not set (is this a GitHub Actions job?)',
      'flakeboard check: GitHub: skipped the pull-request comment: this job does not run for a pull request (event push)',
    ]);
    expect(github.requests).toEqual([]);
  }, 60_000);

  it('an API that fails, cannot be reached or redirects elsewhere is one line, and never changes the exit code', async () => {
    const github = await host('github');
    const failing = prReport('pr-fail.json', FAILING);
    const passing = prReport('pr-pass.json', { ...FAILING, total: 'passed', [HOSTILE]: 'passed' });

    github.fail = 403;
    const forbidden = await runCli(['check', passing, '--db', db, '--github'], { env: githubEnv(github.url) });
    expect(forbidden.exitCode).toBe(0);
    expect(forbidden.stderr.trim().split('\n')).toEqual([
      'flakeboard check: GitHub: could not post the pull-request comment on #7: GET /repos/octo/shop/issues/7/comments answered 403: Resource not accessible by integration (the job needs `permissions: pull-requests: write`; a pull request from a fork gets a read-only token)',
    ]);

    github.fail = 500;
    expect(await runCli(['check', failing, '--db', db, '--github'], { env: githubEnv(github.url) })).toMatchObject({ exitCode: 1, stderr: expect.stringMatching(/answered 500: Server Error$/) });

    // Another origin (localhost is not 127.0.0.1): refused, the token never sent there.
    github.fail = null;
    github.redirect = `${github.url.replace('127.0.0.1', 'localhost')}/elsewhere`;
    const redirected = await runCli(['check', passing, '--db', db, '--github'], { env: githubEnv(github.url) });
    expect(redirected.exitCode).toBe(0);
    expect(redirected.stderr).toMatch(/answered 301 with a redirect to http:\/\/localhost:\d+\/elsewhere, which is not followed$/);
    expect(github.requests.filter((r) => r.path === '/elsewhere')).toEqual([]);

    const stopped = github.url;
    await github.stop();
    hosts = [];
    const unreachable = await runCli(['check', failing, '--db', db, '--github', '--json'], { env: githubEnv(stopped) });
    expect(unreachable.exitCode).toBe(1);
    // With --json, stdout stays JSON: the workflow commands go to stderr, which the runner reads too.
    expect((JSON.parse(unreachable.stdout) as GateAnswer).verdict).toBe('fail');
    expect(unreachable.stderr).toMatch(/^::error file=tests\/checkout\.spec\.ts,line=42,/m);
    expect(unreachable.stderr).toMatch(/could not post the pull-request comment on #7: cannot reach http:\/\/127\.0\.0\.1:\d+: ECONNREFUSED$/);
  }, 60_000);
});

describe('check --gitlab', () => {
  const gitlabEnv = (api: string, over: Record<string, string> = {}) =>
    cleanEnv({ GITLAB_CI: 'true', CI_API_V4_URL: api, CI_PROJECT_ID: '42', CI_MERGE_REQUEST_IID: '7', CI_PIPELINE_ID: '555', CI_PIPELINE_URL: 'https://gitlab.example/octo/shop/-/pipelines/555', FLAKEBOARD_GITLAB_TOKEN: 'glpat-fake', ...over });

  it('creates one merge request note, then updates it; without a token it says so and still gates', async () => {
    const gitlab = await host('gitlab');
    gitlab.comments.push(humanComment(1, 'please look'), humanComment(2, 'ok'), humanComment(3, 'thanks'));
    const first = await runCli(['check', prReport('mr-1.json', FAILING), '--db', db, '--gitlab'], { env: gitlabEnv(gitlab.url) });
    expect(first.exitCode).toBe(1);
    expect(first.stderr.trim()).toBe('flakeboard check: GitLab: created the merge request note on !7');
    // No workflow commands outside GitHub.
    expect(first.stdout).not.toMatch(/^::/m);
    const second = await runCli(['check', prReport('mr-2.json', { ...FAILING, total: 'passed', [HOSTILE]: 'passed' }), '--db', db, '--gitlab'], { env: gitlabEnv(gitlab.url) });
    expect(second.exitCode).toBe(0);
    expect(second.stderr.trim()).toBe('flakeboard check: GitLab: updated the merge request note on !7');
    expect(gitlab.comments).toHaveLength(4);
    const notes = ours(gitlab);
    expect(notes).toHaveLength(1);
    expect(notes[0]!.body).toContain('### flakeboard check: ✅ pass');
    expect(notes[0]!.body).toContain('[this build](https://gitlab.example/octo/shop/-/pipelines/555)');
    expect(gitlab.requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /api/v4/projects/42/merge_requests/7/notes',
      'PUT /api/v4/projects/42/merge_requests/7/notes/1000',
    ]);
    for (const r of gitlab.requests) expect(r.headers['private-token']).toBe('glpat-fake');

    const noToken = await runCli(['check', prReport('mr-3.json', FAILING), '--db', db, '--gitlab'], { env: gitlabEnv(gitlab.url, { FLAKEBOARD_GITLAB_TOKEN: '' }) });
    expect(noToken.exitCode).toBe(1);
    expect(noToken.stderr.trim()).toBe('flakeboard check: GitLab: skipped the merge request note: no token: set FLAKEBOARD_GITLAB_TOKEN (or GITLAB_TOKEN) to a project access token with the api scope');
    const branch = await runCli(['check', prReport('mr-4.json', FAILING), '--db', db, '--gitlab'], { env: gitlabEnv(gitlab.url, { CI_MERGE_REQUEST_IID: '' }) });
    expect(branch.stderr.trim()).toBe('flakeboard check: GitLab: skipped the merge request note: this job does not run in a merge request pipeline (CI_MERGE_REQUEST_IID is not set)');
    expect(gitlab.requests).toHaveLength(6);
  }, 60_000);
});
