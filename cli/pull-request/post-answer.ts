import { appendFile } from 'node:fs/promises';
import { buildFromCiEnv } from '../../core/ci-env.js';
import type { GateAnswer } from '../../core/gate/types.js';
import { inertLine } from '../../core/terminal-text.js';
import { COMMENT_LIMIT, gateMarkdown } from '../gate-markdown.js';
import { githubAnnotations, type Place } from './annotations.js';
import { COMMENT_MARKER, githubHint, githubTarget, upsertGitHubComment } from './github.js';
import { gitlabHint, gitlabTarget, upsertGitLabNote } from './gitlab.js';

type Env = Record<string, string | undefined>;

export interface PostOptions {
  github: boolean;
  gitlab: boolean;
  dashboard: string | null;
  /** Workflow commands go to stderr when stdout holds JSON; the runner reads both. */
  annotationsTo: NodeJS.WritableStream;
}

function say(line: string): void {
  process.stderr.write(`${inertLine(`flakeboard check: ${line}`)}\n`);
}

/**
 * The gate's answer where the reviewer reads it: GitHub annotations, job summary and one
 * pull-request comment; a GitLab merge request note. Nothing here can change the verdict or
 * the exit code: what is skipped or fails is one line on stderr.
 */
export async function postAnswer(answer: GateAnswer, places: readonly Place[], options: PostOptions, env: Env): Promise<void> {
  const buildUrl = buildFromCiEnv(env).buildUrl;
  const body = gateMarkdown(answer, { dashboard: options.dashboard, buildUrl, limit: COMMENT_LIMIT - COMMENT_MARKER.length - 1 });
  if (options.github) await postToGitHub(answer, places, body, options, env);
  if (options.gitlab) await postToGitLab(body, env);
}

async function postToGitHub(answer: GateAnswer, places: readonly Place[], body: string, options: PostOptions, env: Env): Promise<void> {
  for (const line of githubAnnotations(answer, places)) options.annotationsTo.write(`${line}\n`);
  if (env.GITHUB_STEP_SUMMARY) {
    try {
      await appendFile(env.GITHUB_STEP_SUMMARY, `${body}\n`);
    } catch (error) {
      say(`GitHub: could not append the job summary to GITHUB_STEP_SUMMARY: ${(error as Error).message}`);
    }
  } else {
    say('GitHub: skipped the job summary: GITHUB_STEP_SUMMARY is not set (is this a GitHub Actions job?)');
  }
  const target = await githubTarget(env);
  if (typeof target === 'string') return say(`GitHub: skipped the pull-request comment: ${target}`);
  try {
    const done = await upsertGitHubComment(target, body);
    say(`GitHub: ${done.action} the pull-request comment on #${target.pullNumber}${done.url ? ` (${done.url.slice(0, 300)})` : ''}`);
  } catch (error) {
    say(`GitHub: could not post the pull-request comment on #${target.pullNumber}: ${(error as Error).message}${githubHint(error)}`);
  }
}

async function postToGitLab(body: string, env: Env): Promise<void> {
  const target = gitlabTarget(env);
  if (typeof target === 'string') return say(`GitLab: skipped the merge request note: ${target}`);
  try {
    const done = await upsertGitLabNote(target, body);
    say(`GitLab: ${done.action} the merge request note on !${target.mergeRequestIid}`);
  } catch (error) {
    say(`GitLab: could not post the merge request note on !${target.mergeRequestIid}: ${(error as Error).message}${gitlabHint(error)}`);
  }
}
