import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { withoutChromium } from '../../../test/browser.ts';
import { webAppSuite } from '../../../test/browser-suite.ts';
import { ok } from '../../../test/assertions.ts';
import { buildPage, buildSpace } from '../../../test/factories.ts';
import { caretIn } from '../../../test/editor/caret.ts';
import { png } from '../../../test/fixtures/png.ts';
import { eventually } from '../../../src/features/collaboration/clients.test-support.ts';

/*
 * Opening a page for editing at once (issue 42): from the page view, the editor opens on the document the view
 * already read, with the caret placed, and the page's shared document syncs behind it. What the person types
 * before the sync is merged into the shared document, never replaced by it.
 */

const HAS_BLOCK_EDITOR = existsSync(new URL('../editor/page-editor.tsx', import.meta.url));

describe('opening the editor at once in Chromium', { skip: withoutChromium || (HAS_BLOCK_EDITOR ? false : 'no block editor in this build'), timeout: 300_000 }, () => {
  const suite = webAppSuite();

  const content = (page: Page) => page.getByRole('textbox', { name: 'Page content' });
  const focusedInContent = (page: Page) => content(page).evaluate((element) => element.contains(document.activeElement) && element.getAttribute('contenteditable') === 'true');
  const paragraphs = (page: Page) =>
    content(page)
      .locator('p')
      .evaluateAll((ps) => ps.map((p) => [...p.childNodes].filter((n) => !(n instanceof HTMLElement && n.classList.contains('collaboration-carets__caret'))).map((n) => n.textContent).join('')));

  /** Holds back the server's messages on the page's collaboration socket, so that its sync ends only on `release`. */
  async function holdCollaboration(page: Page) {
    const held: (string | Buffer)[] = [];
    let holding = true;
    const sockets: { send(message: string | Buffer): void }[] = [];
    await page.routeWebSocket(/\/app\/collaboration/, (socket) => {
      const server = socket.connectToServer();
      sockets.push(socket);
      server.onMessage((message) => (holding ? held.push(message) : socket.send(message)));
      socket.onMessage((message) => server.send(message));
    });
    return {
      answering: async () => {
        await eventually(() => held.length > 0, 20_000, 'the server answering on the socket (held back)');
        assert.equal(await page.getByRole('list', { name: 'People in this page' }).count(), 0, 'not editing together yet');
      },
      release: async () => {
        holding = false;
        for (const message of held.splice(0)) sockets[0]!.send(message);
        await page.getByRole('list', { name: 'People in this page' }).waitFor({ timeout: 20_000 });
      },
    };
  }

  test('a click on Edit opens the page the view shows with the caret in it, without reading the page again', async () => {
    const { t, origin } = suite;
    const space = await buildSpace(t, { title: 'At once' });
    await buildPage(t, space.id, { title: 'Runbook', markdown: 'First step.\n\nSecond step.' });
    const page = await suite.signedIn(t.admin.userId);
    await page.goto(`${origin}/app/o/${t.org.id}/s/${space.id}`);
    await page.locator('.page .document').getByText('Second step.').waitFor();
    const reads: string[] = [];
    page.on('request', (request) => {
      if (/\/v1\/spaces\/[^/]+\/(revisions\/[^/]+\/page|content(\/page)?)(\/|\?|$)/.test(new URL(request.url()).pathname + new URL(request.url()).search)) reads.push(request.url());
    });
    await page.getByRole('link', { name: 'Edit “Runbook”' }).click();
    await content(page).waitFor();
    await eventually(() => focusedInContent(page), 10_000, 'the caret in the page’s content');
    assert.equal(await caretIn(content(page).locator('p').first()), 'inside', 'the caret at the page’s start');
    await page.keyboard.type('Now: ');
    await eventually(async () => (await paragraphs(page))[0] === 'Now: First step.', 10_000, 'the text typed at the caret');
    assert.deepEqual(reads, [], 'the tree and the page are those the page view read');
    await page.context().close();
  });

  test('the page view builds the page\'s editor ahead, off the page, and the editor then opens on its words, its controls a frame later without moving them', async () => {
    const { t, origin } = suite;
    const space = await buildSpace(t, { title: 'Warmed' });
    const markdown = '## Steps\n\nFirst step.\n\n- one\n- two\n\n```bash\necho ready\n```\n\n{% hint style="info" %}\nA hint.\n{% endhint %}\n\n| name | value |\n| --- | --- |\n| a | 1 |\n';
    await buildPage(t, space.id, { title: 'Warm', markdown });
    const page = await suite.signedIn(t.admin.userId);
    const errors: string[] = [];
    page.on('console', (message) => (message.type() === 'error' ? errors.push(message.text()) : undefined));
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${origin}/app/o/${t.org.id}/s/${space.id}`);
    const view = page.locator('.page .document');
    await view.getByText('First step.').waitFor();
    const shown = await view.innerText();
    await eventually(() => page.evaluate(() => performance.getEntriesByName('quire:editor-warmed').length > 0), 20_000, 'the editor warmed up while the page view is idle');
    assert.equal(await page.locator('.ProseMirror').count(), 0, 'the editor built ahead is not in the page');
    assert.equal(await view.innerText(), shown, 'the page view as it was');
    // Where the page's first block is when the editor takes the focus, and where it is once the controls are drawn.
    // (A script, not a function: tsx would name the inner one with a helper the page does not have.)
    await page.evaluate(`document.addEventListener('focusin', (event) => {
      if (event.target instanceof HTMLElement && event.target.matches('.qe-content') && window.firstTop === undefined) window.firstTop = event.target.firstElementChild.getBoundingClientRect().top;
    }, true)`);
    await page.getByRole('link', { name: 'Edit “Warm”' }).click();
    await eventually(() => focusedInContent(page), 10_000, 'the caret in the page’s content');
    const formatting = page.getByRole('toolbar', { name: 'Formatting' });
    await formatting.getByRole('button', { name: 'Bold' }).waitFor();
    // Editing together too: the people in the page shown beside the save status.
    await page.getByRole('list', { name: 'People in this page' }).waitFor({ timeout: 20_000 });
    const firstTop = await page.evaluate(() => (window as unknown as { firstTop: number }).firstTop);
    const top = await content(page).locator(':scope > *').first().evaluate((element) => element.getBoundingClientRect().top);
    assert.equal(top, firstTop, 'the page did not move when the controls came, nor when the shared document connected');
    const words = await content(page).innerText();
    for (const text of ['Steps', 'First step.', 'one', 'two', 'echo ready', 'A hint.']) assert.ok(words.includes(text), `the editor shows “${text}”`);
    assert.deepEqual(errors, [], 'no error in the console');
    await page.context().close();
  });

  test('code the page view coloured is coloured in the editor\'s first frame, not drawn again when its tokens come', async () => {
    const { t, origin } = suite;
    const space = await buildSpace(t, { title: 'Coloured code' });
    await buildPage(t, space.id, { title: 'Script', markdown: 'Run it:\n\n```javascript\nconst answer = 42;\n```\n' });
    const page = await suite.signedIn(t.admin.userId);
    await page.goto(`${origin}/app/o/${t.org.id}/s/${space.id}`);
    await page.locator('.page .document .c-token-keyword').first().waitFor({ timeout: 30_000 });
    // Each frame until the editor's code block is drawn: whether it was drawn with its tokens.
    // (A script, not a function: tsx would name the inner one with a helper the page does not have.)
    await page.evaluate(`(() => {
      const watch = () => {
        const code = document.querySelector('[role="textbox"][aria-label="Page content"] .qe-code code');
        if (code) window.firstCodeFrame = code.querySelector('.c-token-keyword') !== null;
        else requestAnimationFrame(watch);
      };
      requestAnimationFrame(watch);
    })()`);
    await page.getByRole('link', { name: 'Edit “Script”' }).click();
    await eventually(() => page.evaluate(() => 'firstCodeFrame' in window), 20_000, 'the editor drawing the code block');
    assert.equal(await page.evaluate(() => (window as unknown as { firstCodeFrame: boolean }).firstCodeFrame), true, 'coloured in the first frame it is drawn in');
    await page.context().close();
  });

  test('what is typed before the shared document is synced stays, merged into it, and is stored once; the same editor goes on, its undo Yjs\'s', async () => {
    const { t, origin } = suite;
    const space = await buildSpace(t, { title: 'Before the sync' });
    const pageId = await buildPage(t, space.id, { title: 'Runbook', markdown: 'First step.\n\nSecond step.' });
    const page = await suite.signedIn(t.admin.userId);
    // The server's messages on the page's socket are held back until the person has typed: the sync cannot end before.
    const socket = await holdCollaboration(page);
    await page.goto(`${origin}/app/s/${space.id}/~/edit/${pageId}`);
    await eventually(() => focusedInContent(page), 20_000, 'the caret in the page’s content');
    await socket.answering();

    const first = content(page).locator('p', { hasText: 'First step.' });
    await page.keyboard.press('End');
    await eventually(async () => (await caretIn(first)) === 'end', 10_000, 'the caret at the end of the first paragraph');
    await page.keyboard.type(' Check the logs.', { delay: 10 });
    await eventually(async () => (await paragraphs(page))[0] === 'First step. Check the logs.', 10_000, 'the text typed before the sync');

    // The editor is bound to the shared document in place (shared-binding.ts), not built again: its page's
    // element and the first paragraph's stay the very ones.
    await first.evaluate((element) => ((element as HTMLElement & { beforeSync?: boolean }).beforeSync = true));
    await socket.release();
    // The editor bound to the shared document holds the text, and the caret is where it was.
    assert.deepEqual(await paragraphs(page), ['First step. Check the logs.', 'Second step.']);
    assert.equal(await first.evaluate((element) => (element as HTMLElement & { beforeSync?: boolean }).beforeSync), true, 'the paragraph drawn before the sync is kept');
    assert.equal(await focusedInContent(page), true, 'the focus kept');
    await page.keyboard.type(' Then restart.', { delay: 10 });
    await eventually(async () => (await paragraphs(page))[0] === 'First step. Check the logs. Then restart.', 10_000, 'typing on after the sync').catch(async (error: Error) => {
      assert.fail(`${error.message}: ${JSON.stringify(await paragraphs(page))}`);
    });
    // Undo and redo are the shared document's now: what was typed after the sync goes and comes back.
    await page.keyboard.press('Control+z');
    await eventually(async () => (await paragraphs(page))[0] === 'First step. Check the logs.', 10_000, 'the typing after the sync undone');
    await page.keyboard.press('Control+Shift+z');
    await eventually(async () => (await paragraphs(page))[0] === 'First step. Check the logs. Then restart.', 10_000, 'and redone');

    // The server stores the shared document as the page's a few seconds after typing stops: the text once.
    const markdown = async () => ok(await t.api('GET', `/v1/spaces/${space.id}/content/page/${pageId}?format=markdown`)).markdown as string;
    await eventually(async () => (await markdown()).includes('First step. Check the logs. Then restart.'), 30_000, 'the typed text stored');
    const stored = await markdown();
    assert.equal(stored.split('Check the logs').length, 2, `the text stored once: ${stored}`);
    assert.equal(stored.split('Second step.').length, 2, `the page's other block stored once: ${stored}`);
    await page.context().close();
  });

  test('an image selected before the shared document is synced stays selected, with its settings, after it', async () => {
    const { t, origin } = suite;
    const space = await buildSpace(t, { title: 'Selected before the sync' });
    const batch = ok(
      await t.api('POST', `/v1/spaces/${space.id}/content`, {
        body: {
          changes: [
            { operation: 'insert_files', files: [{ ref: 'diagram.png', name: 'diagram.png', contentType: 'image/png', base64: png(300, 100).toString('base64') }] },
            { operation: 'insert_page', title: 'Figure', document: { markdown: 'Above.\n\n![A diagram](diagram.png)\n\nBelow.\n' } },
          ],
        },
      }),
    );
    const pageId = batch.changes[0].page.id;
    const page = await suite.signedIn(t.admin.userId);
    const socket = await holdCollaboration(page);
    await page.goto(`${origin}/app/s/${space.id}/~/edit/${pageId}`);
    await eventually(() => focusedInContent(page), 20_000, 'the caret in the page’s content');
    await socket.answering();

    await page.locator('.qe-image-frame').click();
    const settings = page.getByRole('group', { name: 'Image settings' });
    await settings.waitFor();
    await socket.release();
    // The editor bound to the shared document has the image selected too: its toolbar is there to use.
    await settings.getByRole('button', { name: 'Add caption' }).click({ timeout: 10_000 });
    await page.keyboard.type('Figure 1', { delay: 10 });
    await content(page).getByText('Figure 1', { exact: true }).waitFor({ timeout: 10_000 });
    assert.deepEqual(await paragraphs(page), ['Above.', 'Figure 1', 'Below.'], 'typed in the caption, not in a paragraph');
    await page.context().close();
  });
});
