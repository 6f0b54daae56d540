// @sqlite-run-only: the settings toolbars of blocks in the editor; the server stores one page, whose documents the content tests store on both databases.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isDeepStrictEqual } from 'node:util';
import type { Page } from 'playwright-core';
import { eventually } from '../../../../src/features/collaboration/clients.test-support.ts';
import { ok } from '../../../../test/assertions.ts';
import { screenshot, withoutChromium } from '../../../../test/browser.ts';
import { webAppSuite } from '../../../../test/browser-suite.ts';
import { buildSpace } from '../../../../test/factories.ts';
import { png } from '../../../../test/fixtures/png.ts';

/*
 * A block's settings are in a small toolbar on the block (block-settings.tsx), not fields in the text: a code
 * block's language (searched), title (in its title bar), line numbers and wrapping; a hint's style; an image's alt
 * text, width (typed, or dragged by its handles), alignment, caption and dark mode picture; tabs renamed on the tabs, added and
 * removed; an embed's URL. Each is saved (read back through the API) and undone like typing.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const MARKDOWN = [
  '# Settings',
  '',
  'Before the blocks.',
  '',
  '```',
  'npm start',
  '```',
  '',
  '{% hint style="info" %}',
  'Read this first.',
  '{% endhint %}',
  '',
  '![The architecture](wide.png)',
  '',
  '{% tabs %}',
  '{% tab title="macOS" %}',
  'Use Homebrew.',
  '{% endtab %}',
  '',
  '{% tab title="Windows" %}',
  'Use the installer.',
  '{% endtab %}',
  '{% endtabs %}',
  '',
  '{% embed url="https://example.org/video" %}',
  '',
  'After the blocks.',
  '',
].join('\n');

describe('block settings on the block, in Chromium', { skip: withoutChromium, timeout: 600_000 }, () => {
  const suite = webAppSuite();
  const content = (page: Page) => page.getByRole('textbox', { name: 'Page content' });
  const settings = (page: Page, block: string) => page.getByRole('group', { name: `${block} settings` });
  const documentOf = async (spaceId: string, pageId: string) => ok(await suite.t.api('GET', `/v1/spaces/${spaceId}/content/page/${pageId}?format=document`)).document;
  const blockOf = async (spaceId: string, pageId: string, type: string): Promise<Json> => (await documentOf(spaceId, pageId)).nodes.find((b: Json) => b.type === type);

  async function openPage() {
    const { t } = suite;
    const space = await buildSpace(t, { title: 'Settings' });
    const batch = ok(
      await t.api('POST', `/v1/spaces/${space.id}/content`, {
        body: {
          changes: [
            { operation: 'insert_files', files: [{ ref: 'wide.png', name: 'wide.png', contentType: 'image/png', base64: png(600, 200, 0x30).toString('base64') }] },
            { operation: 'insert_page', title: 'Settings', document: { markdown: MARKDOWN } },
          ],
        },
      }),
    );
    const pageId: string = batch.changes[0].page.id;
    const page = await suite.signedIn();
    await page.goto(`${suite.origin}/app/s/${space.id}/~/edit/${pageId}`);
    await page.getByRole('list', { name: 'People in this page' }).waitFor({ timeout: 20_000 });
    await content(page).waitFor();
    return { page, spaceId: space.id, pageId };
  }

  test('a code block: its language picked by searching, its title typed in its title bar, line numbers and wrapping; undone', async () => {
    const { page, spaceId, pageId } = await openPage();
    // Nothing of the settings shows in the text until the caret is in the block.
    assert.equal(await settings(page, 'Code block').count(), 0);
    await content(page).getByText('npm start').click();
    const toolbar = settings(page, 'Code block');
    await toolbar.waitFor();
    await toolbar.getByRole('button', { name: 'Language: Plain text' }).click();
    const search = page.getByRole('combobox', { name: 'Search languages' });
    await search.fill('bas');
    await page.getByRole('option', { name: 'Shell' }).waitFor();
    await screenshot(page, 'block-settings-code-language');
    await suite.assertAccessible(page, 'the language picker');
    await search.press('Enter');
    await toolbar.getByRole('button', { name: 'Language: Shell' }).waitFor();
    await toolbar.getByRole('button', { name: 'Line numbers' }).click();
    await toolbar.getByRole('button', { name: 'Wrap lines' }).click();
    assert.equal(await toolbar.getByRole('button', { name: 'Wrap lines' }).getAttribute('aria-pressed'), 'true');
    await page.getByRole('textbox', { name: 'Code title' }).fill('Start it');
    await eventually(async () => {
      const code = await blockOf(spaceId, pageId, 'code');
      return isDeepStrictEqual(code?.data, { syntax: 'shellscript', title: 'Start it', lineNumbers: true, overflow: 'wrap' });
    }, 30_000, 'the code block\'s settings saved');
    await content(page).getByText('npm start').click();
    await toolbar.waitFor();
    await screenshot(page, 'block-settings-code');
    await suite.assertAccessible(page, 'a code block\'s settings');
    // Escape gives the keys back to the text; Alt-F10 takes them to the toolbar again.
    await page.keyboard.press('Alt+F10');
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Language: Shell');
    await page.keyboard.press('Escape');
    await page.keyboard.press('End');
    await page.keyboard.type(' --watch');
    await content(page).getByText('npm start --watch').waitFor();
    // Undo takes back the typing, then the title.
    await page.keyboard.press('Control+z');
    await content(page).getByText('npm start', { exact: true }).waitFor();
    await page.context().close();
  });

  test('a hint\'s style is chosen among four with icons, and undone', async () => {
    const { page, spaceId, pageId } = await openPage();
    await content(page).getByText('Read this first.').click();
    const toolbar = settings(page, 'Hint');
    await toolbar.waitFor();
    await toolbar.getByRole('radio', { name: 'Danger' }).click();
    await page.locator('.qe-hint.hint-danger').waitFor();
    await screenshot(page, 'block-settings-hint');
    await suite.assertAccessible(page, 'a hint\'s settings');
    await eventually(async () => (await blockOf(spaceId, pageId, 'hint'))?.data.style === 'danger', 30_000, 'the hint style saved');
    await content(page).getByText('Read this first.').click();
    await page.keyboard.press('Control+z');
    await page.locator('.qe-hint.hint-info').waitFor();
    await page.context().close();
  });

  test('an image: selected by a click, its alt text, width, alignment and caption', async () => {
    const { page, spaceId, pageId } = await openPage();
    const image = page.locator('.qe-image img');
    await image.click();
    const toolbar = settings(page, 'Image');
    await toolbar.waitFor();
    await toolbar.getByRole('textbox', { name: 'Alt text' }).fill('The whole system');
    await toolbar.getByRole('textbox', { name: 'Image width' }).fill('50%');
    await toolbar.getByRole('radio', { name: 'Left' }).click();
    await screenshot(page, 'block-settings-image');
    await suite.assertAccessible(page, 'an image\'s settings');
    await eventually(async () => {
      const images = await blockOf(spaceId, pageId, 'images');
      const data = images?.nodes[0].data;
      return images?.data.align === 'left' && data?.alt === 'The whole system' && data?.width?.value === 50;
    }, 30_000, 'the image\'s settings saved');
    await image.click();
    await toolbar.getByRole('button', { name: 'Add caption' }).click();
    await page.keyboard.type('How it fits');
    await eventually(async () => JSON.stringify((await blockOf(spaceId, pageId, 'images'))?.nodes[0]).includes('How it fits'), 30_000, 'the caption saved');
    await page.context().close();
  });

  test('an image: resized by dragging its handle, given a dark mode picture and rid of it', async () => {
    const { page, spaceId, pageId } = await openPage();
    const image = page.locator('.qe-image img').first();
    await image.click();
    const toolbar = settings(page, 'Image');
    await toolbar.waitFor();
    // The image is centred: its right handle dragged 100 px to the left narrows it by 200 px (600 → 400).
    const handle = page.locator('.qe-resize-right');
    const box = (await handle.boundingBox())!;
    const before = (await image.boundingBox())!.width;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 - 50, box.y + box.height / 2, { steps: 4 });
    await page.mouse.move(box.x + box.width / 2 - 100, box.y + box.height / 2, { steps: 4 });
    await page.mouse.up();
    await screenshot(page, 'block-settings-image-resized');
    const stored = async () => (await blockOf(spaceId, pageId, 'images'))?.nodes[0].data;
    await eventually(async () => Math.abs((await stored())?.width - (before - 200)) <= 2, 30_000, `the dragged width saved (it was ${before} px)`);
    assert.equal(await toolbar.getByRole('textbox', { name: 'Image width' }).inputValue(), String((await stored()).width), 'the width field says the dragged width');

    const chooser = page.waitForEvent('filechooser');
    await toolbar.getByRole('button', { name: 'Add dark mode image' }).click();
    await (await chooser).setFiles({ name: 'wide-dark.png', mimeType: 'image/png', buffer: png(600, 200, 0x10) });
    await eventually(async () => (await stored())?.refDark?.kind === 'file', 30_000, 'the dark mode picture stored and referred to');
    const files = ok(await suite.t.api('GET', `/v1/spaces/${spaceId}/content/files`)).items as Json[];
    const dark = (await stored()).refDark.file;
    assert.equal(files.find((f) => f.id === dark)?.name, 'wide-dark.png', 'the dark picture is a file of the space');
    await content(page).locator('.qe-image-dark').waitFor();
    await suite.assertAccessible(page, 'an image with its dark mode picture');
    await toolbar.getByRole('button', { name: 'Remove dark mode image' }).click();
    await eventually(async () => (await stored())?.refDark === undefined, 30_000, 'the dark mode picture removed');
    await page.context().close();
  });

  test('tabs: renamed on the tab strip, one added and one removed from their toolbar', async () => {
    const { page, spaceId, pageId } = await openPage();
    const titles = page.getByRole('textbox', { name: 'Tab title' });
    assert.deepEqual(await titles.evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value)), ['macOS', 'Windows']);
    // One tab's content shows at a time, as for readers.
    assert.ok(await content(page).getByText('Use Homebrew.').isVisible());
    assert.equal(await content(page).getByText('Use the installer.').isVisible(), false);
    await titles.nth(1).click();
    await content(page).getByText('Use the installer.').waitFor();
    await titles.nth(1).fill('Windows 11');
    const toolbar = settings(page, 'Tabs');
    await toolbar.waitFor();
    await screenshot(page, 'block-settings-tabs');
    await suite.assertAccessible(page, 'tabs\' settings');
    await toolbar.getByRole('button', { name: 'Add tab' }).click();
    // The new tab's title has the keys, its default name selected.
    await page.keyboard.type('Linux');
    await toolbar.getByRole('button', { name: 'Remove tab macOS' }).waitFor({ state: 'detached' });
    await titles.first().click();
    await toolbar.getByRole('button', { name: 'Remove tab macOS' }).click();
    await eventually(async () => {
      const tabs = await blockOf(spaceId, pageId, 'tabs');
      return JSON.stringify(tabs?.nodes.map((n: Json) => n.data.title)) === JSON.stringify(['Windows 11', 'Linux']);
    }, 30_000, 'the tabs saved');
    await page.context().close();
  });

  test('an embed\'s URL is set from its toolbar, its card shows where it points', async () => {
    const { page, spaceId, pageId } = await openPage();
    await page.locator('.qe-embed-card').click();
    const toolbar = settings(page, 'Embed');
    await toolbar.waitFor();
    await toolbar.getByRole('textbox', { name: 'Embed URL' }).fill('https://example.org/talk');
    await page.locator('.qe-embed-card').getByRole('link', { name: 'https://example.org/talk' }).waitFor();
    await screenshot(page, 'block-settings-embed');
    await suite.assertAccessible(page, 'an embed\'s settings');
    await eventually(async () => (await blockOf(spaceId, pageId, 'embed'))?.data.url === 'https://example.org/talk', 30_000, 'the embed URL saved');
    await page.keyboard.press('Escape');
    assert.ok(await page.evaluate(() => document.activeElement?.classList.contains('ProseMirror')));
    await page.context().close();
  });
});
