// @sqlite-run-only: a site's Structure tab in Chromium; what they change goes through the API, whose operations the API and end-to-end tests run on both databases.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { screenshot, withoutChromium } from '../../../test/browser.ts';
import { webAppSuite } from '../../../test/browser-suite.ts';
import { ok } from '../../../test/assertions.ts';
import { buildSpace } from '../../../test/factories.ts';
import { choose } from '../../../test/web-app.ts';

/*
 * An admin manages a site's external links on its Structure tab: adds one at the top level, changes its URL and
 * moves it into a section group, deletes it; a URL the server refuses is said next to the form, what was typed kept.
 */

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe("a site's external links in Chromium", { skip: withoutChromium, timeout: 300_000 }, () => {
  const suite = webAppSuite();

  async function open(page: Page, url: string): Promise<void> {
    await page.goto(`${suite.origin}${url}`);
    await suite.settled(page);
  }

  test('an admin adds, edits, moves and deletes an external link', async () => {
    const { t } = suite;
    const org = t.org.id;
    const guides = await buildSpace(t, { title: 'Guides' });
    const reference = await buildSpace(t, { title: 'Reference' });
    const site = ok(await t.api('POST', `/v1/orgs/${org}/sites`, { body: { title: 'Help center' } }), 201);
    const sitePath = `/v1/orgs/${org}/sites/${site.id}`;
    ok(await t.api('POST', `${sitePath}/sections`, { body: { spaceId: guides.id, title: 'Guides' } }), 201);
    const api = ok(await t.api('POST', `${sitePath}/sections`, { body: { spaceId: reference.id, title: 'API reference' } }), 201);
    const group = ok(await t.api('POST', `${sitePath}/section-groups`, { body: { title: 'Developers', sections: [api.id] } }), 201);
    // One link is in the group from the start: the tab lists it among the group's sections.
    ok(await t.api('POST', `${sitePath}/external-links`, { body: { title: 'Changelog', url: 'https://example.com/changelog', parent: group.id } }), 201);
    const structure = async (): Promise<Json[]> => ok(await t.api('GET', `${sitePath}/structure`)).structure;

    const page = await suite.signedIn();
    await open(page, `/app/o/${org}/sites/${site.id}`);
    await page.getByRole('navigation', { name: 'Site' }).getByRole('link', { name: 'Structure' }).click();
    await page.getByRole('heading', { name: 'Structure', level: 2 }).waitFor();
    const developers = page.getByRole('article', { name: 'Section group Developers' });
    const changelog = developers.getByRole('article', { name: 'External link Changelog' });
    await changelog.getByRole('link', { name: 'https://example.com/changelog' }).waitFor();

    // Added at the top level, after the group; the form is empty again.
    const form = page.getByRole('form', { name: 'Add an external link' });
    await form.getByLabel('Link title', { exact: true }).fill('Status page');
    await form.getByLabel('URL', { exact: true }).fill('https://status.example.com');
    await form.getByRole('button', { name: 'Add external link' }).click();
    const top = page.getByRole('list', { name: 'Sections, section groups and external links' });
    const status = page.getByRole('article', { name: 'External link Status page' });
    await status.waitFor();
    assert.equal(await form.getByLabel('Link title', { exact: true }).inputValue(), '');
    assert.equal(await form.getByLabel('URL', { exact: true }).inputValue(), '');
    const link = status.getByRole('link', { name: 'https://status.example.com/' });
    assert.equal(await link.getAttribute('target'), '_blank');
    assert.equal(await link.getAttribute('rel'), 'noopener noreferrer');
    assert.equal(await top.getByRole('button', { name: 'Move Status page' }).count(), 0, 'sortSiteStructure cannot move an external link');
    await top.getByRole('button', { name: 'Move Developers' }).waitFor();
    let items = await structure();
    assert.deepEqual(items.map((item) => [item.object, item.title]), [['site-section', 'Guides'], ['site-section-group', 'Developers'], ['site-external-link', 'Status page']]);
    assert.equal(items[2]!.url, 'https://status.example.com/');
    assert.deepEqual(items[1]!.children.map((item: Json) => item.title), ['API reference', 'Changelog']);
    await suite.assertAccessible(page, 'the site structure with external links');
    await developers.evaluate((group) => group.scrollIntoView({ block: 'center' }));
    await screenshot(page, 'site-external-links');

    // A new URL, and into the group: listed there, after the group's link.
    await status.getByRole('button', { name: 'Edit the link Status page' }).click();
    const edit = page.getByRole('form', { name: 'Edit the link Status page' });
    await edit.getByLabel('URL', { exact: true }).fill('https://status.example.org/now');
    await choose(edit.getByLabel('Group', { exact: true }), 'Developers');
    await edit.getByRole('button', { name: 'Save link' }).click();
    await developers.getByRole('article', { name: 'External link Status page' }).getByRole('link', { name: 'https://status.example.org/now' }).waitFor();
    assert.equal(await top.getByRole('article', { name: 'External link Status page' }).count(), 1, 'listed once, in the group');
    items = await structure();
    assert.deepEqual(items.map((item) => item.title), ['Guides', 'Developers']);
    const moved = (items[1]!.children as Json[]).map((item) => [item.title, item.url ?? null, item.sectionGroup ?? null]);
    assert.deepEqual(moved, [['API reference', null, group.id], ['Changelog', 'https://example.com/changelog', group.id], ['Status page', 'https://status.example.org/now', group.id]]);

    // Deleted through the confirmation dialog.
    await status.getByRole('button', { name: 'Delete the link Status page' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete the link Status page?' });
    await confirm.getByRole('button', { name: 'Delete link' }).click();
    // While the dialog is open the page behind it is hidden from the accessibility tree, so the row "detaches" at once:
    // the dialog closes only once the server has answered.
    await confirm.waitFor({ state: 'hidden' });
    await status.waitFor({ state: 'detached' });
    items = await structure();
    assert.deepEqual((items[1]!.children as Json[]).map((item) => item.title), ['API reference', 'Changelog']);

    // A URL the server refuses: its message beside the form, what was typed kept.
    await form.getByLabel('Link title', { exact: true }).fill('Old docs');
    await form.getByLabel('URL', { exact: true }).fill('ftp://x');
    await form.getByRole('button', { name: 'Add external link' }).click();
    await form.getByRole('alert').filter({ hasText: /must be an HTTP or HTTPS URL/ }).waitFor();
    assert.equal(await form.getByLabel('Link title', { exact: true }).inputValue(), 'Old docs');
    assert.equal(await form.getByLabel('URL', { exact: true }).inputValue(), 'ftp://x');
    assert.equal((await structure()).filter((item) => item.object === 'site-external-link').length, 0);
  });
});
