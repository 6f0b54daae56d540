// @sqlite-run-only: how the editor shows, uploads and lays out images and files; the files' store and upload API are tested on both databases (files, uploads), and nothing here differs by database.
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { eventually } from '../../../src/features/collaboration/clients.test-support.ts';
import { importPath } from '../../../src/features/git-sync/cli.ts';
import { ok } from '../../../test/assertions.ts';
import { openPage, screenshot, withoutChromium } from '../../../test/browser.ts';
import { webAppSuite } from '../../../test/browser-suite.ts';
import { CORPUS_DIR } from '../../../test/corpus/pages.ts';
import { buildSpace } from '../../../test/factories.ts';
import { noisyPng, png } from '../../../test/fixtures/png.ts';
import { seriousViolations } from '../../../test/web-app.ts';

/*
 * Images and files in the editor as stored: shown from the file's download URL (the page view's), uploaded as a
 * stream of their bytes with their progress shown, refused with the API's reason beside them, and laid out
 * (width, alignment, full width) as the page view and the published reader show them.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const LIMIT = 5 * 1024 * 1024;

describe('images and files in the editor, in Chromium', { skip: withoutChromium, timeout: 600_000 }, () => {
  const suite = webAppSuite({ env: { FILE_SIZE_LIMIT: String(LIMIT) } });

  const content = (page: Page) => page.getByRole('textbox', { name: 'Page content' });

  async function openEditor(page: Page, spaceId: string, pageId: string) {
    await page.goto(`${suite.origin}/app/s/${spaceId}/~/edit/${pageId}`);
    // Editable at once, then bound to the shared document once it has synced (shared-binding.ts): a drop or a
    // block's select used meanwhile may meet the shared document's content replacing its block. Its people list says it is done.
    await page.getByRole('list', { name: 'People in this page' }).waitFor({ timeout: 20_000 });
    await content(page).waitFor();
  }

  /**
   * Every `<img>` shown under `root` (not a variant of the other colour scheme), each scrolled into view (they load
   * lazily) and waited for: its source and natural width.
   */
  async function loadedImages(page: Page, root: string): Promise<{ src: string; naturalWidth: number }[]> {
    // ProseMirror's own separator images (a caret's place after an inline node) are not the page's.
    const images = page.locator(`${root} img:not(.ProseMirror-separator)`);
    const found: { src: string; naturalWidth: number }[] = [];
    for (let i = 0; i < (await images.count()); i++) {
      const image = images.nth(i);
      if (!(await image.evaluate((img) => img.checkVisibility()))) continue;
      await image.scrollIntoViewIfNeeded();
      await image.evaluate((img: HTMLImageElement) =>
        img.complete
          ? undefined
          : new Promise((resolve) => {
              img.addEventListener('load', resolve, { once: true });
              img.addEventListener('error', resolve, { once: true });
            }),
      );
      found.push(await image.evaluate((img: HTMLImageElement) => ({ src: img.currentSrc || img.src, naturalWidth: img.naturalWidth })));
    }
    return found;
  }

  test('imported corpus pages show every image from its file in the editor, as the page view does: inline, block, dark variants, card covers', async () => {
    const { t, origin } = suite;
    // Three pages of GitBook's own documentation and their assets, imported as Git Sync imports a repository.
    const repo = mkdtempSync(join(tmpdir(), 'quire-corpus-'));
    const pages = ['create-content/version-control.md', 'account-and-billing/plans/README.md', 'create-content/blocks/insert-images.md'];
    for (const file of pages) {
      mkdirSync(join(repo, file, '..'), { recursive: true });
      cpSync(join(CORPUS_DIR, file), join(repo, file));
    }
    cpSync(join(CORPUS_DIR, '.gitbook/assets'), join(repo, '.gitbook/assets'), { recursive: true });
    const titles = ['Version control', 'Plans', 'Insert images'];
    writeFileSync(join(repo, 'SUMMARY.md'), `# Table of contents\n\n${pages.map((file, i) => `* [${titles[i]}](${file})\n`).join('')}`);
    const space = await buildSpace(t, { title: 'GitBook docs' });
    await importPath(t.app.ctx, space.id, repo);
    rmSync(repo, { recursive: true, force: true });
    const revision = ok(await t.api('GET', `/v1/spaces/${space.id}/content`));

    const light = await suite.signedIn();
    const dark = await suite.signedIn(undefined, { colorScheme: 'dark' });
    let fromFiles = 0;
    let darkVariants = 0;
    const shownInEditor = new Map<string, string[]>();
    for (const [imported, page] of (revision.pages as Json[]).flatMap((p) => [[p, light], [p, dark]] as const)) {
      await openEditor(page, space.id, imported.id);
      // Attached, not visible: blocks off screen are not laid out (content-visibility) until they are scrolled to.
      await page.locator('.qe-content img:not(.ProseMirror-separator)').first().waitFor({ state: 'attached' });
      const images = await loadedImages(page, '.qe-content');
      // Images on other hosts (Unsplash) are not judged: the tests run without the Internet.
      const broken = images.filter((image) => image.naturalWidth === 0 && new URL(image.src).origin === origin);
      // Assets the corpus left out (those over 40 KB) stay links to where they were, broken in the page view too.
      const leftOut = broken.filter((image) => {
        const asset = /\/\.gitbook\/assets\/([^/]+)$/.exec(decodeURIComponent(new URL(image.src).pathname))?.[1];
        return asset !== undefined && !existsSync(join(CORPUS_DIR, '.gitbook/assets', asset));
      });
      assert.deepEqual(broken.filter((image) => !leftOut.includes(image)), [], `${imported.title}: no broken image`);
      const files = images.filter((image) => image.src.startsWith(`${origin}/files/`));
      assert.ok(files.length >= 2, `${imported.title}: ${files.length} images from files`);
      if (page === light) {
        fromFiles += files.length;
        shownInEditor.set(imported.slug, files.map((image) => image.src));
      } else {
        darkVariants += await page.locator('.qe-content img.only-dark').evaluateAll((images) => images.filter((img) => (img as HTMLImageElement).naturalWidth > 0).length);
      }
      await screenshot(page, `editor-corpus-images-${imported.slug}${page === dark ? '-dark' : ''}`);
    }
    await dark.context().close();
    assert.ok(fromFiles >= 10, `${fromFiles} images shown from their files`);
    assert.ok(darkVariants >= 5, `${darkVariants} dark variants shown in dark mode`);
    const page = light;

    // The page view shows the same images, from the same download URLs.
    await page.goto(`${origin}/app/s/${space.id}/version-control`);
    await page.locator('article.page img').first().waitFor({ state: 'attached' });
    const inPageView = (await loadedImages(page, 'article.page')).map((image) => image.src);
    assert.deepEqual([...new Set(inPageView)].sort(), [...new Set(shownInEditor.get('version-control'))].sort());

    const cards = (revision.pages as Json[]).find((p) => p.slug === 'plans');
    await openEditor(page, space.id, cards.id);
    await page.locator('.qe-table img').first().waitFor({ state: 'attached' });
    assert.ok((await page.locator('.qe-table img').count()) >= 4, 'the cards show their covers');
    assert.deepEqual(await seriousViolations(page), []);
    // The page view draws the same covers over its cards, from the same files (the assets the corpus left out
    // stay relative links, broken in both).
    const covers = (root: string) => page.locator(`${root} .table-card-cover img`).evaluateAll((images) => images.map((img) => (img as HTMLImageElement).src).filter((src) => src.includes('/files/')));
    const inEditor = await covers('.qe-table');
    assert.ok(inEditor.length >= 2, `${inEditor.length} covers from files`);
    await page.goto(`${origin}/app/s/${space.id}/${cards.slug}`);
    await page.locator('article.page .table-card-cover img').first().waitFor({ state: 'attached' });
    assert.deepEqual(await covers('article.page'), inEditor);
    await screenshot(page, 'page-view-corpus-cards');
    assert.deepEqual(await seriousViolations(page), []);
    await page.context().close();
  });

  test('a file block shows the file\'s name, type and size, and links to its bytes', async () => {
    const { t } = suite;
    const space = await buildSpace(t, { title: 'Attachments' });
    const pdf = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(12_000, 'x')]);
    const batch = ok(
      await t.api('POST', `/v1/spaces/${space.id}/content`, {
        body: {
          changes: [
            { operation: 'insert_files', files: [{ ref: 'report.pdf', name: 'Quarterly report.pdf', contentType: 'application/pdf', base64: pdf.toString('base64') }] },
            { operation: 'insert_page', title: 'Reports', document: { markdown: '# Reports\n\n{% file src="report.pdf" %}\nThe figures.\n{% endfile %}\n' } },
          ],
        },
      }),
    );
    const page = await suite.signedIn();
    await openEditor(page, space.id, batch.changes[0].page.id);
    const link = content(page).getByRole('link', { name: 'Quarterly report.pdf' });
    await link.waitFor();
    assert.equal(await link.getAttribute('href'), batch.insertedFiles[0].downloadURL);
    assert.match(await page.locator('.qe-file').innerText(), /application\/pdf, 12 KB/);
    const download = await fetch(batch.insertedFiles[0].downloadURL);
    assert.equal(download.status, 200);
    await page.context().close();
  });

  /** Drops files on the editor's first paragraph, as a person drags them from their desktop. */
  async function drop(page: Page, files: { name: string; type: string; base64: string }[]): Promise<void> {
    const target = content(page).locator('p').first();
    const box = (await target.boundingBox())!;
    await page.evaluate(
      ({ files, x, y }) => {
        const data = new DataTransfer();
        for (const file of files) data.items.add(new File([Uint8Array.from(atob(file.base64), (c) => c.charCodeAt(0))], file.name, { type: file.type }));
        document.querySelector('.qe-content')!.dispatchEvent(new DragEvent('drop', { dataTransfer: data, clientX: x, clientY: y, bubbles: true, cancelable: true }));
      },
      { files, x: box.x + box.width / 2, y: box.y + box.height / 2 },
    );
  }

  async function livePage(title: string, markdown: string): Promise<{ spaceId: string; pageId: string }> {
    const space = await buildSpace(suite.t, { title });
    const batch = ok(await suite.t.api('POST', `/v1/spaces/${space.id}/content`, { body: { changes: [{ operation: 'insert_page', title, document: { markdown } }] } }));
    return { spaceId: space.id, pageId: batch.changes[0].page.id };
  }

  const documentOf = async (spaceId: string, pageId: string) => ok(await suite.t.api('GET', `/v1/spaces/${spaceId}/content/page/${pageId}?format=document`)).document;
  const imagesOf = (document: Json): Json[] => (document?.nodes ?? []).filter((b: Json) => b.type === 'images');

  test('a 3 MB screenshot dropped into a page goes up with its progress shown, is stored, and shows', async () => {
    const { t, origin } = suite;
    const { spaceId, pageId } = await livePage('Screenshots', 'Where the screenshot goes.\n');
    const page = await suite.signedIn();
    await openEditor(page, spaceId, pageId);
    // A link of 2 MB/s, so that the upload takes a moment to watch.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 2 * 1024 * 1024 });
    const screenshotBytes = noisyPng(1000, 1000);
    assert.ok(screenshotBytes.length > 3_000_000);
    const started = Date.now();
    await drop(page, [{ name: 'screenshot.png', type: 'image/png', base64: screenshotBytes.toString('base64') }]);

    const progress = page.getByRole('progressbar', { name: 'Uploading screenshot.png' });
    await progress.waitFor();
    await page.getByRole('group', { name: 'Upload of screenshot.png' }).getByRole('img', { name: 'screenshot.png' }).waitFor();
    await eventually(async () => Number(await progress.getAttribute('value').catch(() => '1')) > 0, 10_000, 'some of the file sent');
    await screenshot(page, 'editor-upload-progress');

    const shown = content(page).locator('.qe-image img');
    await shown.waitFor({ timeout: 30_000 });
    await eventually(() => shown.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth === 1000), 20_000, 'the stored image shown');
    const elapsed = Date.now() - started;
    assert.equal(await page.getByRole('group', { name: 'Upload of screenshot.png' }).count(), 0, 'the placeholder is gone');
    assert.match((await shown.getAttribute('src'))!, new RegExp(`^${origin}/files/[0-9a-f]{64}/screenshot\\.png$`));
    await screenshot(page, 'editor-upload-done');

    // Saved: the page's image is the stored file, of its bytes.
    await eventually(async () => imagesOf(await documentOf(spaceId, pageId)).length === 1, 20_000, 'the image saved');
    const image = imagesOf(await documentOf(spaceId, pageId))[0].nodes[0];
    const file = ok(await t.api('GET', `/v1/spaces/${spaceId}/content/files/${image.data.ref.file}`));
    assert.deepEqual([file.name, file.contentType, file.size, file.dimensions], ['screenshot.png', 'image/png', screenshotBytes.length, { width: 1000, height: 1000 }]);
    assert.ok(elapsed > 1000, `${elapsed} ms: the throttled upload took its time`);
    await page.context().close();
  });

  test('an upload the server refuses says why next to the image, and leaves nothing in the page', async () => {
    const { t } = suite;
    const { spaceId, pageId } = await livePage('Too large', 'Where the photo would go.\n');
    const page = await suite.signedIn();
    await openEditor(page, spaceId, pageId);
    const before = await documentOf(spaceId, pageId);
    const huge = noisyPng(1400, 1400);
    assert.ok(huge.length > LIMIT);
    await drop(page, [{ name: 'photo.png', type: 'image/png', base64: huge.toString('base64') }]);
    const upload = page.getByRole('group', { name: 'Upload of photo.png' });
    const alert = upload.getByRole('alert');
    await alert.waitFor({ timeout: 30_000 });
    assert.equal(await alert.innerText(), 'photo.png could not be uploaded: File "photo.png" is 5.6 MiB, larger than the 5 MiB this server accepts per file (FILE_SIZE_LIMIT)');
    assert.equal(await upload.getByRole('img', { name: 'photo.png' }).isVisible(), true, 'the message is beside the image');
    await screenshot(page, 'editor-upload-refused');
    assert.equal(await content(page).locator('.qe-image').count(), 0, 'no image block');
    await upload.getByRole('button', { name: 'Dismiss' }).click();
    assert.equal(await upload.count(), 0);
    assert.deepEqual(await documentOf(spaceId, pageId), before, 'the page is as it was');
    assert.equal(ok(await t.api('GET', `/v1/spaces/${spaceId}/content/files`)).items.length, 0, 'no file was inserted');
    await page.context().close();
  });

  /** The rendered width of the page's image over the width of the column it is in, and where it starts in it (0 to 1). */
  const imageShare = (page: Page, image: string, column: string) =>
    page.evaluate(({ image, column }) => {
      const img = document.querySelector(image)!.getBoundingClientRect();
      const box = document.querySelector(column)!;
      const style = getComputedStyle(box);
      const left = box.getBoundingClientRect().left + parseFloat(style.paddingLeft);
      const width = box.getBoundingClientRect().width - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      return { share: img.width / width, offset: (img.left - left) / width };
    }, { image, column });
  const near = (value: number, expected: number) => Math.abs(value - expected) < 0.03;

  test('an image saved at 50% shows at half the column in the editor, the page view and the published reader; full width and alignment too', async () => {
    const { t, origin } = suite;
    const space = await buildSpace(t, { title: 'Widths' });
    const batch = ok(
      await t.api('POST', `/v1/spaces/${space.id}/content`, {
        body: {
          changes: [
            { operation: 'insert_files', files: [{ ref: 'wide.png', name: 'wide.png', contentType: 'image/png', base64: png(600, 200, 0x30).toString('base64') }] },
            { operation: 'insert_page', title: 'Diagram', document: { markdown: '# Diagram\n\n![The architecture](wide.png)\n\nAfter the image.\n' } },
          ],
        },
      }),
    );
    const pageId = batch.changes[0].page.id;
    const site = ok(await t.api('POST', `/v1/orgs/${t.org.id}/sites`, { body: { title: 'Widths site', visibility: 'public', spaces: [space.id] } }), 201);
    ok(await t.api('POST', `/v1/orgs/${t.org.id}/sites/${site.id}/publish`));

    const page = await suite.signedIn();
    await openEditor(page, space.id, pageId);
    // An image's settings are in its toolbar, shown once it is selected.
    const settings = page.getByRole('group', { name: 'Image settings' });
    await page.locator('.qe-image img').click();
    await settings.getByLabel('Image width').fill('50%');
    await eventually(async () => {
      const width = imagesOf(await documentOf(space.id, pageId))[0]?.nodes[0].data.width;
      return width?.value === 50 && width?.unit === '%';
    }, 20_000, 'the width saved');
    const editor = await imageShare(page, '.qe-image img', '.qe-images-row');
    assert.ok(near(editor.share, 0.5) && near(editor.offset, 0.25), `editor: ${JSON.stringify(editor)}`);

    const reader = await openPage(suite.browser);
    const measure = async (where: 'page view' | 'reader') => {
      if (where === 'page view') {
        await page.goto(`${origin}/app/s/${space.id}/diagram`);
        await page.locator('.images img').waitFor();
        return imageShare(page, '.images img', 'article.page');
      }
      await reader.goto(`${origin}/sites/${site.id}/diagram`);
      await reader.locator('.images img').waitFor();
      return imageShare(reader, '.images img', '.page');
    };
    for (const where of ['page view', 'reader'] as const) {
      const half = await measure(where);
      assert.ok(near(half.share, 0.5) && near(half.offset, 0.25), `${where}: half the column, centred: ${JSON.stringify(half)}`);
    }
    await screenshot(reader, 'reader-image-half-width');

    // Aligned left, then full width: the same in the three places.
    await openEditor(page, space.id, pageId);
    await page.locator('.qe-image img').click();
    await settings.getByRole('radio', { name: 'Left' }).click();
    await eventually(async () => imagesOf(await documentOf(space.id, pageId))[0]?.data.align === 'left', 20_000, 'the alignment saved');
    for (const where of ['page view', 'reader'] as const) {
      const left = await measure(where);
      assert.ok(near(left.share, 0.5) && near(left.offset, 0), `${where}: at the left, ${JSON.stringify(left)}`);
    }
    await openEditor(page, space.id, pageId);
    await page.locator('.qe-image img').click();
    await settings.getByRole('button', { name: 'Full width' }).click();
    await eventually(async () => imagesOf(await documentOf(space.id, pageId))[0]?.data.fullWidth === true, 20_000, 'full width saved');
    const full = await imageShare(page, '.qe-image img', '.qe-images-row');
    assert.ok(near(full.share, 1), `editor: ${JSON.stringify(full)}`);
    for (const where of ['page view', 'reader'] as const) {
      const whole = await measure(where);
      assert.ok(near(whole.share, 1) && near(whole.offset, 0), `${where}: the whole column, ${JSON.stringify(whole)}`);
    }
    await screenshot(reader, 'reader-image-full-width');
    await reader.context().close();
    await page.context().close();
  });
});
