// @sqlite-run-only: the API reference page, drawn from the OpenAPI document the server builds from its routes; no database is read.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { releaseChromium, suiteChromium, openPage, screenshot, withoutChromium } from '../../test/browser.ts';
import { listenOnRandomPort, startServer, type TestServer } from '../../test/helpers.ts';

/*
 * The API reference page (/v1/docs, Scalar) as a person opens it, in Debian's Chromium, with every request to
 * another host refused: it must render from what this server serves alone, under its Content-Security-Policy.
 */

describe('the API reference in Chromium', { skip: withoutChromium }, () => {
  let t: TestServer;
  let origin: string;
  let browser: Browser;

  before(async () => {
    t = await startServer();
    origin = await listenOnRandomPort(t);
    browser = await suiteChromium();
  });
  after(async () => {
    await releaseChromium(browser);
    await t?.close();
  });

  test('renders the operations with the network to other hosts blocked, and breaks no CSP rule', async () => {
    const page = await openPage(browser);
    const elsewhere: string[] = [];
    const problems: string[] = [];
    await page.context().route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith(origin) || url.startsWith('data:') || url.startsWith('blob:')) return route.continue();
      elsewhere.push(url);
      return route.abort();
    });
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    const response = await page.goto(`${origin}/v1/docs/`, { waitUntil: 'networkidle' });
    assert.equal(response?.status(), 200);
    await page.getByText('Quire API').first().waitFor({ timeout: 30_000 });
    // An operation's summary and the tags in the sidebar show the reference read the whole document.
    await page.getByText('Version of the API server').first().waitFor({ timeout: 30_000 });
    await page.getByText('change-requests').first().waitFor({ timeout: 30_000 });
    await screenshot(page, 'api-reference');
    assert.deepEqual(elsewhere, [], 'no request leaves this server');
    assert.deepEqual(
      problems.filter((p) => /Content Security Policy|Refused to/i.test(p)),
      [],
      'nothing is refused by the page policy',
    );
  });
});
