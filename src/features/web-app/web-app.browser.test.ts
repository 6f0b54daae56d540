// @sqlite-run-only: the members' app's screens in Chromium; what they change goes through the API, whose operations the API and end-to-end tests run on both databases.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { openPage, screenshot, withoutChromium } from '../../../test/browser.ts';
import { webAppSuite } from '../../../test/browser-suite.ts';
import { ok } from '../../../test/assertions.ts';
import { buildChangeRequest, buildCollection, buildInstallation, buildIntegration, buildOpenAPISpec, buildPage, buildSpace, buildTeam } from '../../../test/factories.ts';
import { appUrlsIn, choose, seriousViolations, signInAs } from '../../../test/web-app.ts';

/*
 * The members' web app as a person uses it, in Chromium: every `urls.app` the API gives opens its screen, and
 * the screens do what they say (create, find, change roles), with axe-core finding nothing serious on each.
 */

const SPEC = JSON.stringify({ openapi: '3.0.0', info: { title: 'Pets', version: '1' }, paths: { '/pets': { get: { summary: 'List pets', responses: { 200: { description: 'ok' } } } } } });
const GUIDE = `## Install

Run the installer, then open the **dashboard**.

{% hint style="warning" %}
Back up your data first.
{% endhint %}

\`\`\`bash
quire serve
\`\`\`

## Configure

* One
* Two
`;

describe('the members’ web app in Chromium', { skip: withoutChromium, timeout: 300_000 }, () => {
  const suite = webAppSuite();
  let space: { id: string; title: string };
  let guideId: string;

  before(async () => {
    const { t } = suite;
    space = await buildSpace(t, { title: 'Handbook', emoji: '1f4d8' });
    guideId = await buildPage(t, space.id, { title: 'Guide', markdown: GUIDE });
    await buildPage(t, space.id, { title: 'Setup', markdown: 'Setting up the pelican server.', parent: guideId });
  });

  /** Opens an app URL and waits until the screen has loaded (no skeleton left). */
  async function open(page: Page, url: string): Promise<number> {
    const response = await page.goto(url);
    await page.locator('main').first().waitFor();
    await page.waitForFunction(() => document.querySelectorAll('.skeleton').length === 0, undefined, { timeout: 10_000 });
    return response?.status() ?? 0;
  }

  test('every urls.app of a populated organization opens its screen, without a 404 or an error', async () => {
    const { t } = suite;
    const collection = await buildCollection(t, { title: 'Guides' });
    const inCollection = await buildSpace(t, { title: 'Runbooks', parent: collection.id });
    await buildChangeRequest(t, space.id, { subject: 'Fix typos' });
    const site = ok(await t.api('POST', `/v1/orgs/${t.org.id}/sites`, { body: { title: 'Docs site', spaces: [space.id] } }), 201);
    await buildOpenAPISpec(t, 'pets', { text: SPEC });
    const integration = await buildIntegration(t, { endpoint: 'http://127.0.0.1:9/' });
    await buildInstallation(t, integration.name);
    await buildTeam(t, { title: 'Writers' });

    const answers = await Promise.all(
      [
        `/v1/orgs/${t.org.id}`,
        `/v1/orgs/${t.org.id}/collections`,
        `/v1/orgs/${t.org.id}/spaces`,
        `/v1/spaces/${space.id}/content`,
        `/v1/spaces/${space.id}/change-requests`,
        `/v1/orgs/${t.org.id}/sites/${site.id}`,
        `/v1/orgs/${t.org.id}/openapi`,
        `/v1/integrations/${integration.name}`,
        `/v1/integrations/${integration.name}/installations`,
        `/v1/spaces/${space.id}/search?query=pelican`,
        `/v1/spaces/${inCollection.id}`,
      ].map(async (path) => ok(await t.api('GET', path))),
    );
    const urls = new Set<string>();
    for (const answer of answers) appUrlsIn(answer, urls);
    const shapes = new Set([...urls].map((url) => new URL(url).pathname.replace(/\/[A-Za-z0-9]{20}(?=\/|$)/g, '/:id').replace(/\/changes\/\d+$/, '/changes/:n')));
    for (const shape of ['/app/o/:id', '/app/o/:id/c/:id', '/app/o/:id/s/:id', '/app/s/:id/guide', '/app/s/:id/~/changes/:n', '/app/o/:id/sites/:id', '/app/o/:id/openapi/pets', '/app/s/:id/~/revisions/:id']) {
      assert.ok(shapes.has(shape), `a urls.app of the shape ${shape} among ${[...shapes].join(', ')}`);
    }

    const page = await suite.signedIn();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(`${page.url()}: ${error.message}`));
    page.on('console', (message) => void (message.type() === 'error' && errors.push(`${page.url()}: ${message.text()}`)));
    for (const url of [...urls].sort()) {
      const status = await open(page, url);
      assert.equal(status, 200, url);
      assert.equal(await page.locator('.not-found').count(), 0, `${url} shows a screen, not "Not found"`);
      assert.equal(await page.locator('[role=alert]').count(), 0, `${url} shows no error: ${await page.locator('[role=alert]').allTextContents()}`);
      assert.ok((await page.locator('h1').first().textContent({ timeout: 5_000 }).catch(() => ''))?.trim(), `${url} has a title`);
      assert.deepEqual(await seriousViolations(page), [], `axe on ${url}`);
    }
    assert.deepEqual(errors, []);
  });

  test('a space opens on its first page, rendered like the reader, and moving between pages needs no reload', async () => {
    const { t, origin } = suite;
    const page = await suite.signedIn();
    const scripts: string[] = [];
    page.on('request', (request) => void (request.resourceType() === 'script' && scripts.push(new URL(request.url()).pathname)));
    await open(page, `${origin}/app/o/${t.org.id}/s/${space.id}`);
    await page.getByRole('heading', { level: 1, name: 'Guide' }).waitFor();
    assert.equal(await page.locator('.document .hint-warning').count(), 1, 'the hint');
    assert.equal(await page.locator('.document pre.code').textContent(), 'quire serve');
    // Code is highlighted as the reader does (its classes, its colours), with the grammar of the page's language
    // loaded as its own chunk.
    const command = page.locator('.document pre.code .c-token-function', { hasText: 'quire' });
    await command.waitFor();
    assert.equal(await page.locator('.document pre.code').textContent(), 'quire serve', 'the same text, coloured');
    const colours = await command.evaluate((token) => [getComputedStyle(token).color, getComputedStyle(token.closest('pre')!).color]);
    assert.notEqual(colours[0], colours[1], 'the token has its own colour');
    assert.ok(scripts.some((path) => /\/shellscript-[\w-]+\.js$/.test(path)), `the shell grammar (bash) is a chunk of its own: ${scripts.join(', ')}`);
    assert.ok(!scripts.some((path) => /\/(python|java|rust)-[\w-]+\.js$/.test(path)), 'no grammar the page does not show');
    assert.deepEqual(await page.locator('.outline a').allTextContents(), ['Install', 'Configure']);
    await screenshot(page, 'web-app-space');
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Setup' }).click();
    await page.getByRole('heading', { level: 1, name: 'Setup' }).waitFor();
    assert.equal(new URL(page.url()).pathname, `/app/s/${space.id}/guide/setup`);
    assert.deepEqual(await page.getByRole('navigation', { name: 'Breadcrumbs' }).getByRole('link').allTextContents(), ['Guide']);
    assert.equal(await page.evaluate(() => (window as unknown as { marker?: number }).marker), 1, 'the same document: no reload');
    await page.goBack();
    await page.getByRole('heading', { level: 1, name: 'Guide' }).waitFor();
  });

  test('Ctrl-K finds a page through the search API and opens it', async () => {
    const { origin } = suite;
    const page = await suite.signedIn();
    await open(page, `${origin}/app/s/${space.id}/guide`);
    await page.keyboard.press('Control+k');
    await page.getByRole('combobox', { name: 'Search' }).fill('pelican');
    await page.getByRole('option', { name: /Setup/ }).waitFor();
    assert.deepEqual(await seriousViolations(page), []);
    await screenshot(page, 'web-app-search');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Setup' }).waitFor();
  });

  test('a collection and a space are created, renamed, and a deleted space comes back with Undo or from the trash', async () => {
    const { t, origin } = suite;
    const page = await suite.signedIn();
    await open(page, `${origin}/app/o/${t.org.id}`);
    await page.getByRole('button', { name: 'New collection' }).click();
    await page.getByRole('form', { name: 'New collection' }).getByLabel('Title').fill('Playbooks');
    await page.getByRole('button', { name: 'Create collection' }).click();
    const tree = page.getByRole('list', { name: 'Collections and spaces' });
    await tree.getByRole('link', { name: 'Playbooks' }).waitFor();

    await page.getByRole('button', { name: 'New space' }).click();
    const form = page.getByRole('form', { name: 'New space' });
    await form.getByLabel('Title').fill('Incidents');
    await choose(form.getByLabel('In'), 'Playbooks');
    await page.getByRole('button', { name: 'Create space' }).click();
    await tree.getByRole('link', { name: 'Incidents' }).waitFor();
    const spaces = ok(await t.api('GET', `/v1/orgs/${t.org.id}/spaces`)).items as { title: string; id: string; parent?: string }[];
    const playbooks = (ok(await t.api('GET', `/v1/orgs/${t.org.id}/collections`)).items as { title: string; id: string }[]).find((c) => c.title === 'Playbooks')!;
    const incidents = spaces.find((s) => s.title === 'Incidents')!;
    assert.equal(incidents.parent, playbooks.id, 'created in the collection chosen');

    // An API error shows its message next to what failed and keeps what was typed.
    await page.getByRole('button', { name: 'New space' }).click();
    await form.getByLabel('Title').fill('x'.repeat(50));
    await page.evaluate(() => document.querySelector<HTMLInputElement>('form[aria-label="New space"] input')!.removeAttribute('maxlength'));
    await form.getByLabel('Title').fill('y'.repeat(60));
    await page.getByRole('button', { name: 'Create space' }).click();
    await form.getByRole('alert').waitFor();
    assert.match((await form.getByRole('alert').textContent())!, /title/);
    assert.equal(await form.getByLabel('Title').inputValue(), 'y'.repeat(60));
    await form.getByRole('button', { name: 'Cancel' }).click();

    await page.getByRole('button', { name: 'Actions for Incidents' }).click();
    await page.getByRole('menuitem', { name: 'Rename' }).click();
    await page.getByLabel('New title of Incidents').fill('Incident reviews');
    await page.getByRole('button', { name: 'Save' }).click();
    await tree.getByRole('link', { name: 'Incident reviews' }).waitFor();

    await page.getByRole('button', { name: 'Actions for Incident reviews' }).click();
    await page.getByRole('menuitem', { name: 'Delete space' }).click();
    await page.getByRole('status').filter({ hasText: 'moved to the trash' }).waitFor();
    assert.equal(await tree.getByRole('link', { name: 'Incident reviews' }).count(), 0);
    await page.getByRole('button', { name: 'Undo' }).click();
    await tree.getByRole('link', { name: 'Incident reviews' }).waitFor();
    assert.equal(ok(await t.api('GET', `/v1/spaces/${incidents.id}`)).title, 'Incident reviews');
    await screenshot(page, 'web-app-sidebar');

    // Deleted again, it waits in the organization's trash, whoever deleted it (here through the API, as a
    // script would), with who and when, and comes back from there.
    assert.equal((await t.api('DELETE', `/v1/spaces/${incidents.id}`)).status, 204);
    // The days left are counted by the browser's clock: the server's runs on the test's date.
    await page.clock.setFixedTime(t.clock.now());
    await page.reload();
    await page.getByRole('link', { name: 'Trash', exact: true }).click();
    await page.getByRole('heading', { name: 'Trash', level: 1 }).waitFor();
    const deletedSpaces = page.getByRole('list', { name: 'Deleted spaces' });
    const row = deletedSpaces.getByRole('listitem').filter({ hasText: 'Incident reviews' });
    const adminName = ok(await t.api('GET', '/v1/user')).displayName as string;
    assert.match((await row.textContent())!, new RegExp(`Deleted by ${adminName} on .+ · 7 days left`));
    assert.deepEqual(await seriousViolations(page), []);
    await screenshot(page, 'web-app-trash');
    await row.getByRole('button', { name: 'Restore Incident reviews' }).click();
    await tree.getByRole('link', { name: 'Incident reviews' }).waitFor();
    await row.waitFor({ state: 'detached' });
    assert.equal(ok(await t.api('GET', `/v1/spaces/${incidents.id}`)).deletedAt, undefined);
  });

  test('an admin changes a member’s role on the members screen', async () => {
    const { t, origin } = suite;
    const member = await t.member('read');
    const page = await suite.signedIn();
    await open(page, `${origin}/app/o/${t.org.id}/members`);
    const name = ok(await t.api('GET', `/v1/orgs/${t.org.id}/members/${member.userId}`)).user.displayName as string;
    await choose(page.getByLabel(`Role of ${name}`), 'edit');
    await page.waitForFunction(async ([org, user]) => (await (await fetch(`/v1/orgs/${org}/members/${user}`)).json()).role === 'edit', [t.org.id, member.userId]);
    assert.deepEqual(await seriousViolations(page), []);
    await screenshot(page, 'web-app-members');

    // A member who is not an admin sees the list, without the controls the API would refuse them.
    const reader = await suite.signedIn(member.userId);
    await open(reader, `${origin}/app/o/${t.org.id}/members`);
    await reader.getByRole('cell', { name }).first().waitFor();
    assert.equal(await reader.getByLabel(`Role of ${name}`).count(), 0);
    assert.equal(await reader.getByRole('button', { name: `Remove ${name}` }).count(), 0);
    assert.equal(await reader.getByRole('heading', { name: 'Invite a member' }).count(), 0);
  });

  test('an outsider sees nothing of another organization: its screens are "Not found"', async () => {
    const { t, origin } = suite;
    const outsider = await t.outsider();
    const page = await openPage(suite.browser);
    await signInAs(t, page.context(), origin, outsider.userId, outsider.organizationId);
    for (const path of [`/app/o/${t.org.id}`, `/app/o/${t.org.id}/s/${space.id}`, `/app/s/${space.id}/guide`, `/app/o/${t.org.id}/members`]) {
      await open(page, `${origin}${path}`);
      await page.locator('.not-found').first().waitFor();
      assert.equal(await page.getByText('Guide').count(), 0, `${path} shows nothing of the space`);
    }
  });

  test('a person in two organizations switches between them with the sidebar’s organization menu', async () => {
    const { t, origin } = suite;
    const person = await t.member('read');
    const own = ok(await t.api('POST', '/v1/orgs', { token: person.token, body: { title: 'Lab notes' } }), 201) as { id: string };
    const home = ok(await t.api('GET', `/v1/orgs/${t.org.id}`)) as { title: string };
    const page = await openPage(suite.browser);
    // Signed in with a password: the session reaches both (a provider's sign-in reaches its organization only).
    await signInAs(t, page.context(), origin, person.userId, null);
    await open(page, `${origin}/app/o/${t.org.id}`);
    const sidebar = page.getByRole('navigation', { name: 'Organization' });
    await sidebar.getByRole('link', { name: home.title, exact: true }).waitFor();
    await sidebar.getByRole('button', { name: 'Switch organization' }).click();
    const menu = page.getByRole('menu', { name: 'Switch organization' });
    await menu.waitFor();
    assert.equal(await menu.getByRole('menuitemcheckbox', { name: home.title }).getAttribute('aria-checked'), 'true', 'the current organization is checked');
    assert.equal(await menu.getByRole('menuitemcheckbox', { name: 'Lab notes' }).getAttribute('aria-checked'), 'false');
    await suite.assertAccessible(page, 'the open organization menu');
    await menu.getByRole('menuitemcheckbox', { name: 'Lab notes' }).click();
    await page.waitForURL(`${origin}/app/o/${own.id}`);
    await sidebar.getByRole('link', { name: 'Lab notes', exact: true }).waitFor();
    await sidebar.getByRole('button', { name: 'Switch organization' }).click();
    assert.equal(await menu.getByRole('menuitemcheckbox', { name: 'Lab notes' }).getAttribute('aria-checked'), 'true', 'now this one is checked');
    await menu.getByRole('menuitem', { name: 'All organizations' }).click();
    await page.waitForURL(/\/app\/?$/);
    const list = page.getByRole('region', { name: 'Organizations' });
    await list.getByRole('link', { name: 'Lab notes' }).waitFor();
    await list.getByRole('link', { name: home.title }).waitFor();
    await suite.assertAccessible(page, 'the Home list of a person in two organizations');
    await page.context().close();
  });

  test('signing out another session asks first: Cancel keeps it, the named button ends it', async () => {
    const { t, origin } = suite;
    const person = await t.member('read');
    const elsewhere = await suite.signedIn(person.userId);
    const page = await suite.signedIn(person.userId);
    await open(page, `${origin}/app/settings/profile`);
    const sessions = page.getByRole('region', { name: 'Where you are signed in' });
    await sessions.getByText('(this browser)', { exact: false }).waitFor();
    await sessions.getByRole('button', { name: 'Sign out this session' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Sign out this session?' });
    await dialog.waitFor();
    assert.equal(await dialog.getByRole('button', { name: 'Cancel' }).evaluate((element) => element === document.activeElement), true, 'focus starts on Cancel');
    await suite.assertAccessible(page, 'the confirmation of signing out a session');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    const status = () => elsewhere.evaluate(async () => (await fetch('/v1/auth/session')).status);
    await elsewhere.goto(`${origin}/app/`);
    assert.equal(await status(), 200, 'Cancel signed nobody out');
    await sessions.getByRole('button', { name: 'Sign out this session' }).click();
    await dialog.getByRole('button', { name: 'Sign out the session' }).click();
    await dialog.waitFor({ state: 'detached' });
    await sessions.getByRole('button', { name: 'Sign out this session' }).waitFor({ state: 'detached' });
    assert.equal(await status(), 401, 'the other session is over');
    await page.context().close();
    await elsewhere.context().close();
  });

  test('a new organization’s Get started creates a space from a template and opens it', async () => {
    const { t, origin } = suite;
    const outsider = await t.outsider();
    const page = await openPage(suite.browser);
    await signInAs(t, page.context(), origin, outsider.userId, outsider.organizationId);
    await open(page, `${origin}/app/o/${outsider.organizationId}`);
    await page.getByRole('heading', { name: 'Get started' }).waitFor();
    assert.equal(await page.getByRole('link', { name: 'Publish a site' }).count(), 1, 'one offer to publish a site, not two');
    await page.getByRole('button', { name: 'Create a space' }).click();
    const dialog = page.getByRole('dialog', { name: 'New space' });
    await dialog.getByLabel('Title').fill('Handbook');
    await dialog.getByRole('radio', { name: 'Knowledge base' }).click();
    await suite.assertAccessible(page, 'new space dialog');
    await dialog.getByRole('button', { name: 'Create space' }).click();
    await page.waitForURL(/\/s\/[^/]+/);
    const spaces = ok(await t.api('GET', `/v1/orgs/${outsider.organizationId}/spaces`, { token: outsider.token })).items as { id: string; title: string }[];
    assert.deepEqual(spaces.map((sp) => sp.title), ['Handbook']);
    const pages = ok(await t.api('GET', `/v1/spaces/${spaces[0]!.id}/content`, { token: outsider.token })).pages as { title: string }[];
    assert.ok(pages.length > 1, `the knowledge base template's pages: ${pages.map((p) => p.title).join(', ')}`);
    await page.context().close();
  });

  test('an import runs in the background: the person goes elsewhere, a toast says how it ended and opens the new space', async () => {
    const { t, origin } = suite;
    const page = await suite.signedIn();
    await open(page, `${origin}/app/o/${t.org.id}/import`);
    // The files' form (the screen's other form imports from a Git repository, with its own title field).
    const fromFiles = page.getByRole('form', { name: 'From files' });
    await fromFiles.getByLabel('Title of the new space').fill('Imported notes');
    await fromFiles.getByLabel('Files', { exact: true }).setInputFiles([{ name: 'notes.md', mimeType: 'text/markdown', buffer: Buffer.from('# Notes\n\nThe first imported page.\n') }]);
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await page.getByText('Waiting to start…').or(page.getByText('Importing…')).first().waitFor();
    // Elsewhere in the app (no reload) while the import runs.
    await page.getByRole('link', { name: 'Trash' }).click();
    await page.getByRole('heading', { name: 'Trash', level: 1 }).waitFor();
    await t.app.jobs.runDue();
    // The toast, an item of the notifications region (Radix also announces its text in a live region for a moment).
    const toast = page.getByRole('region', { name: /^Notifications/ }).getByRole('listitem').filter({ hasText: 'Import into Imported notes finished' });
    await toast.waitFor({ timeout: 30_000 });
    await suite.assertAccessible(page, 'import finished toast');
    await toast.getByRole('button', { name: 'Open Imported notes' }).click();
    const space = (ok(await t.api('GET', `/v1/orgs/${t.org.id}/spaces`)).items as { id: string; title: string }[]).find((sp) => sp.title === 'Imported notes')!;
    await page.waitForURL(new RegExp(`/s/${space.id}`));
    assert.deepEqual((ok(await t.api('GET', `/v1/spaces/${space.id}/content`)).pages as { title: string }[]).map((p) => p.title), ['Notes']);
    await page.context().close();
  });

  test('without a session the app asks to sign in and keeps where the person was going', async () => {
    const { origin } = suite;
    const page = await openPage(suite.browser);
    await page.goto(`${origin}/app/s/${space.id}/guide`);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    assert.equal(new URL(page.url()).searchParams.get('returnTo'), `/s/${space.id}/guide`);
    assert.ok(await page.getByLabel('Email').isVisible());
    assert.ok(await page.getByLabel('Password').isVisible());
    assert.deepEqual(await seriousViolations(page), []);
    await screenshot(page, 'web-app-sign-in');
  });

  test('at 390 px wide the sidebar is a menu and the page reads on its own, in dark mode too', async () => {
    const { t, origin } = suite;
    const page = await suite.signedIn(t.admin.userId, { viewport: { width: 390, height: 844 }, colorScheme: 'dark' });
    await open(page, `${origin}/app/o/${t.org.id}/s/${space.id}`);
    await page.getByRole('heading', { level: 1, name: 'Guide' }).waitFor();
    assert.equal(await page.locator('#org-sidebar').isVisible(), false);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 390, `no sideways scrolling (${width}px)`);
    // The header's controls sit side by side, none drawn over another (the person's name gives way).
    const header = page.getByRole('banner');
    const boxes = [];
    for (const control of [header.getByRole('link', { name: 'Quire' }), header.getByRole('button', { name: 'Search' }), header.getByRole('button', { name: /^Theme/ }), header.getByRole('link', { name: /^Inbox/ }), header.getByText('Administrator')]) {
      const box = await control.boundingBox();
      assert.ok(box, 'each control of the header is drawn');
      boxes.push(box);
    }
    for (let i = 1; i < boxes.length; i++) assert.ok(boxes[i]!.x >= boxes[i - 1]!.x + boxes[i - 1]!.width, `header control ${i} starts after the one before it`);
    assert.ok(boxes.at(-1)!.x + boxes.at(-1)!.width <= 390, 'the last header control is on the screen');
    assert.deepEqual(await seriousViolations(page), []);
    await screenshot(page, 'web-app-mobile-dark');
    await page.getByRole('button', { name: 'Menu' }).click();
    const menu = page.getByRole('navigation', { name: 'Organization' });
    await menu.getByRole('link', { name: 'Handbook' }).waitFor();
    // The open menu covers the screen below the header, not only as far as its last link.
    const menuBox = await menu.boundingBox();
    assert.equal(Math.round(menuBox!.y + menuBox!.height), 844, 'the menu reaches the bottom of the screen');
    await screenshot(page, 'web-app-mobile-menu');
  });
});
