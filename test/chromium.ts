import { existsSync } from 'node:fs';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';

/*
 * Chromium for the tests that look at a page as a person does: Debian's build (.ci/run installs it), driven by
 * playwright-core, which downloads no browser of its own. Where it is not installed the suites skip with the
 * reason rather than fail, so a developer without it still runs everything else, and scripts/test.mjs says
 * loudly how many were skipped; under CI=true they fail instead, as a CI that tests no screen must not pass.
 * QUIRE_CHROMIUM names another binary (scripts/test.mjs sets it to the one it found, so that both agree).
 */

const CHROMIUM = process.env.QUIRE_CHROMIUM || ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((path) => existsSync(path));
const installed = CHROMIUM !== undefined && existsSync(CHROMIUM);
const missing = `no Chromium at ${CHROMIUM ?? '/usr/bin/chromium'} (apt-get install chromium)`;

/** For the `skip` option of `describe` or `test`: false where Chromium is installed or under CI, else the reason. */
export const withoutChromium: false | string = installed || /^(true|1)$/i.test(process.env.CI ?? '') ? false : missing;

/** Browsers launched and not yet closed, whose pages a failed test leaves for a person to look at (test/browser.ts). */
export const launched = new Set<Browser>();

export async function launchChromium(args: string[] = []): Promise<Browser> {
  if (!installed) throw new Error(missing);
  const { chromium } = await import('playwright-core');
  // The sandbox needs user namespaces, which containers (CI, Docker) often do not give.
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', ...args] });
  launched.add(browser);
  browser.on('disconnected', () => launched.delete(browser));
  return browser;
}

/*
 * One Chromium for every suite of a test process that runs several files (scripts/test-batch.mjs asks for it, and
 * closes it after the last test): launching one costs a second or so of CPU, which two dozen browser files paid on
 * each database. A suite gives it back with its contexts closed, so the next file starts with no page of this one's.
 * A process that runs one file (`node --test`, TEST_ISOLATION=file) launches and closes a Chromium per suite.
 */
let shared: Promise<Browser> | undefined;
let sharing = false;

/** Makes this process's suites share one Chromium; the function returned closes it (after the last test). */
export function shareChromium(): () => Promise<void> {
  sharing = true;
  return async () => {
    const browser = await shared?.catch(() => undefined);
    shared = undefined;
    await browser?.close();
  };
}

/** A Chromium for a suite: the process's shared one when it shares, else one of the suite's own. */
export async function suiteChromium(): Promise<Browser> {
  if (!sharing) return launchChromium();
  if (!shared) {
    const launching = launchChromium();
    shared = launching;
    // One that crashed or could not start is launched anew by the next suite.
    launching.then(
      (browser) => browser.on('disconnected', () => shared === launching && (shared = undefined)),
      () => shared === launching && (shared = undefined),
    );
  }
  return shared;
}

/** Gives back what suiteChromium gave: its contexts closed when it is shared, else the browser closed. */
export async function releaseChromium(browser: Browser | undefined): Promise<void> {
  if (!browser) return;
  if (sharing && shared && browser === (await shared.catch(() => undefined))) {
    await Promise.all(browser.contexts().map((context) => context.close().catch(() => undefined)));
  } else {
    await browser.close();
  }
}

/**
 * A page in a context of its own (its own cookies, storage and permissions: `page.context()`), in a desktop
 * window unless the options say otherwise. Closing the browser closes it. The page asks for reduced motion, so the
 * kit's transitions take no time (tokens.css): a screen is checked as it settles, never mid-fade — axe once measured
 * a button's white label on a primary colour still fading in as too little contrast.
 */
export async function openPage(browser: Browser, options: BrowserContextOptions = {}): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce', ...options });
  return context.newPage();
}

/*
 * Screenshots are for a person to look at after a run on their machine. CI runs on a clean clone that nobody opens
 * afterwards, so under CI=true they are taken only when QUIRE_SCREENSHOTS=1 asks: a full-page one costs Chromium
 * one to three seconds on a two-core machine (the page laid out again at its whole height), and the suite takes
 * some 150. A failed test's pages are still shot, under CI too (test/browser.ts).
 */
const screenshotsWanted = !/^(true|1)$/i.test(process.env.CI ?? '') || /^(true|1)$/i.test(process.env.QUIRE_SCREENSHOTS ?? '');

/** A screenshot at test-results/NAME.png (the folder is made if missing), for a person to look at after a run. */
export async function screenshot(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<void> {
  if (screenshotsWanted) await page.screenshot({ path: `test-results/${name}.png`, ...options });
}
