/** Branch, commit and CI build from a CI system's environment variables (docs/architecture.md#the-walk-of-an-import). */
export interface CiGit {
  ci: string | null;
  branch: string | null;
  commit: string | null;
}

/** The CI build a run belongs to: every shard of one build carries the same id. */
export interface CiBuild {
  buildId: string | null;
  buildUrl: string | null;
}

type Env = Record<string, string | undefined>;

interface Provider {
  name: string;
  detect: (env: Env) => boolean;
  commit: (env: Env) => string | undefined;
  branch: (env: Env) => string | undefined;
  /** The whole build (pipeline, workflow run), not the job: shards are jobs of one build. */
  buildId: (env: Env) => string | undefined;
  buildUrl: (env: Env) => string | undefined;
}

const PROVIDERS: readonly Provider[] = [
  {
    name: 'GitHub Actions',
    detect: (env) => env.GITHUB_ACTIONS === 'true',
    commit: (env) => env.GITHUB_SHA,
    // On pull requests GITHUB_REF_NAME is "123/merge"; the head branch is what people know.
    branch: (env) => env.GITHUB_HEAD_REF || env.GITHUB_REF_NAME,
    // A re-run keeps the run id and counts attempts: each attempt is its own build.
    buildId: (env) => env.GITHUB_RUN_ID && (env.GITHUB_RUN_ATTEMPT && env.GITHUB_RUN_ATTEMPT !== '1' ? `${env.GITHUB_RUN_ID}-${env.GITHUB_RUN_ATTEMPT}` : env.GITHUB_RUN_ID),
    buildUrl: (env) =>
      env.GITHUB_RUN_ID && env.GITHUB_REPOSITORY ? `${env.GITHUB_SERVER_URL || 'https://github.com'}/${env.GITHUB_REPOSITORY}/actions/runs/${env.GITHUB_RUN_ID}` : undefined,
  },
  {
    name: 'GitLab CI',
    detect: (env) => env.GITLAB_CI === 'true',
    commit: (env) => env.CI_COMMIT_SHA,
    branch: (env) => env.CI_MERGE_REQUEST_SOURCE_BRANCH_NAME || env.CI_COMMIT_BRANCH || env.CI_COMMIT_REF_NAME,
    buildId: (env) => env.CI_PIPELINE_ID,
    buildUrl: (env) => env.CI_PIPELINE_URL,
  },
  {
    name: 'CircleCI',
    detect: (env) => env.CIRCLECI === 'true',
    commit: (env) => env.CIRCLE_SHA1,
    branch: (env) => env.CIRCLE_BRANCH,
    // Parallel containers of one job share CIRCLE_WORKFLOW_ID; CIRCLE_BUILD_URL is the job's page.
    buildId: (env) => env.CIRCLE_WORKFLOW_ID || env.CIRCLE_BUILD_NUM,
    buildUrl: (env) => env.CIRCLE_BUILD_URL,
  },
  {
    name: 'Buildkite',
    detect: (env) => env.BUILDKITE === 'true',
    commit: (env) => env.BUILDKITE_COMMIT,
    branch: (env) => env.BUILDKITE_BRANCH,
    buildId: (env) => env.BUILDKITE_BUILD_ID,
    buildUrl: (env) => env.BUILDKITE_BUILD_URL,
  },
  {
    name: 'Azure Pipelines',
    detect: (env) => env.TF_BUILD === 'True' || env.TF_BUILD === 'true',
    commit: (env) => env.BUILD_SOURCEVERSION,
    branch: (env) => (env.SYSTEM_PULLREQUEST_SOURCEBRANCH || env.BUILD_SOURCEBRANCH)?.replace(/^refs\/heads\//, ''),
    buildId: (env) => env.BUILD_BUILDID,
    buildUrl: (env) =>
      env.BUILD_BUILDID && env.SYSTEM_COLLECTIONURI && env.SYSTEM_TEAMPROJECT
        ? `${env.SYSTEM_COLLECTIONURI.replace(/\/+$/, '')}/${encodeURIComponent(env.SYSTEM_TEAMPROJECT)}/_build/results?buildId=${encodeURIComponent(env.BUILD_BUILDID)}`
        : undefined,
  },
  {
    name: 'Jenkins',
    detect: (env) => Boolean(env.JENKINS_URL),
    commit: (env) => env.GIT_COMMIT,
    branch: (env) => (env.BRANCH_NAME || env.GIT_BRANCH)?.replace(/^origin\//, ''),
    buildId: (env) => env.BUILD_TAG || env.BUILD_NUMBER,
    buildUrl: (env) => env.BUILD_URL,
  },
];

const detected = (env: Env): Provider | undefined => PROVIDERS.find((provider) => provider.detect(env));

export function gitFromCiEnv(env: Env): CiGit {
  const provider = detected(env);
  if (!provider) return { ci: null, branch: null, commit: null };
  return { ci: provider.name, branch: provider.branch(env) || null, commit: provider.commit(env) || null };
}

/** The build id and URL a CI job runs in; values that would not pass checkBuild are left out. */
export function buildFromCiEnv(env: Env): CiBuild {
  const provider = detected(env);
  if (!provider) return { buildId: null, buildUrl: null };
  const buildId = provider.buildId(env)?.trim() || null;
  const buildUrl = provider.buildUrl(env)?.trim() || null;
  return {
    buildId: buildId !== null && buildIdProblem(buildId) === null ? buildId : null,
    buildUrl: buildUrl !== null && buildUrlProblem(buildUrl) === null ? buildUrl : null,
  };
}

export const BUILD_ID_MAX = 200;
export const BUILD_URL_MAX = 1000;

/** Why a build id cannot be stored, or null. Checked by the CLI and again by the server. */
export function buildIdProblem(id: string): string | null {
  if (id.trim() === '') return 'the build id is empty';
  if (id.length > BUILD_ID_MAX) return `the build id is ${id.length} characters long; at most ${BUILD_ID_MAX} are kept`;
  // C1 too: U+009B is a terminal's CSI, as ESC [ is.
  if (/[\u0000-\u001f\u007f-\u009f]/.test(id)) return 'the build id holds control characters';
  return null;
}

/** Why a build URL cannot be stored, or null: only absolute http(s) URLs become links. */
export function buildUrlProblem(url: string): string | null {
  if (url.length > BUILD_URL_MAX) return `the build URL is ${url.length} characters long; at most ${BUILD_URL_MAX} are kept`;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `the build URL ${JSON.stringify(url.slice(0, 100))} is not an absolute URL`;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return `the build URL must start with http:// or https://, not ${parsed.protocol}`;
  return null;
}
