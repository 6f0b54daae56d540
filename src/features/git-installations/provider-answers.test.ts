import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../../platform/errors.ts';
import { branchOf, githubFile, githubRepository, gitlabFile, gitlabProject, pageItems, providerRefusal } from './provider-answers.ts';

describe('what GitHub and GitLab answers mean', () => {
  test('a GitHub repository is read from its owner and name; one without an id is left out', () => {
    assert.deepEqual(githubRepository({ id: 1, name: 'docs', full_name: 'octo/docs', owner: { login: 'octo' }, default_branch: 'main' }), {
      id: 1,
      accountName: 'octo',
      repositoryName: 'docs',
      fullName: 'octo/docs',
      defaultBranch: 'main',
    });
    assert.equal(githubRepository({ name: 'docs', full_name: 'octo/docs' }), undefined);
  });

  test('an empty repository has no default branch: null, as the official shape allows', () => {
    assert.equal(githubRepository({ id: 2, name: 'empty', full_name: 'octo/empty' })?.defaultBranch, null);
    assert.equal(gitlabProject({ id: 3, path: 'empty', path_with_namespace: 'a/b/empty', default_branch: null })?.defaultBranch, null);
  });

  test("a GitLab project's account is its whole namespace path, from the project's path when the namespace is missing", () => {
    assert.equal(gitlabProject({ id: 4, path: 'handbook', path_with_namespace: 'team/sub/handbook', namespace: { full_path: 'team/sub' } })?.accountName, 'team/sub');
    assert.equal(gitlabProject({ id: 4, path: 'handbook', path_with_namespace: 'team/sub/handbook' })?.accountName, 'team/sub');
  });

  test('a branch is given with its full ref', () => {
    assert.deepEqual(branchOf({ name: 'feature/x' }), { name: 'feature/x', ref: 'refs/heads/feature/x' });
    assert.equal(branchOf({}), undefined);
  });

  test("a page of GitHub App installation repositories is read from `repositories`; an answer that is no list is the provider's fault (502)", () => {
    assert.deepEqual(pageItems('github', 'repos', { total_count: 1, repositories: [{ id: 1 }] }), [{ id: 1 }]);
    assert.deepEqual(pageItems('gitlab', 'projects', [{ id: 1 }, 'junk']), [{ id: 1 }]);
    assert.throws(() => pageItems('github', 'repos', { message: 'hm' }), (e: unknown) => e instanceof ApiError && e.statusCode === 502);
  });

  test('a GitHub directory, symlink or submodule is not a file (404); a GitLab file is read from its blob', () => {
    assert.throws(() => githubFile([{ type: 'file' }], 'docs'), (e: unknown) => e instanceof ApiError && e.statusCode === 404);
    assert.throws(() => githubFile({ type: 'symlink', name: 'x', sha: 's', size: 1 }, 'x'), (e: unknown) => e instanceof ApiError && e.statusCode === 404);
    assert.deepEqual(gitlabFile({ file_name: 'a.md', file_path: 'd/a.md', blob_id: 'b', size: 3 }, 'd/a.md'), { name: 'a.md', path: 'd/a.md', sha: 'b', size: 3 });
  });

  test("the provider's refusals: 404 stays 404, a refused token is the installation's to fix (409), rate limits and failures are 502", () => {
    const status = (code: number, body: unknown = {}) => providerRefusal('github', code, body, 'the list').statusCode;
    assert.equal(status(404), 404);
    assert.equal(status(401, { message: 'Bad credentials' }), 409);
    assert.equal(status(403, { message: 'Resource not accessible by integration' }), 409);
    assert.equal(status(403, { message: 'API rate limit exceeded for user' }), 502);
    assert.equal(status(429), 502);
    assert.equal(status(500), 502);
    assert.match(providerRefusal('gitlab', 401, { message: '401 Unauthorized' }, 'the token').message, /GitLab refused the installation's token for the token \(HTTP 401: 401 Unauthorized\)/);
  });
});
