import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { eventually } from '../../../src/features/collaboration/clients.test-support.ts';
import { ok } from '../../../test/assertions.ts';
import { screenshot, withoutChromium } from '../../../test/browser.ts';
import { webAppSuite } from '../../../test/browser-suite.ts';
import { caretIn } from '../../../test/editor/caret.ts';
import { buildSpace } from '../../../test/factories.ts';
import { png } from '../../../test/fixtures/png.ts';

/*
 * Nothing typed is lost: every control that makes a place to type (an image's caption, a tab, an expandable's
 * title, a table's row, column and cells, a card) puts the caret there, so what a person types right after the
 * click lands there, and is saved. The keys follow each click at once: the only waits are for the editor's state.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/** The text of a piece of a document, its leaves joined. */
const textOf = (value: unknown): string => JSON.stringify(value).match(/"text":"((?:[^"\\]|\\.)*)"/g)?.map((m) => JSON.parse(m.slice(7)) as string).join('') ?? '';

describe('places to type, in Chromium', { skip: withoutChromium, timeout: 300_000 }, () => {
  const suite = webAppSuite();

  const content = (page: Page) => page.getByRole('textbox', { name: 'Page content' });

  /** A new block after the paragraph saying `paragraph`, from the `/` menu. */
  async function insertAfter(page: Page, paragraph: string, item: string): Promise<void> {
    const target = content(page).locator('p', { hasText: paragraph });
    await eventually(async () => {
      if ((await caretIn(target)) === 'outside') await target.click();
      await page.keyboard.press('End');
      return (await caretIn(target)) === 'end';
    }, 20_000, `the caret at the end of "${paragraph}"`);
    await page.keyboard.press('Enter');
    await page.keyboard.type(`/${item}`);
    await page.getByRole('listbox', { name: 'Insert a block' }).waitFor();
    await page.keyboard.press('Enter');
  }

  test('what is typed right after adding a caption, a tab, an expandable, a table, a row, a column or a card is saved there', async () => {
    const { t, origin } = suite;
    const space = await buildSpace(t, { title: 'Places to type' });
    const markdown = '![A diagram](diagram.png)\n\nTabs go here.\n\nAn expandable goes here.\n\nA table goes here.\n\nCards go here.\n';
    const batch = ok(
      await t.api('POST', `/v1/spaces/${space.id}/content`, {
        body: {
          changes: [
            { operation: 'insert_files', files: [{ ref: 'diagram.png', name: 'diagram.png', contentType: 'image/png', base64: png(300, 100).toString('base64') }] },
            { operation: 'insert_page', title: 'Places', document: { markdown } },
          ],
        },
      }),
    );
    const pageId = batch.changes[0].page.id;
    const page = await suite.signedIn();
    await page.goto(`${origin}/app/s/${space.id}/~/edit/${pageId}`);
    await content(page).waitFor();

    // An image's caption is added from its settings toolbar, shown once the image is selected.
    await page.locator('.qe-image-frame').click();
    await page.getByRole('group', { name: 'Image settings' }).getByRole('button', { name: 'Add caption' }).click();
    await page.keyboard.type('Figure 1: the whole system');

    await insertAfter(page, 'Tabs go here.', 'tabs');
    await page.getByRole('button', { name: 'Add tab' }).click();
    await page.keyboard.type('Linux');

    await insertAfter(page, 'An expandable goes here.', 'expandable');
    await page.keyboard.type('Details');

    await insertAfter(page, 'A table goes here.', 'table');
    await page.keyboard.type('Ada');
    const table = page.getByRole('group', { name: 'Table' });
    await table.getByRole('button', { name: 'Add row' }).click();
    await page.keyboard.type('Third row');
    await table.getByRole('button', { name: 'Add column' }).click();
    await page.keyboard.type('Year');

    await insertAfter(page, 'Cards go here.', 'cards');
    await page.keyboard.type('First card');
    await page.getByRole('group', { name: 'Cards' }).getByRole('button', { name: 'Add card' }).click();
    await page.keyboard.type('Fourth card');
    await screenshot(page, 'editor-places-to-type');

    const saved = async () => ok(await t.api('GET', `/v1/spaces/${space.id}/content/page/${pageId}?format=document`)).document;
    const blocks = (document: Json, type: string): Json[] => document.nodes.filter((b: Json) => b.type === type);
    const tables = (document: Json) => blocks(document, 'table');
    const cell = (block: Json, recordId: string, column: string) => textOf(block.fragments.find((f: Json) => f.fragment === block.data.records[recordId].values[column]));
    const lastRecord = (block: Json) => Object.entries(block.data.records as Record<string, { orderIndex: string }>).sort(([, a], [, b]) => (a.orderIndex < b.orderIndex ? -1 : 1)).at(-1)![0];
    await eventually(async () => JSON.stringify(await saved()).includes('Fourth card'), 30_000, 'the last words saved');
    const document = await saved();

    const image = blocks(document, 'images')[0].nodes[0];
    assert.equal(textOf(image.fragments.find((f: Json) => f.fragment === 'caption')), 'Figure 1: the whole system');
    assert.deepEqual(blocks(document, 'tabs')[0].nodes.map((tab: Json) => tab.data.title), ['Tab 1', 'Linux']);
    const expandable = blocks(document, 'expandable')[0];
    assert.equal(textOf(expandable.fragments.find((f: Json) => f.fragment === 'expandable-title')), 'Details');
    assert.equal(textOf(expandable.fragments.find((f: Json) => f.fragment === 'expandable-body')), '');

    const [grid, cards] = [tables(document).find((b: Json) => b.data.view.type === 'grid'), tables(document).find((b: Json) => b.data.view.type === 'cards')];
    assert.equal(cell(grid, 'r1', 'c1'), 'Ada');
    assert.equal(cell(grid, lastRecord(grid), 'c1'), 'Third row');
    assert.deepEqual(grid.data.view.columns.map((c: string) => grid.data.definition[c].title), ['Column 1', 'Column 2', 'Year']);
    assert.equal(cell(cards, 'r1', 'c1'), 'First card');
    assert.equal(cell(cards, lastRecord(cards), 'c1'), 'Fourth card');
    assert.equal(Object.keys(cards.data.records).length, 4);
    await page.context().close();
  });
});
