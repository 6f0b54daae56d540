// @sqlite-run-only: stepper, columns and updates authored in the editor; the server stores one page, whose documents the content tests store on both databases.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { eventually } from '../../../../src/features/collaboration/clients.test-support.ts';
import { splitPageMarkdown } from '../../../../src/features/content/markdown.ts';
import { ok } from '../../../../test/assertions.ts';
import { screenshot, withoutChromium } from '../../../../test/browser.ts';
import { webAppSuite } from '../../../../test/browser-suite.ts';
import { caretIn } from '../../../../test/editor/caret.ts';
import { CORPUS_DIR } from '../../../../test/corpus/pages.ts';
import { OfficialSpec } from '../../../../test/e2e/spec-validator.ts';
import { buildSpace } from '../../../../test/factories.ts';

/*
 * GitBook's stepper, columns and updates, written in the editor: inserted from the `/` menu, typed in, given
 * another step, column or update, and saved as GitBook's JSON (checked against GitBook's latest spec, which has
 * updates); and the corpus' own stepper page, opened and edited in place.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/** The text of a piece of a document, its leaves joined. */
const textOf = (value: unknown): string => JSON.stringify(value).match(/"text":"((?:[^"\\]|\\.)*)"/g)?.map((m) => JSON.parse(m.slice(7)) as string).join('') ?? '';

describe('layout blocks in the editor, in Chromium', { skip: withoutChromium, timeout: 300_000 }, () => {
  const suite = webAppSuite();
  const spec = OfficialSpec.loadLatest();
  const content = (page: Page) => page.getByRole('textbox', { name: 'Page content' });

  /**
   * The caret at the end of a text block, once the editor holds the page (a click before is lost): clicked on its
   * last line (End goes to the end of a line, and a paragraph in a column wraps).
   */
  async function caretAtEnd(page: Page, target: Locator, name: string): Promise<void> {
    await eventually(async () => {
      const box = await target.boundingBox();
      if (box && (await caretIn(target)) === 'outside') await target.click({ position: { x: box.width / 2, y: box.height - 6 } });
      await page.keyboard.press('End');
      return (await caretIn(target)) === 'end';
    }, 20_000, `the caret at the end of "${name}"`);
  }

  /** A new block after the paragraph saying `paragraph`, from the `/` menu. */
  async function insertAfter(page: Page, paragraph: string, item: string): Promise<void> {
    await caretAtEnd(page, content(page).locator('p', { hasText: paragraph }), paragraph);
    await page.keyboard.press('Enter');
    await page.keyboard.type(`/${item}`);
    const menu = page.getByRole('listbox', { name: 'Insert a block' });
    await menu.getByRole('option', { name: new RegExp(`^${item}`, 'i') }).first().waitFor();
    await page.keyboard.press('Enter');
    await menu.waitFor({ state: 'hidden' });
  }

  async function pageWith(markdown: string, title: string): Promise<{ spaceId: string; pageId: string; saved: () => Promise<Json> }> {
    const { t } = suite;
    const space = await buildSpace(t, { title });
    const batch = ok(await t.api('POST', `/v1/spaces/${space.id}/content`, { body: { changes: [{ operation: 'insert_page', title, document: { markdown } }] } }));
    const pageId = batch.changes[0].page.id;
    const saved = async () => ok(await t.api('GET', `/v1/spaces/${space.id}/content/page/${pageId}?format=document`)).document;
    return { spaceId: space.id, pageId, saved };
  }

  test('a stepper, columns and updates inserted from the `/` menu are typed in, grown, and saved in GitBook\'s shape', async () => {
    const { origin } = suite;
    const { spaceId, pageId, saved } = await pageWith('Steps go here.\n\nColumns go here.\n\nUpdates go here.\n', 'Layout blocks');
    const page = await suite.signedIn();
    await page.goto(`${origin}/app/s/${spaceId}/~/edit/${pageId}`);
    await content(page).waitFor();

    await insertAfter(page, 'Steps go here.', 'Stepper');
    await page.keyboard.type('Install the tool');
    const stepper = page.getByRole('group', { name: 'Stepper' });
    await stepper.getByRole('button', { name: 'Add step' }).click();
    await page.keyboard.type('Run it');
    // Enter twice at the end of a step starts the next one, as in GitBook.
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Check the result');
    await eventually(async () => (await stepper.getByRole('listitem').count()) === 3, 10_000, 'three steps');
    // In a step, the `/` menu offers no stepper (GitBook takes none there); the line it was typed on then goes.
    await page.keyboard.press('Enter');
    await page.keyboard.type('/');
    const menu = page.getByRole('listbox', { name: 'Insert a block' });
    await menu.getByRole('option', { name: /^Quote/ }).waitFor();
    assert.equal(await menu.getByRole('option', { name: /^Stepper/ }).count(), 0);
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'hidden' });
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Backspace');

    await insertAfter(page, 'Columns go here.', 'Columns');
    await page.keyboard.type('Left side');
    const columns = page.getByRole('group', { name: 'Columns' });
    await columns.getByRole('button', { name: 'Add column' }).click();
    await page.keyboard.type('Third column');
    await columns.getByRole('button', { name: 'Add column' }).waitFor({ state: 'detached' });
    await columns.getByRole('button', { name: 'Remove column 3' }).waitFor();

    await insertAfter(page, 'Updates go here.', 'Updates');
    await page.keyboard.type('A new release');
    const updates = page.getByRole('group', { name: 'Updates' });
    const first = updates.getByRole('group', { name: 'Update 1' });
    await first.getByLabel('Date', { exact: true }).fill('2026-03-01');
    await first.getByLabel('Tags', { exact: true }).fill('beta, api');
    await first.getByLabel('Tags', { exact: true }).press('Tab');
    await updates.getByRole('button', { name: 'Add update' }).click();
    await page.keyboard.type('Another release');

    await screenshot(page, 'editor-layout-blocks', { fullPage: true });
    await suite.assertAccessible(page, 'the editor with a stepper, columns and updates');

    await eventually(async () => JSON.stringify(await saved()).includes('Another release'), 30_000, 'the last words saved');
    const document = await saved();
    assert.deepEqual(spec.schemaProblems('Document', document), [], 'GitBook\'s spec takes the saved document');
    const block = (type: string) => document.nodes.find((b: Json) => b.type === type);
    const savedStepper = block('stepper');
    assert.deepEqual(savedStepper.nodes.map((step: Json) => [step.type, textOf(step)]), [['stepper-step', 'Install the tool'], ['stepper-step', 'Run it'], ['stepper-step', 'Check the result']]);
    const savedColumns = block('columns');
    assert.deepEqual(savedColumns.nodes.map((column: Json) => [column.type, textOf(column)]), [['column', 'Left side'], ['column', ''], ['column', 'Third column']]);
    const savedUpdates = block('updates');
    assert.equal(savedUpdates.data.format, 'full');
    assert.deepEqual(savedUpdates.nodes[0].data, { date: '2026-03-01', tags: [{ kind: 'tag', tag: 'beta' }, { kind: 'tag', tag: 'api' }] });
    assert.match(savedUpdates.nodes[1].data.date, /^\d{4}-\d{2}-\d{2}$/);
    assert.deepEqual(savedUpdates.nodes.map(textOf), ['A new release', 'Another release']);
    await page.context().close();
  });

  test('the corpus\' stepper page opens with its steps in place, and a step is edited, added and removed there', async () => {
    const { origin } = suite;
    const file = 'create-content/blocks/stepper.md';
    const { body } = splitPageMarkdown(readFileSync(join(CORPUS_DIR, file), 'utf8'), file);
    const { spaceId, pageId, saved } = await pageWith(body, 'Stepper');
    const before = await saved();
    const original = before.nodes.find((b: Json) => b.type === 'stepper');
    assert.equal(original.nodes.length, 3);
    const page = await suite.signedIn();
    await page.goto(`${origin}/app/s/${spaceId}/~/edit/${pageId}`);
    await content(page).waitFor();
    const stepper = page.getByRole('group', { name: 'Stepper' });
    await eventually(async () => (await stepper.getByRole('listitem').count()) === 3, 10_000, 'the three steps of the page');
    assert.equal(await content(page).getByText('kept as it is').count(), 0, 'no step is a card');

    await caretAtEnd(page, stepper.getByRole('heading', { name: 'Add some content' }), 'Add some content');
    await page.keyboard.type(' here');
    await stepper.getByRole('button', { name: 'Add step' }).click();
    await page.keyboard.type('A fourth step');
    await stepper.getByRole('button', { name: 'Remove step 1' }).click();
    await screenshot(page, 'editor-layout-corpus-stepper', { fullPage: true });

    await eventually(async () => JSON.stringify(await saved()).includes('A fourth step') && !JSON.stringify(await saved()).includes('Add a stepper block'), 30_000, 'the edits saved');
    const after = (await saved()).nodes.find((b: Json) => b.type === 'stepper');
    assert.equal(after.nodes.length, 3);
    assert.equal(textOf(after.nodes[0].nodes[0]), 'Add some content here');
    assert.deepEqual(after.nodes[1], original.nodes[2], 'a step not edited comes back as it was, key included');
    assert.equal(textOf(after.nodes[2]), 'A fourth step');
    await page.context().close();
  });

  test('the corpus\' columns page opens with its columns side by side, a column is edited, and the block is dragged by its handle', async () => {
    const { origin } = suite;
    const file = 'create-content/blocks/columns.md';
    const { body } = splitPageMarkdown(readFileSync(join(CORPUS_DIR, file), 'utf8'), file);
    const { spaceId, pageId, saved } = await pageWith(body, 'Columns');
    const before = await saved();
    const original = before.nodes.find((b: Json) => b.type === 'columns');
    assert.deepEqual(original.nodes.map((column: Json) => column.data), [{ width: { value: 50, unit: '%' } }, {}]);
    const page = await suite.signedIn();
    await page.goto(`${origin}/app/s/${spaceId}/~/edit/${pageId}`);
    await content(page).waitFor();
    const columns = page.getByRole('group', { name: 'Columns' });
    const paragraph = columns.locator('p', { hasText: 'Integrate your documentation' });
    await caretAtEnd(page, paragraph, 'Integrate your documentation');
    await page.keyboard.type(' Today.');
    // Side by side: the second column starts level with the first, to its right.
    const [left, right] = await Promise.all([0, 1].map((i) => columns.locator('.column').nth(i).boundingBox()));
    assert.ok(left && right && Math.abs(left.y - right.y) < 2 && right.x > left.x + left.width - 1, 'two columns side by side');
    await suite.assertAccessible(page, 'the corpus\' columns page in the editor');

    // Dragged by the block handle above the paragraph before it.
    await columns.hover({ position: { x: 4, y: 4 } });
    const handle = await page.getByRole('button', { name: 'Block menu' }).boundingBox();
    const target = await content(page).locator('p', { hasText: 'Columns are a great way' }).boundingBox();
    assert.ok(handle && target);
    await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2);
    await page.mouse.down();
    await page.mouse.move(target.x + 20, target.y + 3, { steps: 12 });
    await page.mouse.up();
    await screenshot(page, 'editor-layout-corpus-columns', { fullPage: true });

    const order = (document: Json) => document.nodes.slice(0, 2).map((b: Json) => b.type).join();
    assert.equal(order(before), 'paragraph,columns');
    await eventually(async () => {
      const document = await saved();
      return JSON.stringify(document).includes('Today.') && order(document) === 'columns,paragraph';
    }, 30_000, 'the columns saved above the paragraph, with the words typed');
    const after = (await saved()).nodes.find((b: Json) => b.type === 'columns');
    assert.equal(after.key, original.key, 'the block moved is the same block');
    assert.deepEqual(after.nodes[1], original.nodes[1], 'the column not edited comes back as it was');
    assert.deepEqual(after.nodes[0].data, original.nodes[0].data);
    await page.context().close();
  });
});
