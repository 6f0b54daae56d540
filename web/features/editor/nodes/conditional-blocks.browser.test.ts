// @sqlite-run-only: conditional content, prompts and drawings in the editor; the server stores one page, whose documents the content tests store on both databases.
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
import { png } from '../../../../test/fixtures/png.ts';

/*
 * GitBook's conditional content and prompt written in the editor: inserted from the `/` menu, typed in, the
 * condition set from the claims of the adaptive schema of a site publishing the space (the kit's popover and
 * selects), the prompt's description typed in place; saved as GitBook's JSON. A condition the picker cannot say
 * in words shows as its expression, and a drawing shows as readers see it, read-only.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/** The text of a piece of a document, its leaves joined. */
const textOf = (value: unknown): string => JSON.stringify(value).match(/"text":"((?:[^"\\]|\\.)*)"/g)?.map((m) => JSON.parse(m.slice(7)) as string).join('') ?? '';

const paragraph = (text: string) => ({ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }] });

const ADAPTIVE_SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: {
    isPartner: { type: 'boolean', description: 'Works for a partner' },
    unsigned: { type: 'object', description: 'Unsigned claims of the site visitor.', properties: { beta: { type: 'boolean', description: 'Joined the beta' } }, additionalProperties: false },
  },
  additionalProperties: false,
};

describe('conditional content, prompts and drawings in the editor, in Chromium', { skip: withoutChromium, timeout: 300_000 }, () => {
  const suite = webAppSuite();
  const spec = OfficialSpec.loadLatest();
  const content = (page: Page) => page.getByRole('textbox', { name: 'Page content' });

  async function caretAtEnd(page: Page, target: Locator, name: string): Promise<void> {
    await eventually(async () => {
      const box = await target.boundingBox();
      if (box && (await caretIn(target)) === 'outside') await target.click({ position: { x: box.width / 2, y: box.height - 6 } });
      await page.keyboard.press('End');
      return (await caretIn(target)) === 'end';
    }, 20_000, `the caret at the end of "${name}"`);
  }

  async function insertAfter(page: Page, text: string, item: string): Promise<void> {
    await caretAtEnd(page, content(page).locator('p', { hasText: text }), text);
    await page.keyboard.press('Enter');
    await page.keyboard.type(`/${item}`);
    const menu = page.getByRole('listbox', { name: 'Insert a block' });
    await menu.getByRole('option', { name: new RegExp(`^${item}`, 'i') }).first().waitFor();
    await page.keyboard.press('Enter');
    await menu.waitFor({ state: 'hidden' });
  }

  /** A space published by a site whose adaptive schema has claims, and a page holding a raw condition and a drawing. */
  async function pageWithSite(): Promise<{ spaceId: string; pageId: string; saved: () => Promise<Json> }> {
    const { t } = suite;
    const space = await buildSpace(t, { title: 'Adaptive docs' });
    const site = ok(await t.api('POST', `/v1/orgs/${t.org.id}/sites`, { body: { title: 'Adaptive site', spaces: [space.id] } }), 201);
    ok(await t.api('PUT', `/v1/orgs/${t.org.id}/sites/${site.id}/adaptive-schema`, { body: { jsonSchema: ADAPTIVE_SCHEMA } }));
    ok(await t.api('POST', `/v1/spaces/${space.id}/content`, {
      body: { changes: [{ operation: 'insert_files', files: [{ ref: 'sketch.png', name: 'sketch.png', contentType: 'image/png', base64: png(320, 160, 0x60).toString('base64') }] }] },
    }));
    const files = ok(await t.api('GET', `/v1/spaces/${space.id}/content/files`));
    const fileId = (files.items as Json[]).find((f) => f.name === 'sketch.png').id;
    const document = {
      object: 'document',
      data: {},
      nodes: [
        paragraph('Conditional goes here.'),
        paragraph('Prompt goes here.'),
        { object: 'block', type: 'if', key: 'raw', data: { expression: 'visitor.claims.isPartner || visitor.claims.unsigned.beta' }, nodes: [paragraph('For partners and beta users.')] },
        { object: 'block', type: 'drawing', key: 'sketch', isVoid: true, data: { ref: { kind: 'file', file: fileId } } },
        paragraph('The end.'),
      ],
    };
    const batch = ok(await t.api('POST', `/v1/spaces/${space.id}/content`, { body: { changes: [{ operation: 'insert_page', title: 'Audiences', document: { document } }] } }));
    const pageId = batch.changes[0].page.id;
    const saved = async () => ok(await t.api('GET', `/v1/spaces/${space.id}/content/page/${pageId}?format=document`)).document;
    return { spaceId: space.id, pageId, saved };
  }

  test('conditional content and a prompt inserted from the `/` menu, the condition picked from the site\'s claims, saved in GitBook\'s shape', async () => {
    const { origin } = suite;
    const { spaceId, pageId, saved } = await pageWithSite();
    const before = await saved();
    const page = await suite.signedIn();
    await page.goto(`${origin}/app/s/${spaceId}/~/edit/${pageId}`);
    await content(page).waitFor();
    const conditionals = content(page).getByRole('group', { name: 'Conditional content' });

    // The page's own condition, not a comparison: its expression as it is; the drawing as readers see it.
    // (React draws a node view's inside a moment after its frame: its words are waited for.)
    await conditionals.first().getByText(/Shown when: visitor\.claims\.isPartner \|\| visitor\.claims\.unsigned\.beta/).waitFor();
    const drawing = content(page).locator('figure.drawing');
    await drawing.getByRole('img', { name: 'Drawing' }).waitFor();
    await drawing.getByText(/Drawings are edited in GitBook; shown here as readers see them/).waitFor();
    assert.equal(await content(page).getByText('kept as it is').count(), 0, 'no card');

    await insertAfter(page, 'Conditional goes here.', 'Conditional content');
    await page.keyboard.type('Only for beta users.');
    // Enter twice leaves the block, as in GitBook.
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await page.keyboard.type('After the condition.');
    const added = conditionals.filter({ hasText: 'Only for beta users.' });
    await eventually(async () => /Shown when: no condition \(every visitor\)/.test(await added.innerText()), 5_000, 'the new block\'s header');

    await added.getByRole('button', { name: 'Edit the condition' }).click();
    const popover = page.getByRole('dialog', { name: 'Condition' });
    const claim = popover.getByRole('combobox', { name: 'Claim' });
    await claim.waitFor();
    await claim.click();
    await page.getByRole('option', { name: 'unsigned.beta' }).click();
    await popover.getByRole('combobox', { name: 'Operator' }).click();
    await page.getByRole('option', { name: 'is not' }).click();
    assert.equal(await popover.getByLabel('Expression').inputValue(), 'visitor.claims.unsigned.beta != true');
    await popover.getByRole('combobox', { name: 'Value' }).click();
    await page.getByRole('option', { name: 'false' }).click();
    assert.equal(await popover.getByLabel('Expression').inputValue(), 'visitor.claims.unsigned.beta != false');
    await screenshot(page, 'editor-condition-popover');
    await suite.assertAccessible(page, 'the condition popover');
    // A bad expression is told, and not saved.
    await popover.getByLabel('Expression').fill('visitor.claims.unsigned.beta ==');
    await popover.getByRole('alert').waitFor();
    assert.equal(await popover.getByRole('button', { name: 'Save condition' }).isDisabled(), true);
    await popover.getByLabel('Expression').fill('visitor.claims.unsigned.beta == true');
    await popover.getByRole('button', { name: 'Save condition' }).click();
    await popover.waitFor({ state: 'hidden' });
    await eventually(async () => /Shown when: unsigned\.beta is true/.test(await added.innerText()), 5_000, 'the header naming the condition');

    await insertAfter(page, 'Prompt goes here.', 'Prompt');
    await page.keyboard.type('Summarize this page in three bullet points.');
    // Enter on a third empty line of its code leaves the prompt, which keeps its code block alone (GitBook's shape).
    for (let i = 0; i < 3; i++) await page.keyboard.press('Enter');
    await page.keyboard.type('After the prompt.');
    const prompt = content(page).getByRole('group', { name: 'Prompt' });
    await prompt.getByLabel('Prompt description').fill('Summary prompt');

    await screenshot(page, 'editor-conditional-prompt-drawing', { fullPage: true });
    await suite.assertAccessible(page, 'the editor with conditional content, a prompt and a drawing');

    await eventually(async () => JSON.stringify(await saved()).includes('Summary prompt'), 30_000, 'the prompt saved');
    const document = await saved();
    assert.deepEqual(spec.schemaProblems('Document', document), [], 'GitBook\'s spec takes the saved document');
    const types = document.nodes.map((b: Json) => b.type);
    assert.deepEqual(types, ['paragraph', 'if', 'paragraph', 'paragraph', 'prompt', 'paragraph', 'if', 'drawing', 'paragraph']);
    const condition = document.nodes[1];
    assert.deepEqual(condition.data, { expression: 'visitor.claims.unsigned.beta == true' });
    assert.deepEqual(condition.nodes.map(textOf), ['Only for beta users.']);
    assert.equal(textOf(document.nodes[2]), 'After the condition.');
    const savedPrompt = document.nodes[4];
    assert.deepEqual(savedPrompt.data, { description: 'Summary prompt' });
    assert.deepEqual(savedPrompt.nodes.map((b: Json) => [b.type, b.data, textOf(b)]), [['code', { syntax: 'markdown' }, 'Summarize this page in three bullet points.']]);
    assert.equal(textOf(document.nodes[5]), 'After the prompt.');
    assert.deepEqual(document.nodes[6], before.nodes[2], 'the condition not edited comes back as it was');
    assert.deepEqual(document.nodes[7], before.nodes[3], 'the drawing is kept as it was');
    await page.context().close();
  });

  test('with no site publishing the space, a condition is written as an expression, and Backspace in an empty one removes it', async () => {
    const { t, origin } = suite;
    const space = await buildSpace(t, { title: 'Unpublished' });
    const batch = ok(await t.api('POST', `/v1/spaces/${space.id}/content`, { body: { changes: [{ operation: 'insert_page', title: 'Alone', document: { markdown: 'Start here.\n\nEnd here.\n' } }] } }));
    const pageId = batch.changes[0].page.id;
    const saved = async () => ok(await t.api('GET', `/v1/spaces/${space.id}/content/page/${pageId}?format=document`)).document;
    const page = await suite.signedIn();
    await page.goto(`${origin}/app/s/${space.id}/~/edit/${pageId}`);
    await content(page).waitFor();

    // A conditional block left empty goes with Backspace, leaving its line.
    await insertAfter(page, 'Start here.', 'Conditional content');
    const conditionals = content(page).getByRole('group', { name: 'Conditional content' });
    await conditionals.waitFor();
    await page.keyboard.press('Backspace');
    await conditionals.waitFor({ state: 'detached' });

    await insertAfter(page, 'End here.', 'Conditional content');
    await page.keyboard.type('Partners only.');
    await conditionals.getByRole('button', { name: 'Edit the condition' }).click();
    const popover = page.getByRole('dialog', { name: 'Condition' });
    await popover.getByText('No site publishing this space has an adaptive schema').waitFor();
    assert.equal(await popover.getByRole('combobox').count(), 0, 'no claim to pick');
    await popover.getByLabel('Expression').fill('visitor.claims.isPartner');
    await popover.getByLabel('Expression').press('Enter');
    await popover.waitFor({ state: 'hidden' });
    await eventually(async () => /Shown when: isPartner is true/.test(await conditionals.innerText()), 5_000, 'the header naming the condition');

    await eventually(async () => JSON.stringify(await saved()).includes('visitor.claims.isPartner'), 30_000, 'the condition saved');
    const document = await saved();
    assert.deepEqual(document.nodes.map((b: Json) => b.type), ['paragraph', 'paragraph', 'paragraph', 'if']);
    assert.deepEqual(document.nodes[3].data, { expression: 'visitor.claims.isPartner' });
    assert.equal(textOf(document.nodes[3]), 'Partners only.');
    await page.context().close();
  });
});
