import { existsSync } from 'node:fs';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';

/*
 * Chromium for the tests that look at a page as a person does: Debian's build (.ci/run installs it), driven by
 * playwright-core, which downloads no browser of its own. Where it is not installed the suites skip with the
 * reason rather than fail, so a developer without it still runs everything else.
 */

const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((path) => existsSync(path));

/** For the `skip` option of `describe` or `test`: false where Chromium is installed, else the reason. */
export const withoutChromium: false | string = CHROMIUM ? false : 'no Chromium at /usr/bin/chromium (apt-get install chromium)';

export async function launchChromium(args: string[] = []): Promise<Browser> {
  if (!CHROMIUM) throw new Error(withoutChromium as string);
  const { chromium } = await import('playwright-core');
  // The sandbox needs user namespaces, which containers (CI, Docker) often do not give.
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', ...args] });
}

/**
 * A page in a context of its own (its own cookies, storage and permissions: `page.context()`), in a desktop
 * window unless the options say otherwise. Closing the browser closes it.
 */
export async function openPage(browser: Browser, options: BrowserContextOptions = {}): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
  return context.newPage();
}

/** A screenshot at test-results/NAME.png (the folder is made if missing), for a person to look at after a run. */
export async function screenshot(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<void> {
  await page.screenshot({ path: `test-results/${name}.png`, ...options });
}
