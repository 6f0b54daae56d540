// @sqlite-run-only: where keys sent at once act in the editor is the browser's and the editor's; the saves they make are stored as the editing tests store them on both databases.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { eventually } from '../../../src/features/collaboration/clients.test-support.ts';
import { ok } from '../../../test/assertions.ts';
import { screenshot, withoutChromium } from '../../../test/browser.ts';
import { webAppSuite } from '../../../test/browser-suite.ts';
import { buildSpace } from '../../../test/factories.ts';

/*
 * Keys at the caret the person sees. A key the browser handles (End, Home, an arrow) moves the page's caret at once,
 * and the editor reads it a task later; keys sent with no pause between them (a fast typist, a keyboard macro) must
 * still act where that caret is. Each case puts the caret somewhere, waits until the editor has read it, then sends
 * all its keys at once (none waits for the one before), and the saved document is compared with what a person
 * would expect from those keys.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const MARKDOWN = `First line here.

Second paragraph.

## A heading here

* One
* Two

| Name | Born |
| ---- | ---- |
| **Ada** Lovelace | 1815 |

{% hint style="info" %}
Hint body.
{% endhint %}

Last paragraph.

Closing words.
`;

/** The saved document as lines, one per text block, indented by the blocks that hold it: `list-item: One`. */
function outline(document: Json): string[] {
  const lines: string[] = [];
  const textOf = (node: Json): string => (node.leaves ?? []).map((leaf: Json) => leaf.text ?? '').join('') + (node.nodes ?? []).map(textOf).join('');
  const walk = (nodes: Json[], depth: number, holder: string) => {
    for (const node of nodes) {
      if (node.object !== 'block') continue;
      if (node.type === 'table') {
        const { records, view } = node.data;
        for (const record of Object.values(records) as Json[]) {
          const cells = view.columns.map((column: string) => textOf(node.fragments.find((f: Json) => f.fragment === record.values[column]) ?? {}));
          lines.push(`${'  '.repeat(depth)}row: ${cells.join(' | ')}`);
        }
      } else if (node.nodes?.some((child: Json) => child.object === 'block')) {
        walk(node.nodes, depth + 1, node.type);
      } else {
        lines.push(`${'  '.repeat(depth)}${holder === 'list-item' ? 'item' : node.type}: ${textOf(node)}`);
      }
    }
  };
  walk(document.nodes, 0, 'document');
  return lines;
}

describe('keys sent with no pause, in Chromium', { skip: withoutChromium, timeout: 300_000 }, () => {
  const suite = webAppSuite();

  const content = (page: Page) => page.getByRole('textbox', { name: 'Page content' });

  /** Whether the focused editor's selection is the browser's: the state every case starts from. */
  const caretRead = (page: Page) =>
    page.evaluate(() => {
      const root = document.activeElement?.closest('.ProseMirror') as (Element & { editor?: Json }) | null;
      const view = root?.editor?.view;
      const selection = getSelection();
      if (!view || !selection?.focusNode) return false;
      try {
        return view.posAtDOM(selection.focusNode, selection.focusOffset) === view.state.selection.head;
      } catch {
        return false;
      }
    });

  /** Clicks `target`, presses `key` (Home or End), and waits for the editor to have read where the caret went. */
  async function caretAt(page: Page, target: Locator, key: 'Home' | 'End'): Promise<void> {
    await target.click();
    await page.keyboard.press(key);
    await eventually(() => caretRead(page), 10_000, `the editor reading the caret in ${await target.textContent()}`);
  }

  const NAMED = new Set(['End', 'Home', 'Enter', 'Backspace', 'Tab', 'Escape', 'ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown']);

  /** Every key's events sent before any is answered: a key name, or a text typed a character at a time, in order. */
  async function rapidly(page: Page, keys: string[]): Promise<void> {
    const each = keys.flatMap((key) => (NAMED.has(key) ? [key] : [...key]));
    await Promise.all(each.map((key) => page.keyboard.press(key)));
  }

  test('End, Home, arrows, Enter, Backspace, Tab and typed text act where the caret is, in paragraphs, headings, lists, table cells and hints', async () => {
    const { t } = suite;
    const space = await buildSpace(t, { title: 'Fast keys' });
    const batch = ok(await t.api('POST', `/v1/spaces/${space.id}/content`, { body: { changes: [{ operation: 'insert_page', title: 'Keys', document: { markdown: MARKDOWN } }] } }));
    const pageId = batch.changes[0].page.id;
    const page = await suite.signedIn();
    await page.goto(`${suite.origin}/app/s/${space.id}/~/edit/${pageId}`);
    await content(page).waitFor();
    const editor = content(page);

    // The case: a list made by typing, then out of it.
    await caretAt(page, editor.locator('p', { hasText: 'First line here.' }), 'Home');
    await rapidly(page, ['-', ' ', 'End', 'Enter', 'Enter', 'Typed after.']);

    await caretAt(page, editor.locator('p', { hasText: 'Second paragraph.' }), 'End');
    await rapidly(page, ['Home', 'AB ', 'End', '!', 'ArrowLeft', 'ArrowLeft', 'x']);

    await caretAt(page, editor.getByRole('heading', { name: 'A heading here' }), 'End');
    await rapidly(page, ['Home', 'ArrowRight', 'Backspace', 'The', 'End', 'Enter', 'Below.']);

    await caretAt(page, editor.locator('li', { hasText: 'Two' }), 'End');
    await rapidly(page, ['Home', 'Tab', 'End', ' nested', 'Enter', 'Three']);

    await caretAt(page, editor.locator('p', { hasText: 'Hint body.' }), 'End');
    await rapidly(page, ['Home', 'Note: ', 'End', 'Enter', 'Second line.']);

    await caretAt(page, editor.locator('p', { hasText: 'Closing words.' }), 'End');
    await rapidly(page, ['Home', 'Backspace', 'End', ' Joined.']);

    // A cell with marks is edited by an editor of its own (a plain one is a text input, whose keys are the browser's).
    await page.getByRole('button', { name: 'Ada Lovelace: edit Row 1, Name' }).click();
    const cell = page.getByRole('textbox', { name: 'Row 1, Name' });
    await cell.waitFor();
    await eventually(() => caretRead(page), 10_000, 'the cell editor reading its caret');
    await rapidly(page, ['Home', 'Lady ', 'End', '!']);
    await page.keyboard.press('Escape');
    await screenshot(page, 'editor-fast-keys');

    const saved = async () => outline(ok(await t.api('GET', `/v1/spaces/${space.id}/content/page/${pageId}?format=document`)).document);
    await eventually(async () => (await saved()).some((line) => line.includes('Lady Ada Lovelace!')), 30_000, 'the last keys saved');
    assert.deepEqual(await saved(), [
      '    item: First line here.',
      'paragraph: Typed after.',
      'paragraph: AB Second paragraphx.!',
      'heading-1: The heading here',
      'paragraph: Below.',
      '    item: One',
      '        item: Two nested',
      '        item: Three',
      'row: Lady Ada Lovelace! | 1815',
      '  paragraph: Note: Hint body.',
      '  paragraph: Second line.',
      'paragraph: Last paragraph.Closing words. Joined.',
    ]);
    await page.context().close();
  });
});
