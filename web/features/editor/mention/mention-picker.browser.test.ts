// @sqlite-run-only: the editor's `@` picker in the browser over the members and pages the API lists; those reads are the members' and content tests' on both databases.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import type { Document } from '../../../../src/features/content/document/types.ts';
import { screenshot, withoutChromium } from '../../../../test/browser.ts';
import { buildSpaceWithPages } from '../../../../test/factories.ts';
import { seriousViolations } from '../../../../test/web-app.ts';
import { lastChange, mountEditor, type MountOptions } from '../../../../test/editor/mounted-editor.ts';
import { mountedEditorSuite } from '../../../../test/editor/mounted-editor-suite.ts';

/*
 * `@` in the editor, as a writer uses it: the members of the organization and the pages of the space offered by
 * name, the one chosen put in as GitBook's `mention` inline and shown as readers see it.
 */

const EMPTY: Document = { object: 'document', data: {}, nodes: [] };
type Inline = { object: string; type?: string; data?: { ref?: unknown }; leaves?: { text: string }[] };
const inlinesOf = (document: Document | undefined): Inline[] => ((document?.nodes[0] as { nodes?: Inline[] } | undefined)?.nodes ?? []);
const refs = (document: Document | undefined) => inlinesOf(document).filter((n) => n.type === 'mention').map((n) => n.data?.ref);
const textOf = (document: Document | undefined) => inlinesOf(document).map((n) => (n.object === 'text' ? (n.leaves ?? []).map((l) => l.text).join('') : '◊')).join('');

describe('mentions in the editor, in Chromium', { skip: withoutChromium, timeout: 300_000 }, () => {
  const suite = mountedEditorSuite();
  let page: Page;
  let options: MountOptions;
  let colleague: { userId: string; displayName: string };
  let pages: string[];

  before(async () => {
    const { t } = suite;
    const built = await buildSpaceWithPages(t, 'Install guide', 'Billing');
    pages = built.pages;
    const member = await t.member('edit');
    const profile = (await t.api('GET', `/v1/orgs/${t.org.id}/members/${member.userId}`)).body as { user: { displayName: string } };
    colleague = { userId: member.userId, displayName: profile.user.displayName };
    page = suite.page;
    options = { ...suite.options, spaceId: built.space.id as string };
  });

  test('`@` and a name offer the members and pages it names; the one chosen is a mention, shown by its name', async () => {
    await mountEditor(page, EMPTY, options);
    const picker = page.getByRole('listbox', { name: 'Mention a person or a page' });
    await page.locator('.qe-content').click();
    // An address is not a mention: the `@` inside a word opens nothing.
    await page.keyboard.type('Mail ada@example.com or ask @');
    await picker.waitFor();
    assert.ok((await picker.getByRole('option').count()) >= 3, 'every member and page is offered before a letter is typed');
    const name = colleague.displayName;
    await page.keyboard.type(name.split(' ').at(-1)!);
    await picker.getByRole('option', { name: new RegExp(name) }).waitFor();
    assert.match((await picker.getByRole('option', { selected: true }).textContent()) ?? '', new RegExp(name));
    assert.deepEqual(await seriousViolations(page), []);
    await screenshot(page, 'editor-mention-picker');
    await page.keyboard.press('Enter');
    await picker.waitFor({ state: 'hidden' });
    await page.keyboard.type('about the ');
    assert.deepEqual(refs(await lastChange(page)), [{ kind: 'user', user: colleague.userId }]);
    assert.equal(textOf(await lastChange(page)), 'Mail ada@example.com or ask ◊ about the ');
    const shown = page.locator('.qe-content .mention');
    assert.equal(await shown.first().textContent(), name);

    // A page, by letters of its title, chosen with the pointer.
    await page.keyboard.type('@instal');
    await picker.getByRole('option', { name: /Install guide/ }).click();
    await picker.waitFor({ state: 'hidden' });
    assert.deepEqual(refs(await lastChange(page)), [{ kind: 'user', user: colleague.userId }, { kind: 'page', page: pages[0] }]);
    assert.equal(await shown.nth(1).textContent(), 'Install guide');

    // A name nothing matches leaves the keys to the text; Escape closes the picker with the text as typed.
    await page.keyboard.type('@zzqx');
    assert.equal(await picker.count(), 0);
    await page.keyboard.press('Enter');
    assert.equal((await lastChange(page))!.nodes.length, 2);
    await page.keyboard.type('@bill');
    await picker.waitFor();
    await page.keyboard.press('Escape');
    await picker.waitFor({ state: 'hidden' });
    await page.keyboard.type('s');
    assert.match(JSON.stringify((await lastChange(page))!.nodes[1]), /@bills/);
  });

  test('a mention saved in a page is shown by its name when the page is opened again, and one the editor cannot name says so', async () => {
    const inline = (ref: unknown) => ({ object: 'inline', type: 'mention', isVoid: true, data: { ref } });
    const document = {
      object: 'document',
      data: {},
      nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Ask ', marks: [] }] }, inline({ kind: 'page', page: pages[1] }), { object: 'text', leaves: [{ object: 'leaf', text: ' or ', marks: [] }] }, inline({ kind: 'user', user: 'nobody-here' })] }],
    } as unknown as Document;
    await mountEditor(page, document, options);
    const shown = page.locator('.qe-content .mention');
    await page.locator('.qe-content .mention', { hasText: 'Billing' }).waitFor();
    await page.locator('.qe-content .mention', { hasText: 'Unknown person' }).waitFor();
    assert.deepEqual(await shown.allTextContents(), ['Billing', 'Unknown person']);
  });
});
