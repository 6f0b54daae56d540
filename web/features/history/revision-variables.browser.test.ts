// @sqlite-run-only: the history screens drawing expressions with each revision's variables; the server stores and serves the revisions, which the content tests do on both databases.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { ok } from '../../../test/assertions.ts';
import { screenshot, withoutChromium } from '../../../test/browser.ts';
import { webAppSuite } from '../../../test/browser-suite.ts';
import { buildSpace, writeMain } from '../../../test/factories.ts';

/*
 * A page as it was, and two revisions compared, show an expression with the variables of the revision drawn (the
 * space's, the page's own): the value readers saw then, not `{{…}}` nor today's value (issue 42).
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const text = (value: string) => ({ object: 'text', leaves: [{ object: 'leaf', text: value, marks: [] }] });
const expression = (of: string) => ({ object: 'inline', type: 'expression', isVoid: true, data: { expression: of } });
const paragraph = (key: string, words: string) => ({ object: 'block', type: 'paragraph', key, data: {}, nodes: [text(`${words} `), expression('space.vars.version'), text('.')] });
const releaseNotes = (...words: string[]) => ({ object: 'document', data: {}, nodes: words.map((w, i) => paragraph(`p${i + 1}`, w)) });

describe('expressions in the history screens, in Chromium', { skip: withoutChromium, timeout: 300_000 }, () => {
  const suite = webAppSuite();
  const shownIn = async (page: Page, region: string) => (await page.getByRole('region', { name: region }).or(page.getByLabel(region)).first().locator('.expression').allInnerTexts()).map((s) => s.trim());

  test('a page as it was and a comparison show each revision’s values', async () => {
    const { t, origin } = suite;
    const space = await buildSpace(t, { title: 'Releases' });
    const first = await writeMain(t, space.id, [{ operation: 'insert_page', title: 'Notes', document: { document: releaseNotes('Install') } }], { version: '2.1.0' });
    const tree = ok(await t.api('GET', `/v1/spaces/${space.id}/content`));
    const pageId = (tree.pages as Json[]).find((p) => p.title === 'Notes').id as string;
    const second = await writeMain(t, space.id, [{ operation: 'update_page', page: pageId, document: { document: releaseNotes('Install', 'Upgrade to') } }], { version: '2.2.0' });

    const page = await suite.signedIn();
    await page.goto(`${origin}/app/s/${space.id}/~/revisions/${first}?page=${pageId}`);
    const asItWas = page.getByRole('article', { name: 'Notes as it was' });
    await asItWas.getByText('Install').waitFor();
    await asItWas.locator('.expression').getByText('2.1.0').waitFor();
    assert.ok(!(await asItWas.innerText()).includes('{{'), 'no expression written out');

    await page.goto(`${origin}/app/s/${space.id}/~/history?from=${first}&to=${second}&page=${pageId}`);
    const changes = page.getByLabel('Changes to the page');
    // The block kept and the block added, drawn as readers see them, with the new revision's value. (An edited
    // paragraph is drawn as its text's changes, without its inlines: block-diff.ts compares text.)
    await changes.getByText('Added paragraph').waitFor();
    await changes.locator('.expression').nth(1).waitFor();
    assert.deepEqual(await shownIn(page, 'Changes to the page'), ['2.2.0', '2.2.0'], 'one column: the new revision’s value');
    await screenshot(page, 'history-expression-values');
    await suite.assertAccessible(page, 'a comparison with expressions');
    await page.context().close();
  });
});
