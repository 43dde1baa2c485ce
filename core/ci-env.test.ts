import { describe, expect, it } from 'vitest';
import { buildFromCiEnv, buildIdProblem, buildUrlProblem, gitFromCiEnv } from './ci-env.js';

describe('buildFromCiEnv', () => {
  it('reads each CI system’s build id and page', () => {
    const github = { GITHUB_ACTIONS: 'true', GITHUB_RUN_ID: '123', GITHUB_RUN_ATTEMPT: '1', GITHUB_SERVER_URL: 'https://github.com', GITHUB_REPOSITORY: 'o/r', GITHUB_SHA: 'abc', GITHUB_REF_NAME: 'main' };
    expect(buildFromCiEnv(github)).toEqual({ buildId: '123', buildUrl: 'https://github.com/o/r/actions/runs/123' });
    // A re-run is another build of the same run page.
    expect(buildFromCiEnv({ ...github, GITHUB_RUN_ATTEMPT: '2' })).toEqual({ buildId: '123-2', buildUrl: 'https://github.com/o/r/actions/runs/123' });
    expect(gitFromCiEnv(github)).toEqual({ ci: 'GitHub Actions', branch: 'main', commit: 'abc' });
    expect(buildFromCiEnv({ GITLAB_CI: 'true', CI_PIPELINE_ID: '55', CI_PIPELINE_URL: 'https://gitlab.com/g/p/-/pipelines/55', CI_JOB_ID: '9' })).toEqual({
      buildId: '55',
      buildUrl: 'https://gitlab.com/g/p/-/pipelines/55',
    });
    expect(buildFromCiEnv({ CIRCLECI: 'true', CIRCLE_WORKFLOW_ID: 'wf-1', CIRCLE_BUILD_URL: 'https://circleci.com/gh/o/r/7' })).toEqual({ buildId: 'wf-1', buildUrl: 'https://circleci.com/gh/o/r/7' });
    expect(buildFromCiEnv({ BUILDKITE: 'true', BUILDKITE_BUILD_ID: 'bk-1', BUILDKITE_BUILD_URL: 'https://buildkite.com/o/p/builds/3' })).toEqual({ buildId: 'bk-1', buildUrl: 'https://buildkite.com/o/p/builds/3' });
    expect(buildFromCiEnv({ TF_BUILD: 'True', BUILD_BUILDID: '42', SYSTEM_COLLECTIONURI: 'https://dev.azure.com/org/', SYSTEM_TEAMPROJECT: 'My Project' })).toEqual({
      buildId: '42',
      buildUrl: 'https://dev.azure.com/org/My%20Project/_build/results?buildId=42',
    });
    expect(buildFromCiEnv({ JENKINS_URL: 'https://j', BUILD_TAG: 'jenkins-job-8', BUILD_URL: 'https://j/job/x/8/' })).toEqual({ buildId: 'jenkins-job-8', buildUrl: 'https://j/job/x/8/' });
    expect(buildFromCiEnv({})).toEqual({ buildId: null, buildUrl: null });
  });

  it('leaves out values it could not store or link to', () => {
    expect(buildFromCiEnv({ JENKINS_URL: 'x', BUILD_NUMBER: '8', BUILD_URL: 'javascript:alert(1)' })).toEqual({ buildId: '8', buildUrl: null });
    expect(buildFromCiEnv({ GITLAB_CI: 'true', CI_PIPELINE_ID: 'x'.repeat(300) })).toEqual({ buildId: null, buildUrl: null });
  });
});

describe('build checks', () => {
  it('name the problem', () => {
    expect(buildIdProblem('9001')).toBeNull();
    expect(buildIdProblem(' ')).toBe('the build id is empty');
    expect(buildIdProblem('a\nb')).toBe('the build id holds control characters');
    expect(buildIdProblem('a\u009b2Jb')).toBe('the build id holds control characters');
    expect(buildUrlProblem('https://ci.example.com/b/1')).toBeNull();
    expect(buildUrlProblem('HTTP://ci.example.com/')).toBeNull();
    expect(buildUrlProblem('data:text/html,x')).toBe('the build URL must start with http:// or https://, not data:');
    expect(buildUrlProblem('/builds/1')).toBe('the build URL "/builds/1" is not an absolute URL');
  });
});
