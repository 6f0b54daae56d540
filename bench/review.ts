import type { BrowserContext, Page } from 'playwright-core';
import { launchChromium, withoutChromium } from '../test/chromium.ts';
import { ensureWebAppBuilt } from '../test/web-app.ts';
import { openSession } from '../src/features/sessions/service.ts';
import { pageMarkdown } from './reader-cold.ts';
import { startBenchServer, type BenchServer } from './server.ts';

/*
 * Issue 29's figures for reviewing in the browser, in Chromium against the real server on SQLite: the diff of two
 * revisions of the bench's 300-block page (bench/reader-cold.ts; one paragraph in ten edited, three blocks moved),
 * from choosing the page until every block of the diff shows, and a change request of 50 changed pages, from
 * navigation until its list of changed pages shows. Medians of 5. `node --import tsx bench/review.ts` runs it
 * alone; `npm run bench` includes it (BENCH_ONLY=review).
 */

export interface ReviewResult {
  diffMs: number[];
  diffBlocks: number;
  listMs: number[];
  listInAppMs: number[];
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const DIFF_TARGET_MS = 300;
const LIST_TARGET_MS = 500;

interface Node {
  type?: string;
  key?: string;
  object?: string;
  leaves?: { text: string }[];
  nodes?: Node[];
}

async function signedInContext(server: BenchServer, browser: Awaited<ReturnType<typeof launchChromium>>): Promise<BrowserContext> {
  const admin = await server.app.ctx.db.selectFrom('users').select('id').where('email', '=', 'bench@quire.test').executeTakeFirstOrThrow();
  const input = { userId: admin.id, organizationId: server.organizationId, providerId: null, method: 'password' };
  const { setCookies } = await openSession(server.app.ctx, server.app.ctx.db, input as unknown as Parameters<typeof openSession>[2]);
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addCookies(
    setCookies.map((header) => {
      const [name, value] = header.split(';')[0]!.split('=') as [string, string];
      return { name, value, url: server.url, httpOnly: name === 'quire_session', sameSite: 'Lax' as const };
    }),
  );
  return context;
}

async function mergeChanges(server: BenchServer, spaceId: string, changes: unknown[]): Promise<{ number: number; id: string }> {
  const cr = await server.api<{ id: string; number: number }>('POST', `/spaces/${spaceId}/change-requests`, { subject: 'Bench' });
  await server.api('POST', `/spaces/${spaceId}/change-requests/${cr.id}/content`, { changes });
  await server.api('POST', `/spaces/${spaceId}/change-requests/${cr.id}/merge`);
  return cr;
}

export async function runReviewBench(): Promise<ReviewResult | string> {
  if (withoutChromium) return withoutChromium;
  await ensureWebAppBuilt();
  const server = await startBenchServer();
  const browser = await launchChromium();
  try {
    const space = await server.api<{ id: string }>('POST', `/orgs/${server.organizationId}/spaces`, { title: 'Review bench' });
    await mergeChanges(server, space.id, [{ operation: 'insert_page', title: 'Long page', document: { markdown: pageMarkdown() } }]);
    const before = await server.api<{ id: string; pages: { id: string }[] }>('GET', `/spaces/${space.id}/content`);
    const pageId = before.pages[0]!.id;
    const { document } = await server.api<{ document: { nodes: Node[] } }>('GET', `/spaces/${space.id}/content/page/${pageId}?format=document`);
    // One paragraph in ten reworded, and three blocks moved to the end.
    let paragraphs = 0;
    for (const block of document.nodes) {
      if (block.type === 'paragraph' && paragraphs++ % 10 === 0) for (const leaf of block.nodes?.[0]?.leaves ?? []) leaf.text = `${leaf.text} (reworded for the review)`;
    }
    document.nodes.push(...document.nodes.splice(5, 3));
    await mergeChanges(server, space.id, [{ operation: 'update_page', page: pageId, document: { document } }]);
    const after = await server.api<{ id: string }>('GET', `/spaces/${space.id}/content`);

    const context = await signedInContext(server, browser);
    const diffMs: number[] = [];
    let diffBlocks = 0;
    for (let round = 0; round < 5; round++) {
      const page: Page = await context.newPage();
      await page.goto(`${server.url}/app/s/${space.id}/~/history?from=${before.id}&to=${after.id}`);
      // The page picker is the kit's Select: opened first, then timed from the click on the page's option.
      const select = page.getByLabel('Page', { exact: true });
      await select.click();
      const option = page.getByRole('listbox').getByRole('option', { name: 'Long page', exact: true });
      await option.waitFor();
      const started = performance.now();
      await option.click();
      await page.locator('.diff-block').nth(document.nodes.length - 1).waitFor({ state: 'attached' });
      diffMs.push(performance.now() - started);
      diffBlocks = await page.locator('.diff-block').count();
      await page.close();
    }

    // A change request of 50 changed pages (one batch of 50 inserted pages), not merged.
    const cr = await server.api<{ id: string; number: number }>('POST', `/spaces/${space.id}/change-requests`, { subject: 'Fifty pages' });
    await server.api('POST', `/spaces/${space.id}/change-requests/${cr.id}/content`, {
      changes: Array.from({ length: 50 }, (_, i) => ({ operation: 'insert_page', title: `Added page ${i + 1}`, document: { markdown: `Page ${i + 1} of the change request.` } })),
    });
    const listMs: number[] = [];
    const listInAppMs: number[] = [];
    // Timed in the page, from the navigation's start (performance's time origin) to the first frame drawn with
    // the 50 pages listed: Playwright's own waiting polls at growing intervals (up to 500 ms apart) and answers
    // through this process, which is also the server, so it added up to a poll's interval to what it timed.
    await context.addInitScript(() => {
      const w = window as unknown as { __listedAt?: number };
      new MutationObserver((_records, observer) => {
        if (window.document.querySelectorAll('.change-list li').length < 50) return;
        observer.disconnect();
        requestAnimationFrame(() => setTimeout(() => (w.__listedAt = performance.now()), 0));
      }).observe(window.document, { childList: true, subtree: true });
    });
    for (let round = 0; round < 5; round++) {
      const page = await context.newPage();
      await page.goto(`${server.url}/app/s/${space.id}/~/changes/${cr.number}`, { waitUntil: 'commit' });
      await page.locator('.change-list li').nth(49).waitFor({ state: 'attached' });
      await page.waitForFunction(() => (window as unknown as { __listedAt?: number }).__listedAt !== undefined);
      listMs.push(await page.evaluate(() => (window as unknown as { __listedAt: number }).__listedAt));
      // From the space's list of change requests (the app loaded), following the change request's link.
      await page.goto(`${server.url}/app/s/${space.id}/~/changes`);
      const link = page.getByRole('link', { name: `#${cr.number} Fifty pages` });
      await link.waitFor();
      const clicked = performance.now();
      await link.click();
      await page.locator('.change-list li').nth(49).waitFor({ state: 'attached' });
      listInAppMs.push(performance.now() - clicked);
      await page.close();
    }
    return { diffMs, diffBlocks, listMs, listInAppMs };
  } finally {
    await browser.close();
    await server.close();
  }
}

export const reviewIntro = [
  `Issue 29: reviewing in the browser, in Chromium (playwright-core) against the real server on SQLite. The diff of two`,
  `revisions of the bench's 300-block page (one paragraph in ten reworded, three blocks moved) must show within`,
  `${DIFF_TARGET_MS} ms of choosing the page on the history screen (both documents fetched, diffed and rendered); a change`,
  `request of 50 changed pages must list them within ${LIST_TARGET_MS} ms: opened by its URL (the app loaded again in a`,
  'warm browser context) and by a click on the space\'s list of change requests. Medians of 5.',
].join('\n');

export function reviewTable(result: ReviewResult | string): string {
  if (typeof result === 'string') return `Not run: ${result}.`;
  const row = (name: string, value: number, target: number) => `| ${name} | ${value.toFixed(0)} ms | ≤ ${target} ms | ${value <= target ? 'yes' : 'NO'} |`;
  return [
    '| Measure | Result | Target | Met |',
    '| --- | --- | --- | --- |',
    row(`Diff of a 300-block page (${result.diffBlocks} blocks shown)`, median(result.diffMs), DIFF_TARGET_MS),
    row('Change request of 50 pages listed, opened by URL', median(result.listMs), LIST_TARGET_MS),
    row('Change request of 50 pages listed, opened in the app', median(result.listInAppMs), LIST_TARGET_MS),
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await runReviewBench();
  console.log(reviewTable(result));
  if (typeof result !== 'string') console.log(JSON.stringify(result));
}
