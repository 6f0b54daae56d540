// @sqlite-run-only: a table's widths, code line numbers, updates' dates and embeds' cards and OpenAPI schemas in the editor; the server stores one page, whose documents the content tests store on both databases.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { eventually } from '../../../../src/features/collaboration/clients.test-support.ts';
import { ok } from '../../../../test/assertions.ts';
import { screenshot, withoutChromium } from '../../../../test/browser.ts';
import { webAppSuite } from '../../../../test/browser-suite.ts';
import { buildOpenAPISpec, buildSpace } from '../../../../test/factories.ts';
import { petstoreYaml } from '../../../../test/fixtures/openapi.ts';

/*
 * A block's details drawn in the editor as readers see them: a table's column widths, set by
 * dragging a column's edge (stored as GitBook stores them, read back through the API); a code block's line numbers;
 * an update's date; an embed's link card; an OpenAPI schemas block.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const MARKDOWN = [
  '# Details',
  '',
  '| Name | Role |',
  '| ---- | ---- |',
  '| Ada | Engineer |',
  '| Grace | Admiral |',
  '',
  '{% code lineNumbers="true" %}',
  '```',
  'npm install',
  'npm start',
  '```',
  '{% endcode %}',
  '',
  '{% updates format="full" %}',
  '{% update date="2025-12-25" tags="beta" %}',
  'A brand new update.',
  '{% endupdate %}',
  '{% endupdates %}',
  '',
  '{% embed url="https://example.org/talks/quire?t=42" %}',
  '',
].join('\n');

describe('blocks\' details in the editor, in Chromium', { skip: withoutChromium, timeout: 600_000 }, () => {
  const suite = webAppSuite();
  const content = (page: Page) => page.getByRole('textbox', { name: 'Page content' });
  const blockOf = async (spaceId: string, pageId: string, type: string): Promise<Json> =>
    ok(await suite.t.api('GET', `/v1/spaces/${spaceId}/content/page/${pageId}?format=document`)).document.nodes.find((b: Json) => b.type === type);

  async function openPage() {
    const { t } = suite;
    const space = await buildSpace(t, { title: 'Details' });
    const batch = ok(await t.api('POST', `/v1/spaces/${space.id}/content`, { body: { changes: [{ operation: 'insert_page', title: 'Details', document: { markdown: MARKDOWN } }] } }));
    const pageId: string = batch.changes[0].page.id;
    const page = await suite.signedIn();
    await page.goto(`${suite.origin}/app/s/${space.id}/~/edit/${pageId}`);
    await page.getByRole('list', { name: 'People in this page' }).waitFor({ timeout: 20_000 });
    await content(page).waitFor();
    return { page, spaceId: space.id, pageId };
  }

  test('a table column resized by dragging its edge, stored in pixels as GitBook does, and by the arrow keys', async () => {
    const { page, spaceId, pageId } = await openPage();
    const edge = page.getByRole('separator', { name: 'Width of column Name' });
    const name = page.getByRole('columnheader').first();
    const before = (await name.boundingBox())!.width;
    const box = (await edge.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 50, box.y + box.height / 2, { steps: 4 });
    await page.mouse.move(box.x + box.width / 2 + 100, box.y + box.height / 2, { steps: 4 });
    await page.mouse.up();
    const stored = async () => (await blockOf(spaceId, pageId, 'table'))?.data.view;
    await eventually(async () => {
      const view = await stored();
      return view?.useNewSizing === true && Math.abs(view.columnWidths?.[view.columns[0]] - (before + 100)) <= 3;
    }, 30_000, `the dragged width saved (the column was ${before} px)`);
    const view = await stored();
    const [first, second] = view.columns;
    assert.ok(Math.abs((await name.boundingBox())!.width - view.columnWidths[first]) <= 2, 'the column is drawn at its stored width');
    assert.ok(view.columnWidths[second] >= 48, 'the other column keeps the width it was drawn at');
    // The edge tells assistive technology the width drawn, kept as the layout changes.
    await eventually(async () => Math.abs(Number(await edge.getAttribute('aria-valuenow')) - view.columnWidths[first]) <= 2, 10_000, 'the edge\'s value is the drawn width');
    await screenshot(page, 'block-details-table-resized');
    // Wider than the page, the table scrolls sideways, as the reader's does.
    assert.ok(await page.locator('.qe-table').evaluate((wrapper) => ((wrapper.scrollLeft = 1000), wrapper.scrollLeft > 0)), 'the wide table scrolls');
    await suite.assertAccessible(page, 'a table with resized columns');
    // The keyboard's way: the edge focused, the right arrow widens the column by 16 px.
    await edge.focus();
    await page.keyboard.press('ArrowRight');
    await eventually(async () => Math.abs((await stored())?.columnWidths[first] - (view.columnWidths[first] + 16)) <= 3, 30_000, 'the width set by a key saved');
    // Undone in one step.
    await content(page).getByText('A brand new update.').click();
    await page.keyboard.press('Control+z');
    await eventually(async () => Math.abs((await stored())?.columnWidths[first] - view.columnWidths[first]) <= 1, 30_000, 'the key\'s width undone');
    await page.context().close();
  });

  test('a code block\'s line numbers and an update\'s date, as readers see them', async () => {
    const { page } = await openPage();
    const numbers = content(page).locator('.qe-line-number');
    await eventually(async () => (await numbers.count()) === 2, 10_000, 'a number for each line');
    assert.deepEqual(await numbers.evaluateAll((spans) => spans.map((s) => getComputedStyle(s, '::before').content)), ['"1"', '"2"']);
    assert.ok(await numbers.first().isVisible());
    // Copying the code does not copy its numbers: they are no text of the page.
    assert.equal(await content(page).locator('pre.code').innerText(), 'npm install\nnpm start');
    await content(page).locator('.qe-update time').getByText('December 25, 2025').waitFor();
    await screenshot(page, 'block-details-code-update');
    await suite.assertAccessible(page, 'line numbers and an update\'s date');
    await page.context().close();
  });

  test('an embed shows as readers see it: a link card naming the site, the URL under it, and nothing of the third party', async () => {
    const { page } = await openPage();
    const card = content(page).locator('.qe-embed-card');
    const link = card.getByRole('link', { name: 'example.org https://example.org/talks/quire?t=42' });
    await link.waitFor();
    assert.equal(await link.getAttribute('href'), 'https://example.org/talks/quire?t=42');
    assert.equal(await card.locator('iframe, script, img').count(), 0, 'no frame, script or picture of the embedded site');
    // A click on the card beside its link selects the block (its settings).
    await card.locator('.card-icon').click();
    await page.getByRole('group', { name: 'Embed settings' }).waitFor();
    await screenshot(page, 'block-details-embed');
    await suite.assertAccessible(page, 'an embed\'s card');
    await page.context().close();
  });

  test('an OpenAPI schemas block shows each schema named, its type and properties, as readers see it', async () => {
    const { t, origin } = suite;
    await buildOpenAPISpec(t, 'petstore-schemas', { text: petstoreYaml() });
    const space = await buildSpace(t, { title: 'Schemas' });
    const markdown = 'The models.\n\n{% openapi-schemas spec="petstore-schemas" schemas="NewPet,Error" grouped="false" %}\n[OpenAPI petstore-schemas](x)\n{% endopenapi-schemas %}\n';
    const batch = ok(await t.api('POST', `/v1/spaces/${space.id}/content`, { body: { changes: [{ operation: 'insert_page', title: 'Schemas', document: { markdown } }] } }));
    const page = await suite.signedIn();
    await page.goto(`${origin}/app/s/${space.id}/~/edit/${batch.changes[0].page.id}`);
    const schemas = content(page).getByRole('region', { name: 'Schemas: NewPet, Error' });
    await schemas.waitFor({ timeout: 20_000 });
    const newPet = schemas.locator('details.openapi-model').first();
    assert.equal(await newPet.locator('summary code').innerText(), 'NewPet');
    await newPet.locator('.openapi-field', { hasText: 'name' }).getByText('required').waitFor();
    await newPet.getByText('The pet\'s name').waitFor();
    assert.equal(await schemas.locator('details.openapi-model').count(), 2);
    await screenshot(page, 'block-details-openapi-schemas');
    await suite.assertAccessible(page, 'an OpenAPI schemas block');
    await page.context().close();
  });
});
