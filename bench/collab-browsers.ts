import type { Browser, BrowserContext, Page } from 'playwright-core';
import { openSession } from '../src/features/sessions/service.ts';
import { caretIn } from '../test/editor/caret.ts';
import type { BenchServer } from './server.ts';

/*
 * Issue 31's browser figure: two people in Chromium, each in a browser context of their own, on one page of a
 * change request in the block editor; one types, and the time until each character shows in the other's editor is
 * taken in the pages themselves: the key's `keydown` in the typist's page, a MutationObserver in the other's. Both
 * pages are in one browser on one machine, so `performance.timeOrigin + performance.now()` is one clock for both.
 * Then the other way round. Each browser may be on a server process of its own (`urls`), the text then crossing
 * Redis too.
 */

export interface BrowserDirection {
  /** e.g. "A → B". */
  direction: string;
  /** Per keystroke: from its keydown in one page to its character in the other's DOM, ms. */
  latencies: number[];
}

export interface PageInChangeRequest {
  spaceId: string;
  changeRequestId: string;
  pageId: string;
}

async function signedInContext(browser: Browser, server: BenchServer, userId: string, url: string): Promise<BrowserContext> {
  const { setCookies } = await openSession(server.app.ctx, server.app.ctx.db, { userId, organizationId: server.organizationId, providerId: null, method: 'password' });
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addCookies(
    setCookies.map((header) => {
      const [name, value] = header.split(';')[0]!.split('=') as [string, string];
      return { name, value, url, httpOnly: name === 'quire_session', sameSite: 'Lax' as const };
    }),
  );
  return context;
}

// Scripts, not functions: tsx names functions with a helper (__name) the page does not have.
const watchParagraph = (index: number) => `(() => {
  const content = document.querySelector('[aria-label="Page content"]');
  // The other person's caret, drawn inside the paragraph they type in with their name, is not its text.
  const length = () => {
    const p = content.querySelectorAll('p')[${index}];
    if (!p) return 0;
    let carets = 0;
    for (const caret of p.querySelectorAll('.collaboration-carets__caret')) carets += caret.textContent.length;
    return p.textContent.length - carets;
  };
  window.__grown = [];
  let last = length();
  new MutationObserver(() => {
    const now = length();
    const at = performance.timeOrigin + performance.now();
    for (; last < now; last++) window.__grown.push(at);
    last = Math.max(last, now);
  }).observe(content, { subtree: true, childList: true, characterData: true });
})()`;

const recordKeys = `(() => {
  window.__keys = [];
  document.addEventListener('keydown', () => window.__keys.push(performance.timeOrigin + performance.now()), true);
})()`;

/** Puts the caret at the end of the page's `index`th paragraph (clicking again until the editor has taken it). */
async function caretAtEnd(page: Page, index: number): Promise<void> {
  const paragraph = page.getByRole('textbox', { name: 'Page content' }).locator('p').nth(index);
  const end = Date.now() + 20_000;
  for (;;) {
    const where = await caretIn(paragraph);
    if (where === 'end') return;
    if (Date.now() > end) throw new Error(`the caret is not at the end of paragraph ${index}`);
    if (where === 'outside') await paragraph.click();
    await page.keyboard.press('End');
  }
}

async function oneWay(typist: Page, reader: Page, paragraph: number, keys: number): Promise<number[]> {
  await caretAtEnd(typist, paragraph);
  await typist.evaluate(recordKeys);
  await reader.evaluate(watchParagraph(paragraph));
  for (let i = 0; i < keys; i++) {
    await typist.keyboard.type(String.fromCharCode(97 + (i % 26)));
    // About a person's pace; each character also has the time to arrive before the next.
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  const deadline = Date.now() + 10_000;
  while (((await reader.evaluate('window.__grown.length')) as number) < keys && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  const sent = (await typist.evaluate('window.__keys')) as number[];
  const shown = (await reader.evaluate('window.__grown')) as number[];
  if (sent.length !== keys || shown.length < keys) throw new Error(`${sent.length} keys typed, ${shown.length} characters shown of ${keys}`);
  return sent.map((at, i) => shown[i]! - at);
}

/** Two people (`userIds`), each on the page at `urls[i]`; `keys` keystrokes each way. */
export async function measureBrowsers(browser: Browser, server: BenchServer, urls: [string, string], userIds: [string, string], target: PageInChangeRequest, keys = 20): Promise<BrowserDirection[]> {
  const pages: Page[] = [];
  try {
    for (const [i, url] of urls.entries()) {
      const page = await (await signedInContext(browser, server, userIds[i]!, url)).newPage();
      pages.push(page);
      await page.goto(`${url}/app/s/${target.spaceId}/~/edit/${target.pageId}?changeRequest=${target.changeRequestId}`);
      await page.getByRole('textbox', { name: 'Page content' }).waitFor();
    }
    // Each sees both people: both editors are connected and share the document.
    for (const page of pages) await page.getByRole('list', { name: 'People in this page' }).getByRole('listitem').nth(1).waitFor({ timeout: 30_000 });
    const [a, b] = pages as [Page, Page];
    return [
      { direction: 'A → B', latencies: await oneWay(a, b, 0, keys) },
      { direction: 'B → A', latencies: await oneWay(b, a, 1, keys) },
    ];
  } finally {
    for (const page of pages) await page.context().close();
  }
}
