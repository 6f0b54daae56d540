// @sqlite-run-only: reusable content made, inserted and edited in the editor; the server stores one page and its reusable contents, which the content tests store on both databases.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Locator, Page, Route } from 'playwright-core';
import { eventually } from '../../../../src/features/collaboration/clients.test-support.ts';
import { ok } from '../../../../test/assertions.ts';
import { screenshot, withoutChromium } from '../../../../test/browser.ts';
import { webAppSuite } from '../../../../test/browser-suite.ts';
import { caretIn } from '../../../../test/editor/caret.ts';
import { buildSpace } from '../../../../test/factories.ts';

/*
 * Reusable content in the editor (issue 42): blocks selected in a page become reusable content (the page then
 * includes it), an existing one is inserted from the `/` menu, and one is edited where it lives, its new words
 * shown in the page; each checked through the API.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/** The text of a piece of a document, its leaves joined. */
const textOf = (value: unknown): string => JSON.stringify(value).match(/"text":"((?:[^"\\]|\\.)*)"/g)?.map((m) => JSON.parse(m.slice(7)) as string).join('') ?? '';
const paragraph = (text: string) => ({ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }] });

describe('reusable content in the editor, in Chromium', { skip: withoutChromium, timeout: 300_000 }, () => {
  const suite = webAppSuite();
  const content = (page: Page) => page.getByRole('textbox', { name: 'Page content' }).first();

  /** The caret at the end of a text block, once the editor holds the page (a click before is lost). */
  async function caretAtEnd(page: Page, target: Locator, name: string): Promise<void> {
    await eventually(async () => {
      const box = await target.boundingBox();
      if (box && (await caretIn(target)) === 'outside') await target.click({ position: { x: box.width / 2, y: box.height - 6 } });
      await page.keyboard.press('End');
      return (await caretIn(target)) === 'end';
    }, 20_000, `the caret at the end of "${name}"`);
  }

  test('blocks selected become reusable content, one is inserted from `/`, and one is edited where it lives', async () => {
    const { origin, t } = suite;
    const space = await buildSpace(t, { title: 'Reusable' });
    const batch = ok(
      await t.api('POST', `/v1/spaces/${space.id}/content`, {
        body: {
          changes: [
            { operation: 'insert_reusable_content', reusableContent: 'support', title: 'Support contact', document: { document: { object: 'document', data: {}, nodes: [paragraph('Write to help@example.com.')] } } },
            { operation: 'insert_page', title: 'Trains', document: { markdown: 'Before boarding.\n\nMind the gap.\n\nStand clear of the doors.\n\nAfter boarding.\n' } },
          ],
        },
      }),
    );
    const pageId = batch.changes.find((c: Json) => c.object === 'created_page').page.id;
    const saved = async () => ok(await t.api('GET', `/v1/spaces/${space.id}/content/page/${pageId}?format=document`)).document;
    const reusableText = async (id: string) => {
      const found = ok(await t.api('GET', `/v1/spaces/${space.id}/content/reusable-contents/${id}`));
      return textOf(ok(await t.api('GET', `/v1/spaces/${space.id}/documents/${found.document}`)));
    };

    const page = await suite.signedIn();
    await page.goto(`${origin}/app/s/${space.id}/~/edit/${pageId}`);
    await content(page).waitFor();

    // Two paragraphs selected, made into reusable content from the selection's toolbar.
    await caretAtEnd(page, content(page).locator('p', { hasText: 'Stand clear of the doors.' }), 'Stand clear of the doors.');
    await page.keyboard.press('Shift+ArrowUp');
    await page.keyboard.press('Shift+Home');
    await page.getByRole('toolbar', { name: 'Selected text' }).getByRole('button', { name: 'Create reusable content' }).click();
    const create = page.getByRole('dialog', { name: 'Create reusable content' });
    assert.equal(await create.getByLabel('Title').inputValue(), 'Mind the gap.', 'a title suggested from its first line');
    await create.getByLabel('Title').fill('Safety notice');
    // The server refusing it first: the message shows, and the page keeps its blocks.
    const refuse = (route: Route) =>
      route.request().method() === 'POST' && (route.request().postData() ?? '').includes('insert_reusable_content')
        ? route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ error: { code: 503, message: 'The server is busy' } }) })
        : route.fallback();
    await page.route(`**/v1/spaces/${space.id}/content**`, refuse);
    await create.getByRole('button', { name: 'Create' }).click();
    await create.getByRole('alert').getByText('The server is busy').waitFor();
    await page.unroute(`**/v1/spaces/${space.id}/content**`, refuse);
    // Under the dialog, the page is hidden from the accessibility tree: its paragraphs are found by their place.
    assert.equal(await page.locator('.qe-content > p', { hasText: 'Stand clear of the doors.' }).count(), 1, 'the blocks kept');
    await create.getByRole('button', { name: 'Create' }).click();
    await create.waitFor({ state: 'detached' });
    const safety = content(page).getByRole('region', { name: 'Reusable content: Safety notice' });
    await safety.getByText('Stand clear of the doors.').waitFor();
    await safety.getByRole('button', { name: /Used in 1 page/ }).waitFor();
    assert.equal(await content(page).locator('p', { hasText: 'Mind the gap.' }).count(), 1, 'the blocks moved into it, not copied');
    // One step of the page's history: undone, the two blocks are back; redone, the reusable content is.
    await page.keyboard.press('Control+z');
    await safety.waitFor({ state: 'detached' });
    assert.equal(await content(page).locator('p', { hasText: /^(Mind the gap\.|Stand clear of the doors\.)$/ }).count(), 2, 'both blocks back');
    await page.keyboard.press('Control+Shift+z');
    await safety.getByText('Stand clear of the doors.').waitFor();

    let safetyId = '';
    await eventually(async () => {
      const document = await saved();
      const block = document.nodes.find((b: Json) => b.type === 'reusable-content');
      safetyId = block?.data.ref.reusableContent ?? '';
      return document.nodes.length === 3 && safetyId !== '';
    }, 30_000, 'the page saved with the reusable content in place of the blocks');
    assert.deepEqual((await saved()).nodes.map((b: Json) => [b.type, textOf(b)]), [['paragraph', 'Before boarding.'], ['reusable-content', ''], ['paragraph', 'After boarding.']]);
    assert.equal(await reusableText(safetyId), 'Mind the gap.Stand clear of the doors.');

    // An existing one, inserted from the `/` menu's picker, searched by title.
    await caretAtEnd(page, content(page).locator('p', { hasText: 'After boarding.' }), 'After boarding.');
    await page.keyboard.press('Enter');
    await page.keyboard.type('/reusable');
    const menu = page.getByRole('listbox', { name: 'Insert a block' });
    await menu.getByRole('option', { name: /^Reusable content/ }).waitFor();
    await page.keyboard.press('Enter');
    const picker = page.getByRole('dialog', { name: 'Insert reusable content' });
    await picker.getByRole('combobox', { name: 'Search reusable content' }).fill('supp');
    await picker.getByRole('option', { name: 'Support contact' }).waitFor();
    assert.equal(await picker.getByRole('option').count(), 1, 'the search keeps what matches');
    await page.keyboard.press('Enter');
    await content(page).getByRole('region', { name: 'Reusable content: Support contact' }).getByText('Write to help@example.com.').waitFor();
    await eventually(async () => JSON.stringify(await saved()).includes('"reusableContent":"support"'), 30_000, 'the inserted block saved');

    // Edited where it lives: the dialog's editor on its document, saved, and the page shows the new words.
    await safety.getByRole('button', { name: 'Edit where it lives' }).click();
    const editing = page.getByRole('dialog', { name: 'Edit reusable content: Safety notice' });
    const inner = editing.getByRole('textbox', { name: 'Page content' });
    await caretAtEnd(page, inner.locator('p', { hasText: 'Mind the gap.' }), 'Mind the gap. (where it lives)');
    await page.keyboard.type(' Always.');
    await suite.assertAccessible(page, 'reusable content edited where it lives');
    await screenshot(page, 'editor-reusable-content-edit');
    await editing.getByRole('button', { name: 'Save' }).click();
    await editing.waitFor({ state: 'detached' });
    await safety.getByText('Mind the gap. Always.').waitFor();
    assert.equal(await reusableText(safetyId), 'Mind the gap. Always.Stand clear of the doors.');

    // One block, from its block menu.
    await content(page).locator('p', { hasText: 'Before boarding.' }).hover({ position: { x: 4, y: 4 } });
    await page.getByRole('button', { name: 'Block menu' }).click();
    await page.getByRole('menuitem', { name: 'Create reusable content' }).click();
    const fromMenu = page.getByRole('dialog', { name: 'Create reusable content' });
    await fromMenu.getByRole('button', { name: 'Create' }).click();
    await content(page).getByRole('region', { name: 'Reusable content: Before boarding.' }).getByText('Before boarding.', { exact: true }).waitFor();

    await safety.getByRole('button', { name: /Used in 1 page/ }).click();
    await page.getByRole('dialog', { name: 'Where it is used' }).getByText('Trains').waitFor();
    await screenshot(page, 'editor-reusable-content', { fullPage: true });
    await page.keyboard.press('Escape');
    await suite.assertAccessible(page, 'the editor with reusable content');
    await page.context().close();
  });
});
