import { gzipSync } from 'node:zlib';
import type { Page, Response } from 'playwright-core';
import { launchChromium, withoutChromium } from '../test/chromium.ts';
import { ensureWebAppBuilt } from '../test/web-app.ts';
import { openSession } from '../src/features/sessions/service.ts';
import { seedSpace } from './content-scale.ts';
import { startBenchServer } from './server.ts';

/*
 * Issue 26's figures for the members' web app, in Chromium driven by playwright-core, against the real server
 * on SQLite: the gzipped JavaScript the first screen loads (home, and a page opened by its URL), how long a
 * 500-page space takes from navigation until its tree and first page show (opened by URL, and from within the
 * app), and how long moving to another page of it takes (a click in the tree until the page's title shows).
 * `node --import tsx bench/web-app.ts` runs it alone; `npm run bench` includes it (BENCH_ONLY=web-app).
 */

export interface WebAppResult {
  homeJsGzip: number;
  pageJsGzip: number;
  /** Loaded after the page showed, while the browser was idle (the editor's code, prefetched). */
  idleJsGzip: number;
  openByUrl: number[];
  openInApp: number[];
  moves: number[];
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const KB = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/**
 * Gzipped bytes of the scripts the page loads until `action` has shown the screen (the first screen), and of those
 * it loads after, until the network settles: the editor's code, prefetched when the browser is idle so that Edit
 * opens at once (web/features/editing/prefetch.ts), is not part of what the screen waits for.
 */
async function scriptWeight(page: Page, action: () => Promise<unknown>): Promise<{ shown: number; idle: number }> {
  const sizes: Promise<number>[] = [];
  const listener = (response: Response) => {
    if (response.request().resourceType() === 'script') sizes.push(response.body().then((body) => gzipSync(body, { level: 9 }).length));
  };
  page.on('response', listener);
  await action();
  const shown = sizes.length;
  await page.waitForLoadState('networkidle');
  page.off('response', listener);
  const all = await Promise.all(sizes);
  const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
  return { shown: sum(all.slice(0, shown)), idle: sum(all.slice(shown)) };
}

export async function runWebAppBench(): Promise<WebAppResult | string> {
  if (withoutChromium) return withoutChromium;
  await ensureWebAppBuilt();
  const server = await startBenchServer();
  const browser = await launchChromium();
  try {
    const seeded = await seedSpace(server, 500);
    const spaceId = seeded.spaceId;
    const admin = await server.app.ctx.db.selectFrom('users').select('id').where('email', '=', 'bench@quire.test').executeTakeFirstOrThrow();
    const { setCookies } = await openSession(server.app.ctx, server.app.ctx.db, { userId: admin.id, organizationId: server.organizationId, providerId: null, method: 'password' });
    const cookies = setCookies.map((header) => {
      const [name, value] = header.split(';')[0]!.split('=') as [string, string];
      return { name, value, url: server.url, httpOnly: name === 'quire_session', sameSite: 'Lax' as const };
    });
    const fresh = async () => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      await context.addCookies(cookies);
      return context.newPage();
    };
    const spaceUrl = `${server.url}/app/o/${server.organizationId}/s/${spaceId}`;
    const shown = (page: Page) => page.locator('.page-tree .tree-link').nth(499).waitFor({ state: 'attached' }).then(() => page.locator('#page-title').waitFor());

    const home = await fresh();
    const homeJs = await scriptWeight(home, async () => {
      await home.goto(`${server.url}/app/`);
      await home.getByRole('heading', { level: 1 }).first().waitFor();
    });
    const first = await fresh();
    const pageJs = await scriptWeight(first, async () => {
      await first.goto(spaceUrl);
      await shown(first);
    });
    await home.context().close();
    await first.context().close();

    const openByUrl: number[] = [];
    const openInApp: number[] = [];
    for (let round = 0; round < 5; round++) {
      const page = await fresh();
      let started = performance.now();
      await page.goto(spaceUrl);
      await shown(page);
      openByUrl.push(performance.now() - started);
      // From the organization's screen (the app loaded), following the space's link in the sidebar.
      await page.goto(`${server.url}/app/o/${server.organizationId}`);
      await page.getByRole('link', { name: '500 pages' }).first().waitFor();
      // The space was not opened in this page's app yet: its tree and page are fetched after the click.
      started = performance.now();
      await page.getByRole('link', { name: '500 pages' }).first().click();
      await shown(page);
      openInApp.push(performance.now() - started);
      await page.context().close();
    }

    const page = await fresh();
    await page.goto(spaceUrl);
    await shown(page);
    const moves: number[] = [];
    // Pages of the open branch (the others sit in closed branches of the tree).
    const links = page.locator('.page-tree a.tree-link:visible');
    for (let i = 0; i < 10; i++) {
      const link = links.nth(2 + i * 9);
      const title = (await link.textContent())!;
      await link.scrollIntoViewIfNeeded();
      const started = performance.now();
      await link.click();
      await page.locator('#page-title', { hasText: title }).waitFor();
      await page.locator('.document').waitFor();
      moves.push(performance.now() - started);
    }
    return { homeJsGzip: homeJs.shown, pageJsGzip: pageJs.shown, idleJsGzip: pageJs.idle, openByUrl, openInApp, moves };
  } finally {
    await browser.close();
    await server.close();
  }
}

export const webAppIntro = [
  'Issue 26: the members\' web app in Chromium (playwright-core) against the real server on SQLite. JavaScript is',
  'the gzipped size of every script the first screen loads (target: at most 200 KB); a 500-page space must show',
  'its tree and first page within 1 s of navigation (opened by its URL in a fresh browser context, and by a click',
  'in the app), and moving to another page (a click in the tree until its title and document show) within 200 ms.',
  'Medians of 5 opens and 10 moves.',
].join('\n');

export function webAppTable(result: WebAppResult | string): string {
  if (typeof result === 'string') return `Not run: ${result}.`;
  const row = (name: string, value: string, target: string, met: boolean | undefined) => `| ${name} | ${value} | ${target} | ${met === undefined ? '–' : met ? 'yes' : 'NO'} |`;
  return [
    '| Measure | Result | Target | Met |',
    '| --- | --- | --- | --- |',
    row('First screen JS, home (gzip)', KB(result.homeJsGzip), '≤ 200 KB', result.homeJsGzip <= 200 * 1024),
    row('First screen JS, a page by URL (gzip)', KB(result.pageJsGzip), '≤ 200 KB', result.pageJsGzip <= 200 * 1024),
    row('JS prefetched after the page showed, when idle (the editor; gzip)', KB(result.idleJsGzip), '–', undefined),
    row('500-page space opened by URL', `${median(result.openByUrl).toFixed(0)} ms`, '≤ 1000 ms', median(result.openByUrl) <= 1000),
    row('500-page space opened in the app', `${median(result.openInApp).toFixed(0)} ms`, '≤ 1000 ms', median(result.openInApp) <= 1000),
    row('Moving to another page', `${median(result.moves).toFixed(0)} ms`, '≤ 200 ms', median(result.moves) <= 200),
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await runWebAppBench();
  console.log(webAppTable(result));
}
