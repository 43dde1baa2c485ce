import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv } from '../fixtures/testing/cli.js';
import { makePlaywrightProject, ROOT } from '../fixtures/testing/playwright-project.js';
import { makeTempDir } from '../fixtures/testing/temp.js';

/** The README's plain shell recipe, exactly as printed there. */
function shellRecipe(): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const after = readme.slice(readme.indexOf('A plain shell script'));
  const block = /```sh\n([\s\S]*?)```/.exec(after);
  if (!block) throw new Error('README has no shell recipe after "A plain shell script"');
  return block[1]!;
}

let temp: ReturnType<typeof makeTempDir>;
let project: string;
beforeAll(() => {
  temp = makeTempDir('flakeboard-recipe-');
  project = makePlaywrightProject(join(temp.dir, 'project'));
});
afterAll(() => temp.cleanup());

/** One CI job running the recipe: GitHub Actions' variables say which branch and commit. */
async function job(env: Record<string, string>) {
  const result = await execa('bash', ['-c', shellRecipe()], {
    cwd: project,
    reject: false,
    env: cleanEnv({ GITHUB_ACTIONS: 'true', REPORTER_SUITE_OUTPUT_DIR: join(temp.dir, 'out'), PATH: `${join(project, 'node_modules', '.bin')}:${process.env.PATH}`, ...env }),
    extendEnv: false,
  });
  return { exitCode: result.exitCode, stdout: String(result.stdout), stderr: String(result.stderr), summary: readFileSync(join(project, 'flakeboard-summary.md'), 'utf8') };
}

describe('the README’s shell recipe, run as CI would', () => {
  it('builds main’s history, passes a branch whose failures are known, and fails one that brings a new failure', async () => {
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
