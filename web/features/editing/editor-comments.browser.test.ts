import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { screenshot, withoutChromium } from '../../../test/browser.ts';
import { webAppSuite } from '../../../test/browser-suite.ts';
import { ok } from '../../../test/assertions.ts';
import { buildPage, buildSpace } from '../../../test/factories.ts';
import { seriousViolations } from '../../../test/web-app.ts';

/*
 * Comment threads in the editor, in Chromium: the threads of the page beside their blocks (the space's comments
 * in a live space, the draft change request's otherwise), replied to, reacted to, resolved and reopened, and a
 * comment on the block the selection is in.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

describe('comment threads in the editor, in Chromium', { skip: withoutChromium, timeout: 300_000 }, () => {
  const suite = webAppSuite();

  async function openEditor(spaceId: string, pageId: string): Promise<Page> {
    const page = await suite.signedIn();
    await page.goto(`${suite.origin}/app/s/${spaceId}/~/edit/${pageId}`);
    await page.locator('.ProseMirror').waitFor();
    // Editable at once, then bound to the shared document once it has synced (shared-binding.ts): a block measured
    // meanwhile may be one the shared document's content replaces. Its people list says it is done.
    await page.getByRole('list', { name: 'People in this page' }).waitFor({ timeout: 20_000 });
    return page;
  }

  const blockKeys = async (path: string) => ok(await suite.t.api('GET', `${path}?format=document`)).document.nodes.map((b: Json) => b.key as string);

  test('in a live space, the space’s threads sit beside their block; a reply, a 👍, resolve and reopen, and a comment on the selected block', async () => {
    const { t } = suite;
    const space = await buildSpace(t, { title: 'Commented space' });
    const pageId = await buildPage(t, space.id, { title: 'Guide', markdown: 'First paragraph of the guide.\n\nSecond paragraph, commented.\n\nThird paragraph.' });
    const keys = await blockKeys(`/v1/spaces/${space.id}/content/page/${pageId}`);
    ok(await t.api('POST', `/v1/spaces/${space.id}/comments`, { body: { page: pageId, node: keys[1], body: { markdown: 'Is this right?' } } }));

    const page = await openEditor(space.id, pageId);
    const rail = page.getByRole('complementary', { name: 'Comments' });
    const thread = rail.getByRole('article', { name: /Comment by/ });
    await thread.getByText('Is this right?').waitFor();
    // Beside its block: the thread starts where the second paragraph does.
    const block = await page.locator('.ProseMirror > p', { hasText: 'Second paragraph' }).boundingBox();
    const box = await thread.boundingBox();
    assert.ok(block && box && Math.abs(box.y - block.y) < 24 && box.x > block.x + block.width - 4, `thread at ${JSON.stringify(box)}, block at ${JSON.stringify(block)}`);

    await thread.getByLabel(/Reply to/).fill('Yes, it is.');
    await thread.getByRole('button', { name: 'Reply' }).click();
    await thread.getByText('Yes, it is.').waitFor();
    await thread.getByRole('button', { name: /thumbs-up/ }).click();
    await thread.getByRole('button', { name: /thumbs-up/, pressed: true }).waitFor();
    await thread.getByRole('button', { name: 'Resolve' }).click();
    await thread.getByRole('button', { name: 'Reopen' }).waitFor();
    const [stored] = ok(await t.api('GET', `/v1/spaces/${space.id}/comments?targetPage=${pageId}`)).items;
    assert.deepEqual([stored.status, stored.replies, stored.reactions[0]?.emoji], ['resolved', 1, '👍']);
    await thread.getByRole('button', { name: 'Reopen' }).click();
    await thread.getByRole('button', { name: 'Resolve' }).waitFor();

    // A comment on the block the selection is in, quoting the selected text.
    await page.locator('.ProseMirror > p', { hasText: 'First paragraph' }).click({ clickCount: 3 });
    await rail.getByRole('button', { name: 'Comment on the selected block' }).click();
    const form = rail.getByLabel('Comment on the paragraph “First paragraph of the guide.”');
    assert.match(await form.inputValue(), /^> First paragraph of the guide\./);
    await form.fill('Say what the guide is for.');
    await rail.getByRole('button', { name: 'Post comment' }).click();
    await rail.getByText('Say what the guide is for.').waitFor();
    // On PostgreSQL the list may be read from a cache a moment before the post's notification reaches it.
    let posted: Json | undefined;
    for (let attempt = 0; attempt < 50 && !posted; attempt++) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 200));
      const all = ok(await t.api('GET', `/v1/spaces/${space.id}/comments?targetPage=${pageId}&format=markdown`)).items;
      posted = all.find((c: Json) => String(c.body.markdown).includes('Say what the guide is for.'));
    }
    assert.equal(posted?.target.node.id, keys[0]);
    assert.deepEqual(await seriousViolations(page), []);
    await screenshot(page, 'editor-comments');
    await page.close();
  });

  test('edits that go to a change request show its threads, and a thread whose block is gone is outdated', async () => {
    const { t } = suite;
    const space = await buildSpace(t, { title: 'Reviewed space' });
    const pageId = await buildPage(t, space.id, { title: 'Guide', markdown: 'Kept paragraph.\n\nRemoved paragraph.' });
    ok(await t.api('PATCH', `/v1/spaces/${space.id}`, { body: { editMode: 'change-requests' } }));
    let page = await openEditor(space.id, pageId);
    await page.getByRole('status', { name: 'Save status' }).filter({ hasText: /change request #/ }).waitFor();
    const [draft] = ok(await t.api('GET', `/v1/spaces/${space.id}/change-requests?status=draft&creator=${t.admin.userId}`)).items;
    const keys = await blockKeys(`/v1/spaces/${space.id}/change-requests/${draft.id}/content/page/${pageId}`);
    ok(await t.api('POST', `/v1/spaces/${space.id}/change-requests/${draft.id}/comments`, { body: { page: pageId, node: keys[0], body: { markdown: 'On the kept one.' } } }));
    ok(await t.api('POST', `/v1/spaces/${space.id}/change-requests/${draft.id}/comments`, { body: { page: pageId, node: keys[1], body: { markdown: 'On a block since deleted.' } } }));
    // The second paragraph is deleted in the change request; the first keeps its key (keys follow content).
    ok(await t.api('POST', `/v1/spaces/${space.id}/change-requests/${draft.id}/content`, { body: { changes: [{ operation: 'update_page', page: pageId, document: { markdown: 'Kept paragraph.' } }] } }));
    assert.deepEqual(await blockKeys(`/v1/spaces/${space.id}/change-requests/${draft.id}/content/page/${pageId}`), [keys[0]]);
    await page.close();

    page = await openEditor(space.id, pageId);
    const rail = page.getByRole('complementary', { name: 'Comments' });
    await rail.getByText('On the kept one.').waitFor();
    const outdated = page.getByRole('region', { name: 'Outdated comments' });
    await outdated.getByText('On a block since deleted.').waitFor();
    assert.deepEqual(await seriousViolations(page), []);
    await screenshot(page, 'editor-comments-change-request');
    await page.close();
  });

  test('a comment on selected words highlights them in the page; a click on them shows the comment; resolved, they are plain again', async () => {
    const { t } = suite;
    const space = await buildSpace(t, { title: 'Words space' });
    const pageId = await buildPage(t, space.id, { title: 'Guide', markdown: 'Install the server first.\n\nThen open the app and sign in.' });
    const keys = await blockKeys(`/v1/spaces/${space.id}/content/page/${pageId}`);
    // Made through the API as the app makes one: the words quoted at its start, on their block.
    ok(await t.api('POST', `/v1/spaces/${space.id}/comments`, { body: { page: pageId, node: keys[0], body: { markdown: '> the server\n\nWhich one?' } } }));

    const page = await openEditor(space.id, pageId);
    const rail = page.getByRole('complementary', { name: 'Comments' });
    const highlight = page.locator('.ProseMirror .qe-comment-range');
    await highlight.first().waitFor();
    assert.deepEqual(await highlight.allTextContents(), ['the server']);
    await highlight.first().click();
    const shown = rail.locator('[data-thread]', { hasText: 'Which one?' });
    await page.waitForFunction(() => document.activeElement?.closest('[data-thread]') !== null);
    assert.equal(await shown.evaluate((el) => el.contains(document.activeElement)), true);
    await page.locator('.ProseMirror .qe-comment-range-active').waitFor();

    // Words selected with the keyboard, commented on from the rail.
    await page.locator('.ProseMirror > p', { hasText: 'Then open' }).click();
    await page.keyboard.press('Home');
    for (let i = 0; i < 'Then open the app'.length; i++) await page.keyboard.press('Shift+ArrowRight');
    await rail.getByRole('button', { name: 'Comment on the selected block' }).click();
    const form = rail.getByLabel(/^Comment on the paragraph/);
    assert.match(await form.inputValue(), /^> Then open the app\n\n$/);
    // The caret waits after the quote.
    await page.keyboard.type('Say which app.');
    assert.equal(await form.inputValue(), '> Then open the app\n\nSay which app.');
    await rail.getByRole('button', { name: 'Post comment' }).click();
    await page.locator('.ProseMirror .qe-comment-range', { hasText: 'Then open the app' }).waitFor();
    assert.deepEqual(await seriousViolations(page), []);
    await screenshot(page, 'editor-comment-ranges');

    // Resolved, its words are plain text again.
    await shown.getByRole('button', { name: 'Resolve' }).click();
    await page.waitForFunction(() => [...document.querySelectorAll('.ProseMirror .qe-comment-range')].every((el) => el.textContent !== 'the server'));
    assert.deepEqual(await highlight.allTextContents(), ['Then open the app']);
    await page.close();
  });
});
