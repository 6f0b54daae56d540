// @sqlite-run-only: the editor and page view drawing math, icons, mentions and expressions; the server stores and serves one page, which the content and reader tests do on both databases.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { eventually } from '../../../../src/features/collaboration/clients.test-support.ts';
import { ok } from '../../../../test/assertions.ts';
import { screenshot, withoutChromium } from '../../../../test/browser.ts';
import { webAppSuite } from '../../../../test/browser-suite.ts';
import { buildPage, buildSpace, writeMain } from '../../../../test/factories.ts';

/*
 * Issue 42: math, icons, mentions and expressions look in the editor as they do in the page view and to readers —
 * temml's MathML, the reader's icon, the page's title, the variable's value; never their type's name or raw TeX —
 * and a formula is edited in the kit's popover, its TeX beside a preview, and saved.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const text = (value: string) => ({ object: 'text', leaves: [{ object: 'leaf', text: value, marks: [] }] });
const inline = (type: string, data: Record<string, unknown>) => ({ object: 'inline', type, isVoid: true, data });
const paragraph = (key: string, ...nodes: unknown[]) => ({ object: 'block', type: 'paragraph', key, data: {}, nodes });

function wysiwygDocument(targetPage: string) {
  return {
    object: 'document',
    data: {},
    nodes: [
      paragraph(
        'p1',
        text('Energy '),
        inline('inline-math', { formula: 'E=mc^2' }),
        text(' at home '),
        inline('icon', { icon: 'house' }),
        text(' read '),
        inline('mention', { ref: { kind: 'page', page: targetPage } }),
        text(' in version '),
        inline('expression', { expression: 'space.vars.version' }),
        text('.'),
      ),
      { object: 'block', type: 'math', key: 'm1', isVoid: true, data: { formula: '\\frac{a}{b}' } },
      paragraph('p2', text('Gone: '), inline('mention', { ref: { kind: 'page', page: 'no-such-page' } }), text(' end.')),
    ],
  };
}

describe('math, icons, mentions and expressions as readers see them, in Chromium', { skip: withoutChromium, timeout: 300_000 }, () => {
  const suite = webAppSuite();
  const content = (page: Page) => page.getByRole('textbox', { name: 'Page content' });

  async function buildWysiwygPage(): Promise<{ spaceId: string; pageId: string; path: string }> {
    const { t } = suite;
    const space = await buildSpace(t, { title: 'Physics' });
    const target = await buildPage(t, space.id, { title: 'Relativity' });
    await writeMain(t, space.id, [{ operation: 'insert_page', title: 'Formulas', document: { document: wysiwygDocument(target) } }], { version: '2.1.0' });
    const tree = ok(await t.api('GET', `/v1/spaces/${space.id}/content`));
    const found = (tree.pages as Json[]).find((p) => p.title === 'Formulas');
    assert.ok(found, 'the page was written');
    return { spaceId: space.id, pageId: found.id, path: found.path };
  }

  /** What both views must show alike: the first paragraph's words and the MathML of both formulas. */
  async function shown(root: Locator) {
    await root.locator('.math math').waitFor();
    await root.locator('.math-inline math').waitFor();
    await root.locator('svg.inline-icon').waitFor();
    const paragraph = root.locator('p').filter({ hasText: 'Energy' });
    return {
      words: (await paragraph.innerText()).replace(/\s+/g, ' ').trim(),
      block: await root.locator('.math math').innerHTML(),
      inline: await root.locator('.math-inline math').innerHTML(),
      mention: (await root.locator('.mention').first().innerText()).trim(),
      expression: (await root.locator('.expression').innerText()).trim(),
      icons: await root.locator('svg.inline-icon path').count(),
    };
  }

  test('the page view and the editor draw them alike; a formula is edited in its popover and saved', async () => {
    const { t, origin } = suite;
    const { spaceId, pageId, path } = await buildWysiwygPage();
    const page = await suite.signedIn();

    await page.goto(`${origin}/app/s/${spaceId}/${path}`);
    await suite.settled(page);
    const view = page.locator('article.page .document');
    const read = await shown(view);
    assert.equal(read.mention, 'Relativity');
    assert.equal(read.expression, '2.1.0');
    assert.ok(read.icons > 0, 'the house icon is drawn');
    assert.match(read.block, /<mfrac>/);
    assert.match(read.inline, /<msup>/);
    for (const raw of ['E=mc^2', '\\frac', 'mention', 'expression', 'space.vars', 'inline-math']) assert.ok(!(await view.innerText()).includes(raw), `the page view shows no “${raw}”`);
    await screenshot(page, 'wysiwyg-page-view');
    await suite.assertAccessible(page, 'a page with math, an icon, a mention and an expression');

    await page.goto(`${origin}/app/s/${spaceId}/~/edit/${pageId}`);
    await page.getByRole('list', { name: 'People in this page' }).waitFor({ timeout: 20_000 });
    await content(page).waitFor();
    const editor = content(page);
    const edited = await shown(editor);
    assert.deepEqual(edited, read, 'the editor shows what the page view shows');
    assert.equal((await editor.locator('.mention').nth(1).innerText()).trim(), 'Missing page');
    for (const raw of ['E=mc^2', '\\frac', 'mention', 'expression', 'space.vars', 'inline-math']) assert.ok(!(await editor.innerText()).includes(raw), `the editor shows no “${raw}”`);
    await screenshot(page, 'wysiwyg-editor');

    // The block formula: a click opens its TeX beside a live preview; Escape gives the caret back to the page.
    await editor.locator('.math').click();
    const blockPopover = page.getByRole('dialog', { name: 'Math formula (TeX)' });
    const tex = blockPopover.getByRole('textbox', { name: 'Math formula (TeX)' });
    await assert.doesNotReject(tex.waitFor());
    assert.equal(await tex.inputValue(), '\\frac{a}{b}');
    await tex.fill('\\sqrt{2}');
    await blockPopover.getByRole('group', { name: 'Preview' }).locator('math msqrt').waitFor();
    await editor.locator('.math math msqrt').waitFor();
    await screenshot(page, 'wysiwyg-formula-popover');
    await suite.assertAccessible(page, 'the formula popover');
    await page.keyboard.press('Escape');
    await blockPopover.waitFor({ state: 'detached' });
    await page.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === 'Page content');

    // Enter on the formula, selected as Escape left it, opens it again.
    await page.keyboard.press('Enter');
    await blockPopover.waitFor();
    await page.keyboard.press('Escape');
    await blockPopover.waitFor({ state: 'detached' });

    // The inline formula: Enter in its field closes it, the caret after it.
    await editor.locator('.math-inline').click();
    const inlinePopover = page.getByRole('dialog', { name: 'Inline formula (TeX)' });
    await inlinePopover.getByRole('textbox', { name: 'Inline formula (TeX)' }).fill('a^2+b^2');
    await inlinePopover.getByRole('group', { name: 'Preview' }).locator('math msup').first().waitFor();
    await screenshot(page, 'wysiwyg-inline-formula-popover');
    await page.keyboard.press('Enter');
    await inlinePopover.waitFor({ state: 'detached' });
    await editor.locator('.math-inline math msup').first().waitFor();

    // A formula that does not parse shows its source, as readers see it.
    await editor.locator('.math').click();
    await tex.fill('\\frac{');
    await editor.locator('pre.math-source').filter({ hasText: '\\frac{' }).waitFor();
    await tex.fill('\\sqrt{2}');
    await page.keyboard.press('Escape');
    await blockPopover.waitFor({ state: 'detached' });

    // Math from the `/` menu opens its popover at once.
    await editor.locator('p').filter({ hasText: 'Gone' }).click();
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await page.keyboard.type('/Math');
    await page.getByRole('listbox', { name: 'Insert a block' }).waitFor();
    await page.keyboard.press('Enter');
    await blockPopover.waitFor();
    await page.keyboard.type('x^3');
    await page.keyboard.press('Escape');
    await blockPopover.waitFor({ state: 'detached' });

    // Saved: the page read back through the API holds the formulas written.
    const formulas = async () => {
      const read = ok(await t.api('GET', `/v1/spaces/${spaceId}/content/page/${pageId}?format=document`));
      const all: string[] = [];
      JSON.stringify(read.document, (name, value: unknown) => {
        if (name === 'formula' && typeof value === 'string') all.push(value);
        return value;
      });
      return all;
    };
    await eventually(async () => JSON.stringify(await formulas()) === JSON.stringify(['a^2+b^2', '\\sqrt{2}', 'x^3']), 20_000, 'the formulas saved').catch(async (error: Error) => {
      throw new Error(`${error.message}: ${JSON.stringify(await formulas())}`);
    });
    await page.context().close();
  });
});
