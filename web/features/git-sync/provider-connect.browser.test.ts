// @sqlite-run-only: the Git Sync screen's account and repository steps in Chromium; what they change goes through the API, whose operations the API and end-to-end tests run on both databases.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startGitServer, type GitServer } from '../../../src/features/git-sync/git-server.test-support.ts';
import { screenshot, withoutChromium } from '../../../test/browser.ts';
import { webAppSuite } from '../../../test/browser-suite.ts';
import { startFakeGitHub, type FakeGitHub } from '../../../test/fake-github.ts';
import { ok } from '../../../test/assertions.ts';
import { buildSpace } from '../../../test/factories.ts';
import { choose } from '../../../test/web-app.ts';

/*
 * Git Sync through a GitHub account, as a writer sets it up on the space's Git Sync screen: the account's token
 * (a wrong one is refused with GitHub's word, and the installation waits for a good one), then the repository
 * and branch picked from what the token reaches, and the sync started from the repository. A fake GitHub API
 * answers the token's calls; the repository itself is served by git http-backend.
 */

describe('Git Sync through a GitHub account in Chromium', { skip: withoutChromium, timeout: 300_000 }, () => {
  const env: Record<string, string> = { ALLOW_PRIVATE_FETCH: 'true' };
  let git: GitServer;
  let github: FakeGitHub;
  // Before the suite's own hook: the server starts with the fake GitHub's address.
  before(async () => {
    git = await startGitServer();
    git.createRepository('docs', { 'README.md': '# Docs\n\nWelcome from the repository.\n', 'SUMMARY.md': '# Table of contents\n\n* [Docs](README.md)\n' });
    github = await startFakeGitHub((path, page) => {
      if (path === '/user') return { login: 'octo' };
      if (path === '/user/repos') {
        const repos = [
          { id: 7, name: 'docs', full_name: 'octo/docs', owner: { login: 'octo' }, default_branch: 'main' },
          { id: 8, name: 'site', full_name: 'octo/site', owner: { login: 'octo' }, default_branch: 'trunk' },
        ];
        return page === 1 ? repos : [];
      }
      if (path === '/repositories/7') return { id: 7, full_name: 'octo/docs', default_branch: 'main', clone_url: git.url('docs'), html_url: 'https://github.example/octo/docs' };
      if (path === '/repos/octo/docs/branches') return page === 1 ? [{ name: 'main' }, { name: 'next' }] : [];
      return undefined;
    });
    env.GITHUB_API_URL = github.url;
  });
  after(async () => {
    await github.close();
    await git.close();
  });
  const suite = webAppSuite({ env });

  test("a writer connects a GitHub account, picks the repository and branch, and the space syncs from it", async () => {
    const { t } = suite;
    const space = await buildSpace(t, { title: 'Handbook' });
    const page = await suite.signedIn();
    await page.goto(`${suite.origin}/app/s/${space.id}/~/git`);
    await suite.settled(page);
    const panel = page.getByRole('region', { name: /^Through a GitHub or GitLab account/ });

    // A wrong token: GitHub's refusal next to the form, the typed token kept, the installation waiting for one.
    await panel.getByLabel('GitHub access token').fill('ghp_wrong');
    await panel.getByRole('button', { name: 'Connect GitHub' }).click();
    await panel.getByRole('alert').filter({ hasText: /accessToken/ }).waitFor();
    assert.equal(await panel.getByLabel('GitHub access token').inputValue(), 'ghp_wrong');
    await panel.getByText('Needs a token').waitFor();

    await panel.getByLabel('GitHub access token').fill('ghp_good');
    await panel.getByRole('button', { name: 'Connect GitHub' }).click();
    await panel.getByText('GitHub connected').waitFor();
    await choose(panel.getByLabel('Repository', { exact: true }), 'octo/docs');
    // The repository's default branch is chosen; its branches are offered.
    await panel.getByRole('combobox', { name: 'Branch' }).filter({ hasText: 'main' }).waitFor();
    await suite.assertAccessible(page, 'Git Sync with a GitHub account connected');
    await screenshot(page, 'git-sync-provider');
    await panel.getByRole('button', { name: 'Start syncing' }).click();
    await page.getByRole('alertdialog', { name: 'Replace this space’s content?' }).getByRole('button', { name: 'Replace and sync' }).click();
    await page.getByRole('status').filter({ hasText: /^Import: / }).waitFor();
    await t.app.jobs.runDue();
    await page.getByRole('status').filter({ hasText: 'Import: Succeeded' }).waitFor({ timeout: 15_000 });

    const info = ok(await t.api('GET', `/v1/spaces/${space.id}/git/info`));
    const installation = ok(await t.api('GET', `/v1/git/installations/${info.installationId}`));
    assert.deepEqual([installation.provider, installation.status, installation.providerConfiguration.repositoryId, installation.providerConfiguration.branch], ['github', 'active', 7, 'refs/heads/main']);
    const content = ok(await t.api('GET', `/v1/spaces/${space.id}/content`));
    assert.deepEqual(content.pages.map((p: { title: string }) => p.title), ['Docs']);

    // Disconnecting forgets the account; the space keeps its content.
    await panel.getByRole('button', { name: 'Disconnect the GitHub account' }).click();
    await page.getByRole('alertdialog', { name: 'Disconnect the GitHub account?' }).getByRole('button', { name: 'Disconnect account' }).click();
    await panel.getByLabel('GitHub access token').waitFor();
    assert.equal((await t.api('GET', `/v1/git/installations/${installation.id}`)).status, 404);
  });
});
