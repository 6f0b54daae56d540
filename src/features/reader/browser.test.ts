// @sqlite-run-only: the published reader in Chromium; what it reads is published through the API, whose operations the API and end-to-end tests run on both databases.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { SignJWT } from 'jose';
import type { Browser, Page } from 'playwright-core';
import { listenOnRandomPort, startServer, type TestServer } from '../../../test/helpers.ts';
import { releaseChromium, suiteChromium, openPage, withoutChromium, screenshot } from '../../../test/browser.ts';
import { buildSpace, editLive } from '../../../test/factories.ts';
import { ok } from '../../../test/assertions.ts';

/*
 * The reader as a person uses it: a site published through the API, read in Debian's Chromium (skipped, with
 * the reason, where it is not installed; .ci/run installs it). Screenshots go to test-results/.
 */

describe('the reader in Chromium', { skip: withoutChromium }, () => {
  let t: TestServer;
  let origin: string;
  let browser: Browser;
  const sites = () => `/v1/orgs/${t.org.id}/sites`;

  before(async () => {
    t = await startServer();
    origin = await listenOnRandomPort(t);
    browser = await suiteChromium();
  });
  after(async () => {
    await releaseChromium(browser);
    await t?.close();
  });

  async function spaceWithPages(title: string) {
    const space = await buildSpace(t, { title });
    await editLive(t, space.id, [
      { operation: 'insert_page', title: 'Introduction', document: { markdown: `Welcome to ${title}.` } },
      {
        operation: 'insert_page',
        title: 'Install',
        document: { markdown: '{% tabs %}\n{% tab title="npm" %}\nnpm install quire\n{% endtab %}\n\n{% tab title="yarn" %}\nyarn add quire\n{% endtab %}\n{% endtabs %}\n' },
      },
      { operation: 'insert_page', title: 'Beta features', condition: 'visitor.claims.beta === true', document: { markdown: 'Only for beta testers.' } },
    ]);
    return space;
  }

  async function site(visibility: string, spaceTitle = 'Guides') {
    const space = await spaceWithPages(spaceTitle);
    const created = ok(await t.api('POST', sites(), { body: { title: 'Acme Docs', visibility, spaces: [space.id] } }), 201);
    ok(await t.api('POST', `${sites()}/${created.id}/publish`));
    return { site: created, url: `${origin}/sites/${created.id}/` };
  }

  const newPage = (): Promise<Page> => openPage(browser);

  test('click through the sidebar, switch section and variant, use tabs and the theme toggle', async () => {
    const guides = await spaceWithPages('Guides');
    const reference = await spaceWithPages('Reference');
    const legacy = await spaceWithPages('Legacy');
    const created = ok(await t.api('POST', sites(), { body: { title: 'Acme Docs' } }), 201);
    ok(await t.api('POST', `${sites()}/${created.id}/sections`, { body: { spaceId: guides.id, title: 'Guides' } }), 201);
    const api = ok(await t.api('POST', `${sites()}/${created.id}/sections`, { body: { spaceId: reference.id, title: 'API' } }), 201);
    ok(await t.api('POST', `${sites()}/${created.id}/site-spaces`, { body: { spaceId: legacy.id, sectionId: api.id } }), 201);
    ok(await t.api('POST', `${sites()}/${created.id}/publish`));
    const root = `${origin}/sites/${created.id}/`;

    const page = await newPage();
    const response = await page.goto(root);
    assert.equal(response?.status(), 200);
    assert.match(await page.locator('main').innerText(), /Welcome to Guides\./);
    await screenshot(page, 'reader-site-home', { fullPage: true });

    await page.locator('.tree a', { hasText: 'Install' }).click();
    await page.waitForURL(`${root}install`);
    assert.equal(await page.locator('h1').first().innerText(), 'Install');

    // Tabs: the second tab shows its panel and hides the first.
    await page.getByRole('tab', { name: 'yarn' }).click();
    assert.equal(await page.getByText('yarn add quire').isVisible(), true);
    assert.equal(await page.getByText('npm install quire').isVisible(), false);
    await screenshot(page, 'reader-site-tabs', { fullPage: true });

    // The theme toggle flips the page's theme.
    const before = await page.evaluate(() => document.documentElement.getAttribute('data-theme'));
    await page.locator('[data-toggle-theme]').click();
    const after = await page.evaluate(() => document.documentElement.getAttribute('data-theme'));
    assert.notEqual(after, before);
    assert.ok(after === 'dark' || after === 'light');
    await screenshot(page, 'reader-site-toggled-theme', { fullPage: true });

    await page.locator('nav.sections a', { hasText: 'API' }).click();
    await page.waitForURL(`${root}api/`);
    assert.match(await page.locator('main').innerText(), /Welcome to Reference\./);

    await page.locator('details.variants summary').click();
    await page.locator('details.variants a', { hasText: 'Legacy' }).click();
    await page.waitForURL(`${root}api/legacy/`);
    assert.match(await page.locator('main').innerText(), /Welcome to Legacy\./);
    await screenshot(page, 'reader-site-variant', { fullPage: true });
    await page.context().close();
  });

  test('a share link opens the site, the cookie carries it to the next page, and it stops when deactivated', async () => {
    const { site: created, url } = await site('share-link');
    const link = ok(await t.api('POST', `${sites()}/${created.id}/share-links`, { body: { name: 'Team' } }), 201);
    const page = await newPage();
    assert.equal((await page.goto(url))?.status(), 404);
    assert.equal((await page.goto(link.urls.published))?.status(), 200);
    await page.locator('.tree a', { hasText: 'Install' }).click();
    await page.waitForURL(`${url}install`);
    assert.equal(await page.locator('h1').first().innerText(), 'Install');
    ok(await t.api('PATCH', `${sites()}/${created.id}/share-links/${link.id}`, { body: { active: false } }));
    assert.equal((await page.reload())?.status(), 404);
    assert.match(await page.locator('main').innerText(), /Page not found/);
    await page.context().close();
  });

  test('a visitor logging in with a JWT sees the adaptive content their claims open', async () => {
    const { site: created, url } = await site('visitor-auth');
    const auth = ok(await t.api('GET', `${sites()}/${created.id}/publishing/auth`));
    const now = Math.floor(t.clock.now().getTime() / 1000);
    const sign = (claims: Record<string, unknown>) =>
      new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setAudience(created.id).setIssuedAt(now).setExpirationTime(now + 3600).sign(new TextEncoder().encode(auth.privateKey));
    const page = await newPage();
    assert.equal((await page.goto(`${url}?jwt_token=${await sign({})}`))?.status(), 200);
    assert.equal(await page.locator('.tree a', { hasText: 'Beta features' }).count(), 0);
    assert.equal((await page.goto(`${url}?jwt_token=${await sign({ beta: true })}`))?.status(), 200);
    await page.locator('.tree a', { hasText: 'Beta features' }).click();
    await page.waitForURL(`${url}beta-features`);
    assert.match(await page.locator('main').innerText(), /Only for beta testers\./);
    await screenshot(page, 'reader-site-visitor', { fullPage: true });
    await page.context().close();
  });

  test('Ctrl+K searches the body text of the pages and the result leads to the page', async () => {
    const { url } = await site('public', 'Searchable');
    const page = await newPage();
    assert.equal((await page.goto(url))?.status(), 200);
    await page.keyboard.press('Control+K');
    assert.equal(await page.locator('#search-dialog').isVisible(), true);
    const answered = page.waitForResponse((response) => new URL(response.url()).searchParams.get('query') === 'yarn');
    await page.locator('#search-dialog input').fill('yarn');
    await answered;
    const first = page.locator('.search-results a').first();
    await first.waitFor();
    // "yarn" is in the Install page's text (a tab's content), not in any title.
    assert.match(await first.innerText(), /^Install[\s\S]*yarn add quire/);
    // The matched word is marked in the excerpt, and only it.
    assert.deepEqual(await first.locator('small mark').allTextContents(), ['yarn']);
    const markStyle = await first.locator('small mark').evaluate((mark) => getComputedStyle(mark).backgroundColor);
    assert.notEqual(markStyle, 'rgba(0, 0, 0, 0)', 'a marked word has a background');
    await screenshot(page, 'reader-site-search');
    await first.click();
    await page.waitForURL(`${url}install`);
    assert.equal(await page.locator('h1').first().innerText(), 'Install');
    await page.context().close();
  });

  test('an unpublished site is a 404 page', async () => {
    const { site: created, url } = await site('public');
    ok(await t.api('POST', `${sites()}/${created.id}/unpublish`));
    const page = await newPage();
    assert.equal((await page.goto(url))?.status(), 404);
    assert.match(await page.locator('main').innerText(), /Page not found/);
    await screenshot(page, 'reader-site-404');
    await page.context().close();
  });
});
