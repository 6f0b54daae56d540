import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as gitbookLatest from '@gitbook/api-latest';
import { buildSpace } from '../factories.ts';
import { rejectsWith, type Latest } from './gitbook-client.ts';
import { e2eSession } from './e2e-session.ts';

/**
 * Git Sync installations (0.202.0) through the official client, against a fake GitHub API and a fake GitLab API
 * served here: an installation is made on a space or a site, given a token (sealed, never shown), and lists the
 * repositories, branches and files its token reaches; the provider's refusals and failures are clear errors.
 */

/** The providers and priorities as the newest client types them. */
const { GitSyncInstallationProvider, GitSyncInstallationPriority } = gitbookLatest as unknown as Latest;
const GITHUB = GitSyncInstallationProvider.Github;
const GITLAB = GitSyncInstallationProvider.Gitlab;
const FROM_GIT = GitSyncInstallationPriority.Git;

const OPERATIONS = [
  'installGitSyncProviderOnTarget',
  'getGitSyncInstallationById',
  'updateGitSyncInstallationById',
  'uninstallGitSyncInstallation',
  'listGitHubRepositoriesForGitSyncInstallation',
  'listGitHubRepoBranchesForGitSyncInstallation',
  'getGitHubRepoFileForGitSyncInstallation',
  'listGitLabProjectsForGitSyncInstallation',
  'listGitLabProjectBranchesForGitSyncInstallation',
  'getGitLabProjectFileForGitSyncInstallation',
  'listSiteGitSyncInstallations',
];

type Mode = 'ok' | 'down' | 'hangup' | 'revoked';

interface FakeProvider {
  url: string;
  mode: Mode;
  /** The Authorization headers received, in order. */
  seen: string[];
  close(): Promise<void>;
}

function json(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** Serves `routes` (path without query -> answer) to a request bearing `token`, as the provider would. */
async function fakeProvider(token: string, route: (path: string, query: URLSearchParams, base: string) => [number, unknown] | undefined): Promise<FakeProvider> {
  const fake: FakeProvider = { url: '', mode: 'ok', seen: [], close: () => Promise.resolve() };
  const server = http.createServer((req, res) => {
    fake.seen.push(req.headers.authorization ?? '');
    if (fake.mode === 'hangup') return void req.socket.destroy();
    if (fake.mode === 'down') return json(res, 503, { message: 'Service Unavailable' });
    if (req.headers.authorization !== `Bearer ${token}` || fake.mode === 'revoked') return json(res, 401, { message: 'Bad credentials' });
    const url = new URL(req.url ?? '/', fake.url);
    const answer = route(url.pathname, url.searchParams, fake.url);
    return answer ? json(res, answer[0], answer[1]) : json(res, 404, { message: 'Not Found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () => new Promise((resolve) => server.close(() => resolve()));
  return fake;
}

/** A page of `items` as both providers serve them (page and per_page). */
function paged<T>(items: T[], query: URLSearchParams): T[] {
  const perPage = Number(query.get('per_page') ?? 30);
  const page = Number(query.get('page') ?? 1);
  return items.slice((page - 1) * perPage, page * perPage);
}

// 105 repositories: two pages of the 100 asked each time.
const GITHUB_REPOS = Array.from({ length: 105 }, (_, i) => ({ id: 1000 + i, name: `repo-${String(i).padStart(3, '0')}`, owner: { login: 'octo' }, default_branch: 'main' })).map((r) => ({
  ...r,
  full_name: `octo/${r.name}`,
}));
GITHUB_REPOS[0] = { id: 7, name: 'docs', owner: { login: 'octo' }, default_branch: 'main', full_name: 'octo/docs' };

function githubRoute(path: string, query: URLSearchParams, base: string): [number, unknown] | undefined {
  if (path === '/user') return [200, { login: 'octo' }];
  if (path === '/user/repos') return [200, paged(GITHUB_REPOS, query)];
  if (path === '/repositories/7') return [200, { id: 7, full_name: 'octo/docs', default_branch: 'main', clone_url: `${base}/octo/docs.git`, html_url: 'https://github.example/octo/docs' }];
  if (path === '/repos/octo/docs/branches') return [200, paged([{ name: 'main' }, { name: 'feature/pick' }], query)];
  if (path === '/repos/octo/docs/contents/docs/README.md' && query.get('ref') === 'main') {
    return [200, { type: 'file', name: 'README.md', path: 'docs/README.md', sha: 'abc123', size: 42, content: 'IyBIZWxsbw==' }];
  }
  if (path === '/repos/octo/docs/contents/docs') return [200, [{ type: 'file', name: 'README.md', path: 'docs/README.md' }]];
  return undefined;
}

function gitlabRoute(path: string, query: URLSearchParams, base: string): [number, unknown] | undefined {
  if (path === '/api/v4/user') return [200, { username: 'tanuki' }];
  if (path === '/api/v4/projects' && query.get('membership') === 'true') {
    return [200, paged([{ id: 42, path: 'handbook', path_with_namespace: 'team/sub/handbook', namespace: { full_path: 'team/sub' }, default_branch: 'trunk' }, { id: 43, path: 'empty', path_with_namespace: 'team/empty', namespace: { full_path: 'team' }, default_branch: null }], query)];
  }
  if (path === '/api/v4/projects/42') return [200, { id: 42, path_with_namespace: 'team/sub/handbook', default_branch: 'trunk', http_url_to_repo: `${base}/team/sub/handbook.git`, web_url: `${base}/team/sub/handbook` }];
  if (path === '/api/v4/projects/42/repository/branches') return [200, paged([{ name: 'trunk' }], query)];
  if (path === '/api/v4/projects/42/repository/files/gitbook-docs.yaml' && query.get('ref') === 'trunk') return [200, { file_name: 'gitbook-docs.yaml', file_path: 'gitbook-docs.yaml', size: 12, blob_id: 'b10b' }];
  return undefined;
}

describe('Git Sync installations through the official client', { timeout: 120_000 }, () => {
  const env: Record<string, string> = {};
  let github: FakeProvider;
  let gitlab: FakeProvider;
  // The fake providers start first: the server's settings name them.
  before(async () => {
    github = await fakeProvider('ghp_good', githubRoute);
    gitlab = await fakeProvider('glpat-good', gitlabRoute);
    env.GITHUB_API_URL = github.url;
    env.GITLAB_URL = gitlab.url;
  });
  after(async () => {
    await github.close();
    await gitlab.close();
  });
  const session = e2eSession({ env });

  test('an organization admin installs GitHub on a space and gives it a token; those who may set up Git Sync list repositories, branches and files', async () => {
    const { t } = session;
    const git = session.latest().git;
    const space = await buildSpace(t, { title: 'Guides' });

    const { data: installed } = await git.installGitSyncProviderOnTarget({ provider: GITHUB, target: { type: 'space', spaceId: space.id as string } });
    assert.equal(installed.object, 'git-sync-installation');
    assert.equal(installed.status, 'unauthenticated');
    assert.deepEqual(installed.target, { type: 'space', spaceId: space.id });
    await rejectsWith(git.installGitSyncProviderOnTarget({ provider: GITLAB, target: { type: 'space', spaceId: space.id as string } }), 409, installed.id);
    // The space's Git Sync state names its installation before anything is synced (the app's screen finds it there).
    const { data: state } = await session.latest().spaces.getSpaceGitInfo(space.id as string);
    assert.deepEqual(state, { installationId: installed.id, installationProvider: 'github', installationStatus: 'unauthenticated' });
    // Without a token there is nothing to list yet, and the error says what to do.
    await rejectsWith(git.listGitHubRepositoriesForGitSyncInstallation(installed.id), 409, 'providerConfiguration.accessToken');

    // A token GitHub refuses is refused here, naming the field; one it takes makes the installation active.
    await rejectsWith(git.updateGitSyncInstallationById(installed.id, { provider: GITHUB, providerConfiguration: { accessToken: 'ghp_wrong' } as never }), 400, 'body/providerConfiguration/accessToken');
    await rejectsWith(git.updateGitSyncInstallationById(installed.id, { provider: GITLAB, providerConfiguration: {} }), 400, 'body/provider');
    await rejectsWith(git.updateGitSyncInstallationById(installed.id, { provider: GITHUB, providerConfiguration: { projectId: 3 } as never }), 400, 'body/providerConfiguration/projectId');
    const { data: active } = await git.updateGitSyncInstallationById(installed.id, {
      provider: GITHUB,
      providerConfiguration: { accessToken: 'ghp_good' } as never,
      projectDirectory: 'docs',
      agentInstructions: ['agents'],
    });
    assert.equal(active.status, 'active');
    assert.equal((await session.latest().spaces.getSpaceGitInfo(space.id as string)).data.installationStatus, 'active');
    assert.equal(active.projectDirectory, 'docs');
    assert.deepEqual(active.agentInstructions, ['agents']);
    const read = await t.api('GET', `/v1/git/installations/${installed.id}`);
    assert.equal(read.status, 200);
    assert.doesNotMatch(JSON.stringify(read.body), /ghp_good/);
    assert.equal((await git.getGitSyncInstallationById(installed.id)).data.status, 'active');

    // Every repository of the token's user, both pages of GitHub's answer; the token went as a bearer token.
    const { data: repos } = await git.listGitHubRepositoriesForGitSyncInstallation(installed.id);
    assert.equal(repos.items.length, 105);
    assert.deepEqual(repos.items[0], { id: 7, accountName: 'octo', repositoryName: 'docs', fullName: 'octo/docs', defaultBranch: 'main' });
    assert.equal(github.seen.at(-1), 'Bearer ghp_good');
    const { data: branches } = await git.listGitHubRepoBranchesForGitSyncInstallation(installed.id, 'octo', 'docs');
    assert.deepEqual(branches.items, [
      { name: 'main', ref: 'refs/heads/main' },
      { name: 'feature/pick', ref: 'refs/heads/feature/pick' },
    ]);
    const { data: file } = await git.getGitHubRepoFileForGitSyncInstallation(installed.id, 'octo', 'docs', { path: 'docs/README.md', ref: 'main' });
    assert.deepEqual(file, { name: 'README.md', path: 'docs/README.md', sha: 'abc123', size: 42 });
    await rejectsWith(git.getGitHubRepoFileForGitSyncInstallation(installed.id, 'octo', 'docs', { path: 'docs', ref: 'main' }), 404, 'not a file');
    await rejectsWith(git.getGitHubRepoFileForGitSyncInstallation(installed.id, 'octo', 'docs', { path: 'missing.md', ref: 'main' }), 404, 'GitHub has no');
    await rejectsWith(git.listGitHubRepoBranchesForGitSyncInstallation(installed.id, 'octo', 'unknown'), 404);
    // The GitLab operations are for GitLab installations.
    await rejectsWith(git.listGitLabProjectsForGitSyncInstallation(installed.id), 400, 'GitHub installation');

    // A member with the edit role may set up Git Sync on the space: they list; a reader may not; someone of
    // another organization does not see the installation at all.
    const editor = await t.member('edit');
    assert.equal((await session.latest(editor.token).git.listGitHubRepositoriesForGitSyncInstallation(installed.id)).data.items.length, 105);
    await rejectsWith(session.latest(editor.token).git.updateGitSyncInstallationById(installed.id, { provider: GITHUB, providerConfiguration: {} }), 403, 'admin role in the organization');
    await rejectsWith(session.latest(editor.token).git.installGitSyncProviderOnTarget({ provider: GITHUB, target: { type: 'space', spaceId: (await buildSpace(t)).id as string } }), 403);
    const reader = await t.member('read');
    await rejectsWith(session.latest(reader.token).git.listGitHubRepositoriesForGitSyncInstallation(installed.id), 403);
    const outsider = await t.outsider();
    await rejectsWith(session.latest(outsider.token).git.getGitSyncInstallationById(installed.id), 404);
    await rejectsWith(session.latest(outsider.token).git.listGitHubRepositoriesForGitSyncInstallation(installed.id), 404);
    await rejectsWith(session.latest(outsider.token).git.uninstallGitSyncInstallation(installed.id), 404);
    await rejectsWith(session.latest(outsider.token).git.installGitSyncProviderOnTarget({ provider: GITHUB, target: { type: 'space', spaceId: space.id as string } }), 404);
    await rejectsWith(git.getGitSyncInstallationById('no-such-installation'), 404);
    await rejectsWith(git.installGitSyncProviderOnTarget({ provider: GITHUB, target: { type: 'space', spaceId: 'no-such-space' } }), 404);

    await git.uninstallGitSyncInstallation(installed.id);
    await rejectsWith(git.getGitSyncInstallationById(installed.id), 404);
    await rejectsWith(git.uninstallGitSyncInstallation(installed.id), 404);
  });

  test("choosing a repository and branch with priority git starts the space's import from the repository's clone URL, without showing the token", async () => {
    const { t } = session;
    const git = session.latest().git;
    const space = await buildSpace(t, { title: 'Synced' });
    const { data: installed } = await git.installGitSyncProviderOnTarget({ provider: GITHUB, target: { type: 'space', spaceId: space.id as string } });
    await rejectsWith(git.updateGitSyncInstallationById(installed.id, { provider: GITHUB, providerConfiguration: { repositoryId: 7 } }), 400, 'body/providerConfiguration/repositoryId');
    await git.updateGitSyncInstallationById(installed.id, { provider: GITHUB, providerConfiguration: { accessToken: 'ghp_good' } as never });
    await rejectsWith(git.updateGitSyncInstallationById(installed.id, { provider: GITHUB, providerConfiguration: { repositoryId: 999 } }), 400, 'body/providerConfiguration/repositoryId');
    await rejectsWith(git.updateGitSyncInstallationById(installed.id, { provider: GITHUB, providerConfiguration: { repositoryId: 7 }, priority: FROM_GIT }), 400, 'body/priority');

    const { data: chosen } = await git.updateGitSyncInstallationById(installed.id, {
      provider: GITHUB,
      providerConfiguration: { repositoryId: 7, branch: 'refs/heads/main' },
      priority: FROM_GIT,
    });
    assert.deepEqual(chosen.providerConfiguration, { repositoryId: 7, branch: 'refs/heads/main' });
    assert.equal(chosen.priority, 'git');
    const info = (await session.client().spaces.getSpaceGitInfo(space.id as string)).data as unknown as Record<string, unknown>;
    assert.equal(info.installationId, installed.id);
    assert.equal(info.installationProvider, 'github');
    assert.equal(info.repoName, 'octo/docs');
    assert.equal(info.url, 'https://github.example/octo/docs');
    assert.equal((info.sync as { branch: string }).branch, 'refs/heads/main');
    assert.doesNotMatch(JSON.stringify(info), /ghp_good/);

    // Uninstalling disconnects the space's Git Sync the installation started.
    await git.uninstallGitSyncInstallation(installed.id);
    const after = (await t.api('GET', `/v1/spaces/${space.id}/git/info`)).body as { sync?: unknown };
    assert.equal(after.sync, undefined);
  });

  test("GitLab: projects, branches and files of the configured instance; a user's custom instance on a private address is refused", async () => {
    const { t } = session;
    const git = session.latest().git;
    const space = await buildSpace(t, { title: 'Handbook' });
    const { data: installed } = await git.installGitSyncProviderOnTarget({ provider: GITLAB, target: { type: 'space', spaceId: space.id as string } });
    await rejectsWith(git.updateGitSyncInstallationById(installed.id, { provider: GITLAB, providerConfiguration: { accessToken: 'glpat-bad' } }), 400, 'GitLab refused');
    await rejectsWith(git.updateGitSyncInstallationById(installed.id, { provider: GITLAB, providerConfiguration: { customInstanceURL: 'ftp://gitlab.example.com' } }), 400, 'body/providerConfiguration/customInstanceURL');
    await rejectsWith(
      git.updateGitSyncInstallationById(installed.id, { provider: GITLAB, providerConfiguration: { accessToken: 'glpat-good', customInstanceURL: 'http://127.0.0.2:9/' } }),
      400,
      'body/providerConfiguration/customInstanceURL',
    );
    const { data: active } = await git.updateGitSyncInstallationById(installed.id, { provider: GITLAB, providerConfiguration: { accessToken: 'glpat-good', projectId: 42, branch: 'refs/heads/trunk' } });
    assert.equal(active.status, 'active');
    assert.deepEqual(active.providerConfiguration, { projectId: 42, customInstanceURL: null, branch: 'refs/heads/trunk' });

    const { data: projects } = await git.listGitLabProjectsForGitSyncInstallation(installed.id);
    assert.deepEqual(projects.items, [
      { id: 42, accountName: 'team/sub', repositoryName: 'handbook', fullName: 'team/sub/handbook', defaultBranch: 'trunk' },
      { id: 43, accountName: 'team', repositoryName: 'empty', fullName: 'team/empty', defaultBranch: null },
    ]);
    assert.equal(gitlab.seen.at(-1), 'Bearer glpat-good');
    assert.deepEqual((await git.listGitLabProjectBranchesForGitSyncInstallation(installed.id, 42)).data.items, [{ name: 'trunk', ref: 'refs/heads/trunk' }]);
    const { data: file } = await git.getGitLabProjectFileForGitSyncInstallation(installed.id, 42, { path: 'gitbook-docs.yaml', ref: 'trunk' });
    assert.deepEqual(file, { name: 'gitbook-docs.yaml', path: 'gitbook-docs.yaml', sha: 'b10b', size: 12 });
    await rejectsWith(git.getGitLabProjectFileForGitSyncInstallation(installed.id, 42, { path: 'nope.md', ref: 'trunk' }), 404);
    await rejectsWith(git.listGitLabProjectBranchesForGitSyncInstallation(installed.id, 77), 404, 'GitLab has no');
    await rejectsWith(git.listGitHubRepositoriesForGitSyncInstallation(installed.id), 400, 'GitLab installation');
  });

  test('a provider that is down answers 502, and a token it no longer takes 409, saying what to do', async () => {
    const { t } = session;
    const git = session.latest().git;
    const space = await buildSpace(t, { title: 'Flaky' });
    const { data: installed } = await git.installGitSyncProviderOnTarget({ provider: GITHUB, target: { type: 'space', spaceId: space.id as string } });
    await git.updateGitSyncInstallationById(installed.id, { provider: GITHUB, providerConfiguration: { accessToken: 'ghp_good' } as never });
    try {
      github.mode = 'down';
      await rejectsWith(git.listGitHubRepositoriesForGitSyncInstallation(installed.id), 502, 'GitHub answered HTTP 503');
      github.mode = 'hangup';
      await rejectsWith(git.listGitHubRepoBranchesForGitSyncInstallation(installed.id, 'octo', 'docs'), 502, 'GitHub could not be reached');
      github.mode = 'revoked';
      await rejectsWith(git.getGitHubRepoFileForGitSyncInstallation(installed.id, 'octo', 'docs', { path: 'docs/README.md', ref: 'main' }), 409, 'updateGitSyncInstallationById');
    } finally {
      github.mode = 'ok';
    }
    assert.equal((await git.listGitHubRepositoriesForGitSyncInstallation(installed.id)).data.items.length, 105);
  });

  test("a site's installations are its own and those of its spaces the caller may use; uninstalling the site's removes those it manages", async () => {
    const { t } = session;
    const git = session.latest().git;
    const org = t.org.id;
    const space = await buildSpace(t, { title: 'Published' });
    const { data: site } = await session.client().orgs.createSite(org, { title: 'Docs site', spaces: [space.id] } as never);
    await rejectsWith(git.installGitSyncProviderOnTarget({ provider: GITHUB, target: { type: 'space', spaceId: space.id as string, siteId: site.id } }), 400, 'body/target/siteId');
    const { data: parent } = await git.installGitSyncProviderOnTarget({ provider: GITHUB, target: { type: 'site', siteId: site.id } });
    await rejectsWith(git.installGitSyncProviderOnTarget({ provider: GITLAB, target: { type: 'space', spaceId: space.id as string, siteId: site.id } }), 400, 'body/provider');
    const { data: child } = await git.installGitSyncProviderOnTarget({ provider: GITHUB, target: { type: 'space', spaceId: space.id as string, siteId: site.id } });
    assert.equal(child.parentInstallationId, parent.id);
    assert.equal(child.status, 'unauthenticated');
    // The site's token serves the spaces' installations it manages; their project directories are set from it.
    await git.updateGitSyncInstallationById(parent.id, { provider: GITHUB, providerConfiguration: { accessToken: 'ghp_good' } as never, childInstallationProjectDirectories: { [child.id]: 'guides' } });
    await rejectsWith(git.updateGitSyncInstallationById(parent.id, { provider: GITHUB, providerConfiguration: {}, childInstallationProjectDirectories: { other: 'x' } }), 400, 'body/childInstallationProjectDirectories/other');
    await rejectsWith(git.updateGitSyncInstallationById(child.id, { provider: GITHUB, providerConfiguration: {}, previewExternalBranches: true }), 400, 'body/previewExternalBranches');
    await rejectsWith(git.updateGitSyncInstallationById(parent.id, { provider: GITHUB, providerConfiguration: {}, priority: FROM_GIT }), 400, 'body/priority');
    const { data: childNow } = await git.getGitSyncInstallationById(child.id);
    assert.equal(childNow.status, 'active');
    assert.equal(childNow.projectDirectory, 'guides');
    assert.equal((await git.listGitHubRepositoriesForGitSyncInstallation(child.id)).data.items.length, 105);

    const { data: listed } = await session.latest().orgs.listSiteGitSyncInstallations(org, site.id);
    assert.deepEqual(listed.items.map((item) => item.id), [parent.id, child.id]);
    // A reader sees the site but may use none of them; another organization does not see the site.
    const reader = await t.member('read');
    assert.deepEqual((await session.latest(reader.token).orgs.listSiteGitSyncInstallations(org, site.id)).data.items, []);
    const editor = await t.member('edit');
    assert.deepEqual((await session.latest(editor.token).orgs.listSiteGitSyncInstallations(org, site.id)).data.items.map((item) => item.id), [child.id]);
    const outsider = await t.outsider();
    await rejectsWith(session.latest(outsider.token).orgs.listSiteGitSyncInstallations(org, site.id), 404);

    await git.uninstallGitSyncInstallation(parent.id);
    await rejectsWith(git.getGitSyncInstallationById(child.id), 404);
    assert.deepEqual((await session.latest().orgs.listSiteGitSyncInstallations(org, site.id)).data.items, []);
  });

  test('every Git Sync installation operation answered a success that conforms to the official spec', () => {
    session.assertConformed(OPERATIONS);
  });
});
