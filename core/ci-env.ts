/** Branch and commit from a CI system's environment variables (DESIGN.md section 4). */
export interface CiGit {
  ci: string | null;
  branch: string | null;
  commit: string | null;
}

type Env = Record<string, string | undefined>;

const PROVIDERS: ReadonlyArray<{ name: string; detect: (env: Env) => boolean; commit: (env: Env) => string | undefined; branch: (env: Env) => string | undefined }> = [
  {
    name: 'GitHub Actions',
    detect: (env) => env.GITHUB_ACTIONS === 'true',
    commit: (env) => env.GITHUB_SHA,
    // On pull requests GITHUB_REF_NAME is "123/merge"; the head branch is what people know.
    branch: (env) => env.GITHUB_HEAD_REF || env.GITHUB_REF_NAME,
  },
  {
    name: 'GitLab CI',
    detect: (env) => env.GITLAB_CI === 'true',
    commit: (env) => env.CI_COMMIT_SHA,
    branch: (env) => env.CI_MERGE_REQUEST_SOURCE_BRANCH_NAME || env.CI_COMMIT_BRANCH || env.CI_COMMIT_REF_NAME,
  },
  {
    name: 'CircleCI',
    detect: (env) => env.CIRCLECI === 'true',
    commit: (env) => env.CIRCLE_SHA1,
    branch: (env) => env.CIRCLE_BRANCH,
  },
  {
    name: 'Buildkite',
    detect: (env) => env.BUILDKITE === 'true',
    commit: (env) => env.BUILDKITE_COMMIT,
    branch: (env) => env.BUILDKITE_BRANCH,
  },
  {
    name: 'Azure Pipelines',
    detect: (env) => env.TF_BUILD === 'True' || env.TF_BUILD === 'true',
    commit: (env) => env.BUILD_SOURCEVERSION,
    branch: (env) => (env.SYSTEM_PULLREQUEST_SOURCEBRANCH || env.BUILD_SOURCEBRANCH)?.replace(/^refs\/heads\//, ''),
  },
  {
    name: 'Jenkins',
    detect: (env) => Boolean(env.JENKINS_URL),
    commit: (env) => env.GIT_COMMIT,
    branch: (env) => (env.BRANCH_NAME || env.GIT_BRANCH)?.replace(/^origin\//, ''),
  },
];

export function gitFromCiEnv(env: Env): CiGit {
  for (const provider of PROVIDERS) {
    if (!provider.detect(env)) continue;
    return { ci: provider.name, branch: provider.branch(env) || null, commit: provider.commit(env) || null };
  }
  return { ci: null, branch: null, commit: null };
}
