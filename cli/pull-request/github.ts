import { readFile } from 'node:fs/promises';
import { listPages, restCall, RestError } from './rest.js';

/** The hidden first line that finds flakeboard's comment again, so there is only ever one. */
export const COMMENT_MARKER = '<!-- flakeboard -->';
/** 100 comments a page: a pull request with more than 5,000 comments is not searched further. */
const MAX_PAGES = 50;
const API_VERSION = '2022-11-28';

type Env = Record<string, string | undefined>;

export interface GitHubTarget {
  api: URL;
  owner: string;
  repo: string;
  pullNumber: number;
  token: string;
}

/**
 * Where the comment goes, from the variables GitHub Actions sets (GITHUB_API_URL,
 * GITHUB_REPOSITORY, GITHUB_EVENT_PATH) and the token the job passes (GITHUB_TOKEN), or the
 * reason there is none: one sentence for the log.
 */
export async function githubTarget(env: Env): Promise<GitHubTarget | string> {
  const token = env.GITHUB_TOKEN?.trim();
  if (!token) return 'GITHUB_TOKEN is not set (add `env: GITHUB_TOKEN: ${{ github.token }}` to the step, and `permissions: pull-requests: write` to the job)';
  const repository = env.GITHUB_REPOSITORY ?? '';
  const [owner, repo, ...rest] = repository.split('/');
  if (!owner || !repo || rest.length > 0) return `GITHUB_REPOSITORY is ${repository ? JSON.stringify(repository.slice(0, 100)) : 'not set'}, not owner/name (is this a GitHub Actions job?)`;
  const pullNumber = await pullRequestNumber(env);
  if (pullNumber === null) return `this job does not run for a pull request${env.GITHUB_EVENT_NAME ? ` (event ${env.GITHUB_EVENT_NAME.slice(0, 50)})` : ''}`;
  let api: URL;
  try {
    api = new URL(env.GITHUB_API_URL || 'https://api.github.com');
  } catch {
    return `GITHUB_API_URL ${JSON.stringify((env.GITHUB_API_URL ?? '').slice(0, 100))} is not a URL`;
  }
  if (api.protocol !== 'https:' && api.protocol !== 'http:') return `GITHUB_API_URL must be an http(s) address, not ${api.protocol}`;
  return { api, owner, repo, pullNumber, token };
}

/**
 * The pull request's number from the event the job runs for (pull_request,
 * pull_request_target, or a comment on a pull request), else from GITHUB_REF
 * (`refs/pull/N/merge`).
 */
async function pullRequestNumber(env: Env): Promise<number | null> {
  if (env.GITHUB_EVENT_PATH) {
    try {
      const event = JSON.parse(await readFile(env.GITHUB_EVENT_PATH, 'utf8')) as { pull_request?: { number?: unknown }; issue?: { number?: unknown; pull_request?: unknown } };
      const n = event.pull_request?.number ?? (event.issue?.pull_request ? event.issue.number : undefined);
      if (typeof n === 'number' && Number.isSafeInteger(n) && n > 0) return n;
    } catch {
      // An unreadable event file: the ref may still say.
    }
  }
  const ref = /^refs\/pull\/(\d{1,10})\/(?:merge|head)$/.exec(env.GITHUB_REF ?? '');
  return ref ? Number(ref[1]) : null;
}

interface IssueComment {
  id: number;
  body?: string | null;
  user?: { type?: string } | null;
  html_url?: string;
}

/**
 * Creates flakeboard's comment on the pull request, or updates the one already there (found by
 * its marker), so each run of the job replaces the answer instead of adding another. Among
 * several marked comments (a person may quote one) a bot's is taken first.
 */
export async function upsertGitHubComment(target: GitHubTarget, body: string): Promise<{ action: 'created' | 'updated'; url: string | null }> {
  const headers = {
    accept: 'application/vnd.github+json',
    'x-github-api-version': API_VERSION,
    authorization: `Bearer ${target.token}`,
    'user-agent': 'flakeboard',
  };
  const repoPath = `repos/${encodeURIComponent(target.owner)}/${encodeURIComponent(target.repo)}`;
  const base = target.api.href.endsWith('/') ? target.api.href : `${target.api.href}/`;
  const list = new URL(`${repoPath}/issues/${target.pullNumber}/comments?per_page=100`, base);
  const comments = await listPages<IssueComment>(list, headers, MAX_PAGES);
  const marked = comments.filter((c) => typeof c.body === 'string' && c.body.startsWith(COMMENT_MARKER));
  const ours = marked.find((c) => c.user?.type === 'Bot') ?? marked[0];
  const full = `${COMMENT_MARKER}\n${body}`;
  if (ours) {
    if (!Number.isSafeInteger(ours.id)) throw new RestError('a listed comment has no id', null);
    const answer = await restCall<IssueComment>({ method: 'PATCH', url: new URL(`${repoPath}/issues/comments/${ours.id}`, base), headers, body: { body: full } });
    return { action: 'updated', url: answer.json.html_url ?? null };
  }
  const answer = await restCall<IssueComment>({ method: 'POST', url: list, headers, body: { body: full } });
  return { action: 'created', url: answer.json.html_url ?? null };
}

/** What to do about a failed call, for the one line that reports it. */
export function githubHint(error: unknown): string {
  if (!(error instanceof RestError)) return '';
  if (error.status === 403) return ' (the job needs `permissions: pull-requests: write`; a pull request from a fork gets a read-only token)';
  if (error.status === 401) return ' (GITHUB_TOKEN was refused)';
  if (error.status === 404) return ' (no such repository or pull request for this token)';
  return '';
}
