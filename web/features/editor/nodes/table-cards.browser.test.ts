// @sqlite-run-only: a table switched to cards and its columns' types changed in the editor; the server stores one page, whose documents the content tests store on both databases.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { eventually } from '../../../../src/features/collaboration/clients.test-support.ts';
import { ok } from '../../../../test/assertions.ts';
import { screenshot, withoutChromium } from '../../../../test/browser.ts';
import { webAppSuite } from '../../../../test/browser-suite.ts';
import { buildSpace } from '../../../../test/factories.ts';
import { openPage } from '../../../../test/browser.ts';
import { png } from '../../../../test/fixtures/png.ts';

/*
 * Issue 42: a table's view and its columns' types are set in the editor. The table's settings switch it between a
 * grid and cards (drawn as the page view draws cards); a column's menu sets its type, its values converted; a
 * checkbox toggles and a rating is set with the keys. What is stored is read back through the API, and again in
 * the editor after a reload.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

// GitBook's cards as its markdown writes them (its docs' blocks/cards.md): the link and the cover among the hidden columns.
const CARDS = [
  '# Plans',
  '',
  '<table data-view="cards" data-card-size="large"><thead><tr><th></th><th></th><th data-hidden data-card-target data-type="content-ref"></th><th data-hidden data-card-cover data-type="files"></th><th data-hidden>Notes</th></tr></thead><tbody>',
  '<tr><td><strong>Starter guide</strong></td><td>Read the <a href="https://example.com/other">other</a> one first.</td><td><a href="guide.md">guide.md</a></td><td><a href="cover.png">cover.png</a></td><td>Hidden notes</td></tr>',
  '<tr><td><strong>Plain card</strong></td><td>Goes nowhere.</td><td></td><td></td><td></td></tr>',
  '</tbody></table>',
  '',
].join('\n');

const MARKDOWN = ['# Team', '', '| Name | Done | Stars | Status |', '| ---- | ---- | ----- | ------ |', '| Ada | yes | 4 | Beta |', '| Grace | no | 2 | Beta |', ''].join('\n');

describe('a table\'s view and column types in the editor, in Chromium', { skip: withoutChromium, timeout: 600_000 }, () => {
  const suite = webAppSuite();
  const content = (page: Page) => page.getByRole('textbox', { name: 'Page content' });

  test('a table switched to cards and back, a card\'s title edited, columns made a checkbox and a rating set by keys and a select given an option, all kept after a reload', async () => {
    const { t, origin } = suite;
    const space = await buildSpace(t, { title: 'Team' });
    const batch = ok(await t.api('POST', `/v1/spaces/${space.id}/content`, { body: { changes: [{ operation: 'insert_page', title: 'Team', document: { markdown: MARKDOWN } }] } }));
    const pageId: string = batch.changes[0].page.id;
    const stored = async (): Promise<Json> =>
      ok(await t.api('GET', `/v1/spaces/${space.id}/content/page/${pageId}?format=document`)).document.nodes.find((b: Json) => b.type === 'table');
    const page = await suite.signedIn();
    const open = async () => {
      await page.goto(`${origin}/app/s/${space.id}/~/edit/${pageId}`);
      await page.getByRole('list', { name: 'People in this page' }).waitFor({ timeout: 20_000 });
      await content(page).waitFor();
    };
    await open();

    // The table's settings: its view, from the block's toolbar.
    await content(page).getByRole('button', { name: 'Table settings' }).click();
    const settings = page.getByRole('group', { name: 'Table settings' });
    await settings.getByRole('radio', { name: 'Cards' }).click();
    const cards = content(page).getByRole('group', { name: 'Cards' });
    await cards.locator('ul.table-cards > li.table-card').first().waitFor();
    assert.equal(await cards.locator('li.table-card').count(), 2);
    assert.equal(await cards.locator('table, th').count(), 0, 'cards are no table: no column titles among them');
    await eventually(async () => (await stored())?.data.view.type === 'cards', 30_000, 'the cards view saved');

    // A card's title edited in place.
    await cards.getByLabel('Card 1, Name').fill('Ada Lovelace');

    // Done becomes a checkbox: "yes" ticked, "no" not; a key ticks the second.
    await cards.getByRole('button', { name: 'Column Done menu' }).click();
    await page.getByRole('menuitemcheckbox', { name: 'Checkbox' }).click();
    const done2 = cards.getByRole('checkbox', { name: 'Card 2, Done' });
    await done2.waitFor();
    assert.equal(await cards.getByRole('checkbox', { name: 'Card 1, Done' }).getAttribute('aria-checked'), 'true');
    assert.equal(await done2.getAttribute('aria-checked'), 'false');
    await done2.focus();
    await page.keyboard.press('Space');
    await eventually(async () => (await done2.getAttribute('aria-checked')) === 'true', 5_000, 'the checkbox ticked');

    // Stars becomes a rating: 2 stars, one more with the right arrow.
    await cards.getByRole('button', { name: 'Column Stars menu' }).click();
    await page.getByRole('menuitemcheckbox', { name: 'Rating' }).click();
    const stars2 = cards.getByRole('slider', { name: 'Card 2, Stars' });
    await stars2.waitFor();
    assert.equal(await stars2.getAttribute('aria-valuenow'), '2');
    await stars2.focus();
    await page.keyboard.press('ArrowRight');
    await eventually(async () => (await stars2.getAttribute('aria-valuenow')) === '3', 5_000, 'the rating set by a key');

    // Status becomes a select of the texts it held; an option is added from a card's cell and chosen.
    await cards.getByRole('button', { name: 'Column Status menu' }).click();
    await page.getByRole('menuitemcheckbox', { name: 'Select' }).click();
    await cards.getByRole('button', { name: 'Card 2, Status: Beta' }).click();
    const options = page.getByRole('group', { name: 'Options of Status' });
    await options.getByRole('checkbox', { name: 'Beta' }).waitFor();
    await options.getByRole('textbox', { name: 'New option' }).fill('Deprecated');
    await page.keyboard.press('Enter');
    await cards.getByRole('button', { name: 'Card 2, Status: Deprecated' }).waitFor();
    await page.keyboard.press('Escape');
    await screenshot(page, 'table-cards-typed');
    await suite.assertAccessible(page, 'a table drawn as cards, with a checkbox and a rating');

    // Back to a grid: its column titles show again.
    await content(page).getByRole('button', { name: 'Cards settings' }).click();
    await settings.getByRole('radio', { name: 'Table' }).click();
    await content(page).getByRole('group', { name: 'Table' }).getByRole('columnheader').first().waitFor();

    const saved = async () => {
      const table = await stored();
      if (!table) return null;
      const byTitle = (title: string) => Object.values(table.data.definition as Record<string, Json>).find((d) => d.title === title)!;
      const rows = Object.values(table.data.records as Record<string, Json>).sort((a, b) => (a.orderIndex < b.orderIndex ? -1 : 1));
      return { table, done: byTitle('Done'), stars: byTitle('Stars'), status: byTitle('Status'), name: byTitle('Name'), rows };
    };
    await eventually(async () => {
      const s = await saved();
      return s?.table.data.view.type === 'grid' && s.rows[1].values[s.done.id] === true && s.rows[1].values[s.stars.id] === 3 && JSON.stringify(s.table.fragments).includes('Ada Lovelace');
    }, 30_000, 'the view, the checkbox, the rating and the title saved');
    const s = (await saved())!;
    assert.equal(s.done.type, 'checkbox');
    assert.deepEqual(s.rows.map((r: Json) => r.values[s.done.id]), [true, true]);
    assert.equal(s.stars.type, 'rating');
    assert.equal(s.stars.max, 5);
    assert.deepEqual(s.rows.map((r: Json) => r.values[s.stars.id]), [4, 3]);
    assert.equal(s.status.type, 'select');
    assert.deepEqual(s.status.options.map((o: Json) => o.label), ['Beta', 'Deprecated']);
    assert.deepEqual(s.rows.map((r: Json) => r.values[s.status.id]), [[s.status.options[0].value], [s.status.options[1].value]]);
    assert.equal(s.table.fragments.length, 2, 'the converted columns\' text cells are gone; the names stay');

    // Reloaded: the editor draws what was stored.
    await open();
    const grid = content(page).getByRole('group', { name: 'Table' });
    await grid.getByRole('checkbox', { name: 'Row 2, Done' }).waitFor();
    assert.equal(await grid.getByRole('checkbox', { name: 'Row 2, Done' }).getAttribute('aria-checked'), 'true');
    assert.equal(await grid.getByRole('slider', { name: 'Row 2, Stars' }).getAttribute('aria-valuenow'), '3');
    assert.equal(await grid.getByLabel('Row 1, Name').inputValue(), 'Ada Lovelace');
    await screenshot(page, 'table-grid-typed');
    await page.context().close();
  });

  test('cards drawn alike in the page view and the published reader: the cover from its file, large, the card a link named by its title, hidden columns hidden', async () => {
    const { t, origin } = suite;
    const space = await buildSpace(t, { title: 'Plans' });
    ok(
      await t.api('POST', `/v1/spaces/${space.id}/content`, {
        body: {
          changes: [
            { operation: 'insert_files', files: [{ ref: 'cover.png', name: 'cover.png', contentType: 'image/png', base64: png(640, 360, 0x5a).toString('base64') }] },
            // The first page is the site's home (its root address): the others have their slugs.
            { operation: 'insert_page', title: 'Welcome', document: { markdown: '# Welcome\n' } },
            { operation: 'insert_page', title: 'Guide', document: { markdown: '# Guide\n\nWhere the card leads.\n' } },
            { operation: 'insert_page', title: 'Plans', document: { markdown: CARDS } },
          ],
        },
      }),
    );
    const site = ok(await t.api('POST', `/v1/orgs/${t.org.id}/sites`, { body: { title: 'Plans site', visibility: 'public', spaces: [space.id] } }), 201);
    ok(await t.api('POST', `/v1/orgs/${t.org.id}/sites/${site.id}/publish`));

    const app = await suite.signedIn();
    const reader = await openPage(suite.browser);
    for (const [where, page, url, guide] of [
      ['page view', app, `${origin}/app/s/${space.id}/plans`, `/app/s/${space.id}/guide`],
      ['reader', reader, `${origin}/sites/${site.id}/plans`, `/sites/${site.id}/guide`],
    ] as const) {
      await page.goto(url);
      const cards = page.locator('ul.table-cards');
      await cards.waitFor();
      assert.equal(await cards.getAttribute('class'), 'table-cards table-cards-large', `${where}: large cards`);
      assert.equal(await cards.locator('li.table-card').count(), 2);
      // Two to a row where medium ones would fit three: a large card is at least 320px wide.
      const [first, second] = [cards.locator('li.table-card').first(), cards.locator('li.table-card').nth(1)];
      assert.ok((await first.evaluate((li) => li.getBoundingClientRect().width)) >= 320, `${where}: a large card's width`);

      const link = first.getByRole('link', { name: 'Starter guide' });
      assert.equal(new URL((await link.getAttribute('href'))!, origin).pathname, guide, `${where}: the card leads to its target page`);
      const cover = first.locator('.table-card-cover img');
      await cover.scrollIntoViewIfNeeded();
      await eventually(async () => (await cover.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)) === 640, 10_000, `${where}: the cover loaded`);
      assert.match((await cover.getAttribute('src'))!, /\/files\//, `${where}: the cover from its file`);
      assert.equal(await cover.getAttribute('alt'), '', `${where}: the cover illustrates the title read beside it`);
      assert.equal(await first.getByRole('link', { name: 'other' }).getAttribute('href'), 'https://example.com/other', `${where}: the card's other links stay links`);
      assert.equal(await cards.getByText('Hidden notes').count(), 0, `${where}: a hidden column stays hidden`);
      assert.equal(await cards.getByText('guide.md').count(), 0, `${where}: the link column is no field`);
      assert.equal(await second.getByRole('link').count(), 0, `${where}: a card without a target is no link`);
      await link.focus();
      await screenshot(page, `table-cards-${where.replace(' ', '-')}`);
      await suite.assertAccessible(page, `cards in the ${where}`);

      // A click anywhere on the card (its cover here) follows its link (the page view's through its router).
      const box = (await cover.boundingBox())!;
      await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
      await page.waitForURL((to) => to.pathname === guide);
      await page.getByText('Where the card leads.').waitFor();
    }
    await app.context().close();
    await reader.context().close();
  });
});
