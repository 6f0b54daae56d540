import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { screenshot, withoutChromium } from '../../../test/browser.ts';
import { webAppSuite } from '../../../test/browser-suite.ts';
import { ok } from '../../../test/assertions.ts';
import { buildChangeRequest, buildPage, buildSpace } from '../../../test/factories.ts';
import { seriousViolations } from '../../../test/web-app.ts';
import { caretIn } from '../../../test/editor/caret.ts';
import { eventually } from '../../../src/features/collaboration/clients.test-support.ts';

/*
 * Editing together (issue 31) as two people do it in Chromium: two browser contexts, two members, one page of a
 * change request, typing at once; each sees the other's text, caret and avatar, and the change request holds both.
 */

const HAS_BLOCK_EDITOR = existsSync(new URL('../editor/page-editor.tsx', import.meta.url));

describe('editing together in Chromium', { skip: withoutChromium || (HAS_BLOCK_EDITOR ? false : 'no block editor in this build'), timeout: 300_000 }, () => {
  const suite = webAppSuite();

  const content = (page: Page) => page.getByRole('textbox', { name: 'Page content' });
  const status = (page: Page) => page.getByRole('status', { name: 'Save status' });

  test('two members type into one page of a change request at once: each sees the other’s text and caret, and the change request holds both', async () => {
    const { t, origin } = suite;
    const space = await buildSpace(t, { title: 'Together' });
    const pageId = await buildPage(t, space.id, { title: 'Runbook', markdown: 'First step.\n\nSecond step.' });
    ok(await t.api('PATCH', `/v1/spaces/${space.id}`, { body: { editMode: 'change-requests' } }));
    const cr = await buildChangeRequest(t, space.id, { subject: 'Fix the runbook' });
    const engineer = await t.member('edit');
    const names = { writer: ok(await t.api('GET', '/v1/user')).displayName as string, engineer: ok(await t.api('GET', '/v1/user', { token: engineer.token })).displayName as string };

    const writer = await suite.signedIn(t.admin.userId);
    const other = await suite.signedIn(engineer.userId);
    for (const page of [writer, other]) {
      await page.goto(`${origin}/app/s/${space.id}/~/edit/${pageId}?changeRequest=${cr.id}`);
      await content(page).waitFor();
      assert.match(await status(page).innerText(), new RegExp(`Editing in change request #${cr.number}`));
    }
    // Each sees both people in the page.
    for (const page of [writer, other]) await page.getByRole('list', { name: 'People in this page' }).getByRole('listitem').nth(1).waitFor();

    const typeAtEnd = async (page: Page, paragraph: string, text: string) => {
      const target = content(page).locator('p', { hasText: paragraph });
      // Outside the paragraph when the click came before the editor took the shared document, which redraws it.
      const caret = () => caretIn(target);
      // Under load the click's selection can land after the End key, or the click before the editor is ready: click
      // again while the caret is not in the paragraph, press End until it is at its end.
      await eventually(async () => {
        if ((await caret()) === 'outside') await target.click();
        await page.keyboard.press('End');
        return (await caret()) === 'end';
      }, 20_000, 'the caret at the end of the paragraph');
      await page.keyboard.type(text, { delay: 20 });
    };
    // At once: neither waits for the other.
    await Promise.all([typeAtEnd(writer, 'First step.', ' Check the logs.'), typeAtEnd(other, 'Second step.', ' Restart the service.')]);

    // The paragraphs' own text (a caret's name label sits inside them, in the others' pages).
    const paragraphs = (page: Page) => content(page).locator('p').evaluateAll((ps) => ps.map((p) => [...p.childNodes].filter((n) => !(n instanceof HTMLElement && n.classList.contains('collaboration-carets__caret'))).map((n) => n.textContent).join('')));
    const expected = ['First step. Check the logs.', 'Second step. Restart the service.'];
    for (const page of [writer, other]) {
      await eventually(async () => JSON.stringify(await paragraphs(page)) === JSON.stringify(expected), 20_000, 'both texts in each editor').catch(async (error: Error) => {
        assert.fail(`${error.message}: ${JSON.stringify(await paragraphs(page))}`);
      });
    }
    // Each sees the other's caret, named.
    await writer.locator('.collaboration-carets__label', { hasText: names.engineer }).waitFor({ timeout: 20_000 });
    await other.locator('.collaboration-carets__label', { hasText: names.writer }).waitFor({ timeout: 20_000 });
    for (const page of [writer, other]) await status(page).filter({ hasText: /^Saved/ }).waitFor({ timeout: 20_000 });

    assert.deepEqual(await seriousViolations(writer), []);
    await screenshot(writer, 'editing-together');

    // The server stores the shared document in the change request a few seconds after typing stops.
    const markdown = async () => ok(await t.api('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}/content/page/${pageId}?format=markdown`)).markdown as string;
    await eventually(async () => {
      const stored = await markdown();
      return stored.includes('First step. Check the logs.') && stored.includes('Second step. Restart the service.');
    }, 20_000, 'both texts in the change request');
    assert.doesNotMatch(ok(await t.api('GET', `/v1/spaces/${space.id}/content/page/${pageId}?format=markdown`)).markdown, /Check the logs/, 'main is unchanged');

    await writer.context().close();
    await other.context().close();
  });
});
