import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { after, before } from 'node:test';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { openPage, releaseChromium, suiteChromium } from './browser.ts';
import { listenOnRandomPort, startServer, type TestServer } from './helpers.ts';
import { ensureWebAppBuilt, seriousViolations, signInAs } from './web-app.ts';

/*
 * The frame every suite of the members' web app in Chromium had written out for itself: the app built as web/ now
 * is, a server listening on a random port, Chromium, and after the suite both closed; pages signed in as a person;
 * axe-core on a screen. Called inside the suite's `describe` (with `skip: withoutChromium`), it adds the suite's
 * hooks. A failed test's open pages are kept by test/browser.ts, as in every browser test.
 */

export interface WebAppSuite {
  /** The server, once the suite's `before` has run. */
  readonly t: TestServer;
  /** Its address, `http://127.0.0.1:PORT`. */
  readonly origin: string;
  readonly browser: Browser;
  /** A page signed in as `userId` (the admin by default), in a browser context of its own. */
  signedIn(userId?: string, options?: BrowserContextOptions): Promise<Page>;
  /** Waits for the screen's main region and for its loading skeletons to be gone. */
  settled(page: Page): Promise<void>;
  /** Fails with axe-core's serious and critical violations of the page as it is now. */
  assertAccessible(page: Page, screen: string): Promise<void>;
}

export function webAppSuite(options: { env?: Record<string, string> } = {}): WebAppSuite {
  let server: TestServer | undefined;
  let address = '';
  let chromium: Browser | undefined;
  before(async () => {
    await ensureWebAppBuilt();
    server = await startServer(options.env ? { env: options.env } : {});
    address = await listenOnRandomPort(server);
    chromium = await suiteChromium();
    mkdirSync('test-results', { recursive: true });
  });
  after(async () => {
    await releaseChromium(chromium);
    await server?.close();
  });
  const started = <T>(value: T | undefined): T => {
    assert.ok(value !== undefined, 'the suite has not started: webAppSuite() is called inside describe, and read in its tests');
    return value;
  };
  return {
    get t() {
      return started(server);
    },
    get origin() {
      return started(address || undefined);
    },
    get browser() {
      return started(chromium);
    },
    async signedIn(userId, contextOptions = {}) {
      const t = started(server);
      const page = await openPage(started(chromium), contextOptions);
      await signInAs(t, page.context(), address, userId ?? t.admin.userId);
      return page;
    },
    async settled(page) {
      await page.locator('main').first().waitFor();
      await page.waitForFunction(() => document.querySelectorAll('.skeleton').length === 0, undefined, { timeout: 15_000 });
    },
    async assertAccessible(page, screen) {
      assert.deepEqual(await seriousViolations(page), [], `axe-core on ${screen}`);
    },
  };
}
