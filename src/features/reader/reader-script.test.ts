// @sqlite-run-only: the reader's script on rendered fixtures; no database.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { JSDOM } from 'jsdom';
import type { Browser } from 'playwright-core';
import { assetPath, readerAssets } from './assets.ts';
import { renderPage } from './layout.tsx';
import { everyPartPage, fixtureFiles } from '../../../test/reader-documents.ts';
import { launchChromium, withoutChromium } from '../../../test/browser.ts';

/*
 * The reader's script, run against a rendered page: in jsdom everywhere (tabs, theme, sidebar), and in
 * Chromium where installed for what jsdom lacks (the search dialog, the clipboard).
 */

const script = readerAssets.get(assetPath('js').split('/').pop()!)!.body.toString();

async function pageWithScript(storedTheme?: string) {
  const html = (await renderPage(await everyPartPage())).replace(/<script src="[^"]+"><\/script>/, '');
  const dom = new JSDOM(html, { url: 'https://docs.example.com/getting-started', runScripts: 'outside-only' });
  if (storedTheme) dom.window.localStorage.setItem('quire-theme', storedTheme);
  dom.window.eval(script);
  return dom;
}

describe('reader script (jsdom)', () => {
  test('tabs switch on click and with the arrow keys, keeping ARIA state', async () => {
    const dom = await pageWithScript();
    const document = dom.window.document;
    const tabs = [...document.querySelectorAll<HTMLButtonElement>('.tabs [role="tab"]')];
    const panel = (tab: Element) => document.getElementById(tab.getAttribute('aria-controls')!)!;
    tabs[1]!.click();
    assert.equal(tabs[1]!.getAttribute('aria-selected'), 'true');
    assert.equal(tabs[0]!.getAttribute('aria-selected'), 'false');
    assert.equal(panel(tabs[1]!).hidden, false);
    assert.equal(panel(tabs[0]!).hidden, true);
    tabs[1]!.dispatchEvent(new dom.window.KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }));
    assert.equal(tabs[0]!.getAttribute('aria-selected'), 'true');
    assert.equal(document.activeElement, tabs[0]);
    dom.window.close();
  });

  test('the theme toggle switches and remembers the theme; a saved theme applies on load', async () => {
    const dom = await pageWithScript();
    const root = dom.window.document.documentElement;
    assert.ok(root.classList.contains('js'));
    dom.window.document.querySelector<HTMLButtonElement>('[data-toggle-theme]')!.click();
    assert.equal(root.getAttribute('data-theme'), 'dark');
    assert.equal(dom.window.localStorage.getItem('quire-theme'), 'dark');
    dom.window.close();
    const again = await pageWithScript('dark');
    assert.equal(again.window.document.documentElement.getAttribute('data-theme'), 'dark');
    again.window.close();
  });

  test('the mobile sidebar toggle opens and closes the navigation', async () => {
    const dom = await pageWithScript();
    const button = dom.window.document.querySelector<HTMLButtonElement>('.sidebar-toggle')!;
    button.click();
    assert.ok(dom.window.document.body.classList.contains('sidebar-open'));
    assert.equal(button.getAttribute('aria-expanded'), 'true');
    button.click();
    assert.equal(button.getAttribute('aria-expanded'), 'false');
    dom.window.close();
  });
});

describe('reader script (Chromium)', { skip: withoutChromium }, () => {
  /** A page with every part (section tabs and an announcement included), served from a made-up origin. */
  async function openEveryPartPage(browser: Browser, viewport: { width: number; height: number }) {
    const html = await renderPage(await everyPartPage());
    const page = await browser.newPage({ viewport });
    await page.route('**/*', async (route) => {
      const url = new URL(route.request().url());
      if (url.host !== 'reader.test') return route.abort();
      const asset = readerAssets.get(url.pathname.split('/').pop() ?? '');
      if (asset) return route.fulfill({ contentType: asset.contentType, body: asset.body });
      if (url.pathname === '/getting-started') return route.fulfill({ contentType: 'text/html', body: html });
      const file = fixtureFiles.get(url.pathname);
      if (file) return route.fulfill(file);
      return route.fulfill({ status: 404, body: '' });
    });
    await page.goto('http://reader.test/getting-started');
    return page;
  }

  test('scrolled, the sticky header with its section tabs hides nothing: the sidebar, the outline and a linked heading start below it', async () => {
    const browser = await launchChromium();
    try {
      const page = await openEveryPartPage(browser, { width: 1440, height: 900 });
      assert.equal(await page.locator('.site-header .sections').isVisible(), true, 'the page has section tabs');
      await page.evaluate(() => window.scrollTo(0, 1800));
      await page.waitForFunction(() => window.scrollY > 1000);
      const bottomOf = (selector: string) => page.locator(selector).first().evaluate((e) => e.getBoundingClientRect().bottom);
      const topOf = (selector: string) => page.locator(selector).first().evaluate((e) => e.getBoundingClientRect().top);
      const header = await bottomOf('.site-header');
      assert.ok(header > 90, `the header keeps its tabs (bottom at ${header})`);
      assert.equal(await topOf('.site-header'), 0, 'the header sticks to the top');
      assert.ok((await topOf('.sidebar')) >= header - 1, 'the sidebar sticks below the header');
      assert.ok((await topOf('.outline')) >= header - 1, 'the outline sticks below the header');
      // Following an outline link scrolls its heading to just below the header, not under it.
      await page.locator('.outline a', { hasText: 'Install' }).click();
      await page.waitForFunction(() => location.hash.length > 1);
      await page.waitForTimeout(300);
      const id = decodeURIComponent(await page.evaluate(() => location.hash.slice(1)));
      const headingTop = await page.evaluate((target) => document.getElementById(target)!.getBoundingClientRect().top, id);
      assert.ok(headingTop >= header, `the heading (top at ${headingTop}) is below the header (bottom at ${header})`);
      await page.close();

      // On a phone, the opened page tree fills the screen below the header, announcement and all.
      const phone = await openEveryPartPage(browser, { width: 390, height: 844 });
      await phone.locator('.sidebar-toggle').click();
      const drawer = await phone.locator('#sidebar').evaluate((e) => e.getBoundingClientRect().toJSON() as DOMRect);
      const phoneHeader = await phone.locator('.site-header').evaluate((e) => e.getBoundingClientRect().bottom);
      assert.ok(Math.abs(drawer.top - phoneHeader) <= 1, `the drawer starts at the header's bottom (${drawer.top} against ${phoneHeader})`);
      assert.ok(Math.abs(drawer.bottom - 844) <= 1, `the drawer reaches the bottom of the screen (${drawer.bottom})`);
      await phone.close();
    } finally {
      await browser.close();
    }
  });

  test('Ctrl+K opens the search dialog, which lists what the endpoint answers; copy buttons show', async () => {
    const browser = await launchChromium();
    try {
      const html = await renderPage(await everyPartPage());
      const page = await browser.newPage();
      const queries: string[] = [];
      await page.route('**/*', async (route) => {
        const url = new URL(route.request().url());
        if (url.host !== 'reader.test') return route.abort();
        if (url.pathname === '/search.json') {
          queries.push(url.searchParams.get('query') ?? '');
          return route.fulfill({ contentType: 'application/json', body: JSON.stringify({ items: [{ title: 'Install <b>', href: '/install', excerpt: 'How to <i>install</i> it', marks: [[10, 17], [40, 50], [2, 3]] }, { title: 'Evil', href: 'javascript:alert(1)' }] }) });
        }
        const asset = readerAssets.get(url.pathname.split('/').pop() ?? '');
        if (asset) return route.fulfill({ contentType: asset.contentType, body: asset.body });
        const file = fixtureFiles.get(url.pathname);
        if (file) return route.fulfill(file);
        return route.fulfill({ contentType: 'text/html', body: html });
      });
      await page.goto('http://reader.test/getting-started');
      assert.equal(await page.locator('.copy-button').first().isVisible(), true);
      await page.keyboard.press('Control+k');
      assert.equal(await page.locator('#search-dialog').isVisible(), true);
      // Typing sends a query per keystroke as the script debounces them; wait for the whole word's.
      const whole = page.waitForRequest((request) => new URL(request.url()).searchParams.get('query') === 'install');
      await page.keyboard.type('install');
      await whole;
      for (let i = 0; i < 50 && queries.at(-1) !== 'install'; i += 1) await new Promise((resolve) => setTimeout(resolve, 20));
      await page.locator('.search-results a').first().waitFor();
      assert.deepEqual(queries.at(-1), 'install');
      assert.deepEqual(await page.locator('.search-results a').allTextContents(), ['Install <b>How to <i>install</i> it']);
      // Marks become <mark> elements around text (never HTML); those out of range or out of order are ignored.
      assert.deepEqual(await page.locator('.search-results mark').allTextContents(), ['install']);
      assert.equal(await page.locator('.search-results i').count(), 0);
    } finally {
      await browser.close();
    }
  });
});
