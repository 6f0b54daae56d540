// @sqlite-run-only: annotations, comments, buttons, icons and variables authored in the editor; the server stores one page, whose documents the content tests store on both databases.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { eventually } from '../../../../src/features/collaboration/clients.test-support.ts';
import { ok } from '../../../../test/assertions.ts';
import { screenshot, withoutChromium } from '../../../../test/browser.ts';
import { webAppSuite } from '../../../../test/browser-suite.ts';
import { caretIn } from '../../../../test/editor/caret.ts';
import { OfficialSpec } from '../../../../test/e2e/spec-validator.ts';
import { buildSpace } from '../../../../test/factories.ts';

/*
 * The inlines a person writes into a sentence: selected words annotated from the selection toolbar (its note
 * written, then edited, in the kit's popover) or commented on (the page's own comment form, quoting them); a button,
 * an icon and a variable inserted from the `/` menu and filled in their popovers; and all saved in GitBook's shape.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/** The text of a piece of a document, its leaves joined. */
const textOf = (value: unknown): string => JSON.stringify(value).match(/"text":"((?:[^"\\]|\\.)*)"/g)?.map((m) => JSON.parse(m.slice(7)) as string).join('') ?? '';

describe('inline authoring in the editor, in Chromium', { skip: withoutChromium, timeout: 300_000 }, () => {
  const suite = webAppSuite();
  const spec = OfficialSpec.loadLatest();
  const content = (page: Page) => page.getByRole('textbox', { name: 'Page content' });

  async function caretAtEnd(page: Page, target: Locator, name: string): Promise<void> {
    await eventually(async () => {
      const box = await target.boundingBox();
      if (box && (await caretIn(target)) === 'outside') await target.click({ position: { x: box.width - 4, y: box.height / 2 } });
      await page.keyboard.press('End');
      return (await caretIn(target)) === 'end';
    }, 20_000, `the caret at the end of "${name}"`);
  }

  /** The `count` characters before the last `skip` of the paragraph saying `paragraph` selected, by the keyboard. */
  async function select(page: Page, paragraph: string, skip: number, count: number): Promise<void> {
    await caretAtEnd(page, content(page).locator('p', { hasText: paragraph }), paragraph);
    for (let i = 0; i < skip; i++) await page.keyboard.press('ArrowLeft');
    for (let i = 0; i < count; i++) await page.keyboard.press('Shift+ArrowLeft');
  }

  /** A new line after the paragraph saying `paragraph`, and an inline on it from the `/` menu. */
  async function insertAfter(page: Page, paragraph: string, item: string): Promise<void> {
    await caretAtEnd(page, content(page).locator('p', { hasText: paragraph }), paragraph);
    await page.keyboard.press('Enter');
    await page.keyboard.type(`/${item}`);
    const menu = page.getByRole('listbox', { name: 'Insert a block' });
    await menu.getByRole('option', { name: new RegExp(`^${item}`, 'i') }).first().waitFor();
    await page.keyboard.press('Enter');
    await menu.waitFor({ state: 'hidden' });
  }

  test('words are annotated and commented on from the selection toolbar; a button, an icon and a variable are inserted from `/` and edited; all saved in GitBook\'s shape', async () => {
    const { t, origin } = suite;
    const space = await buildSpace(t, { title: 'Inline authoring' });
    const markdown = 'Some words to annotate here.\n\nComment on these words.\n\nButtons go here.\n\nIcons go here.\n\nVariables go here.\n';
    const batch = ok(await t.api('POST', `/v1/spaces/${space.id}/content`, { body: { changes: [{ operation: 'insert_page', title: 'Inlines', document: { markdown } }] } }));
    const pageId = batch.changes[0].page.id;
    const saved = async (): Promise<Json> => ok(await t.api('GET', `/v1/spaces/${space.id}/content/page/${pageId}?format=document`)).document;
    const page = await suite.signedIn();
    await page.goto(`${origin}/app/s/${space.id}/~/edit/${pageId}`);
    await content(page).waitFor();
    const toolbar = page.getByRole('toolbar', { name: 'Selected text' });

    // "annotate", selected, annotated, and its note written.
    await select(page, 'Some words to annotate', 6, 8);
    await toolbar.getByRole('button', { name: 'Annotate' }).click();
    const annotation = page.getByRole('dialog', { name: 'Annotation' });
    await annotation.getByLabel('Note').fill('To add a note to words');
    await screenshot(page, 'editor-inline-annotation');
    await suite.assertAccessible(page, 'the annotation\'s popover');
    await page.keyboard.press('Escape');
    await annotation.waitFor({ state: 'hidden' });

    // Its note edited: a click on the annotated words.
    await content(page).locator('.annotation', { hasText: 'annotate' }).click();
    await annotation.getByLabel('Note').fill('A note that says more');
    await annotation.getByRole('button', { name: 'Done' }).click();
    await annotation.waitFor({ state: 'hidden' });

    // Another annotation, removed: its words stay, as they were.
    await select(page, 'Some words to annotate', 19, 5);
    await toolbar.getByRole('button', { name: 'Annotate' }).click();
    await annotation.getByRole('button', { name: 'Remove annotation' }).click();
    await annotation.waitFor({ state: 'hidden' });
    assert.equal(await content(page).locator('.annotation').count(), 1);
    const drawn = await content(page).locator('p').first().evaluate((el) => {
      const copy = el.cloneNode(true) as HTMLElement;
      copy.querySelectorAll('.sr-only').forEach((hidden) => hidden.remove());
      return copy.textContent;
    });
    assert.equal(drawn, 'Some words to annotate here.');

    // A comment on selected words: the page's comment form, quoting them.
    await select(page, 'Comment on these words.', 1, 11);
    await toolbar.getByRole('button', { name: 'Comment' }).click();
    const comment = page.getByRole('textbox', { name: /^Comment on/ });
    await comment.waitFor();
    assert.match(await comment.inputValue(), /^> these words/);
    await comment.pressSequentially('Which words?');
    await page.getByRole('button', { name: 'Post comment' }).click();
    await page.getByRole('complementary', { name: 'Comments' }).getByText('Which words?').waitFor();

    // A button, filled in its popover as it comes.
    await insertAfter(page, 'Buttons go here.', 'Button');
    const button = page.getByRole('dialog', { name: 'Button' });
    await button.getByLabel('Label').fill('Get started');
    await button.getByLabel('Link URL').fill('https://example.com/start');
    await button.getByRole('radio', { name: 'Secondary' }).click();
    await screenshot(page, 'editor-inline-button');
    await suite.assertAccessible(page, 'the button\'s popover');
    await button.getByRole('button', { name: 'Done' }).click();
    await button.waitFor({ state: 'hidden' });

    // An icon, found by a search.
    await insertAfter(page, 'Icons go here.', 'Icon');
    const icon = page.getByRole('dialog', { name: 'Icon' });
    await icon.getByLabel('Search icons').fill('rocket');
    await screenshot(page, 'editor-inline-icon');
    await suite.assertAccessible(page, 'the icon picker');
    await icon.getByRole('button', { name: 'rocket', exact: true }).click();
    await icon.waitFor({ state: 'hidden' });

    // A variable of the space, written as its expression (the space has none to pick yet).
    await insertAfter(page, 'Variables go here.', 'Variable');
    const expression = page.getByRole('dialog', { name: 'Expression' });
    await expression.getByText('no variables yet').waitFor();
    await expression.getByLabel('Expression').fill('space.vars.version');
    await expression.getByLabel('Expression').press('Enter');
    await expression.waitFor({ state: 'hidden' });
    await content(page).getByText('{{space.vars.version}}').waitFor();

    // The button edited: a click on it opens the same popover; it is made to lead to a page, found by its title.
    await content(page).getByText('Get started').click();
    await button.getByLabel('Label').fill('Start now');
    await button.getByRole('button', { name: 'Link to a page…' }).click();
    const picker = page.getByRole('dialog', { name: 'Button link' });
    await picker.getByLabel('Link to a URL or a page').fill('Inlines');
    await picker.getByRole('list', { name: 'Pages' }).getByRole('button', { name: 'Inlines' }).click();
    await picker.waitFor({ state: 'hidden' });

    await screenshot(page, 'editor-inline-authoring', { fullPage: true });
    await suite.assertAccessible(page, 'the editor with inlines');

    const inlines = (document: Json, type: string): Json[] => JSON.stringify(document).includes(`"type":"${type}"`) ? document.nodes.flatMap((b: Json) => (b.nodes ?? []).filter((n: Json) => n.object === 'inline' && n.type === type)) : [];
    await eventually(async () => {
      const document = await saved();
      return inlines(document, 'button')[0]?.data.ref.kind === 'page' && inlines(document, 'expression').length === 1 && textOf(inlines(document, 'annotation')[0]?.fragments).includes('says more');
    }, 30_000, 'the inlines saved');
    const document = await saved();
    assert.deepEqual(spec.schemaProblems('Document', document), [], 'GitBook\'s spec takes the saved document');
    assert.equal(inlines(document, 'annotation').length, 1);
    const [savedAnnotation] = inlines(document, 'annotation');
    assert.equal(savedAnnotation.isVoid, false);
    assert.equal(textOf(savedAnnotation.nodes), 'annotate');
    assert.deepEqual(savedAnnotation.fragments.map((f: Json) => [f.fragment, textOf(f.nodes)]), [['annotation-body', 'A note that says more']]);
    const withoutNotes = JSON.stringify(document.nodes[0], (key, value: unknown) => (key === 'fragments' ? undefined : value));
    assert.equal(textOf(JSON.parse(withoutNotes)), 'Some words to annotate here.', 'the words around it kept');
    assert.deepEqual(inlines(document, 'button')[0].data, { ref: { kind: 'page', page: pageId }, label: 'Start now', kind: 'secondary' });
    assert.deepEqual(inlines(document, 'icon')[0].data, { icon: 'rocket' });
    assert.deepEqual(inlines(document, 'expression')[0].data, { expression: 'space.vars.version' });
    const comments = ok(await t.api('GET', `/v1/spaces/${space.id}/comments`));
    assert.equal(comments.items.length, 1);
    assert.equal(comments.items[0].target?.node?.id, document.nodes[1].key, 'the comment names the block of its words');
    await page.context().close();
  });
});
