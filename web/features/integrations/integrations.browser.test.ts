// @sqlite-run-only: the integration and content settings screens in Chromium; what they change goes through the API, whose operations the API and end-to-end tests run on both databases.
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { screenshot, withoutChromium } from '../../../test/browser.ts';
import { webAppSuite } from '../../../test/browser-suite.ts';
import { ok } from '../../../test/assertions.ts';
import { buildSpace } from '../../../test/factories.ts';
import { bundleLikeGitBookCli } from '../../../src/features/integrations/runtime/bundle.test-support.ts';
import { startGitServer, type GitServer } from '../../../src/features/git-sync/git-server.test-support.ts';
import { choose } from '../../../test/web-app.ts';

/*
 * Integrations and content settings in the browser as an admin uses them: an integration published through the
 * API with a ContentKit configuration (fixtures/announcer-integration.jsx, run in Quire's script isolate) is found
 * in the catalogue, installed, put on a space, configured through its own screen, and its event log shows the
 * first delivery (refused while nothing was configured) failed, then delivered when retried.
 */
describe('integrations and content settings in Chromium', { skip: withoutChromium, timeout: 300_000 }, () => {
  // The script's API client calls PUBLIC_URL on 127.0.0.1: private fetches allowed.
  const suite = webAppSuite({ env: { ALLOW_PRIVATE_FETCH: 'true' } });
  let script: string;
  let git: GitServer;

  before(async () => {
    git = await startGitServer();
    script = await bundleLikeGitBookCli(fileURLToPath(new URL('./fixtures/announcer-integration.jsx', import.meta.url)));
  });
  after(async () => {
    await git?.close();
  });

  async function settled(page: Page): Promise<void> {
    await page.locator('main').first().waitFor();
    await page.waitForFunction(() => document.querySelectorAll('.skeleton').length === 0, undefined, { timeout: 20_000 });
  }

  async function look(page: Page, name: string): Promise<void> {
    await suite.assertAccessible(page, name);
    await screenshot(page, `integrations-${name}`, { fullPage: true });
  }

  test('an admin installs an integration, configures it through its ContentKit screen and sees its events', async () => {
    const { t, origin } = suite;
    const name = 'announcer';
    ok(await t.api('POST', `/v1/integrations/${name}`, {
      body: { organization: t.org.id, title: 'Announcer', description: 'Announces new pages', visibility: 'public', script, scopes: ['space:content:read'], configurations: { account: { componentId: 'configure' }, space: { componentId: 'configure-space' } } },
    }));
    const space = await buildSpace(t, { title: 'Guides' });
    const page = await suite.signedIn();

    await page.goto(`${origin}/app/o/${t.org.id}`);
    await page.getByRole('navigation', { name: 'Organization' }).getByRole('link', { name: 'Integrations' }).click();
    await settled(page);
    await page.getByLabel('Search integrations').fill('announ');
    await page.getByRole('button', { name: 'Install Announcer' }).click();
    await page.getByRole('heading', { name: 'Announcer', level: 1 }).waitFor();
    await settled(page);

    // On one space of the organization.
    await page.getByRole('list', { name: 'Installed on these spaces' }).getByRole('checkbox', { name: 'Guides' }).click();
    await page.getByRole('list', { name: 'Installed on these spaces' }).getByRole('checkbox', { name: 'Guides' }).and(page.locator(':checked')).waitFor();
    const installation = ok(await t.api('GET', `/v1/integrations/${name}/installations`)).items[0];
    assert.deepEqual(ok(await t.api('GET', `/v1/integrations/${name}/installations/${installation.id}/spaces`)).items.map((s: { space: string }) => s.space), [space.id]);

    // Its first event is refused by the integration (nothing configured): failed, with the reason in its log.
    await t.app.jobs.runDue();
    const events = page.getByRole('region', { name: 'Events' });
    const setupRows = events.getByRole('row').filter({ has: page.getByRole('cell', { name: 'installation_setup', exact: true }) });
    const firstRow = setupRows.filter({ hasText: 'Failed' }).first();
    await firstRow.waitFor({ timeout: 15_000 });
    await firstRow.getByRole('button', { name: 'Log' }).click();
    const log = events.getByRole('list', { name: 'Delivery log' });
    await log.waitFor();
    assert.match(await log.innerText(), /HTTP 422/);
    await look(page, 'installation-before');

    // The integration's own screen: its input, a re-render on an action, and Save through the API as the installation.
    const configuration = page.getByRole('region', { name: 'Configuration' });
    await configuration.getByLabel('Channel').fill('#releases');
    await configuration.getByRole('button', { name: 'Preview' }).click();
    await configuration.getByText('Announcements will go to #releases.').waitFor();
    assert.equal(await configuration.getByLabel('Channel').inputValue(), '#releases', 'the state the person typed went to the integration and came back');
    await look(page, 'contentkit');
    // A ContentKit select is the kit's: chosen from its listbox, its value in the integration's state.
    await choose(configuration.getByLabel('Frequency'), 'Once a week');
    await configuration.getByRole('button', { name: 'Save' }).click();
    await configuration.getByRole('status').filter({ hasText: 'Configuration saved.' }).waitFor();
    const saved = ok(await t.api('GET', `/v1/integrations/${name}/installations/${installation.id}`)).configuration;
    assert.deepEqual([saved.channel, saved.frequency], ['#releases', 'weekly']);

    // One space's own configuration: the integration's space component, which reads the space installation from
    // its environment and saves it as the installation.
    const reach = page.getByRole('list', { name: 'Installed on these spaces' });
    await reach.getByRole('button', { name: 'Configure Guides' }).click();
    const spaceConfiguration = page.getByRole('region', { name: 'Configuration of Guides' });
    await spaceConfiguration.getByText('Configured here: nothing yet').waitFor();
    await spaceConfiguration.getByLabel('Space channel').fill('#guides');
    await spaceConfiguration.getByRole('button', { name: 'Save' }).click();
    await spaceConfiguration.getByRole('status').filter({ hasText: 'Configuration of Guides saved.' }).waitFor();
    assert.equal(ok(await t.api('GET', `/v1/integrations/${name}/installations/${installation.id}/spaces/${space.id}`)).configuration.channel, '#guides');
    await look(page, 'space-configuration');
    // Opened again, the component is given what was saved.
    await reach.getByRole('button', { name: 'Configure Guides' }).click();
    await reach.getByRole('button', { name: 'Configure Guides' }).click();
    await page.getByRole('region', { name: 'Configuration of Guides' }).getByText('Configured here: #guides').waitFor();
    await reach.getByRole('button', { name: 'Configure Guides' }).click();

    // Retry the failed delivery: now configured, the integration accepts it.
    await firstRow.getByRole('button', { name: 'Retry installation_setup' }).click();
    await t.app.jobs.runDue();
    await setupRows.filter({ hasText: '2 attempts' }).filter({ hasText: 'Delivered' }).waitFor({ timeout: 15_000 });
    await look(page, 'installation-after');

    // Uninstall.
    await page.getByRole('button', { name: 'Uninstall Announcer' }).click();
    await page.getByRole('alertdialog', { name: 'Uninstall Announcer from this organization?' }).getByRole('button', { name: 'Uninstall Announcer' }).click();
    // The catalogue is shown once the uninstall has answered.
    await page.waitForURL(`${origin}/app/o/${t.org.id}/integrations`);
    await page.getByRole('list', { name: 'Integrations' }).getByRole('button', { name: 'Install Announcer' }).waitFor();
    assert.equal(ok(await t.api('GET', `/v1/integrations/${name}/installations`)).items.length, 0, `the catalogue said "Install" while the API still lists the installation; the page: ${await page.locator('main').innerText()}`);
    await look(page, 'integrations');

    // The integration's own page (its urls.app) installs it too, in the person's one organization.
    const integration = ok(await t.api('GET', `/v1/integrations/${name}`));
    await page.goto(integration.urls.app);
    await page.getByRole('region', { name: 'Install' }).getByRole('button', { name: 'Install Announcer' }).click();
    await page.waitForURL(/\/installations\//);
    assert.equal(ok(await t.api('GET', `/v1/integrations/${name}/installations`)).items.length, 1, 'installed from its page');
  });

  test('an admin adds an OpenAPI spec from text and sees it processed; translations, Git Sync and settings screens work', async () => {
    const { t, origin } = suite;
    const page = await suite.signedIn();
    await page.goto(`${origin}/app/o/${t.org.id}`);
    await page.getByRole('navigation', { name: 'Organization' }).getByRole('link', { name: 'OpenAPI' }).click();
    await settled(page);
    await page.getByLabel('Name').fill('pets');
    await page.getByLabel('From a file or text').check();
    const document = JSON.stringify({ openapi: '3.0.0', info: { title: 'Pets', version: '1' }, paths: { '/pets': { get: { responses: { 200: { description: 'The pets' } } } } } });
    await page.getByLabel('Document text (JSON or YAML)').fill(document);
    await page.getByRole('button', { name: 'Add specification' }).click();
    await page.getByRole('link', { name: 'pets' }).click();
    await page.getByRole('heading', { name: 'pets', level: 1 }).waitFor();
    await t.app.jobs.runDue();
    await page.getByRole('status').filter({ hasText: /^Processed/ }).waitFor({ timeout: 20_000 });
    await page.getByRole('button', { name: 'Make public' }).click();
    await page.getByRole('button', { name: 'Make private' }).waitFor();
    assert.equal(ok(await t.api('GET', `/v1/orgs/${t.org.id}/openapi/pets`)).visibility, 'public');
    await look(page, 'openapi-spec');

    // A name the API refuses: its message shows, and what was typed stays.
    await page.getByRole('link', { name: 'OpenAPI specifications' }).click();
    await page.getByLabel('Name').fill('Not A Slug');
    await page.getByLabel('Document URL').fill('https://example.com/openapi.json');
    await page.getByRole('button', { name: 'Add specification' }).click();
    await page.getByRole('alert').filter({ hasText: 'slug' }).waitFor();
    assert.equal(await page.getByLabel('Name').inputValue(), 'Not A Slug');
    await look(page, 'openapi-specs');

    const space = await buildSpace(t, { title: 'Handbook' });
    await page.goto(`${origin}/app/o/${t.org.id}/translations`);
    await settled(page);
    await page.getByLabel('Title').fill('Handbook in French');
    await choose(page.getByLabel('Source space'), 'Handbook');
    await page.getByLabel('Languages').fill('fr');
    await page.getByRole('button', { name: 'Create translation' }).click();
    await page.getByRole('link', { name: 'Handbook in French' }).click();
    await page.getByRole('button', { name: 'Run now' }).waitFor();
    // Languages added later; a wrong code is refused with the API's message and what was typed stays.
    const settings = page.getByRole('form', { name: 'Translation settings' });
    await settings.getByLabel('Target languages').fill('fr, not a language!');
    await settings.getByRole('button', { name: 'Save settings' }).click();
    await settings.getByRole('alert').waitFor();
    assert.equal(await settings.getByLabel('Target languages').inputValue(), 'fr, not a language!');
    await settings.getByLabel('Target languages').fill('fr, de');
    await settings.getByRole('button', { name: 'Save settings' }).click();
    await settings.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    const translations = ok(await t.api('GET', `/v1/orgs/${t.org.id}/translations`)).items;
    assert.deepEqual(translations[0].languages, ['fr', 'de']);
    await look(page, 'translation');

    await page.goto(`${origin}/app/s/${space.id}/~/git`);
    await settled(page);
    await page.getByText('This space is not synced with a Git repository yet.').waitFor();
    /** "Import now" from a repository's main branch, accepted, run, and seen to succeed. */
    const importNow = async (url: string) => {
      await page.getByLabel('Repository URL', { exact: true }).fill(url);
      await page.getByLabel('Branch', { exact: true }).fill('main');
      await page.getByRole('button', { name: 'Import now' }).click();
      await page.getByRole('alertdialog', { name: 'Replace this space’s content?' }).getByRole('button', { name: 'Import and replace' }).click();
      await page.getByRole('status').filter({ hasText: /^Import: / }).waitFor();
      await t.app.jobs.runDue();
      await page.getByRole('status').filter({ hasText: 'Import: Succeeded' }).waitFor({ timeout: 15_000 });
    };
    // An MkDocs site first, in a folder of the repository (its project directory): the last import says how it
    // was read and what was not carried over, per page.
    git.createRepository('site', {
      'docs/en/mkdocs.yml': 'site_name: Site\nnav:\n  - Home: index.md\n',
      'docs/en/docs/index.md': '# Home\n\nAdd a :simple-nosuchbrand: badge.\n\n/// tip\n\nStart here.\n\n///\n',
    });
    await page.getByLabel('Project directory', { exact: true }).fill('docs/en');
    await importNow(git.url('site'));
    await page.getByLabel('Project directory', { exact: true }).fill('');
    const [home] = (await t.api('GET', `/v1/spaces/${space.id}/content`)).body.pages as { id: string; title: string }[];
    assert.equal(home?.title, 'Home');
    assert.match((await t.api('GET', `/v1/spaces/${space.id}/content/page/${home.id}?format=markdown`)).body.markdown, /\{% hint style="success" %\}\n\*\*Tip\*\*\n\nStart here\.\n\{% endhint %\}/);
    const report = page.getByRole('region', { name: 'Last import' });
    await report.getByText('Read as an MkDocs site (mkdocs.yml),').waitFor();
    await report.getByText('Converted or not carried over exactly on 1 page').click();
    await report.getByRole('listitem').filter({ hasText: /^icon shortcode with no icon of its name/ }).waitFor();
    await look(page, 'git-sync-report');
    await page.setViewportSize({ width: 390, height: 844 });
    await look(page, 'git-sync-report-phone');
    await page.setViewportSize({ width: 1280, height: 900 });
    // Import a repository, then export an edit back to it as one commit.
    git.createRepository('handbook', { 'README.md': '# Handbook\n\nHow we work.\n', 'SUMMARY.md': '# Table of contents\n\n* [Handbook](README.md)\n* [Holidays](holidays.md)\n', 'holidays.md': '# Holidays\n\nTwenty-five days.\n', LICENSE: 'MIT\n' });
    await importNow(git.url('handbook'));
    const pages = (await t.api('GET', `/v1/spaces/${space.id}/content`)).body.pages as { title: string }[];
    assert.deepEqual(pages.map((p) => p.title), ['Handbook', 'Holidays']);
    await report.getByText('Read as a GitBook repository (SUMMARY.md, .gitbook.yaml),').waitFor();
    await report.getByText('Every page was carried over as written.').waitFor();
    await page.getByLabel('Commit message (export)').fill('Export from the browser');
    await page.getByRole('button', { name: 'Export now' }).click();
    await page.getByRole('status').filter({ hasText: /^Export: / }).waitFor();
    await t.app.jobs.runDue();
    await page.getByRole('status').filter({ hasText: 'Export: Succeeded' }).waitFor({ timeout: 15_000 });
    assert.equal(git.headMessage('handbook', 'main'), 'Export from the browser');
    assert.equal(git.filesOf('handbook', 'main').get('LICENSE')?.toString(), 'MIT\n', 'what Git Sync does not own stays');
    // The export is the last operation now; the last import's report stays on the screen.
    await report.getByText('Read as a GitBook repository (SUMMARY.md, .gitbook.yaml),').waitFor();
    await look(page, 'git-sync');

    // Connected now: a push arrives without an import by hand ("Sync now" here; a webhook or the poll otherwise),
    // the webhook's secret is shown once, and Disconnect asks first.
    const auto = page.getByRole('region', { name: /Synced automatically/ });
    // The branch by its name, as a person calls it (`refs/heads/main` is Git's).
    await auto.getByText('main', { exact: true }).first().waitFor();
    git.commit('handbook', 'main', { 'holidays.md': '# Holidays\n\nThirty days, pushed from Git.\n' }, 'More holidays');
    await auto.getByRole('button', { name: 'Sync now' }).click();
    await auto.getByRole('status').filter({ hasText: /^Soon: a push to import/ }).waitFor();
    await t.app.jobs.runDue();
    await auto.getByText(/^Imported commit [0-9a-f]{7} \(Dana Git\)/).waitFor({ timeout: 15_000 });
    const holidays = (await t.api('GET', `/v1/spaces/${space.id}/content`)).body.pages.find((p: { title: string }) => p.title === 'Holidays');
    assert.match((await t.api('GET', `/v1/spaces/${space.id}/content/page/${holidays.id}?format=markdown`)).body.markdown, /Thirty days, pushed from Git\./);
    await auto.getByRole('button', { name: 'Make webhook secret' }).click();
    const secret = await auto.getByLabel('Secret').inputValue();
    assert.match(secret, /^[A-Za-z0-9_-]{32}$/);
    assert.match(await auto.getByLabel('Webhook URL').inputValue(), new RegExp(`/v1/git-sync/hooks/${space.id}$`));
    await look(page, 'git-sync-connected');
    await auto.getByRole('button', { name: 'Disconnect' }).click();
    await page.getByRole('alertdialog', { name: 'Disconnect Git Sync?' }).getByRole('button', { name: 'Disconnect' }).click();
    await page.getByText('This space is not synced with a Git repository yet.').waitFor();

    await page.goto(`${origin}/app/o/${t.org.id}/settings`);
    await settled(page);
    await page.getByLabel('Title').fill('Acme Docs');
    await choose(page.getByLabel('Default role of new members'), 'comment');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    const organization = ok(await t.api('GET', `/v1/orgs/${t.org.id}`));
    assert.equal(organization.title, 'Acme Docs');
    assert.equal(organization.defaultRole, 'comment');
    await look(page, 'organization-settings');
  });
});
