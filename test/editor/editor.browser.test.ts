// @sqlite-run-only: the editor in the browser (its keys, schema and conversions) on a blank page; the server only serves its chunk and stores one page, which the content tests store on both databases.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import type { Document, FlowBlock } from '../../src/features/content/document/types.ts';
import { screenshot, withoutChromium } from '../browser.ts';
import { buildSpaceWithPages } from '../factories.ts';
import type { TestServer } from '../helpers.ts';
import { seriousViolations } from '../web-app.ts';
import { splitPageMarkdown } from '../../src/features/content/markdown.ts';
import { markdownToDocument } from '../../src/features/content/document/to-document.ts';
import { CORPUS_DIR } from '../corpus/pages.ts';
import { corpusDocuments } from './corpus-documents.ts';
import { changes, lastChange, mountEditor, reportedOnlyWhatWasMounted, type MountOptions } from './mounted-editor.ts';
import { mountedEditorSuite } from './mounted-editor-suite.ts';
import { SHORTCUT_GROUPS } from '../../web/features/editor/shortcuts.ts';

/*
 * The block editor as a person uses it, in Chromium: the real built chunk mounted on a blank element (the
 * screen that hosts it belongs to features/editing), typed into with the keyboard, its documents checked.
 */

const EMPTY: Document = { object: 'document', data: {}, nodes: [] };
const withoutKeys = (value: unknown) => JSON.parse(JSON.stringify(value, (name, field: unknown) => (name === 'key' ? undefined : field))) as unknown;

/** A GitBook page's markdown: a page of the shared corpus with a table and code, or (without it) one like it. */
function gitbookMarkdown(): string {
  const file = join(CORPUS_DIR, 'docs-as-code/git-sync/monorepos.md');
  const page = existsSync(file) ? splitPageMarkdown(readFileSync(file, 'utf8'), file).body : '# Monorepos\n\n| Path | Meaning |\n| - | - |\n| `./docs` | Inside |\n\n```\n/\n  docs.yaml\n```\n';
  // and the GitBook blocks that page does not have
  return `${page}\n{% hint style="warning" %}\nKeep **one** docs.yaml.\n{% endhint %}\n\n{% tabs %}\n{% tab title="npm" %}\n\`\`\`bash\nnpm install\n\`\`\`\n{% endtab %}\n{% endtabs %}\n`;
}

const tableOf = (document: Document | undefined) => document?.nodes.find((b) => b.type === 'table') as unknown as
  { data: { view: { type: string; columns: string[] }; records: Record<string, { values: Record<string, unknown> }>; definition: Record<string, { title: string }> }; fragments: { fragment: string }[] };
const types = (document: Document | undefined) => (document?.nodes ?? []).map((b) => b.type);
const text = (block: FlowBlock | undefined): string => JSON.stringify(block).match(/"text":"[^"]*"/g)?.map((m) => m.slice(8, -1)).join('') ?? '';

describe('the block editor in Chromium', { skip: withoutChromium, timeout: 600_000 }, () => {
  const suite = mountedEditorSuite();
  let t: TestServer;
  let origin: string;
  let page: Page;
  let options: MountOptions;
  before(() => {
    ({ t, origin, page, options } = suite);
  });

  const content = () => page.getByRole('textbox', { name: 'Page content' });

  async function slash(query: string): Promise<void> {
    await page.keyboard.type(`/${query}`);
    await page.getByRole('listbox', { name: 'Insert a block' }).waitFor();
    await page.keyboard.press('Enter');
  }

  test('markdown shortcuts turn what a person types into blocks of the model', async () => {
    await mountEditor(page, EMPTY, options);
    await content().click();
    await page.keyboard.type('# Title');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Some **bold** and *italic* and `code` words.');
    await page.keyboard.press('Enter');
    await page.keyboard.type('## Section');
    await page.keyboard.press('Enter');
    await page.keyboard.type('### Small');
    await page.keyboard.press('Enter');
    await page.keyboard.type('- one');
    await page.keyboard.press('Enter');
    await page.keyboard.type('two');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await page.keyboard.type('1. first');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await page.keyboard.type('[ ] task');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await page.keyboard.type('---');
    await page.keyboard.type('> quoted');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    const document = await lastChange(page);
    await screenshot(page, 'editor-shortcuts');
    assert.deepEqual(types(document).slice(0, 9), ['heading-1', 'paragraph', 'heading-2', 'heading-3', 'list-unordered', 'list-ordered', 'list-tasks', 'divider', 'blockquote']);
    const paragraph = document!.nodes[1] as { nodes: { leaves: { text: string; marks: { type: string }[] }[] }[] };
    assert.deepEqual(paragraph.nodes[0]!.leaves.map((l) => [l.text, l.marks.map((m) => m.type)]), [
      ['Some ', []], ['bold', ['bold']], [' and ', []], ['italic', ['italic']], [' and ', []], ['code', ['code']], [' words.', []],
    ]);
    assert.equal((document!.nodes[4] as { nodes: unknown[] }).nodes.length, 2);
    assert.equal(((document!.nodes[6] as { nodes: { data: { checked: boolean } }[] }).nodes[0]!.data.checked), false);

    // A code fence with its language, then undo and redo.
    await page.keyboard.type('```js ');
    await page.keyboard.type('let a = 1;');
    let last = await lastChange(page);
    const code = last!.nodes.find((b) => b.type === 'code') as { data: { syntax?: string } } | undefined;
    assert.equal(code?.data.syntax, 'js');
    await page.keyboard.press('Control+z');
    last = await lastChange(page);
    assert.equal(JSON.stringify(last).includes('let a = 1;'), false);
    await page.keyboard.press('Control+Shift+z');
    last = await lastChange(page);
    assert.ok(JSON.stringify(last).includes('let a'));
  });

  const SLASH: [query: string, type: string, check?: (block: FlowBlock) => void][] = [
    ['text', 'paragraph'], ['h1', 'heading-1'], ['h2', 'heading-2'], ['h3', 'heading-3'],
    ['bulleted', 'list-unordered'], ['numbered', 'list-ordered'], ['task', 'list-tasks'], ['quote', 'blockquote'],
    ['warning', 'hint', (b) => assert.equal((b as { data: { style: string } }).data.style, 'warning')],
    ['code', 'code'], ['divider', 'divider'],
    ['tabs', 'tabs', (b) => assert.equal((b as { nodes: { data: { title: string } }[] }).nodes[0]!.data.title, 'Tab 1')],
    ['expandable', 'expandable'], ['table', 'table'],
    ['math', 'math'], ['embed', 'embed'],
    ['cards', 'table', (b) => assert.equal((b as { data: { view: { type: string } } }).data.view.type, 'cards')],
    ['stepper', 'stepper', (b) => assert.deepEqual((b as unknown as { nodes: { type: string }[] }).nodes.map((n) => n.type), ['stepper-step'])],
    ['columns', 'columns', (b) => assert.deepEqual((b as unknown as { nodes: { type: string }[] }).nodes.map((n) => n.type), ['column', 'column'])],
    ['updates', 'updates', (b) => assert.match((b as unknown as { nodes: { data: { date: string } }[] }).nodes[0]!.data.date, /^\d{4}-\d{2}-\d{2}$/)],
  ];

  test('the / menu inserts every kind of block, filtered as one types and chosen with the keyboard', async () => {
    for (const [query, type, check] of SLASH) {
      await mountEditor(page, EMPTY, options);
      await content().click();
      await slash(query);
      // A text block keeps the text typed into it; the others are there as soon as they are inserted.
      if (['paragraph', 'heading-1', 'heading-2', 'heading-3', 'code'].includes(type)) await page.keyboard.type('Words');
      const document = await lastChange(page);
      const block = document?.nodes.find((b) => b.type === type);
      assert.ok(block, `/${query} inserts a ${type}: got ${types(document).join(', ')}`);
      check?.(block);
    }
    // Filtering and arrow keys: "head" shows the three headings; ArrowDown twice picks the third.
    await mountEditor(page, EMPTY, options);
    await content().click();
    await page.keyboard.type('/head');
    // Each option is named by its title (its line of description describes it).
    const options_ = page.getByRole('option').locator('.qe-slash-title');
    assert.deepEqual(await options_.allTextContents(), ['Heading 1', 'Heading 2', 'Heading 3']);
    await screenshot(page, 'editor-slash-menu');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Third');
    assert.deepEqual(types(await lastChange(page)), ['heading-3']);
  });

  test('the / menu lists its groups with an icon and a description per block, finds words with spaces, and opens above the caret with no room below, scrolling', async () => {
    await mountEditor(page, EMPTY, options);
    await content().click();
    await page.keyboard.type('/');
    const menu = page.getByRole('listbox', { name: 'Insert a block' });
    await menu.waitFor();
    const groups = await menu.getByRole('group').evaluateAll((list) => list.map((group) => document.getElementById(group.getAttribute('aria-labelledby')!)?.textContent));
    assert.deepEqual(groups, ['Text', 'Inline', 'Lists', 'Media', 'Layout', 'Code & API', 'Embeds']);
    const heading = menu.getByRole('option', { name: 'Heading 1 A section’s title, the largest', exact: true });
    assert.equal(await heading.locator('svg').count(), 1, 'an icon');
    // Spaces are part of the query, and a word may be shortened or its letters skipped.
    await page.keyboard.type('page link');
    assert.deepEqual(await menu.getByRole('option').locator('.qe-slash-title').allTextContents(), ['Page link']);
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    await page.keyboard.press('Control+a');
    await page.keyboard.press('Backspace');
    await page.keyboard.type('/hdg');
    assert.deepEqual((await menu.getByRole('option').locator('.qe-slash-title').allTextContents()).slice(0, 3), ['Heading 1', 'Heading 2', 'Heading 3'], 'letters in order, the headings first');
    await page.keyboard.press('Escape');

    // At the bottom of a short window: the menu opens above the caret, inside the window, and scrolls.
    const viewport = page.viewportSize()!;
    await page.setViewportSize({ width: viewport.width, height: 480 });
    try {
      const paragraph = (i: number): FlowBlock => ({ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: `Paragraph ${i}`, marks: [] }] }] });
      await mountEditor(page, { object: 'document', data: {}, nodes: Array.from({ length: 40 }, (_, i) => paragraph(i)) }, options);
      const last = page.locator('.qe-content > p').last();
      await last.scrollIntoViewIfNeeded();
      await last.click();
      await page.keyboard.press('End');
      await page.keyboard.type(' /');
      await menu.waitFor();
      const surface = page.locator('.qe-slash-list');
      const [box, line] = [(await surface.boundingBox())!, (await last.boundingBox())!];
      assert.ok(box.y >= 0 && box.y + box.height <= line.y + 1, `above the caret's line: the menu ${JSON.stringify(box)}, the line ${JSON.stringify(line)}`);
      assert.ok(await surface.evaluate((element) => element.scrollHeight > element.clientHeight), 'the menu scrolls');
      // The item chosen with the keys is scrolled into view.
      for (let i = 0; i < 10; i++) await page.keyboard.press('ArrowUp');
      // Scrolled into view once the menu has drawn the choice (a frame after the key, on a loaded machine later).
      await page.waitForFunction(`(() => {
        const list = document.querySelector('.qe-slash-list');
        const chosen = list && list.querySelector('[aria-selected="true"]');
        if (!chosen) return false;
        const [outer, inner] = [list.getBoundingClientRect(), chosen.getBoundingClientRect()];
        return inner.top >= outer.top - 1 && inner.bottom <= outer.bottom + 1;
      })()`);
      await page.keyboard.press('Escape');
    } finally {
      await page.setViewportSize(viewport);
    }
  });

  test('a hint switches style, a tab is added and renamed, a table cell and a formula are edited', async () => {
    await mountEditor(page, EMPTY, options);
    await content().click();
    await slash('info');
    // The hint's style is in its settings toolbar, shown on the hint the caret is in.
    await page.getByRole('group', { name: 'Hint settings' }).getByRole('radio', { name: 'Danger' }).click();
    assert.equal((await lastChange(page))!.nodes.find((b) => b.type === 'hint')?.data?.style, 'danger');

    await mountEditor(page, EMPTY, options);
    await content().click();
    await slash('tabs');
    await page.getByRole('button', { name: 'Add tab' }).click();
    await page.getByLabel('Tab title').nth(1).fill('Linux');
    let tabs = (await lastChange(page))!.nodes.find((b) => b.type === 'tabs') as { nodes: { data: { title: string } }[] };
    assert.deepEqual(tabs.nodes.map((n) => n.data.title), ['Tab 1', 'Linux']);
    // The toolbar removes the tab the caret is in: choosing a tab on the strip puts it there.
    await page.getByLabel('Tab title').first().click();
    await page.getByRole('button', { name: 'Remove tab Tab 1' }).click();
    tabs = (await lastChange(page))!.nodes.find((b) => b.type === 'tabs') as typeof tabs;
    assert.deepEqual(tabs.nodes.map((n) => n.data.title), ['Linux']);

    await mountEditor(page, EMPTY, options);
    await content().click();
    await slash('table');
    await page.getByLabel('Column title Column 1').fill('Name');
    await page.getByLabel('Row 1, Name').fill('Ada');
    const table = (await lastChange(page))!.nodes.find((b) => b.type === 'table') as unknown as { data: { definition: { c1: { title: string } } }; fragments: unknown[] };
    assert.equal(table.data.definition.c1.title, 'Name');
    assert.ok(JSON.stringify(table.fragments).includes('"Ada"'));

    await mountEditor(page, EMPTY, options);
    await content().click();
    await slash('code');
    await page.keyboard.type('npm start');
    const codeSettings = page.getByRole('group', { name: 'Code block settings' });
    await codeSettings.getByRole('button', { name: 'Language: Plain text' }).click();
    await page.getByRole('combobox', { name: 'Search languages' }).fill('bash');
    await page.getByRole('option', { name: 'Shell' }).click();
    await codeSettings.getByRole('button', { name: 'Line numbers' }).click();
    await codeSettings.getByRole('button', { name: 'Wrap lines' }).click();
    // The title is typed in place (an editable span, not a form field: code-view.ts); Enter adds no line to it and
    // goes on to the code.
    const title = page.getByRole('textbox', { name: 'Code title' });
    await title.fill('Start');
    await title.press('End');
    await page.keyboard.type(' it');
    await page.keyboard.press('Enter');
    await page.keyboard.type('# ');
    const code = (await lastChange(page))!.nodes.find((b) => b.type === 'code') as unknown as { data: Record<string, unknown>; nodes: unknown[] };
    assert.deepEqual(code.data, { syntax: 'shellscript', title: 'Start it', lineNumbers: true, overflow: 'wrap' });
    assert.equal(code.nodes.length, 1);
    assert.equal(await title.textContent(), 'Start it');
    assert.match(await page.locator('pre.code').innerText(), /^#\s?npm start/m, 'Enter in the title went on to the code');

    await mountEditor(page, EMPTY, options);
    await content().click();
    await slash('math');
    await page.getByRole('textbox', { name: 'Math formula (TeX)' }).fill('e^{i\\pi}+1=0');
    assert.equal(((await lastChange(page))!.nodes.find((b) => b.type === 'math') as { data?: { formula?: string } }).data?.formula, 'e^{i\\pi}+1=0');
  });

  test('every corpus page opens unchanged: a no-op edit reports the very document that was read', async () => {
    const pages = corpusDocuments();
    const failures: string[] = [];
    let opened = 0;
    for (const { file, document } of pages) {
      await mountEditor(page, document, options);
      opened++;
      const content_ = content();
      await content_.focus();
      // The mouse, not a locator: the body is always there, and the locator's checks cost a round trip each.
      await page.mouse.click(1, 1);
      if (!(await reportedOnlyWhatWasMounted(page))) failures.push(`${file}: focus and blur changed it`);
      // Type a letter at the end of the first paragraph and take it back: what is reported is the page as read.
      const first = page.locator('.qe-content > p').first();
      if ((await first.count()) === 0 || (await first.innerText()).trim() === '') continue;
      await first.click();
      await page.keyboard.press('End');
      await page.keyboard.type('x');
      await page.keyboard.press('Backspace');
      const back = await lastChange(page);
      try {
        assert.deepStrictEqual(back, document);
      } catch {
        failures.push(`${file}: typing and deleting a letter changed it`);
      }
    }
    assert.ok(opened >= 20);
    assert.deepEqual(failures, []);
  });

  test('editing one paragraph changes only that block, the others are the very JSON read', async () => {
    const { document } = corpusDocuments().find(({ document: d }) => d.nodes.length > 10 && d.nodes.filter((b) => b.type === 'paragraph').length > 3)!;
    await mountEditor(page, document, options);
    const index = document.nodes.findIndex((b) => b.type === 'paragraph' && text(b).length > 10);
    const target = page.locator('.qe-content > *').nth(index);
    await target.click();
    await page.keyboard.press('End');
    await page.keyboard.type(' edited');
    const changed = await lastChange(page);
    assert.ok(text(changed!.nodes[index]).endsWith(' edited'));
    assert.equal(changed!.nodes.length, document.nodes.length);
    changed!.nodes.forEach((block, i) => {
      if (i !== index) assert.equal(JSON.stringify(block), JSON.stringify(document.nodes[i]), `block ${i}`);
    });
    assert.equal(changed!.nodes[index]!.key, document.nodes[index]!.key);
  });

  test('the block menu duplicates, turns into and deletes a block; the link picker links a URL and a page', async () => {
    const start: Document = { object: 'document', data: {}, nodes: [
      { object: 'block', type: 'paragraph', key: 'k1', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Install the server', marks: [] }] }] },
      { object: 'block', type: 'paragraph', key: 'k2', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Second', marks: [] }] }] },
    ] };
    await mountEditor(page, start, options);
    await page.locator('.qe-content > p').first().hover();
    await page.getByRole('button', { name: 'Block menu' }).click();
    await page.getByRole('menuitem', { name: 'Duplicate' }).click();
    let last = await lastChange(page);
    assert.deepEqual(last!.nodes.map((b) => text(b)), ['Install the server', 'Install the server', 'Second']);
    // The copy is a block of its own: a key of its own.
    assert.deepEqual([last!.nodes[0]!.key, last!.nodes[2]!.key], ['k1', 'k2']);
    assert.ok(typeof last!.nodes[1]!.key === 'string' && !['k1', 'k2'].includes(last!.nodes[1]!.key), last!.nodes[1]!.key);

    await page.locator('.qe-content > p').last().hover();
    await page.getByRole('button', { name: 'Block menu' }).click();
    await page.getByRole('menuitem', { name: 'Turn into Heading 2' }).click();
    last = await lastChange(page);
    assert.deepEqual(types(last), ['paragraph', 'paragraph', 'heading-2']);

    await page.locator('.qe-content > p').nth(1).hover();
    await page.getByRole('button', { name: 'Block menu' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    last = await lastChange(page);
    assert.deepEqual(last!.nodes.map((b) => text(b)), ['Install the server', 'Second']);

    // Select "server" and link it to a URL.
    await page.locator('.qe-content > p').first().click();
    await page.keyboard.press('End');
    for (let i = 0; i < 'server'.length; i++) await page.keyboard.press('Shift+ArrowLeft');
    await page.getByRole('toolbar', { name: 'Selected text' }).getByRole('button', { name: 'Link', exact: true }).click();
    await page.getByLabel('Link to a URL or a page').fill('https://example.com/server');
    await page.keyboard.press('Enter');
    last = await lastChange(page);
    const link = (last!.nodes[0] as { nodes: { type?: string; data?: { ref: unknown }; nodes?: unknown }[] }).nodes.find((n) => n.type === 'link');
    assert.deepEqual(link?.data?.ref, { kind: 'url', url: 'https://example.com/server' });
    assert.equal(text(link as never), 'server');
    await screenshot(page, 'editor-block-menu-and-link');
  });

  test('a toolbar over selected text marks it, links it and turns its block into another; it goes with the selection', async () => {
    const start: Document = { object: 'document', data: {}, nodes: [
      { object: 'block', type: 'paragraph', key: 'k1', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Install the server', marks: [] }] }] },
    ] };
    await mountEditor(page, start, options);
    const tools = page.getByRole('toolbar', { name: 'Selected text' });
    await page.locator('.qe-content > p').first().click();
    await page.keyboard.press('End');
    assert.equal(await tools.isVisible(), false, 'no toolbar over a caret');
    for (let i = 0; i < 'server'.length; i++) await page.keyboard.press('Shift+ArrowLeft');
    await tools.waitFor();
    const box = await tools.boundingBox();
    const selected = await page.evaluate(() => document.getSelection()!.getRangeAt(0).getBoundingClientRect().toJSON() as DOMRect);
    assert.ok(box && box.y + box.height <= selected.y + 1, `above the selection: ${JSON.stringify({ box, selected })}`);
    await tools.getByRole('button', { name: 'Bold' }).click();
    let last = await lastChange(page);
    const leaves = (last!.nodes[0] as { nodes: { leaves: { text: string; marks: { type: string }[] }[] }[] }).nodes[0]!.leaves;
    assert.deepEqual(leaves.map((l) => [l.text, l.marks.map((m) => m.type)]), [['Install the ', []], ['server', ['bold']]]);
    assert.equal(await tools.getByRole('button', { name: 'Bold' }).getAttribute('aria-pressed'), 'true');
    assert.deepEqual(await seriousViolations(page), []);
    await screenshot(page, 'editor-selection-toolbar');

    await tools.getByRole('button', { name: 'Turn into' }).click();
    await page.getByRole('menu', { name: 'Turn into' }).getByRole('menuitem', { name: 'Heading 2' }).click();
    last = await lastChange(page);
    assert.deepEqual(types(last), ['heading-2']);
    assert.equal(text(last!.nodes[0]), 'Install the server');

    // Into a hint (the block goes inside one), then another hint's style (the same hint, restyled).
    await page.locator('.qe-content h2').click();
    await page.keyboard.press('End');
    for (let i = 0; i < 'server'.length; i++) await page.keyboard.press('Shift+ArrowLeft');
    await tools.getByRole('button', { name: 'Turn into' }).click();
    await page.getByRole('menu', { name: 'Turn into' }).getByRole('menuitem', { name: 'Hint: warning' }).click();
    last = await lastChange(page);
    assert.deepEqual([types(last), (last!.nodes[0] as { data: unknown }).data, types(last!.nodes[0] as never)], [['hint'], { style: 'warning' }, ['heading-2']]);
    await page.keyboard.press('End');
    for (let i = 0; i < 'server'.length; i++) await page.keyboard.press('Shift+ArrowLeft');
    await tools.getByRole('button', { name: 'Turn into' }).click();
    await page.getByRole('menu', { name: 'Turn into' }).getByRole('menuitem', { name: 'Hint: success' }).click();
    last = await lastChange(page);
    assert.deepEqual([types(last), (last!.nodes[0] as { data: unknown }).data, types(last!.nodes[0] as never)], [['hint'], { style: 'success' }, ['heading-2']]);

    await page.locator('.qe-content h2').click();
    await page.keyboard.press('End');
    for (let i = 0; i < 'server'.length; i++) await page.keyboard.press('Shift+ArrowLeft');
    await tools.getByRole('button', { name: 'Link', exact: true }).click();
    await page.getByLabel('Link to a URL or a page').fill('https://example.com/server');
    await page.keyboard.press('Enter');
    last = await lastChange(page);
    const link = JSON.stringify(last!.nodes[0]);
    assert.match(link, /"type":"link".*"url":"https:\/\/example.com\/server"/);
    // The editor takes the focus back from the closed picker a frame later (TipTap's focus waits for one): End before
    // that went to the page's body, and the selection, with its toolbar, stayed.
    await page.waitForFunction(() => document.activeElement?.classList.contains('qe-content') === true, undefined, { timeout: 10_000 });
    await page.keyboard.press('End');
    await tools.waitFor({ state: 'hidden' });
  });

  test('"Colour" over selected text sets its colour and its background as readers see them, and takes them off', async () => {
    const start: Document = { object: 'document', data: {}, nodes: [
      { object: 'block', type: 'paragraph', key: 'k1', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Never delete the volume', marks: [] }] }] },
    ] };
    await mountEditor(page, start, options);
    const tools = page.getByRole('toolbar', { name: 'Selected text' });
    await page.locator('.qe-content > p').first().click();
    await page.keyboard.press('End');
    for (let i = 0; i < 'the volume'.length; i++) await page.keyboard.press('Shift+ArrowLeft');
    await tools.waitFor();
    const leaves = async () =>
      ((await lastChange(page))!.nodes[0] as { nodes: { leaves: { text: string; marks: { type: string; data?: unknown }[] }[] }[] }).nodes[0]!.leaves.map((l) => [l.text, l.marks.map((m) => [m.type, m.data])]);
    const choose = async (name: string) => {
      await tools.getByRole('button', { name: 'Colour' }).click();
      const menu = page.getByRole('menu', { name: 'Colour' });
      await menu.getByRole('menuitemcheckbox', { name }).click();
      await menu.waitFor({ state: 'hidden' });
    };

    await tools.getByRole('button', { name: 'Colour' }).click();
    const menu = page.getByRole('menu', { name: 'Colour' });
    assert.equal(await menu.getByRole('menuitemcheckbox', { name: 'Default text' }).getAttribute('aria-checked'), 'true');
    assert.deepEqual(await seriousViolations(page), []);
    await screenshot(page, 'editor-colour-menu');
    await menu.getByRole('menuitemcheckbox', { name: 'Red text' }).click();
    await menu.waitFor({ state: 'hidden' });
    assert.deepEqual(await leaves(), [['Never delete ', []], ['the volume', [['color', { text: 'red', background: 'default' }]]]]);
    // Drawn with the reader's colour.
    const coloured = page.locator('.qe-content span[data-color="red"]');
    assert.equal(await coloured.evaluate((el) => getComputedStyle(el).color), 'rgb(194, 65, 12)');

    await choose('Yellow background');
    assert.deepEqual(await leaves(), [['Never delete ', []], ['the volume', [['color', { text: 'red', background: 'yellow' }]]]]);
    await tools.getByRole('button', { name: 'Colour' }).click();
    assert.equal(await page.getByRole('menu', { name: 'Colour' }).getByRole('menuitemcheckbox', { name: 'Yellow background' }).getAttribute('aria-checked'), 'true');
    await page.keyboard.press('Escape');
    await choose('Default text');
    await choose('No background');
    assert.deepEqual(await leaves(), [['Never delete the volume', []]]);
  });

  test('`:` and a name offer the emoji it names; the one chosen is put in as GitBook stores it; a colon inside a word opens nothing', async () => {
    await mountEditor(page, EMPTY, options);
    const picker = page.getByRole('listbox', { name: 'Insert an emoji' });
    await page.locator('.qe-content').click();
    await page.keyboard.type('Note: at 10:30 ship it :rocke');
    await picker.waitFor();
    assert.equal(await picker.getByRole('option', { selected: true }).textContent(), '🚀rocket');
    assert.deepEqual(await seriousViolations(page), []);
    await screenshot(page, 'editor-emoji-picker');
    await page.keyboard.press('Enter');
    await picker.waitFor({ state: 'hidden' });
    await page.keyboard.type(' now');
    const last = await lastChange(page);
    const inlines = (last!.nodes[0] as { nodes: { object: string; type?: string; data?: unknown; leaves?: { text: string }[] }[] }).nodes;
    assert.deepEqual(inlines.filter((n) => n.object === 'inline').map((n) => [n.type, n.data]), [['emoji', { code: '1f680' }]]);
    assert.equal(text(last!.nodes[0]), 'Note: at 10:30 ship it  now', 'the query replaced by the emoji; "Note:" and "10:30" kept as typed');

    // A name no emoji has leaves the keys to the text: Enter makes a new block.
    await page.keyboard.type(' :zzqx');
    await page.keyboard.press('Enter');
    assert.equal(await picker.count(), 0);
    assert.equal((await lastChange(page))!.nodes.length, 2);
    // Chosen with the pointer, after moving down the list; Escape closes it with the text as typed.
    await page.keyboard.type(':thumbs');
    await picker.waitFor();
    await picker.getByRole('option', { name: 'thumbs down' }).click();
    assert.match(JSON.stringify((await lastChange(page))!.nodes[1]), /"code":"1f44e"/);
    await page.keyboard.type(' :heart');
    await picker.waitFor();
    await page.keyboard.press('Escape');
    await picker.waitFor({ state: 'hidden' });
    await page.keyboard.type('s');
    assert.match(text((await lastChange(page))!.nodes[1]), /:hearts$/);
  });

  test('a button and an annotation in the text show as readers see them, kept as they are', async () => {
    const leaf = (text: string) => ({ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] });
    const start = { object: 'document', data: {}, nodes: [
      { object: 'block', type: 'paragraph', key: 'k1', data: {}, nodes: [
        leaf('Read the '),
        { object: 'inline', type: 'annotation', isVoid: false, nodes: [leaf('release notes')], fragments: [{ object: 'fragment', fragment: 'note', nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [leaf('Published every Monday.')] }] }] },
        leaf(' then '),
        { object: 'inline', type: 'button', isVoid: true, data: { label: 'Get started', kind: 'primary', ref: { kind: 'url', url: 'https://example.com/start' } } },
        leaf('.'),
      ] },
    ] } as unknown as Document;
    await mountEditor(page, start, options);
    const paragraph = page.locator('.qe-content > p').first();
    assert.equal(await paragraph.locator('.annotation').textContent(), 'release notes');
    assert.equal(await paragraph.locator('.button.button-primary').textContent(), 'Get started');
    // What is drawn (the note is there for screen readers only): no placeholder such as "annotation" or "button".
    const drawn = await paragraph.evaluate((el) => {
      const copy = el.cloneNode(true) as HTMLElement;
      copy.querySelectorAll('.sr-only').forEach((hidden) => hidden.remove());
      return copy.textContent;
    });
    assert.equal(drawn, 'Read the release notes then Get started.');
    assert.equal(await paragraph.locator('.sr-only').textContent(), ' (Published every Monday.)');
    assert.deepEqual(await seriousViolations(page), []);
    // Typing elsewhere in the block keeps both as they were.
    await paragraph.click();
    await page.keyboard.press('End');
    await page.keyboard.type(' Now.');
    const nodes = JSON.stringify((await lastChange(page))!.nodes[0]);
    assert.match(nodes, /"type":"annotation".*"Published every Monday\."/);
    assert.match(nodes, /"type":"button","isVoid":true,"data":\{"label":"Get started"/);
  });

  test('Ctrl-/ lists the shortcuts, and every key combination it lists does what it says', async () => {
    const listed = SHORTCUT_GROUPS.flatMap((g) => g.shortcuts).filter((s) => !s.typed);
    // What each does, read back from the document the editor reports (a block's type, or a mark on the words).
    const blocks: Record<string, string> = {
      'Heading 1': 'heading-1', 'Heading 2': 'heading-2', 'Heading 3': 'heading-3', 'Bulleted list': 'list-unordered',
      'Numbered list': 'list-ordered', 'Task list': 'list-tasks', 'Code block': 'code',
    };
    const marks: Record<string, string> = { Bold: 'bold', Italic: 'italic', Strikethrough: 'strikethrough', Code: 'code' };
    const others = ['Link', 'Line break in a block', 'Undo', 'Redo', 'These shortcuts', 'Block settings'];
    assert.deepEqual(listed.map((s) => s.label).filter((l) => !(l in blocks) && !(l in marks) && !others.includes(l)), [], 'every shortcut listed is checked');
    const paragraph = (key: string, words: string) => ({ object: 'block' as const, type: 'paragraph' as const, key, data: {}, nodes: [{ object: 'text' as const, leaves: [{ object: 'leaf' as const, text: words, marks: [] }] }] });
    const combo = (keys: string[]) => keys.map((k) => (k === 'Mod' ? 'Control' : k)).join('+');
    const labels = [...Object.keys(blocks), ...Object.keys(marks)];
    await mountEditor(page, { object: 'document', data: {}, nodes: labels.map((label, i) => paragraph(`k${i}`, `Words ${i}`)) } as Document, options);
    for (const [i, label] of labels.entries()) {
      await page.locator('.qe-content > *').nth(i).click();
      await page.keyboard.press('End');
      if (label in marks) for (let n = 0; n < 'Words'.length + 2; n++) await page.keyboard.press('Shift+ArrowLeft');
      await page.keyboard.press(combo(listed.find((s) => s.label === label)!.keys));
    }
    const last = await lastChange(page);
    const expected = labels.map((label) => (label in blocks ? blocks[label] : 'paragraph'));
    assert.deepEqual(types(last), expected);
    for (const [i, label] of labels.entries()) {
      if (!(label in marks)) continue;
      assert.match(JSON.stringify(last!.nodes[i]), new RegExp(`"type":"${marks[label]}"`), label);
    }

    await page.locator('.qe-content > *').first().click();
    await page.keyboard.press('Control+/');
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await help.waitFor();
    for (const label of ['Bold', 'Heading 2', 'Insert a block', 'Undo']) assert.ok(await help.getByText(label, { exact: true }).first().isVisible(), label);
    assert.deepEqual(await seriousViolations(page), []);
    await screenshot(page, 'editor-shortcuts-help');
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'hidden' });
    await page.keyboard.type('typed after');
    assert.match(JSON.stringify(await lastChange(page)), /typed after/, 'the keys go back to the page');
    // The toolbar's button opens it too.
    await page.getByRole('button', { name: 'Keyboard shortcuts' }).click();
    await help.waitFor();
    await page.keyboard.press('Escape');
  });

  test('Ctrl-F finds in the page: matches counted as one types, Enter goes from one to the next, one or every match replaced', async () => {
    const start: Document = { object: 'document', data: {}, nodes: [
      { object: 'block', type: 'paragraph', key: 'k1', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'The server starts the Server.', marks: [] }] }] },
      { object: 'block', type: 'heading-2', key: 'k2', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Server settings', marks: [] }] }] },
      { object: 'block', type: 'paragraph', key: 'k3', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Nothing else.', marks: [] }] }] },
    ] };
    await mountEditor(page, start, options);
    await page.locator('.qe-content > p').first().click();
    await page.keyboard.press('Home');
    await page.keyboard.press('Control+f');
    const bar = page.getByRole('search', { name: 'Find and replace' });
    const find = bar.getByRole('textbox', { name: 'Find in page' });
    await find.waitFor();
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('placeholder')), 'Find in page', 'the keys go to the find field');
    await page.keyboard.type('server');
    const status = bar.getByRole('status');
    await status.getByText('3 matches').waitFor();
    assert.equal(await page.locator('.qe-content .ProseMirror-search-match').count(), 3);
    // From the caret, at the page's start.
    await page.keyboard.press('Enter');
    await status.getByText('1 of 3 matches').waitFor();
    assert.equal(await page.getByRole('toolbar', { name: 'Selected text' }).isVisible(), false, 'no text toolbar over a match the find field selected');
    await page.keyboard.press('Enter');
    await status.getByText('2 of 3 matches').waitFor();
    await page.keyboard.press('Shift+Enter');
    await status.getByText('1 of 3 matches').waitFor();
    await find.fill('nowhere');
    await status.getByText('No match').waitFor();
    assert.equal(await bar.getByRole('button', { name: 'Replace all' }).isDisabled(), true);
    assert.deepEqual(await seriousViolations(page), []);

    await find.fill('server');
    await bar.getByRole('textbox', { name: 'Replace with' }).fill('host');
    await bar.getByRole('button', { name: 'Replace', exact: true }).click();
    await status.getByText(/2 matches/).waitFor();
    let last = await lastChange(page);
    assert.deepEqual(last!.nodes.map((b) => text(b)), ['The host starts the Server.', 'Server settings', 'Nothing else.']);
    await screenshot(page, 'editor-find-replace');
    await bar.getByRole('button', { name: 'Replace all' }).click();
    await status.getByText('No match').waitFor();
    last = await lastChange(page);
    assert.deepEqual(last!.nodes.map((b) => text(b)), ['The host starts the host.', 'host settings', 'Nothing else.']);
    // The other blocks' keys and kinds are kept: only their text changed.
    assert.deepEqual(last!.nodes.map((b) => [b.key, b.type]), [['k1', 'paragraph'], ['k2', 'heading-2'], ['k3', 'paragraph']]);

    await page.keyboard.press('Escape');
    await bar.waitFor({ state: 'hidden' });
    assert.equal(await page.locator('.qe-content .ProseMirror-search-match').count(), 0, 'no highlight left');
    // The caret goes back to the page as the bar closes (TipTap focuses on the next frame): waited for, not assumed.
    await page.waitForFunction(() => document.activeElement?.classList.contains('qe-content') === true, undefined, { timeout: 10_000 });
    await page.keyboard.type('!');
    await page.waitForFunction(() => JSON.stringify((window as unknown as { __changes: unknown[] }).__changes.at(-1)).includes('!'), undefined, { timeout: 10_000 }).catch(() => undefined);
    assert.match(JSON.stringify(await lastChange(page)), /!/, 'the keys go back to the page');
  });

  test("the page's outline lists its headings under its word count, and a heading chosen takes the caret there", async () => {
    const block = (key: string, type: string, words: string) => ({ object: 'block', type, key, data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: words, marks: [] }] }] });
    const nodes = [block('h1', 'heading-1', 'Install'), block('p1', 'paragraph', 'Run the installer on the server.')];
    for (let i = 0; i < 40; i++) nodes.push(block(`f${i}`, 'paragraph', `Filler paragraph number ${i}.`));
    nodes.push(block('h2', 'heading-2', 'Configure the proxy'), block('p2', 'paragraph', 'Set the address.'));
    await mountEditor(page, { object: 'document', data: {}, nodes } as unknown as Document, options);
    await page.locator('.qe-content > *').first().click();
    await page.getByRole('button', { name: 'Outline and word count' }).click();
    const outline = page.getByRole('dialog', { name: 'Outline' });
    // 1 + 6 + 40 × 4 + 3 + 3 words.
    await outline.getByText('173 words').waitFor();
    const headings = outline.getByRole('navigation', { name: 'Headings of the page' }).getByRole('button');
    assert.deepEqual(await headings.allInnerTexts(), ['Install', 'Configure the proxy']);
    assert.deepEqual(await seriousViolations(page), []);
    await screenshot(page, 'editor-outline');
    await headings.nth(1).click();
    await outline.waitFor({ state: 'hidden' });
    // The caret is put in the page as the outline closes (TipTap focuses on the next frame): waited for, not assumed.
    await page.waitForFunction(() => document.activeElement?.classList.contains('qe-content') === true, undefined, { timeout: 10_000 });
    await page.keyboard.type('Then ');
    const last = await lastChange(page);
    assert.equal(text(last!.nodes.find((b) => b.key === 'h2')), 'Then Configure the proxy', 'the caret went to the heading');
    assert.ok(await page.locator('.qe-content h2').isVisible());
  });

  test('Ctrl-K in the page links the selection instead of opening the search', async () => {
    const start: Document = { object: 'document', data: {}, nodes: [
      { object: 'block', type: 'paragraph', key: 'k1', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Read the guide', marks: [] }] }] },
    ] };
    await mountEditor(page, start, options);
    await page.locator('.qe-content > p').first().click();
    await page.keyboard.press('End');
    for (let i = 0; i < 'guide'.length; i++) await page.keyboard.press('Shift+ArrowLeft');
    await page.keyboard.press('Control+k');
    await page.getByLabel('Link to a URL or a page').fill('https://example.com/guide');
    await page.keyboard.press('Enter');
    const last = await lastChange(page);
    const link = (last!.nodes[0] as { nodes: { type?: string; data?: { ref: unknown } }[] }).nodes.find((n) => n.type === 'link');
    assert.deepEqual(link?.data?.ref, { kind: 'url', url: 'https://example.com/guide' });
    assert.equal(text(link as never), 'guide');
  });

  test('Escape closes the block menu and the keys go back to the page, where the caret was', async () => {
    const start: Document = { object: 'document', data: {}, nodes: [
      { object: 'block', type: 'paragraph', key: 'k1', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'First', marks: [] }] }] },
      { object: 'block', type: 'paragraph', key: 'k2', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Last', marks: [] }] }] },
    ] };
    await mountEditor(page, start, options);
    await page.locator('.qe-content > p').first().click();
    await page.keyboard.press('End');
    // The last block cannot move down: a person looks, and leaves the menu with Escape.
    await page.locator('.qe-content > p').last().hover();
    const button = page.getByRole('button', { name: 'Block menu' });
    await button.click();
    assert.ok(await page.getByRole('menuitem', { name: 'Move down' }).isDisabled());
    // Right after Escape, with nothing waited for: the keys must not meet the menu's button.
    await page.keyboard.press('Escape');
    await page.keyboard.press('Enter');
    await page.keyboard.type('More words');
    const last = await lastChange(page);
    assert.deepEqual(last!.nodes.map((b) => text(b)), ['First', 'More words', 'Last']);
    assert.equal(await page.getByRole('menu', { name: 'Block' }).count(), 0, 'Enter did not open the menu again');
    // and the menu opens again at the next click
    await page.locator('.qe-content > p').last().hover();
    await button.click();
    await page.getByRole('menu', { name: 'Block' }).waitFor();
  });

  test('a split, a list item split at its start, a pasted and a duplicated block and an undone split leave each key once; the server takes and keeps them', async () => {
    const keyed = (key: string, value: string): FlowBlock => ({ object: 'block', type: 'paragraph', key, data: {}, nodes: [{ object: 'text', key: `${key}t`, leaves: [{ object: 'leaf', text: value, marks: [] }] }] });
    const list = { object: 'block', type: 'list-unordered', key: 'U', data: {}, nodes: [{ object: 'block', type: 'list-item', key: 'I', data: {}, nodes: [keyed('P', 'First item')] }] } as unknown as FlowBlock;
    const start: Document = { object: 'document', data: {}, nodes: [keyed('K', 'Alpha paragraph.'), list, keyed('L', 'Beta.'), keyed('M', 'Gamma delta.')] };
    await mountEditor(page, start, options);
    const blocks = page.locator('.qe-content > *');
    // The selection is set in the page and the keys wait until the editor has read it: a key pressed before
    // then acts where the caret was (issue 39, part 4), which is not what this test is about.
    // (No function is named inside the page's function: tsx would name it with a helper the page does not have.)
    const select = (block: ReturnType<typeof page.locator>, from: number, to = from) =>
      block.evaluate(async (element, offsets) => {
        const points: [Node, number][] = offsets.map((offset) => {
          const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
          for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            if (offset <= node.textContent!.length) return [node, offset];
            offset -= node.textContent!.length;
          }
          return [element, 0];
        });
        (element.closest('[contenteditable]') as HTMLElement).focus();
        const read = new Promise((resolve) => {
          document.addEventListener('selectionchange', () => setTimeout(resolve), { once: true });
          setTimeout(resolve, 1000);
        });
        getSelection()!.setBaseAndExtent(points[0]![0], points[0]![1], points[1]![0], points[1]![1]);
        await read;
      }, [from, to]);

    // Enter in the middle of a paragraph, and at the start of a list item.
    await select(blocks.nth(0), 'Alpha '.length);
    await page.keyboard.press('Enter');
    await select(page.locator('.qe-content li p').first(), 0);
    await page.keyboard.press('Enter');
    // "Beta." copied and pasted as a block of its own below it.
    const beta = blocks.filter({ hasText: 'Beta.' });
    await select(beta, 0, 'Beta.'.length);
    const copied = await page.evaluate(`(() => {
      const data = new DataTransfer();
      document.querySelector('.qe-content').dispatchEvent(new ClipboardEvent('copy', { clipboardData: data, bubbles: true, cancelable: true }));
      return { html: data.getData('text/html'), text: data.getData('text/plain') };
    })()`) as { html: string; text: string };
    await select(beta, 'Beta.'.length);
    await page.keyboard.press('Enter');
    await paste(copied.text, copied.html);
    // "Gamma delta." duplicated from the block menu, then split and the split undone.
    await blocks.filter({ hasText: 'Gamma delta.' }).hover();
    await page.getByRole('button', { name: 'Block menu' }).click();
    await page.getByRole('menuitem', { name: 'Duplicate' }).click();
    // The menu gives the focus back to the page a frame later, putting the editor's caret back in the page: a
    // selection made before then is overwritten by it (once on an idle CI machine).
    await blocks.filter({ hasText: 'Gamma delta.' }).nth(1).waitFor();
    // A function, not a string: Playwright may evaluate a string predicate in the page with eval, which the app's
    // Content-Security-Policy (no 'unsafe-eval') refuses (seen once in CI).
    await page.waitForFunction(() => document.activeElement?.matches('.qe-content, .qe-content *') ?? false);
    await select(blocks.filter({ hasText: 'Gamma delta.' }).first(), 'Gamma '.length);
    await page.keyboard.press('Enter');
    await page.keyboard.press('Control+z');

    const edited = (await lastChange(page))!;
    assert.deepEqual(edited.nodes.map(text), ['Alpha ', 'paragraph.', 'First item', 'Beta.', 'Beta.', 'Gamma delta.', 'Gamma delta.']);
    const keysOf = (document: unknown) => {
      const keys: string[] = [];
      JSON.stringify(document, (name, value: unknown) => (name === 'key' ? void keys.push(value as string) : value));
      return keys;
    };
    const keys = keysOf(edited);
    assert.equal(new Set(keys).size, keys.length, keys.join(' '));
    assert.deepEqual([edited.nodes[0]!.key, edited.nodes[3]!.key, edited.nodes[5]!.key], ['K', 'L', 'M'], 'the blocks before the caret, and the originals, keep their keys');

    // Saved through the API, which refuses a key held twice: taken, and read back as it was saved.
    const url = `/v1/spaces/${options.spaceId}/content`;
    const inserted = await t.api('POST', url, { body: { changes: [{ operation: 'insert_page', title: 'Split', document: { document: start } }] } });
    assert.equal(inserted.status, 200, JSON.stringify(inserted.body));
    const pageId = inserted.body.changes[0].page.id as string;
    const saved = await t.api('POST', url, { body: { changes: [{ operation: 'update_page', page: pageId, baseRevision: inserted.body.revision, document: { document: edited } }] } });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    const stored = await t.api('GET', `${url}/page/${pageId}`);
    assert.deepEqual(keysOf(stored.body.document), keys);
  });

  test('the / menu inserts a page link card to a page found by its title, or to a URL', async () => {
    const { space, pages } = await buildSpaceWithPages(t, 'Install the server', 'Upgrade');
    const inSpace = { ...options, spaceId: space.id as string };
    await mountEditor(page, EMPTY, inSpace);
    await content().click();
    await slash('page');
    const dialog = page.getByRole('dialog', { name: 'Page link' });
    await dialog.getByLabel('Link to a URL or a page').fill('install');
    await dialog.getByRole('button', { name: /Install the server/ }).click();
    let last = await lastChange(page);
    assert.deepEqual(last!.nodes.map((b) => [b.type, (b as { data: { ref?: unknown } }).data.ref]), [['content-ref', { kind: 'page', page: pages[0] }]]);
    await page.getByText('Install the server').waitFor();
    await screenshot(page, 'editor-page-link-card');
    assert.deepEqual(await seriousViolations(page), []);

    await mountEditor(page, EMPTY, inSpace);
    await content().click();
    await slash('page');
    await page.getByRole('dialog', { name: 'Page link' }).getByLabel('Link to a URL or a page').fill('https://example.com/guide');
    await page.getByRole('button', { name: 'Insert page link' }).click();
    last = await lastChange(page);
    assert.deepEqual((last!.nodes[0] as { data: { ref: unknown } }).data.ref, { kind: 'url', url: 'https://example.com/guide' });
    assert.equal(JSON.stringify(last).includes('/page'), false, 'the / command is gone');
  });

  test('read only, the page is shown without tools and typing changes nothing', async () => {
    const { document } = corpusDocuments()[0]!;
    await mountEditor(page, document, { ...options, readOnly: true });
    assert.equal(await page.getByRole('toolbar', { name: 'Formatting' }).count(), 0);
    assert.equal(await content().getAttribute('contenteditable'), 'false');
    await content().click();
    await page.keyboard.type('nothing');
    assert.deepEqual(await changes(page), []);
  });

  test('a link pasted from another page keeps its address', async () => {
    await mountEditor(page, EMPTY, options);
    await content().click();
    await page.evaluate(() => {
      const data = new DataTransfer();
      data.setData('text/html', '<p>See <a href="https://example.org/docs">the docs</a> now</p>');
      data.setData('text/plain', 'See the docs now');
      window.document.querySelector('.qe-content')!.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    });
    const last = await lastChange(page);
    const link = (last!.nodes[0] as { nodes: { type?: string; data?: { ref: unknown } }[] }).nodes.find((n) => n.type === 'link');
    assert.deepEqual(link?.data?.ref, { kind: 'url', url: 'https://example.org/docs' });
    assert.equal(text(last!.nodes[0]), 'See the docs now');
  });

  test('a javascript:, data: or vbscript: link, in the page or pasted, never becomes a live href in the editor (issue 38)', async () => {
    const hostile = ['javascript:alert(1)', 'JaVaScRiPt:alert(2)', '   javascript:alert(3)', 'java\tscript:alert(4)', 'data:text/html,<script>alert(5)</script>', 'vbscript:msgbox(6)'];
    const leaf = (value: string) => ({ object: 'text', leaves: [{ object: 'leaf', text: value, marks: [] }] });
    const link = (url: string, i: number) => ({ object: 'inline', type: 'link', data: { ref: { kind: 'url', url } }, nodes: [leaf(`link ${i}`)] });
    // What the server no longer stores, but a page stored before, or a collaborator's own client, may hold.
    const document = {
      object: 'document',
      data: {},
      nodes: [
        { object: 'block', type: 'paragraph', nodes: [leaf('See '), ...hostile.map(link), leaf(' and '), link('https://example.org/ok', 9), leaf('')] },
        { object: 'block', type: 'images', isVoid: false, data: {}, nodes: [{ object: 'block', type: 'image', isVoid: true, data: { ref: { kind: 'url', url: 'javascript:alert(7)' }, refDark: { kind: 'url', url: 'data:image/svg+xml,<svg onload=alert(8)>' }, alt: 'pic' }, fragments: [] }] },
        { object: 'block', type: 'embed', isVoid: true, data: { url: 'javascript:alert(10)' } },
      ],
    } as unknown as Document;
    await mountEditor(page, document, options);
    const urls = () => page.evaluate(() => [...window.document.querySelectorAll('.qe-content [href], .qe-content [src]')].map((element) => element.getAttribute('href') ?? element.getAttribute('src') ?? ''));
    // Read as the browser reads them (the WHATWG URL parser): a scheme that would run something.
    const live = (found: string[]) => found.filter((url) => ['javascript:', 'data:', 'vbscript:'].includes(new URL(url, origin).protocol));
    const shown = await urls();
    assert.deepEqual(live(shown), [], JSON.stringify(shown));
    assert.ok(shown.includes('https://example.org/ok'), 'a safe link keeps its href');
    assert.equal(await content().getByText('link 2').count(), 1, "a hostile link's text is shown");

    await mountEditor(page, EMPTY, options);
    await content().click();
    await page.evaluate(() => {
      const data = new DataTransfer();
      data.setData('text/html', '<p>Win <a href="JaVaScRiPt:alert(document.cookie)">a prize</a> now</p>');
      data.setData('text/plain', 'Win a prize now');
      window.document.querySelector('.qe-content')!.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    });
    const last = await lastChange(page);
    assert.equal(text(last!.nodes[0]), 'Win a prize now');
    assert.doesNotMatch(JSON.stringify(last), /javascript:/i, 'pasted as its text');
    assert.deepEqual(live(await urls()), []);
  });

  test('a pasted image is uploaded and becomes an image block of that file', async () => {
    await mountEditor(page, EMPTY, options);
    await content().click();
    await page.evaluate(() => {
      const data = new DataTransfer();
      data.items.add(new File([new Uint8Array([137, 80, 78, 71])], 'diagram.png', { type: 'image/png' }));
      const target = window.document.querySelector('.qe-content')!;
      target.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    });
    await page.waitForFunction(() => (window as unknown as { __uploads: string[] }).__uploads.length === 1);
    await page.locator('.qe-content [data-quire="image"]').waitFor();
    const images = (await lastChange(page))!.nodes.find((b) => b.type === 'images') as { nodes: { data: { ref: unknown; alt?: string } }[] };
    assert.deepEqual(images.nodes[0]!.data, { ref: { kind: 'file', file: 'uploaded-1' }, alt: 'diagram' });
  });

  async function paste(plain: string, html?: string): Promise<void> {
    await page.evaluate(`(() => {
      const data = new DataTransfer();
      data.setData('text/plain', ${JSON.stringify(plain)});
      ${html === undefined ? '' : `data.setData('text/html', ${JSON.stringify(html)});`}
      document.querySelector('.qe-content').dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    })()`);
  }

  test('a GitBook page\'s markdown pasted gives the blocks it describes, as the server reads them', async () => {
    const markdown = gitbookMarkdown();
    const expected = markdownToDocument(markdown, (href) => ({ kind: 'url', url: href }));
    await mountEditor(page, EMPTY, options);
    await content().click();
    await paste(markdown);
    await page.locator('.qe-content [data-quire="hint"]').first().waitFor();
    const pasted = await lastChange(page);
    assert.deepEqual(types(pasted), types(expected));
    for (const type of ['heading-2', 'table', 'code', 'hint', 'tabs']) assert.ok((types(pasted) as string[]).includes(type), `a ${type} block`);
    // The very blocks the server's reader gives, without keys (the server keys new blocks when the page is saved).
    assert.deepEqual(withoutKeys(pasted!.nodes), withoutKeys(expected.nodes));
    assert.equal(JSON.stringify(pasted).includes('"key"'), false);
    await screenshot(page, 'editor-pasted-markdown', { fullPage: true });

    // Plain prose stays text; so does markdown pasted into a code block.
    await mountEditor(page, EMPTY, options);
    await content().click();
    await paste('Just a sentence with *stars* in it.');
    assert.deepEqual(types(await lastChange(page)), ['paragraph']);
    await page.keyboard.press('Enter');
    await slash('code');
    await paste('# not a heading\n- nor a list');
    const code = (await lastChange(page))!.nodes.find((b) => b.type === 'code');
    assert.equal(text(code), '# not a heading- nor a list');
  });

  test('code is highlighted while editing, as the reader does, and follows what is typed', async () => {
    const markdown = '```javascript\nconst answer = 42;\n```\n';
    await mountEditor(page, markdownToDocument(markdown, (href) => ({ kind: 'url', url: href })), options);
    const keyword = page.locator('.qe-code code .c-token-keyword').first();
    await keyword.waitFor({ timeout: 30_000 });
    assert.equal(await keyword.textContent(), 'const');
    await page.locator('.qe-code code').click();
    // Under load the click's selection may be applied after the first Control+End: press it until the caret is
    // at the end of the code.
    const caretAtEnd = () =>
      page.evaluate(`(() => {
        const selection = getSelection();
        const code = document.querySelector('.qe-code code');
        if (!selection || selection.rangeCount === 0 || !code) return false;
        const rest = document.createRange();
        rest.setStart(selection.focusNode, selection.focusOffset);
        rest.setEnd(code, code.childNodes.length);
        return rest.toString() === '';
      })()`);
    for (let tries = 0; ; tries += 1) {
      await page.keyboard.press('Control+End');
      const atEnd = await caretAtEnd();
      // The highlighting redraws the block when it settles, which puts back the selection the editor last read:
      // the caret must still be at the end a moment later.
      if (atEnd) {
        await page.waitForTimeout(400);
        if (await caretAtEnd()) break;
      }
      assert.ok(tries < 20, 'the caret reaches the end of the code');
      await page.waitForTimeout(100);
    }
    await page.keyboard.press('Enter');
    await page.keyboard.type('return answer;');
    await page.locator('.qe-code code .c-token-keyword', { hasText: 'return' }).waitFor({ timeout: 30_000 });
    const code = (await lastChange(page))!.nodes.find((b) => b.type === 'code');
    assert.equal(text(code), 'const answer = 42;return answer;');
    await screenshot(page, 'editor-code-highlighted');
  });

  test('the / menu uploads a file into a file block', async () => {
    await mountEditor(page, EMPTY, options);
    await content().click();
    const chooser = page.waitForEvent('filechooser');
    await slash('file');
    await (await chooser).setFiles({ name: 'report.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4') });
    await page.locator('.qe-content [data-quire="file"]').waitFor();
    const file = (await lastChange(page))!.nodes.find((b) => b.type === 'file') as { data: { ref: unknown } } | undefined;
    assert.deepEqual(file?.data.ref, { kind: 'file', file: 'uploaded-1' });
  });

  test('an image\'s width is set in pixels or percent, and a wrong width is said so', async () => {
    const markdown = '<figure><img src="https://example.org/a.png" alt="Diagram"><figcaption></figcaption></figure>\n';
    await mountEditor(page, markdownToDocument(markdown, (href) => ({ kind: 'url', url: href })), options);
    // The width is in the image's settings toolbar, shown once the image is selected.
    await page.locator('.qe-image-frame').click();
    const width = page.getByLabel('Image width');
    const image = () => (lastChange(page) as Promise<Document>).then((d) => (d.nodes[0] as unknown as { nodes: { data: Record<string, unknown> }[] }).nodes[0]!.data);
    await width.fill('50%');
    assert.deepEqual((await image()).width, { value: 50, unit: '%' });
    await width.fill('320');
    assert.equal((await image()).width, 320);
    await width.fill('wide');
    await page.getByText('A width is a number of pixels or a percentage').waitFor();
    assert.equal(await width.inputValue(), 'wide');
    assert.equal((await image()).width, 320);
    await screenshot(page, 'editor-image-width');
    await width.fill('');
    assert.equal('width' in (await image()), false);
  });

  test('table rows and columns are added and removed, the cards view too', async () => {
    await mountEditor(page, EMPTY, options);
    await content().click();
    await slash('table');
    await page.getByRole('button', { name: 'Add row' }).click();
    await page.getByLabel('Row 3, Column 1').fill('Third');
    await page.getByRole('button', { name: 'Add column' }).click();
    await page.getByLabel('Row 1, Column 3').fill('New');
    let table = tableOf(await lastChange(page));
    assert.equal(Object.keys(table.data.records).length, 3);
    assert.equal(table.data.view.columns.length, 3);
    assert.ok(JSON.stringify(table.fragments).includes('"Third"') && JSON.stringify(table.fragments).includes('"New"'));
    await screenshot(page, 'editor-table-rows-columns');
    await page.getByRole('button', { name: 'Remove column Column 1' }).click();
    await page.getByRole('button', { name: 'Remove row 1' }).click();
    table = tableOf(await lastChange(page));
    assert.deepEqual(table.data.view.columns, ['c2', 'c3']);
    assert.equal(Object.keys(table.data.records).length, 2);
    assert.equal(JSON.stringify(table.fragments).includes('"Third"'), false, 'the removed column took its cells');
    assert.equal(table.fragments.length, 4);

    await mountEditor(page, EMPTY, options);
    await content().click();
    await slash('cards');
    await page.getByRole('button', { name: 'Add card' }).click();
    await page.getByLabel('Card 4, Title').fill('Fourth card');
    table = tableOf(await lastChange(page));
    assert.equal(table.data.view.type, 'cards');
    assert.equal(Object.keys(table.data.records).length, 4);
    await screenshot(page, 'editor-cards');
    assert.deepEqual(await seriousViolations(page), []);
  });

  test('a card\'s link cell names where it leads, as the page view does, not the reference\'s JSON', async () => {
    const markdown = '<table data-view="cards"><thead><tr><th></th><th data-card-target data-type="content-ref">Link</th></tr></thead><tbody><tr><td>Guide</td><td><a href="https://example.com/guide">https://example.com/guide</a></td></tr></tbody></table>\n';
    const read = markdownToDocument(markdown, (href) => ({ kind: 'url', url: href }));
    assert.ok(JSON.stringify(read).includes('"kind":"url"'), 'the card has a link cell');
    await mountEditor(page, read, options);
    await content().getByText('https://example.com/guide').waitFor();
    assert.equal((await content().innerText()).includes('{"kind"'), false, 'no reference written as JSON');
  });

  test('a table cell with marks and links is edited in an editor of its own and keeps them; the other cells are kept byte for byte', async () => {
    const read = markdownToDocument('| Name | Where |\n| --- | --- |\n| **Ada** Lovelace | [Analytical engine](https://example.com/engine) |\n| **Grace** | Harvard |\n', (href) => ({ kind: 'url', url: href }));
    await mountEditor(page, read, options);
    const before = tableOf(read) as unknown as { fragments: { fragment: string; nodes: unknown[] }[] };
    await page.getByRole('button', { name: /edit Row 1, Name$/i }).click();
    const cell = page.getByRole('textbox', { name: 'Row 1, Name' });
    await cell.waitFor();
    await page.keyboard.press('End');
    await page.keyboard.type(', countess');
    await page.keyboard.press('Control+b');
    await page.keyboard.type(' 1815');
    await screenshot(page, 'editor-rich-cell');
    assert.deepEqual(await seriousViolations(page), []);
    await page.keyboard.press('Escape');
    assert.equal(await page.getByRole('button', { name: /edit Row 1, Name$/i }).evaluate((element) => element === document.activeElement), true, 'Escape gives the focus back to the cell');
    const table = tableOf(await lastChange(page)) as unknown as { fragments: { fragment: string; nodes: unknown[] }[] };
    const edited = JSON.stringify(table.fragments.find((f) => f.fragment === before.fragments[0]!.fragment));
    assert.match(edited, /"text":"Ada","marks":\[\{"object":"mark","type":"bold"/, 'the bold word is still bold');
    assert.ok(edited.includes('Lovelace, countess'), edited);
    assert.match(edited, /"text":" 1815","marks":\[\{"object":"mark","type":"bold"/, 'what was typed after Control+B is bold');
    for (const fragment of before.fragments.slice(1)) {
      assert.deepEqual(table.fragments.find((f) => f.fragment === fragment.fragment), fragment, `${fragment.fragment} unchanged`);
    }
    // A cell whose bold is taken off is plain text: it stays in its editor while it is edited.
    await page.getByRole('button', { name: /^Grace: edit Row 2, Name$/ }).click();
    await page.getByRole('textbox', { name: 'Row 2, Name' }).waitFor();
    // The editor reads a selection the keys moved on `selectionchange`, a task later, which a loaded machine delays:
    // the keys wait until the editor has the focus, and Control+B until the editor's own selection (TipTap's state,
    // on its element) is the one the keys made.
    const editorSelection = (size: number) =>
      page.waitForFunction((n) => {
        const dom = document.activeElement as (Element & { editor?: { state: { selection: { from: number; to: number } } } }) | null;
        const selection = dom?.classList.contains('ProseMirror') ? dom.editor?.state.selection : undefined;
        return selection !== undefined && selection.to - selection.from === n;
      }, size);
    // Into the cell's editor and to the end of its text, as a person clicking into it would: on a loaded machine the
    // focus the editor takes as it opens was once not there after 30 s (CI), and what is tested here is the marks.
    await page.getByRole('textbox', { name: 'Row 2, Name' }).click();
    await page.keyboard.press('End');
    await editorSelection(0);
    for (let i = 0; i < 'Grace'.length; i++) await page.keyboard.press('Shift+ArrowLeft');
    await editorSelection('Grace'.length);
    await page.keyboard.press('Control+b');
    await page.keyboard.press('ArrowRight');
    await editorSelection(0);
    await page.keyboard.type(' Hopper');
    assert.equal(await page.getByRole('textbox', { name: 'Row 2, Name' }).textContent(), 'Grace Hopper');
    await page.keyboard.press('Escape');
    const plain = tableOf(await lastChange(page)) as unknown as { fragments: { fragment: string; nodes: unknown[] }[] };
    assert.match(JSON.stringify(plain.fragments.find((f) => f.fragment === before.fragments[2]!.fragment)), /"text":"Grace Hopper","marks":\[\]/);
    assert.equal(await page.getByLabel('Row 2, Name').inputValue(), 'Grace Hopper', 'once left, a plain cell is an input');

    // The link cell opens with its link, and leaving it without a change changes nothing.
    const count = (await changes(page)).length;
    await page.getByRole('button', { name: /edit Row 1, Where$/i }).click();
    await page.getByRole('textbox', { name: 'Row 1, Where' }).getByRole('link', { name: 'Analytical engine' }).waitFor();
    await content().click();
    assert.equal((await changes(page)).length, count);
  });

  test('the mounted editor of a rich page has no serious or critical accessibility violation', async () => {
    const rich = corpusDocuments()
      .map(({ document }) => document)
      .sort((a, b) => new Set(b.nodes.map((n) => n.type)).size - new Set(a.nodes.map((n) => n.type)).size)[0]!;
    await mountEditor(page, rich, options);
    await content().click();
    await screenshot(page, 'editor-rich-page', { fullPage: true });
    assert.deepEqual(await seriousViolations(page), []);
    await page.locator('.qe-content > p').first().click();
    await page.keyboard.press('End');
    await page.keyboard.type(' /');
    await page.getByRole('listbox', { name: 'Insert a block' }).waitFor();
    assert.deepEqual(await seriousViolations(page), []);
  });
});
