import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv } from '../fixtures/testing/cli.js';
import { startFakeCodeHost } from '../fixtures/testing/fake-code-host.js';
import { makePlaywrightProject, ROOT } from '../fixtures/testing/playwright-project.js';
import { makeTempDir } from '../fixtures/testing/temp.js';

const RECIPES = readFileSync(join(ROOT, 'docs/ci.md'), 'utf8');
const MARKER = '<!-- flakeboard -->';

/** The fenced block of `lang` that follows `heading` in docs/ci.md, exactly as printed there. */
function recipeBlock(after: string, lang: string): string {
  const from = RECIPES.indexOf(after);
  if (from === -1) throw new Error(`docs/ci.md has no "${after}"`);
  const block = new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``).exec(RECIPES.slice(from));
  if (!block) throw new Error(`docs/ci.md has no ${lang} block after "${after}"`);
  return block[1]!;
}

interface Step {
  run: string;
  env: Record<string, string>;
}

/**
 * The `run:` steps of a GitHub Actions recipe with their `env:`, expressions filled in:
 * `${{ github.token }}` with the job's token, `${{ secrets.NAME }}` from `secrets`. Steps of
 * other actions (checkout, setup-node, cache) and the install are what the test's project
 * already is; any other expression is an error, so the recipe cannot drift from what runs here.
 */
function workflowSteps(yaml: string, token: string, secrets: Record<string, string> = {}): Step[] {
  const fill = (value: string) =>
    value.replace(/\$\{\{\s*([\w.]+)\s*\}\}/g, (_, name: string) => {
      if (name === 'github.token') return token;
      if (name.startsWith('secrets.') && secrets[name.slice(8)] !== undefined) return secrets[name.slice(8)]!;
      throw new Error(`the recipe uses \${{ ${name} }}, which the test does not provide`);
    });
  const steps: Step[] = [];
  let current: Step | null = null;
  let inEnv = false;
  for (const line of yaml.split('\n')) {
    const run = /^\s*- run: (.*)$/.exec(line);
    if (run) {
      current = { run: run[1]!, env: {} };
      steps.push(current);
      inEnv = false;
    } else if (/^\s*- /.test(line)) {
      current = null;
    } else if (current && /^\s+env:\s*$/.test(line)) {
      inEnv = true;
    } else if (current && inEnv && /^\s+[A-Z_]+: /.test(line)) {
      const [, key, value] = /^\s+([A-Z_]+): (.*)$/.exec(line)!;
      current.env[key!] = fill(value!);
    } else if (!/^\s{10,}/.test(line)) {
      inEnv = false;
    }
  }
  return steps.filter((s) => !s.run.startsWith('npm ci'));
}

/** The `script:` lines of a GitLab CI job, the install left to the test's project. */
function gitlabScript(yaml: string): string[] {
  const lines = yaml.split('\n');
  const start = lines.findIndex((l) => /^\s+script:\s*$/.test(l));
  const script: string[] = [];
  for (const line of lines.slice(start + 1)) {
    const item = /^\s{4}- (.*)$/.exec(line);
    if (!item) break;
    script.push(item[1]!);
  }
  return script.filter((l) => l !== 'npm ci');
}

/**
 * `npx <name>` for a package the project has installed runs the project's own
 * node_modules/.bin/<name>, and so does this one, without npm's start-up (about a second of CPU
 * for each of the recipes' thirty calls). Anything else (an option, a package not installed)
 * fails, so a recipe that needs more of npx than that fails here too.
 */
const NPX = `#!/bin/sh
case "$1" in -*|'') echo "npx (test stand-in): only npx <installed binary> is supported, got: $*" >&2; exit 127;; esac
bin="$PWD/node_modules/.bin/$1"
[ -x "$bin" ] || { echo "npx (test stand-in): $1 is not installed in $PWD" >&2; exit 127; }
shift
exec "$bin" "$@"
`;

let temp: ReturnType<typeof makeTempDir>;
let npxDir: string;
beforeAll(() => {
  temp = makeTempDir('flakeboard-recipe-');
  npxDir = join(temp.dir, 'npx');
  mkdirSync(npxDir);
  writeFileSync(join(npxDir, 'npx'), NPX, { mode: 0o755 });
});
afterAll(() => temp.cleanup());

/** One CI job's shell in the project: Playwright's and flakeboard's binaries on the PATH. */
async function shell(project: string, script: string, env: Record<string, string>) {
  const result = await execa('bash', ['-c', script], {
    cwd: project,
    reject: false,
    env: cleanEnv({ REPORTER_SUITE_OUTPUT_DIR: join(temp.dir, 'out'), PATH: `${npxDir}:${join(project, 'node_modules', '.bin')}:${process.env.PATH}`, ...env }),
    extendEnv: false,
  });
  return { exitCode: result.exitCode, stdout: String(result.stdout), stderr: String(result.stderr) };
}

describe('the shell recipe of docs/ci.md, run as CI would', () => {
  it('builds main’s history, passes a branch whose failures are known, and fails one that brings a new failure', async () => {
    const project = makePlaywrightProject(join(temp.dir, 'shell'));
    const job = async (env: Record<string, string>) => {
      const result = await shell(project, recipeBlock('A plain shell script', 'sh'), { GITHUB_ACTIONS: 'true', ...env });
      return { ...result, summary: readFileSync(join(project, 'flakeboard-summary.md'), 'utf8') };
    };
    for (const sha of ['aaa111', 'bbb222']) {
      const main = await job({ GITHUB_REF_NAME: 'main', GITHUB_SHA: sha });
      expect(main.exitCode, main.stderr).toBe(0);
    }
    const known = await job({ GITHUB_HEAD_REF: 'feature-a', GITHUB_REF_NAME: '7/merge', GITHUB_SHA: 'ccc333' });
    expect(known.exitCode, known.stdout + known.stderr).toBe(0);
    expect(known.stdout).toMatch(/verdict: pass — 1 broken-on-base, 1 flaky: nothing new fails/);

    const broken = await job({ GITHUB_HEAD_REF: 'feature-b', GITHUB_REF_NAME: '8/merge', GITHUB_SHA: 'ddd444', REPORTER_SUITE_BREAK: '1' });
    expect(broken.exitCode).toBe(1);
    expect(broken.stdout).toMatch(/✗ new\s+checkout\.spec\.ts › account page greets the user \[chromium\]: a new failure: passed in all 2 base-branch runs/);
    expect(broken.summary).toContain('### flakeboard check: ❌ fail');
  }, 300_000);
});

describe('the GitHub Actions recipe of docs/ci.md, its steps run against a fake GitHub API', () => {
  it('asks for the permission and the token it uses; on a pull request it comments once, then updates the comment', async () => {
    const workflow = recipeBlock('GitHub Actions, keeping the database', 'yaml');
    expect(workflow).toMatch(/^permissions:\n {2}contents: read\n {2}pull-requests: write/m);
    const withServer = recipeBlock('With a flakeboard server', 'yaml');
    expect(withServer).toMatch(/- run: npx flakeboard check results\.json --github\n\s+env:\n(?:\s+\w+: .*\n)*\s+GITHUB_TOKEN: \$\{\{ github\.token \}\}/);

    const project = makePlaywrightProject(join(temp.dir, 'github'));
    const github = await startFakeCodeHost('github');
    try {
      const event = (name: string, value: unknown) => {
        const path = join(temp.dir, `${name}.json`);
        writeFileSync(path, JSON.stringify(value));
        return path;
      };
      const common = { GITHUB_ACTIONS: 'true', GITHUB_API_URL: github.url, GITHUB_SERVER_URL: 'https://github.example', GITHUB_REPOSITORY: 'octo/shop', GITHUB_WORKSPACE: project, REPORTER_SUITE_JSON: 'results.json' };
      const job = async (env: Record<string, string>) => {
        const summary = join(temp.dir, `summary-${env.GITHUB_RUN_ID}.md`);
        writeFileSync(summary, '');
        let last = { exitCode: 0 as number | undefined, stdout: '', stderr: '' };
        for (const step of workflowSteps(workflow, 'ghs_fake_token')) {
          last = await shell(project, step.run, { ...common, GITHUB_STEP_SUMMARY: summary, ...env, ...step.env });
          // Playwright's step is continue-on-error; the check step's exit code is the job's.
        }
        return { ...last, summary: readFileSync(summary, 'utf8') };
      };

      const main = await job({ GITHUB_EVENT_NAME: 'push', GITHUB_EVENT_PATH: event('push', { ref: 'refs/heads/main' }), GITHUB_REF: 'refs/heads/main', GITHUB_REF_NAME: 'main', GITHUB_SHA: 'aaa111', GITHUB_RUN_ID: '1' });
      expect(main.exitCode, main.stdout + main.stderr).toBe(0);
      expect(main.stderr).toContain('flakeboard check: GitHub: skipped the pull-request comment: this job does not run for a pull request (event push)');

      const pr = { GITHUB_EVENT_NAME: 'pull_request', GITHUB_EVENT_PATH: event('pull', { pull_request: { number: 7 } }), GITHUB_REF: 'refs/pull/7/merge', GITHUB_REF_NAME: '7/merge', GITHUB_HEAD_REF: 'feature' };
      const broken = await job({ ...pr, GITHUB_SHA: 'bbb222', GITHUB_RUN_ID: '2', REPORTER_SUITE_BREAK: '1' });
      expect(broken.exitCode).toBe(1);
      expect(broken.stdout).toMatch(/^::error file=tests\/checkout\.spec\.ts,line=\d+,title=flakeboard%3A new failure%3A account page greets the user \[chromium\]::/m);
      expect(broken.stderr).toContain('flakeboard check: GitHub: created the pull-request comment on #7');
      expect(broken.summary).toContain('### flakeboard check: ❌ fail');
      expect(github.comments).toHaveLength(1);
      expect(github.comments[0]!.body).toContain(`${MARKER}\n### flakeboard check: ❌ fail`);
      expect(github.comments[0]!.body).toContain('[this build](https://github.example/octo/shop/actions/runs/2)');

      const fixed = await job({ ...pr, GITHUB_SHA: 'ccc333', GITHUB_RUN_ID: '3' });
      expect(fixed.exitCode, fixed.stdout + fixed.stderr).toBe(0);
      expect(fixed.stderr).toContain('flakeboard check: GitHub: updated the pull-request comment on #7');
      expect(github.comments).toHaveLength(1);
      expect(github.comments[0]!.body).toContain('### flakeboard check: ✅ pass');
      expect(github.comments[0]!.body).toMatch(/#### ~ Flaky on main \(1\)[\s\S]*loads the payment widget[\s\S]*\| 1 of 1 runs \(100 %\), 1 passed on a retry \| not quarantined \|/);
    } finally {
      await github.stop();
    }
  }, 300_000);
});

describe('the GitLab CI recipe of docs/ci.md, its script run against a fake GitLab API', () => {
  it('keeps one merge request note: created when a new failure appears, updated when it is fixed', async () => {
    const job = recipeBlock('GitLab CI (', 'yaml');
    const script = gitlabScript(job);
    expect(script.some((l) => l.includes('flakeboard check results.json --gitlab'))).toBe(true);
    const project = makePlaywrightProject(join(temp.dir, 'gitlab'));
    const gitlab = await startFakeCodeHost('gitlab');
    try {
      const common = { GITLAB_CI: 'true', CI_API_V4_URL: gitlab.url, CI_PROJECT_ID: '42', FLAKEBOARD_GITLAB_TOKEN: 'glpat-fake', REPORTER_SUITE_JSON: 'results.json' };
      // GitLab stops a job at the first line that fails: `set -e`.
      const run = (env: Record<string, string>) => shell(project, `set -e\n${script.join('\n')}`, { ...common, ...env });

      const main = await run({ CI_COMMIT_BRANCH: 'main', CI_COMMIT_SHA: 'aaa111', CI_PIPELINE_ID: '1' });
      expect(main.exitCode, main.stdout + main.stderr).toBe(0);
      expect(main.stderr).toContain('flakeboard check: GitLab: skipped the merge request note: this job does not run in a merge request pipeline');

      const mr = { CI_MERGE_REQUEST_IID: '7', CI_MERGE_REQUEST_SOURCE_BRANCH_NAME: 'feature', CI_PIPELINE_URL: 'https://gitlab.example/octo/shop/-/pipelines/2' };
      const broken = await run({ ...mr, CI_COMMIT_SHA: 'bbb222', CI_PIPELINE_ID: '2', REPORTER_SUITE_BREAK: '1' });
      expect(broken.exitCode).toBe(1);
      expect(broken.stderr).toContain('flakeboard check: GitLab: created the merge request note on !7');
      const fixed = await run({ ...mr, CI_COMMIT_SHA: 'ccc333', CI_PIPELINE_ID: '3' });
      expect(fixed.exitCode, fixed.stdout + fixed.stderr).toBe(0);
      expect(fixed.stderr).toContain('flakeboard check: GitLab: updated the merge request note on !7');
      expect(gitlab.comments).toHaveLength(1);
      expect(gitlab.comments[0]!.body).toContain(`${MARKER}\n### flakeboard check: ✅ pass`);
      expect(readFileSync(join(project, 'flakeboard.md'), 'utf8')).toContain('### flakeboard check: ✅ pass');
    } finally {
      await gitlab.stop();
    }
  }, 300_000);
});
