import { mkdirSync } from 'node:fs';
import { after, before } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { openPage, releaseChromium, suiteChromium } from '../browser.ts';
import { buildSpace } from '../factories.ts';
import { listenOnRandomPort, startServer, type TestServer } from '../helpers.ts';
import { ensureWebAppBuilt, signInAs } from '../web-app.ts';
import type { MountOptions } from './mounted-editor.ts';

/*
 * What a test file of the mounted editor (mounted-editor.ts) shares: a server with a space, Chromium signed in as
 * the organization's admin on a page of the app (the editor's chunk is served and runs under the app's CSP there).
 * Its own module: the benchmarks mount the editor too, and must not import node:test (browser.ts says why).
 */
export interface MountedEditorSuite {
  readonly t: TestServer;
  readonly origin: string;
  readonly page: Page;
  /** The space's and organization's ids, for mountEditor. */
  readonly options: MountOptions;
}

/** Registers the suite's `before` and `after`; the fields are read once `before` has run. */
export function mountedEditorSuite(): MountedEditorSuite {
  let t: TestServer | undefined;
  let origin = '';
  let browser: Browser | undefined;
  let page: Page | undefined;
  let options: MountOptions | undefined;
  before(async () => {
    await ensureWebAppBuilt();
    t = await startServer();
    origin = await listenOnRandomPort(t);
    browser = await suiteChromium();
    mkdirSync('test-results', { recursive: true });
    const space = await buildSpace(t, { title: 'Handbook' });
    options = { spaceId: space.id as string, organizationId: t.org.id };
    page = await openPage(browser);
    await signInAs(t, page.context(), origin, t.admin.userId);
    await page.goto(`${origin}/app/settings/profile`);
    await page.locator('main').first().waitFor();
  });
  after(async () => {
    if (browser) await releaseChromium(browser);
    await t?.close();
  });
  const ready = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('mountedEditorSuite: read in a test, after its `before`');
    return value;
  };
  return {
    get t() { return ready(t); },
    get origin() { return origin; },
    get page() { return ready(page); },
    get options() { return ready(options); },
  };
}
