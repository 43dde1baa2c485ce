import { COMMENT_MARKER } from './github.js';
import { listPages, restCall, RestError } from './rest.js';

const MAX_PAGES = 50;

type Env = Record<string, string | undefined>;

export interface GitLabTarget {
  api: URL;
  projectId: string;
  mergeRequestIid: number;
  token: string;
}

/**
 * Where the note goes, from the variables GitLab CI sets in a merge request pipeline
 * (CI_API_V4_URL, CI_PROJECT_ID, CI_MERGE_REQUEST_IID) and a token that may write notes
 * (FLAKEBOARD_GITLAB_TOKEN, else GITLAB_TOKEN: the job's own CI_JOB_TOKEN cannot), or why not.
 */
export function gitlabTarget(env: Env): GitLabTarget | string {
  const token = (env.FLAKEBOARD_GITLAB_TOKEN || env.GITLAB_TOKEN)?.trim();
  if (!token) return 'no token: set FLAKEBOARD_GITLAB_TOKEN (or GITLAB_TOKEN) to a project access token with the api scope';
  const iid = env.CI_MERGE_REQUEST_IID ?? '';
  if (!/^\d{1,10}$/.test(iid)) return 'this job does not run in a merge request pipeline (CI_MERGE_REQUEST_IID is not set)';
  const projectId = env.CI_PROJECT_ID ?? '';
  if (!/^\d{1,15}$/.test(projectId)) return 'CI_PROJECT_ID is not set (is this a GitLab CI job?)';
  let api: URL;
  try {
    api = new URL(env.CI_API_V4_URL ?? '');
  } catch {
    return 'CI_API_V4_URL is not set or not a URL (is this a GitLab CI job?)';
  }
  if (api.protocol !== 'https:' && api.protocol !== 'http:') return `CI_API_V4_URL must be an http(s) address, not ${api.protocol}`;
  return { api, projectId, mergeRequestIid: Number(iid), token };
}

interface Note {
  id: number;
  body?: string | null;
  system?: boolean;
}

/** Creates flakeboard's note on the merge request, or updates the one already there (found by its marker). */
export async function upsertGitLabNote(target: GitLabTarget, body: string): Promise<{ action: 'created' | 'updated' }> {
  const headers = { accept: 'application/json', 'private-token': target.token, 'user-agent': 'flakeboard' };
  const base = target.api.href.endsWith('/') ? target.api.href : `${target.api.href}/`;
  const notesPath = `projects/${target.projectId}/merge_requests/${target.mergeRequestIid}/notes`;
  const notes = await listPages<Note>(new URL(`${notesPath}?per_page=100&sort=asc&order_by=created_at`, base), headers, MAX_PAGES);
  const ours = notes.find((n) => !n.system && typeof n.body === 'string' && n.body.startsWith(COMMENT_MARKER));
  const full = `${COMMENT_MARKER}\n${body}`;
  if (ours) {
    if (!Number.isSafeInteger(ours.id)) throw new RestError('a listed note has no id', null);
    await restCall({ method: 'PUT', url: new URL(`${notesPath}/${ours.id}`, base), headers, body: { body: full } });
    return { action: 'updated' };
  }
  await restCall({ method: 'POST', url: new URL(notesPath, base), headers, body: { body: full } });
  return { action: 'created' };
}

export function gitlabHint(error: unknown): string {
  if (!(error instanceof RestError)) return '';
  if (error.status === 401 || error.status === 403) return ' (the token needs the api scope and at least the Reporter role on the project)';
  if (error.status === 404) return ' (no such project or merge request for this token)';
  return '';
}
