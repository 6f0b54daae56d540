// @sqlite-run-only: renders reader pages from fixtures; no database.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, test } from 'node:test';
import type { AxeResults } from 'axe-core';
import { JSDOM } from 'jsdom';
import { readerAssets } from './assets.ts';
import { notFoundPage, renderPage } from './layout.tsx';
import { everyPartPage, fixtureFiles } from '../../../test/reader-documents.ts';
import { launchChromium, withoutChromium, screenshot } from '../../../test/browser.ts';

/*
 * axe-core on a page that uses every block and every part of the chrome. jsdom runs everywhere (no layout, so
 * colour contrast is not judged there); Chromium, where installed, judges the laid-out page too, and writes a
 * screenshot to test-results/ for a person to look at.
 */

const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

function seriousViolations(results: AxeResults): string[] {
  // Arrays from jsdom's realm do not deep-equal ours: copy into this one.
  return Array.from(results.violations)
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
}

async function axeInJsdom(html: string): Promise<AxeResults> {
  const dom = new JSDOM(html, { runScripts: 'outside-only', pretendToBeVisual: true });
  dom.window.eval(AXE_SOURCE);
  const axe = (dom.window as unknown as { axe: { run(context: unknown, options: unknown): Promise<AxeResults> } }).axe;
  try {
    // jsdom lays nothing out: contrast needs a browser.
    return await axe.run(dom.window.document, { rules: { 'color-contrast': { enabled: false } }, resultTypes: ['violations'] });
  } finally {
    dom.window.close();
  }
}

describe('accessibility', () => {
  test('a page with every block has no serious or critical axe violation (jsdom)', async () => {
    const results = await axeInJsdom(await renderPage(await everyPartPage()));
    assert.deepEqual(seriousViolations(results), []);
    assert.ok(results.passes.length > 20, 'axe ran its rules');
  });

  test('the not-found page has no serious or critical axe violation (jsdom)', async () => {
    const { page: _page, ...model } = await everyPartPage();
    const results = await axeInJsdom(await notFoundPage(model));
    assert.deepEqual(seriousViolations(results), []);
  });

  test('in Chromium, light, dark and narrow, with contrast, and screenshots', { skip: withoutChromium }, async () => {
    const browser = await launchChromium();
    try {
      const html = await renderPage(await everyPartPage());
      const views = [
        { name: 'light', scheme: 'light', width: 1440 },
        { name: 'dark', scheme: 'dark', width: 1440 },
        { name: 'mobile', scheme: 'light', width: 390 },
      ] as const;
      for (const { name, scheme, width } of views) {
        const context = await browser.newContext({ viewport: { width, height: 1000 }, colorScheme: scheme });
        const page = await context.newPage();
        // The page and its fingerprinted assets, from a made-up origin; nothing else may load.
        await page.route('**/*', async (route) => {
          const url = new URL(route.request().url());
          const asset = readerAssets.get(url.pathname.split('/').pop() ?? '');
          if (url.host !== 'reader.test') return route.abort();
          if (url.pathname === '/getting-started') return route.fulfill({ contentType: 'text/html', body: html });
          if (asset) return route.fulfill({ contentType: asset.contentType, body: asset.body });
          const file = fixtureFiles.get(url.pathname);
          if (file) return route.fulfill(file);
          return route.fulfill({ status: 404, body: '' });
        });
        await page.goto('http://reader.test/getting-started');
        await page.addScriptTag({ content: AXE_SOURCE });
        const results = (await page.evaluate("axe.run(document, { resultTypes: ['violations'] })")) as AxeResults;
        assert.deepEqual(seriousViolations(results), [], name);
        if (width > 1000) {
          // The whole page is drawn: its lazy pictures loaded, and they are the fixture's PNGs, not alt text. Each is
          // scrolled to first, as a reader would: a full-page screenshot alone does not always start a lazy load.
          for (const image of await page.$$('figure.image img')) await image.scrollIntoViewIfNeeded();
          await page.waitForFunction(() => Array.from(document.querySelectorAll<HTMLImageElement>('figure.image img')).every((image) => image.complete));
          const widths = await page.$$eval('figure.image img', (images) => images.map((image) => (image as HTMLImageElement).naturalWidth));
          assert.deepEqual(widths, [480, 240], name);
          await page.evaluate(() => window.scrollTo(0, 0));
        }
        await screenshot(page, `reader-${name}`, { fullPage: width > 1000 });
        await context.close();
      }
    } finally {
      await browser.close();
    }
  });
});
