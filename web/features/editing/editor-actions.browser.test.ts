import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import type { Page } from 'playwright-core';
import { eventually } from '../../../src/features/collaboration/clients.test-support.ts';
import type { Document } from '../../../src/features/content/document/types.ts';
import { ok } from '../../../test/assertions.ts';
import { screenshot, withoutChromium } from '../../../test/browser.ts';
import { webAppSuite } from '../../../test/browser-suite.ts';
import { OfficialSpec } from '../../../test/e2e/spec-validator.ts';
import { corpusDocuments } from '../../../test/editor/corpus-documents.ts';
import { buildSpace } from '../../../test/factories.ts';

/*
 * The editor's invariant, through the real editor: whatever a person does, every document it saves is valid and
 * holds each key once. Random sequences of 200 actions (typing, a click somewhere in the text, Enter, Backspace,
 * pasting text, copying blocks and pasting them elsewhere, `/` inserts, duplicating and moving blocks from the block
 * menu, undo and redo) on pages of the corpus, done with the keyboard and the mouse in Chromium. Every save must
 * be accepted by the server (which refuses an invalid document or a key held twice), and at checkpoints the
 * stored document is read back and checked against the official schema and for repeated keys. Seeds are fixed
 * under CI=true (test/property-seeds.ts) and random locally; a failure prints its seed (PROPERTY_SEED replays it).
 */

const ACTIONS = 200;
const CHECK_EVERY = 50;
const WORDS = ['alpha', 'Beta ', ' gamma', 'δέλτα', 'end.', '- ', '1. ', '> ', '## ', '`code`', 'x'];
const SLASH_ITEMS = ['Heading 2', 'Bulleted list', 'Numbered list', 'Task list', 'Quote', 'Hint: info', 'Code block', 'Divider', 'Tabs', 'Expandable', 'Table', 'Cards', 'Math', 'Stepper', 'Columns', 'Updates'];
const PASTED = ['pasted words', 'first line\nsecond line', 'one\n\ntwo paragraphs\n\nthree', '- a pasted\n- list'];

// Thousandths, evenly: fast-check's doubles lean to the extremes (a click would nearly always land on the first text).
const fraction = fc.integer({ min: 0, max: 999 }).map((n) => n / 1000);
type Action =
  | { kind: 'type'; text: string }
  | { kind: 'click'; at: number; offset: number }
  | { kind: 'enter' }
  | { kind: 'backspace'; times: number }
  | { kind: 'paste'; text: string }
  | { kind: 'copy-paste'; lines: number; at: number; offset: number }
  | { kind: 'slash'; at: number; item: string }
  | { kind: 'duplicate'; at: number }
  | { kind: 'move'; at: number; direction: 'up' | 'down' }
  | { kind: 'undo' }
  | { kind: 'redo' };

const actionArbitrary: fc.Arbitrary<Action> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('type' as const), text: fc.constantFrom(...WORDS) }) },
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('click' as const), at: fraction, offset: fraction }) },
  { weight: 3, arbitrary: fc.constant({ kind: 'enter' as const }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('backspace' as const), times: fc.integer({ min: 1, max: 4 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('paste' as const), text: fc.constantFrom(...PASTED) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('copy-paste' as const), lines: fc.integer({ min: 1, max: 3 }), at: fraction, offset: fraction }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('slash' as const), at: fraction, item: fc.constantFrom(...SLASH_ITEMS) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('duplicate' as const), at: fraction }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('move' as const), at: fraction, direction: fc.constantFrom('up' as const, 'down' as const) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'undo' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'redo' as const }) },
);

/** Every key of a document that is held more than once. */
function repeatedKeys(document: unknown): string[] {
  const seen = new Set<string>();
  const repeated = new Set<string>();
  JSON.stringify(document, (name, value: unknown) => {
    if (name === 'key' && typeof value === 'string') (seen.has(value) ? repeated : seen).add(value);
    return value;
  });
  return [...repeated];
}

/** Pages of the corpus of a size an editing session has: several kinds of block, not a whole reference. */
function corpusPagesToEdit(): { file: string; document: Document }[] {
  const pages = corpusDocuments().filter(({ document }) => document.nodes.length >= 6 && document.nodes.length <= 60);
  assert.ok(pages.length > 0, 'no page of the corpus has between 6 and 60 blocks');
  return pages;
}

describe('random editing in the real editor, in Chromium', { skip: withoutChromium, timeout: 900_000 }, () => {
  const suite = webAppSuite();
  const spec = OfficialSpec.load();
  const ROOT = '[aria-label="Page content"]';

  /** Whether the page editor's selection is the browser's. */
  const caretRead = (page: Page) =>
    page.evaluate((root) => {
      const view = (document.querySelector(root) as (Element & { editor?: { view: never } }) | null)?.editor?.view as
        | { posAtDOM(node: Node, offset: number): number; state: { selection: { head: number } }; hasFocus(): boolean }
        | undefined;
      const selection = getSelection();
      if (!view || !selection?.focusNode || !view.hasFocus()) return false;
      try {
        return view.posAtDOM(selection.focusNode, selection.focusOffset) === view.state.selection.head;
      } catch {
        return false;
      }
    }, ROOT);

  /** Where a click lands on the `at`th editable text of the page (by fraction), `offset` of the way into it. */
  const textPoint = (page: Page, at: number, offset: number) =>
    page.evaluate(
      ({ root, at, offset }) => {
        const editor = document.querySelector(root)!;
        const texts: Text[] = [];
        const walker = document.createTreeWalker(editor, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const parent = node.parentElement;
          if (parent?.isContentEditable && node.textContent && parent.closest('[contenteditable="true"]') === editor) texts.push(node as Text);
        }
        if (texts.length === 0) return null;
        const text = texts[Math.floor(at * texts.length)]!;
        text.parentElement!.scrollIntoView({ block: 'center' });
        const range = document.createRange();
        const index = Math.floor(offset * (text.length + 1));
        range.setStart(text, Math.min(index, text.length));
        range.collapse(true);
        const rect = range.getClientRects()[0] ?? text.parentElement!.getBoundingClientRect();
        const x = rect.left + 1;
        const y = rect.top + rect.height / 2;
        // Whether the editor's text is what is at the point, not a floating toolbar of the block being edited.
        const hit = document.elementFromPoint(x, y) as HTMLElement | null;
        const covered = !(hit && hit.isContentEditable && hit.closest('[contenteditable="true"]') === editor);
        return { x, y, covered };
      },
      { root: ROOT, at, offset },
    );

  /** The top of the `at`th top-level block (by fraction), scrolled into view, where the drag handle appears. */
  const blockPoint = (page: Page, at: number, onlyParagraphs = false) =>
    page.evaluate(
      ({ root, at, onlyParagraphs }) => {
        const blocks = [...document.querySelector(root)!.children].filter((b) => (onlyParagraphs ? b.tagName === 'P' : true)) as HTMLElement[];
        if (blocks.length === 0) return null;
        const block = blocks[Math.floor(at * blocks.length)]!;
        block.scrollIntoView({ block: 'center' });
        const rect = block.getBoundingClientRect();
        // The end is right of its last line: End there is the end of the block, not of its first line.
        return { x: rect.left + Math.min(20, rect.width / 2), y: rect.top + Math.min(8, rect.height / 2), endX: rect.right - 2, endY: rect.bottom - Math.min(8, rect.height / 2) };
      },
      { root: ROOT, at, onlyParagraphs },
    );

  /** Where the focus, the page's caret and the editor's selection are, for a failure to say. */
  const whereTheCaretIs = (page: Page) =>
    page.evaluate((root) => {
      // (no named function in here: tsx would name it with a helper the page does not have)
      const [focus, selection] = [document.activeElement, getSelection()?.focusNode?.parentElement ?? null].map((e) =>
        e ? `<${e.tagName.toLowerCase()} ${e.getAttribute('aria-label') ?? e.className}>` : 'nothing',
      );
      const view = (document.querySelector(root) as unknown as { editor: { view: { posAtDOM(n: Node, o: number): number; state: { selection: { toJSON(): unknown; $head: { parent: { toJSON(): unknown } } } } } } }).editor.view;
      const dom = getSelection()!;
      const pos = dom.focusNode ? view.posAtDOM(dom.focusNode, dom.focusOffset) : -1;
      return `focus on ${focus}; the page's caret in ${selection} (${dom.focusNode?.textContent?.slice(0, 30)}@${dom.focusOffset}, position ${pos}); the editor's ${JSON.stringify(view.state.selection.toJSON())} in ${JSON.stringify(view.state.selection.$head.parent.toJSON()).slice(0, 300)}`;
    }, ROOT);

  async function clickText(page: Page, at: number, offset: number): Promise<void> {
    let point = await textPoint(page, at, offset);
    // A block's floating toolbar (an image's options, an expandable's "Open by default") may lie over the text, and
    // whether it does depends on when it was placed: a person would not click the text through it. Wait a little
    // for it to move; if it stays, the click is not made.
    if (point?.covered) {
      await eventually(async () => !(point = await textPoint(page, at, offset))?.covered, 2_000, 'the text uncovered').catch(() => undefined);
      if (point?.covered) return;
    }
    if (point) await page.mouse.click(point.x, point.y);
    else await page.locator(ROOT).click();
    // The page may have moved between the measure and the click (a line of the header growing or shrinking as a save
    // ends), and the click land beside the editor (CI, under load: on the page's toolbar). A person clicks again where
    // the text now is: so does this, twice at most, before it waits for the caret.
    for (let again = 0; again < 2 && point && !(await page.evaluate((root) => document.querySelector(root)!.contains(document.activeElement), ROOT)); again++) {
      point = await textPoint(page, at, offset);
      if (!point || point.covered) break;
      await page.mouse.click(point.x, point.y);
    }
    await eventually(() => caretRead(page), 20_000, 'the editor reading the caret a click put').catch(async (error: Error) => {
      throw new Error(`${error.message}: clicked at ${JSON.stringify(point)}; ${await whereTheCaretIs(page)}`);
    });
  }

  /** Runs the editor's own copy (or paste) on the focused editor with a clipboard of its own. */
  const clipboardEvent = (page: Page, type: 'copy' | 'paste', data?: Record<string, string>) =>
    page.evaluate(
      ({ type, data }) => {
        const clipboardData = new DataTransfer();
        for (const [format, value] of Object.entries(data ?? {})) clipboardData.setData(format, value);
        (document.activeElement ?? document.body).dispatchEvent(new ClipboardEvent(type, { clipboardData, bubbles: true, cancelable: true }));
        return Object.fromEntries(clipboardData.types.map((format) => [format, clipboardData.getData(format)]));
      },
      { type, data },
    );

  async function blockMenu(page: Page, at: number, item: string): Promise<void> {
    const blocks = page.locator(`${ROOT} > *`);
    const count = await blocks.count();
    if (count === 0) return;
    await blocks.nth(Math.floor(at * count)).hover({ position: { x: 4, y: 4 } });
    const button = page.getByRole('button', { name: 'Block menu' });
    await button.waitFor({ state: 'visible', timeout: 20_000 });
    await button.click();
    const menu = page.getByRole('menu', { name: 'Block' });
    await menu.waitFor({ timeout: 5_000 }).catch(async (error: Error) => {
      const handle = await page.evaluate(() => document.querySelector('.qe-handle')?.parentElement?.outerHTML.slice(0, 600));
      throw new Error(`${error.message.split('\n')[0]}; the handle: ${handle}`);
    });
    const entry = menu.getByRole('menuitem', { name: item });
    if (await entry.isDisabled()) await page.keyboard.press('Escape');
    else await entry.click();
  }

  async function perform(page: Page, action: Action): Promise<void> {
    switch (action.kind) {
      case 'type':
        return page.keyboard.type(action.text);
      case 'click':
        return clickText(page, action.at, action.offset);
      case 'enter':
        return page.keyboard.press('Enter');
      case 'backspace':
        for (let i = 0; i < action.times; i++) await page.keyboard.press('Backspace');
        return;
      case 'paste':
        await clipboardEvent(page, 'paste', { 'text/plain': action.text });
        return;
      case 'copy-paste': {
        await clickText(page, action.at, action.offset);
        for (let i = 0; i < action.lines; i++) await page.keyboard.press('Shift+ArrowDown');
        const copied = await clipboardEvent(page, 'copy');
        await page.keyboard.press('ArrowRight');
        if (Object.keys(copied).length > 0) await clipboardEvent(page, 'paste', copied);
        return;
      }
      case 'slash': {
        const point = await blockPoint(page, action.at, true);
        if (!point) return;
        await page.mouse.click(point.endX, point.endY);
        await page.keyboard.press('End');
        await page.keyboard.press('Enter');
        const before = await whereTheCaretIs(page);
        await page.keyboard.type(`/${action.item}`);
        await page.getByRole('listbox', { name: 'Insert a block' }).waitFor({ timeout: 20_000 }).catch(async (error: Error) => {
          throw new Error(`${error.message.split('\n')[0]}: before typing ${before}; then ${await whereTheCaretIs(page)}`);
        });
        await page.keyboard.press('Enter');
        return;
      }
      case 'duplicate':
        return blockMenu(page, action.at, 'Duplicate');
      case 'move':
        return blockMenu(page, action.at, `Move ${action.direction}`);
      case 'undo':
        return page.keyboard.press('Control+z');
      case 'redo':
        return page.keyboard.press('Control+Shift+z');
    }
  }

  /** Waits for the page's edits to be saved, then checks what is stored. */
  async function checkStored(page: Page, read: () => Promise<unknown>, after: string): Promise<void> {
    const status = page.getByRole('status', { name: 'Save status' });
    // Two frames: the last action's edit has reached the save status.
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    await eventually(
      async () => {
        const kind = await status.getAttribute('class');
        if (/save-(error|conflict)/.test(kind ?? '')) assert.fail(`the save was refused ${after}: ${await status.textContent()}`);
        return /save-(saved|idle)/.test(kind ?? '');
      },
      30_000,
      `the edits saved ${after}`,
    );
    const document = await read();
    assert.deepEqual(spec.schemaProblems('Document', document), [], `the stored document is valid ${after}`);
    assert.deepEqual(repeatedKeys(document), [], `each key is held once in the stored document ${after}`);
  }

  test(`${ACTIONS} random actions on a corpus page: every save accepted, every stored document valid, no key held twice`, async () => {
    const { t } = suite;
    const pages = corpusPagesToEdit();
    const space = await buildSpace(t, { title: 'Random editing' });
    let run = 0;
    const result = await fc.check(
      fc.asyncProperty(fc.nat({ max: pages.length - 1 }), fc.array(actionArbitrary, { minLength: ACTIONS, maxLength: ACTIONS }), async (pageIndex, actions) => {
        run++;
        const source = pages[pageIndex]!;
        const url = `/v1/spaces/${space.id}/content`;
        const batch = ok(await t.api('POST', url, { body: { changes: [{ operation: 'insert_page', title: `Run ${run}`, document: { markdown: '' } }] } }));
        const pageId = batch.changes[0].page.id as string;
        ok(await t.api('POST', url, { body: { changes: [{ operation: 'update_page', page: pageId, document: { document: source.document } }] } }));
        const read = async () => ok(await t.api('GET', `/v1/spaces/${space.id}/content/page/${pageId}?format=document`)).document as unknown;
        const page = await suite.signedIn();
        const refused: string[] = [];
        page.on('response', (response) => {
          const request = response.request();
          if (request.method() === 'POST' && /\/v1\/spaces\/[^/]+\/(change-requests\/[^/]+\/)?content$/.test(new URL(response.url()).pathname) && response.status() >= 400) {
            refused.push(`${response.status()} ${request.postData()?.slice(0, 200) ?? ''}`);
          }
        });
        // A failing run's page stays open: test/browser.ts saves its screenshot and console with the failure.
        await page.goto(`${suite.origin}/app/s/${space.id}/~/edit/${pageId}`);
        await page.locator(ROOT).waitFor();
        await clickText(page, 0, 0);
        for (const [i, action] of actions.entries()) {
          try {
            await perform(page, action);
            const failure = page.getByRole('heading', { name: 'This screen could not be shown' });
            if (await failure.count()) assert.fail(`the editor crashed: ${await page.locator('main, body').first().innerText()}`);
          } catch (error) {
            const before = JSON.stringify(actions.slice(Math.max(0, i - 4), i));
            throw new Error(`action ${i + 1} (${JSON.stringify(action)}, after ${before}) on ${source.file} failed: ${(error as Error).message}`, { cause: error });
          }
          if ((i + 1) % CHECK_EVERY === 0) await checkStored(page, read, `after action ${i + 1} (${JSON.stringify(action)}) on ${source.file}`);
        }
        assert.deepEqual(refused, [], `every save of ${source.file} accepted`);
        if (run === 1) await screenshot(page, 'editor-random-actions');
        await page.context().close();
      }),
      // Each run is a whole editing session: a failure reports its seed instead of shrinking through hundreds more.
      { numRuns: 2, endOnFailure: true },
    );
    if (result.failed) {
      const cause = result.errorInstance instanceof Error ? result.errorInstance.message : String(result.errorInstance);
      assert.fail(`run ${result.numRuns} failed (replay with PROPERTY_SEED=${result.seed}): ${cause}`);
    }
  });
});
