// @sqlite-run-only: the kit's searched list, by its keys in the code block's language picker; the server stores one page, whose documents the content tests store on both databases.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Locator } from 'playwright-core';
import { eventually } from '../../src/features/collaboration/clients.test-support.ts';
import { ok } from '../../test/assertions.ts';
import { screenshot, withoutChromium } from '../../test/browser.ts';
import { webAppSuite } from '../../test/browser-suite.ts';
import { buildSpace } from '../../test/factories.ts';

/*
 * The kit's SearchList (search-list.tsx), as a person uses it in a code block's language picker: the focus stays
 * in the filter while the arrows, Home and End move the active option (the one aria-activedescendant names),
 * Enter picks it, nothing matching is said, and Escape closes the popover the list is in.
 */

describe('the kit’s searched list in Chromium', { skip: withoutChromium, timeout: 300_000 }, () => {
  const suite = webAppSuite();

  /** The name of the option the combobox says is active. */
  async function activeOption(search: Locator): Promise<string> {
    const id = await search.getAttribute('aria-activedescendant');
    assert.ok(id, 'an option is active');
    const option = search.page().locator(`[id="${id}"]`);
    assert.equal(await option.getAttribute('aria-selected'), 'true');
    return (await option.innerText()).trim();
  }

  test('arrows, Home and End move the active option, Enter picks it, an empty state is said, Escape closes', async () => {
    const { t, origin } = suite;
    const space = await buildSpace(t, { title: 'Code' });
    const batch = ok(await t.api('POST', `/v1/spaces/${space.id}/content`, { body: { changes: [{ operation: 'insert_page', title: 'Run', document: { markdown: 'Before.\n\n```\nnpm start\n```\n' } }] } }));
    const pageId: string = batch.changes[0].page.id;
    const page = await suite.signedIn();
    await page.goto(`${origin}/app/s/${space.id}/~/edit/${pageId}`);
    await page.getByRole('textbox', { name: 'Page content' }).getByText('npm start').click();
    const toolbar = page.getByRole('group', { name: 'Code block settings' });
    await toolbar.getByRole('button', { name: 'Language: Plain text' }).click();

    const search = page.getByRole('combobox', { name: 'Search languages' });
    const list = page.getByRole('listbox', { name: 'Languages' });
    await search.fill('bas');
    await list.getByRole('option').nth(2).waitFor();
    const names = (await list.getByRole('option').allInnerTexts()).map((name) => name.trim());
    assert.equal(await activeOption(search), names[0], 'the first option is active at first');
    await search.press('End');
    assert.equal(await activeOption(search), names.at(-1));
    await search.press('ArrowDown');
    assert.equal(await activeOption(search), names.at(-1), 'the last option stays active');
    await search.press('Home');
    assert.equal(await activeOption(search), names[0]);
    await search.press('ArrowUp');
    assert.equal(await activeOption(search), names[0], 'the first option stays active');
    await search.press('ArrowDown');
    assert.equal(await activeOption(search), names[1]);
    await screenshot(page, 'kit-search-list');
    await suite.assertAccessible(page, 'the searched list');

    // Nothing matching: said, and no option is active.
    await search.fill('no such language');
    await page.getByRole('status').filter({ hasText: 'No language called “no such language”' }).waitFor();
    assert.equal(await search.getAttribute('aria-activedescendant'), null);

    // What is typed changes, and the first option matching is active again; Enter picks the active one.
    await search.fill('bas');
    await list.getByRole('option', { name: names[0], exact: true }).waitFor();
    await search.press('ArrowDown');
    await search.press('Enter');
    await toolbar.getByRole('button', { name: `Language: ${names[1]}` }).waitFor();
    assert.equal(await search.count(), 0, 'picking closes the picker');

    // Escape, with something typed, is the popover's: it closes, and nothing is picked.
    await page.getByRole('textbox', { name: 'Page content' }).getByText('npm start').click();
    await toolbar.getByRole('button', { name: `Language: ${names[1]}` }).click();
    await search.fill('py');
    await search.press('Escape');
    await eventually(async () => (await search.count()) === 0, 10_000, 'the picker closed by Escape');
    await toolbar.getByRole('button', { name: `Language: ${names[1]}` }).waitFor();
    await page.context().close();
  });
});
