import { execFile } from 'node:child_process';
import { buildFromCiEnv, buildIdProblem, buildUrlProblem, gitFromCiEnv, type CiBuild } from '../core/ci-env.js';

export interface GitFallback {
  branch: string | null;
  commit: string | null;
}

/** Branch and commit when no flag names them: the CI's variables, else `git` in cwd. */
export async function detectGit(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Promise<GitFallback> {
  const ci = gitFromCiEnv(env);
  if (ci.branch && ci.commit) return ci;
  const [branch, commit] = await Promise.all([git(['rev-parse', '--abbrev-ref', 'HEAD'], cwd), git(['rev-parse', 'HEAD'], cwd)]);
  return {
    // A detached HEAD (how most CI systems check out) has no branch name.
    branch: ci.branch ?? (branch && branch !== 'HEAD' ? branch : null),
    commit: ci.commit ?? commit,
  };
}

// node:child_process rather than execa: every import asks git, and loading execa's modules
// cost about 70 ms of CPU at each start.
function git(args: string[], cwd: string): Promise<string | null> {
  return new Promise((resolve) => {
    // No shell; a missing git, a failure or the timeout all mean "unknown".
    const child = execFile('git', args, { cwd, timeout: 5000, windowsHide: true }, (error, stdout) => {
      resolve(error === null && stdout.trim() !== '' ? stdout.trim() : null);
    });
    child.stdin?.end();
  });
}

/**
 * The CI build of `--build-id`/`--build-url`, else of the CI's variables (checked there). A flag
 * that cannot be stored is an error that names it, before anything is read.
 */
export function detectBuild(flags: { buildId?: string | undefined; buildUrl?: string | undefined }, env: NodeJS.ProcessEnv = process.env): CiBuild | { error: string } {
  const idProblem = flags.buildId !== undefined ? buildIdProblem(flags.buildId) : null;
  if (idProblem) return { error: `--build-id: ${idProblem}` };
  const urlProblem = flags.buildUrl !== undefined ? buildUrlProblem(flags.buildUrl) : null;
  if (urlProblem) return { error: `--build-url: ${urlProblem}` };
  const ci = buildFromCiEnv(env);
  // A URL given alone belongs to a build the flags name, not to the CI's.
  const buildId = flags.buildId ?? (flags.buildUrl === undefined ? ci.buildId : null);
  return { buildId, buildUrl: flags.buildUrl ?? (flags.buildId === undefined ? ci.buildUrl : null) };
}
