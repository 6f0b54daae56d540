// @sqlite-run-only: the site screens in Chromium; what they change goes through the API, whose operations the API and end-to-end tests run on both databases.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { openPage, screenshot, withoutChromium } from '../../../test/browser.ts';
import { webAppSuite } from '../../../test/browser-suite.ts';
import { ok } from '../../../test/assertions.ts';
import { buildPage, buildSpace } from '../../../test/factories.ts';
import { choose } from '../../../test/web-app.ts';

/*
 * An admin builds a site in the browser: creates it from a space, adds a second section and a variant, orders
 * the variants by dragging, customizes the colours and sees the preview change, publishes, shares it with a
 * share link that a visitor opens until it is deactivated, adds a redirect, sets the domain and access
 * settings, and unpublishes.
 */

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('building a site in Chromium', { skip: withoutChromium, timeout: 300_000 }, () => {
  const suite = webAppSuite();

  async function open(page: Page, url: string): Promise<void> {
    await page.goto(`${suite.origin}${url}`);
    await suite.settled(page);
  }

  const settled = (page: Page) => page.waitForFunction(() => document.querySelectorAll('.skeleton').length === 0, undefined, { timeout: 15_000 });

  async function assertAccessible(page: Page, screen: string): Promise<void> {
    await settled(page);
    await suite.assertAccessible(page, screen);
  }

  const structure = async (siteId: string): Promise<Json> => ok(await suite.t.api('GET', `/v1/orgs/${suite.t.org.id}/sites/${siteId}/structure`));

  test('an admin builds, customizes, publishes and shares a site', async () => {
    const { t } = suite;
    const guides = await buildSpace(t, { title: 'Guides' });
    await buildPage(t, guides.id, { title: 'Welcome', markdown: 'Start here with the guides.' });
    const guidesNext = await buildSpace(t, { title: 'Guides next' });
    await buildPage(t, guidesNext.id, { title: 'Welcome', markdown: 'The next guides.' });
    const api = await buildSpace(t, { title: 'API' });
    await buildPage(t, api.id, { title: 'Endpoints', markdown: 'Every endpoint.' });

    const page = await suite.signedIn();
    await open(page, `/app/o/${t.org.id}`);
    await page.getByRole('navigation', { name: 'Organization' }).getByRole('link', { name: 'Sites', exact: true }).click();
    await page.getByRole('heading', { name: 'Sites', level: 1 }).waitFor();
    await page.getByRole('heading', { name: 'No site yet' }).waitFor();
    await assertAccessible(page, 'the sites list');

    // Create it from one space, in the dialog the empty screen's "New site" opens. The API's refusal naming the
    // title shows next to it (here a refusal the test makes up once), and what was typed stays.
    await page.getByRole('button', { name: 'New site' }).click();
    const creating = page.getByRole('dialog', { name: 'New site' });
    await creating.getByLabel('Site title', { exact: true }).fill('Help center');
    await creating.getByRole('group', { name: 'Spaces it publishes' }).getByLabel('Guides', { exact: true }).check();
    await page.route('**/v1/orgs/*/sites', (route) =>
      route.request().method() === 'POST' ? route.fulfill({ status: 400, contentType: 'application/json', body: JSON.stringify({ error: { code: 400, message: 'body/title: a site is already called Help center' } }) }) : route.fallback(),
      { times: 1 },
    );
    await creating.getByRole('button', { name: 'Create site' }).click();
    const title = creating.getByLabel('Site title', { exact: true });
    await creating.getByText('title: a site is already called Help center').waitFor();
    assert.equal(await title.getAttribute('aria-invalid'), 'true', 'the field says it is wrong');
    assert.match((await title.getAttribute('aria-describedby')) ?? '', /-error/, 'the message describes the field');
    assert.equal(await title.inputValue(), 'Help center', 'what was typed stays');
    assert.equal(await creating.getByLabel('Guides', { exact: true }).isChecked(), true);
    await assertAccessible(page, 'the new site dialog with the API\'s error');
    await screenshot(page, 'sites-new-site');
    await creating.getByRole('button', { name: 'Create site' }).click();
    await page.getByRole('heading', { name: 'Help center', level: 1 }).waitFor();
    const siteId = /\/sites\/([^/]+)$/.exec(new URL(page.url()).pathname)![1]!;
    await page.getByRole('list', { name: 'Variants' }).getByText('Guides', { exact: true }).waitFor();
    await assertAccessible(page, 'the site structure (one section)');

    // A second section: the site becomes one of sections, the first named after the site.
    await page.getByLabel('Section title', { exact: true }).fill('API reference');
    await choose(page.getByLabel('Space of the section', { exact: true }), 'API');
    await page.getByRole('button', { name: 'Add section' }).click();
    const first = page.getByRole('article', { name: 'Section Help center' });
    await page.getByRole('article', { name: 'Section API reference' }).waitFor();
    await first.waitFor();
    let tree = await structure(siteId);
    assert.equal(tree.type, 'sections');
    assert.deepEqual(tree.structure.map((s: Json) => s.title), ['Help center', 'API reference']);

    // A variant of the first section, dragged above the first one with the keyboard, then made the default.
    await choose(first.getByLabel('New variant of Help center', { exact: true }), 'Guides next');
    await first.getByRole('button', { name: 'Add variant' }).click();
    const variants = first.getByRole('list', { name: 'Variants of Help center' });
    await variants.getByText('Guides next', { exact: true }).waitFor();
    const order = async () => ((await structure(siteId)).structure[0].siteSpaces as Json[]).map((s) => s.title);
    assert.deepEqual(await order(), ['Guides', 'Guides next']);
    // dnd-kit measures the places between keys; on a loaded machine keys pressed back to back can land before
    // it has, so the lift is waited for and the drag tried again if the order did not change.
    for (let attempt = 0; attempt < 3 && (await order())[0] === 'Guides'; attempt++) {
      await variants.getByRole('button', { name: 'Move Guides next', exact: true }).focus();
      await page.keyboard.press('Space');
      await variants.locator('[aria-pressed="true"]').waitFor({ timeout: 5_000 }).catch(() => undefined);
      await page.keyboard.press('ArrowUp');
      await page.waitForTimeout(200);
      await page.keyboard.press('Space');
      for (let i = 0; i < 20 && (await order())[0] === 'Guides'; i++) await page.waitForTimeout(250);
    }
    assert.deepEqual(await order(), ['Guides next', 'Guides'], 'dragged with the keyboard');
    await first.getByRole('button', { name: 'Make Guides next the default variant' }).click();
    await variants.getByRole('button', { name: 'Make Guides the default variant' }).waitFor();
    tree = await structure(siteId);
    assert.equal(tree.structure[0].siteSpaces.find((s: Json) => s.default).title, 'Guides next');
    await assertAccessible(page, 'the site structure (two sections)');
    await screenshot(page, 'sites-structure', { fullPage: true });

    // Publish: the published URL is one click away.
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await page.getByRole('button', { name: 'Unpublish' }).waitFor();
    const publishedUrl = await page.getByRole('link', { name: 'Open the published site' }).getAttribute('href');
    assert.equal(publishedUrl, ok(await t.api('GET', `/v1/orgs/${t.org.id}/sites/${siteId}`)).urls.published);

    // The sites list: the site first, a card with its state in words, opening the site's screen.
    await page.getByRole('navigation', { name: 'Organization' }).getByRole('link', { name: 'Sites', exact: true }).click();
    const card = page.getByRole('list', { name: 'Sites' }).getByRole('listitem').filter({ hasText: 'Help center' });
    await card.getByText('Published', { exact: true }).waitFor();
    await card.getByText('Public', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'New site' }).waitFor();
    await assertAccessible(page, 'the sites list');
    await screenshot(page, 'sites-list');
    await card.getByRole('link', { name: 'Help center' }).click();
    await page.getByRole('heading', { name: 'Help center', level: 1 }).waitFor();

    // Customize the colours; the preview beside the form shows the change once saved.
    await page.getByRole('navigation', { name: 'Site' }).getByRole('link', { name: 'Customization' }).click();
    await page.getByRole('heading', { name: 'Customization', level: 2 }).waitFor();
    const preview = page.frameLocator('iframe[title="Preview of the published site"]');
    await preview.getByText('The next guides.').waitFor();
    assert.doesNotMatch((await preview.locator('html').getAttribute('style')) ?? '', /#e11d48/);
    await page.getByLabel('Primary colour (light mode)', { exact: true }).fill('#e11d48');
    await page.getByLabel('Announcement message', { exact: true }).fill('Version 2 is out');
    await page.getByLabel('Show an announcement', { exact: true }).check();
    await choose(page.getByLabel('Icon in the browser tab', { exact: true }), 'An emoji');
    await page.getByLabel('Favicon emoji', { exact: true }).fill('🚀');
    await page.getByRole('button', { name: 'Add header link' }).click();
    await page.getByLabel('Header link 1 URL', { exact: true }).fill('https://example.com/blog');
    await page.getByRole('button', { name: 'Save customization' }).click();
    await page.getByRole('alert').filter({ hasText: 'Header link 1: a title is needed' }).waitFor();
    await page.getByLabel('Header link 1 title', { exact: true }).fill('Blog');
    // The reader keys its rendered pages by the site's updated_at, from the server's clock, which stands still in tests.
    t.clock.advance(1000);
    await page.getByRole('button', { name: 'Save customization' }).click();
    await preview.locator('html[style*="#e11d48"]').waitFor({ state: 'attached', timeout: 15_000 });
    await preview.getByText('Version 2 is out').waitFor();
    const saved = ok(await t.api('GET', `/v1/orgs/${t.org.id}/sites/${siteId}/customization`));
    assert.equal(saved.styling.primaryColor.light, '#e11d48');
    assert.deepEqual(saved.header.links[0].to, { kind: 'url', url: 'https://example.com/blog' });
    assert.equal(saved.announcement.message, 'Version 2 is out');
    assert.deepEqual(saved.favicon, { emoji: '🚀' });
    assert.match((await preview.locator('link[rel="icon"]').first().getAttribute('href')) ?? '', /svg/);
    await assertAccessible(page, 'the customization');
    await screenshot(page, 'sites-customization');

    // One variant shows another colour: an override of that variant alone.
    await choose(page.getByLabel('Customize', { exact: true }), 'Only API reference › API');
    await page.getByLabel('Primary colour (light mode)', { exact: true }).waitFor();
    await page.getByLabel('Primary colour (light mode)', { exact: true }).fill('#0d9488');
    await page.getByRole('button', { name: 'Save customization' }).click();
    await page.getByRole('button', { name: 'Use the site’s customization again' }).waitFor();
    const apiVariant = (await structure(siteId)).structure[1].siteSpaces[0];
    const variantSettings = ok(await t.api('GET', `/v1/orgs/${t.org.id}/sites/${siteId}/site-spaces/${apiVariant.id}/customization`));
    assert.equal(variantSettings.styling.primaryColor.light, '#0d9488');
    assert.equal(ok(await t.api('GET', `/v1/orgs/${t.org.id}/sites/${siteId}/customization`)).styling.primaryColor.light, '#e11d48');
    // Asked first: the variant's own settings go.
    await page.getByRole('button', { name: 'Use the site’s customization again' }).click();
    const resetting = page.getByRole('alertdialog', { name: 'Use the site’s customization again?' });
    await resetting.waitFor();
    await assertAccessible(page, 'the confirmation of a variant’s reset');
    await resetting.getByRole('button', { name: 'Reset the variant’s customization' }).click();
    await page.getByText('This variant shows the site’s customization').waitFor();
    const variantAgain = ok(await t.api('GET', `/v1/orgs/${t.org.id}/sites/${siteId}/site-spaces/${apiVariant.id}/customization`));
    assert.equal(variantAgain.styling.primaryColor.light, '#e11d48');

    // Share it with a link: a visitor without a session opens it with the link, and no longer once deactivated.
    await page.getByRole('navigation', { name: 'Site' }).getByRole('link', { name: 'Sharing' }).click();
    await page.getByRole('radio', { name: /^Share link/ }).check();
    await page.locator('.ui-badge', { hasText: 'Share link' }).waitFor();
    await page.getByLabel('Share link name', { exact: true }).fill('Partners');
    await page.getByRole('button', { name: 'Create share link' }).click();
    const shareUrl = await page.getByLabel('URL of Partners', { exact: true }).inputValue();
    assert.match(shareUrl, /\?share=/);
    await assertAccessible(page, 'the sharing settings');
    await screenshot(page, 'sites-sharing');

    const visitor = await openPage(suite.browser);
    assert.equal((await visitor.goto(publishedUrl!))?.status(), 404, 'without the link, a visitor cannot read it');
    assert.equal((await visitor.goto(shareUrl))?.status(), 200);
    await visitor.getByText('The next guides.').waitFor();
    t.clock.advance(1000);
    await page.getByRole('button', { name: 'Deactivate Partners' }).click();
    await page.getByRole('button', { name: 'Activate Partners' }).waitFor();
    await visitor.context().clearCookies();
    // On PostgreSQL the reader learns of the change through the database's notification, a moment after the
    // answer; the longest it may serve what it cached is CACHE_TTL_MS (docs: README), which the clock passes here.
    t.clock.advance(t.app.ctx.config.cacheTtlMs + 1000);
    let status: number | undefined;
    for (let attempt = 0; attempt < 20 && status !== 404; attempt++) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 250));
      status = (await visitor.goto(shareUrl))?.status();
    }
    assert.equal(status, 404, 'a deactivated link opens nothing');

    // Redirects: add, edit, delete.
    await page.getByRole('navigation', { name: 'Site' }).getByRole('link', { name: 'Redirects' }).click();
    await page.getByLabel('From path', { exact: true }).fill('/old-api');
    await choose(page.getByLabel('To', { exact: true }), 'Section API reference');
    await page.getByRole('button', { name: 'Add redirect' }).click();
    const redirects = page.getByRole('list', { name: 'Redirects', exact: true });
    await redirects.locator('code', { hasText: '/old-api' }).waitFor();
    await assertAccessible(page, 'the redirects');
    await screenshot(page, 'sites-redirects');
    await redirects.getByRole('button', { name: 'Edit the redirect from /old-api' }).click();
    const edit = page.getByRole('form', { name: 'Edit the redirect from /old-api' });
    await edit.getByLabel('From path', { exact: true }).fill('/legacy-api');
    await edit.getByRole('button', { name: 'Save redirect' }).click();
    await redirects.locator('code', { hasText: '/legacy-api' }).waitFor();
    const listed = ok(await t.api('GET', `/v1/orgs/${t.org.id}/sites/${siteId}/redirects`)).items as Json[];
    assert.deepEqual(listed.map((r) => [r.source, r.destination.kind]), [['/legacy-api', 'site-section']]);
    await redirects.getByRole('button', { name: 'Delete the redirect from /legacy-api' }).click();
    await page.getByRole('alertdialog', { name: 'Delete the redirect from /legacy-api?' }).getByRole('button', { name: 'Delete redirect' }).click();
    await page.getByRole('heading', { name: 'No redirect yet' }).waitFor();
    // A redirect to one page of a variant, which the reader follows.
    await page.getByLabel('From path', { exact: true }).fill('/endpoints-old');
    await choose(page.getByLabel('To', { exact: true }), 'Variant API reference › API');
    await choose(page.getByLabel('Page', { exact: true }), 'Endpoints');
    await page.getByRole('button', { name: 'Add redirect' }).click();
    await redirects.getByText('Page Endpoints in Variant API reference › API').waitFor();
    const toPage = (ok(await t.api('GET', `/v1/orgs/${t.org.id}/sites/${siteId}/redirects`)).items as Json[])[0]!;
    assert.equal(toPage.destination.kind, 'site-page');
    assert.equal(toPage.destination.pageId, (await t.api('GET', `/v1/spaces/${api.id}/content`)).body.pages[0].id);
    await redirects.getByRole('button', { name: 'Delete the redirect from /endpoints-old' }).click();
    await page.getByRole('alertdialog', { name: 'Delete the redirect from /endpoints-old?' }).getByRole('button', { name: 'Delete redirect' }).click();
    await page.getByRole('heading', { name: 'No redirect yet' }).waitFor();

    // Domain and access: the API's message next to a bad hostname, the value kept; the adaptive schema checked as typed.
    await page.getByRole('navigation', { name: 'Site' }).getByRole('link', { name: 'Domain and access' }).click();
    await page.getByLabel('Custom hostname', { exact: true }).fill('not a host');
    await page.getByRole('button', { name: 'Save address' }).click();
    await page.getByRole('region', { name: 'Address' }).getByRole('alert').filter({ hasText: /hostname/ }).waitFor();
    assert.equal(await page.getByLabel('Custom hostname', { exact: true }).inputValue(), 'not a host');
    await page.getByLabel('Sign-in URL', { exact: true }).fill('https://login.example.com/docs');
    await page.getByRole('button', { name: 'Save visitor authentication' }).click();
    await waitFor(async () => ok(await t.api('GET', `/v1/orgs/${t.org.id}/sites/${siteId}/publishing/auth`)).fallbackURL === 'https://login.example.com/docs');
    const schema = page.getByLabel('Claims schema (JSON schema)', { exact: true });
    const claims = JSON.parse(await schema.inputValue());
    claims.properties.beta = { type: 'boolean', description: 'Whether the visitor tries beta features' };
    await schema.fill('{"type": ');
    await page.getByText(/JSON schema: not valid JSON/).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Save schema' }).isDisabled(), true);
    await schema.fill(JSON.stringify(claims, null, 2));
    await page.getByRole('button', { name: 'Save schema' }).click();
    await waitFor(async () => ok(await t.api('GET', `/v1/orgs/${t.org.id}/sites/${siteId}/adaptive-schema`)).jsonSchema.properties?.beta?.type === 'boolean');
    await assertAccessible(page, 'the domain and access settings');
    await screenshot(page, 'sites-access', { fullPage: true });

    // Unpublish: the site is gone for visitors, the link to it too.
    await page.getByRole('button', { name: 'Unpublish' }).click();
    await page.getByRole('button', { name: 'Publish', exact: true }).waitFor();
    assert.equal(await page.getByRole('link', { name: 'Open the published site' }).count(), 0);
    assert.equal(ok(await t.api('GET', `/v1/orgs/${t.org.id}/sites/${siteId}`)).published, false);
  });
});

async function waitFor(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
