// @sqlite-run-only: the import screen's Git repository form in Chromium; what they change goes through the API, whose operations the API and end-to-end tests run on both databases.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startGitServer, type GitServer } from '../../../src/features/git-sync/git-server.test-support.ts';
import { screenshot, withoutChromium } from '../../../test/browser.ts';
import { webAppSuite } from '../../../test/browser-suite.ts';
import { startFakeGitHub, type FakeGitHub } from '../../../test/fake-github.ts';
import { ok } from '../../../test/assertions.ts';
import { choose } from '../../../test/web-app.ts';

/*
 * "From a Git repository" on the import screen (issue 41): a new space imported from a repository's branch by Git
 * Sync, which connects them. A refused URL shows beside the field with what was typed; the import's end is on the
 * form, and the space then syncs (its Git Sync screen says so). Or through a GitHub account: the space is made,
 * then the Git Sync screen's account panel takes the token and the repository. The repository is served by git
 * http-backend; a fake GitHub API answers the token's calls.
 */
describe('a new space from a Git repository on the import screen, in Chromium', { skip: withoutChromium, timeout: 300_000 }, () => {
  const env: Record<string, string> = { ALLOW_PRIVATE_FETCH: 'true' };
  let git: GitServer;
  let github: FakeGitHub;
  // Before the suite's own hook: the server is told it may fetch from this machine, and where GitHub's API is.
  before(async () => {
    git = await startGitServer();
    git.createRepository('docs', { 'README.md': '# Docs\n\nWelcome from the repository.\n', 'SUMMARY.md': '# Table of contents\n\n* [Docs](README.md)\n* [Install](install.md)\n', 'install.md': '# Install\n\nRun the installer.\n' });
    github = await startFakeGitHub((path, page) => {
      if (path === '/user') return { login: 'octo' };
      if (path === '/user/repos') return page === 1 ? [{ id: 7, name: 'docs', full_name: 'octo/docs', owner: { login: 'octo' }, default_branch: 'main' }] : [];
      if (path === '/repositories/7') return { id: 7, full_name: 'octo/docs', default_branch: 'main', clone_url: git.url('docs'), html_url: 'https://github.example/octo/docs' };
      if (path === '/repos/octo/docs/branches') return page === 1 ? [{ name: 'main' }] : [];
      return undefined;
    });
    env.GITHUB_API_URL = github.url;
  });
  after(async () => {
    await github.close();
    await git.close();
  });
  const web = webAppSuite({ env });

  test('a writer imports a repository into a new space, which Git Sync then keeps in step', async () => {
    const { t } = web;
    const page = await web.signedIn();
    await page.goto(`${web.origin}/app/o/${t.org.id}/import`);
    await web.settled(page);
    const form = page.getByRole('form', { name: 'From a Git repository' });
    await form.getByLabel('Title of the new space').fill('Product docs');
    const url = form.getByLabel('Repository URL');
    // A URL the browser takes but Git Sync refuses: the message beside the field, what was typed kept.
    await url.fill('ftp://git.example/docs.git');
    await form.getByRole('button', { name: 'Import and sync' }).click();
    await form.getByText(/url: only http and https repositories can be synced/).waitFor();
    assert.equal(await url.getAttribute('aria-invalid'), 'true');
    assert.equal(await url.inputValue(), 'ftp://git.example/docs.git');
    await web.assertAccessible(page, 'the Git import with a refused URL');

    await url.fill(git.url('docs'));
    await form.getByRole('button', { name: 'Import and sync' }).click();
    await form.getByRole('status').filter({ hasText: /^Import: / }).waitFor();
    await t.app.jobs.runDue();
    await form.getByRole('status').filter({ hasText: 'Import: Succeeded' }).waitFor({ timeout: 15_000 });
    await web.assertAccessible(page, 'the Git import, done');
    await screenshot(page, 'import-from-git');
    // One space, made once though the first attempt was refused.
    const spaces = ok(await t.api('GET', `/v1/orgs/${t.org.id}/spaces`)).items as { id: string; title: string }[];
    assert.deepEqual(spaces.filter((s) => s.title === 'Product docs').length, 1);

    await form.getByRole('link', { name: 'Git Sync of Product docs' }).click();
    await page.getByRole('heading', { level: 2, name: /^Synced automatically/ }).waitFor();
    await page.getByText(git.url('docs')).first().waitFor();
    await page.context().close();
  });

  test('through a GitHub account: the space is made, then the account’s token and the repository picked from it start the sync', async () => {
    const { t } = web;
    const page = await web.signedIn();
    await page.goto(`${web.origin}/app/o/${t.org.id}/import`);
    await web.settled(page);
    const form = page.getByRole('form', { name: 'From a Git repository' });
    await form.getByLabel('Title of the new space').fill('Account docs');
    await form.getByRole('radio', { name: 'Through a GitHub or GitLab account' }).click();
    assert.equal(await form.getByLabel('Repository URL').count(), 0, 'no URL to type');
    await form.getByRole('button', { name: 'Create the space' }).click();
    const panel = page.getByRole('region', { name: /^Through a GitHub or GitLab account/ });
    await panel.getByLabel('GitHub access token').fill('ghp_good');
    await panel.getByRole('button', { name: 'Connect GitHub' }).click();
    await panel.getByText('GitHub connected').waitFor();
    await choose(panel.getByLabel('Repository', { exact: true }), 'octo/docs');
    await panel.getByRole('combobox', { name: 'Branch' }).filter({ hasText: 'main' }).waitFor();
    await web.assertAccessible(page, 'the Git import through a GitHub account');
    await screenshot(page, 'import-from-git-account');
    await panel.getByRole('button', { name: 'Start syncing' }).click();
    await page.getByRole('alertdialog', { name: 'Replace this space’s content?' }).getByRole('button', { name: 'Replace and sync' }).click();
    await form.getByRole('status').filter({ hasText: /^Import: / }).waitFor();
    await t.app.jobs.runDue();
    await form.getByRole('status').filter({ hasText: 'Import: Succeeded' }).waitFor({ timeout: 15_000 });
    await page.context().close();
  });
});
