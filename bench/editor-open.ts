import { loadavg } from 'node:os';
import type { BrowserContext, Page } from 'playwright-core';
import { launchChromium, withoutChromium } from '../test/chromium.ts';
import { ensureWebAppBuilt } from '../test/web-app.ts';
import { openSession } from '../src/features/sessions/service.ts';
import { replaceSection } from './benchmarks-file.ts';
import { pageMarkdown } from './reader-cold.ts';
import { startBenchServer, type BenchServer } from './server.ts';

/*
 * Issue 42's figure for opening the editor, through the app in Chromium against the real server on SQLite: from a
 * click on "Edit" on a page the app shows (the app loaded and idle) until the first frame drawn with the caret in
 * the editable page, focused. Timed in the page, as the review bench times its screen: performance.now() in the
 * click's listener, then the frame after the editor takes the focus (requestAnimationFrame, then a task). Pages of
 * one paragraph, of the reader bench's 300 blocks and of 2,000 blocks; and the edit route of the 300-block page
 * opened by its URL in a fresh tab (from the navigation's start, the browser's cache warm). Medians of 5.
 * `node --import tsx bench/editor-open.ts` runs it alone; `npm run bench` includes it (BENCH_ONLY=editor-open).
 */

export interface EditorOpenResult {
  /** Click on Edit to the caret's frame, per page (its blocks). */
  click: { name: string; blocks: number; ms: number[]; target: number }[];
  /** The edit route of the 300-block page opened by URL in a fresh tab: navigation start to the caret's frame. */
  byUrl: number[];
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const TARGETS = { small: 300, long: 300, veryLong: 1000, byUrl: 1000 };

/** 2,000 blocks: the reader bench's page, seven times over with other numbers, cut at 2,000. */
export function veryLongMarkdown(): string {
  return Array.from({ length: 7 }, (_, k) => pageMarkdown(k * 1000).trim().split('\n\n'))
    .flat()
    .slice(0, 2000)
    .join('\n\n');
}

/*
 * In every page of the context: a click on the Edit button notes its time; the first focus the editable page
 * takes after it (or after the navigation, for a page opened by its URL) notes the frame after it. A script, not a
 * function: tsx names functions with a helper (__name) the page does not have.
 */
const TIMING_SCRIPT = `(() => {
  let since = 0;
  window.__caretAt = undefined;
  document.addEventListener('click', (event) => {
    if (event.target instanceof Element && event.target.closest('a.edit-page')) {
      since = performance.now();
      window.__caretAt = undefined;
    }
  }, true);
  document.addEventListener('focusin', (event) => {
    const target = event.target;
    if (!(target instanceof HTMLElement) || !target.matches('.qe-content[contenteditable="true"]') || window.__caretAt !== undefined) return;
    const selection = document.getSelection();
    if (!selection || selection.rangeCount === 0 || !target.contains(selection.anchorNode)) return;
    window.__caretAt = null;
    requestAnimationFrame(() => setTimeout(() => (window.__caretAt = performance.now() - since), 0));
  }, true);
})()`;

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
  await context.addInitScript(TIMING_SCRIPT);
  return context;
}

// Functions, not strings: the app's Content-Security-Policy refuses the eval a string would need.
const caretTime = async (page: Page) => {
  await page.waitForFunction(() => typeof (window as unknown as { __caretAt?: number }).__caretAt === 'number', undefined, { timeout: 60_000 });
  return page.evaluate(() => (window as unknown as { __caretAt: number }).__caretAt);
};

export async function runEditorOpenBench(rounds = 5): Promise<EditorOpenResult | string> {
  if (withoutChromium) return withoutChromium;
  await ensureWebAppBuilt();
  const server = await startBenchServer();
  const browser = await launchChromium();
  try {
    const space = await server.api<{ id: string }>('POST', `/orgs/${server.organizationId}/spaces`, { title: 'Editor bench' });
    const pages = [
      { name: 'one paragraph', title: 'One paragraph', markdown: 'A page of one paragraph.\n', target: TARGETS.small },
      { name: 'the 300-block page', title: 'Long page', markdown: pageMarkdown(), target: TARGETS.long },
      { name: 'a 2,000-block page', title: 'Very long page', markdown: veryLongMarkdown(), target: TARGETS.veryLong },
    ];
    const cr = await server.api<{ id: string }>('POST', `/spaces/${space.id}/change-requests`, { subject: 'Bench' });
    await server.api('POST', `/spaces/${space.id}/change-requests/${cr.id}/content`, {
      changes: pages.map((p) => ({ operation: 'insert_page', title: p.title, document: { markdown: p.markdown } })),
    });
    await server.api('POST', `/spaces/${space.id}/change-requests/${cr.id}/merge`);
    const tree = await server.api<{ pages: { id: string; title: string; path: string }[] }>('GET', `/spaces/${space.id}/content`);
    const found = (title: string) => tree.pages.find((p) => p.title === title)!;
    const blocksOf = async (id: string) => (await server.api<{ document: { nodes: unknown[] } }>('GET', `/spaces/${space.id}/content/page/${id}?format=document`)).document.nodes.length;

    const context = await signedInContext(server, browser);
    const click: EditorOpenResult['click'] = [];
    for (const { name, title, target } of pages) {
      const { id, path } = found(title);
      const ms: number[] = [];
      for (let round = 0; round < rounds; round++) {
        const page = await context.newPage();
        await page.goto(`${server.url}/app/s/${space.id}/${path}`);
        await page.locator('.page .document').waitFor();
        // The app loaded and idle: its idle work (the editor's code fetched ahead) done, as for a person reading.
        await page.waitForLoadState('networkidle');
        await page.getByRole('link', { name: `Edit “${title}”` }).click();
        ms.push(await caretTime(page));
        await page.close();
      }
      click.push({ name, blocks: await blocksOf(id), ms, target });
    }

    // A fresh tab of the same browser (its cache holds the app's files), opening the edit route by its URL.
    const byUrl: number[] = [];
    const long = found('Long page');
    for (let round = 0; round < rounds; round++) {
      const page = await context.newPage();
      await page.goto(`${server.url}/app/s/${space.id}/~/edit/${long.id}`, { waitUntil: 'commit' });
      byUrl.push(await caretTime(page));
      await page.close();
    }
    await context.close();
    return { click, byUrl };
  } finally {
    await browser.close();
    await server.close();
  }
}

export const editorOpenIntro = [
  'Issue 42: opening a page for editing through the app, in Chromium (playwright-core) against the real server on',
  'SQLite: from a click on "Edit" on a page the app shows (loaded and idle) until the first frame drawn with the',
  'caret focused in the editable page, timed in the page (performance.now() in the click\'s listener, then the',
  'frame after the editor takes the focus: requestAnimationFrame, then a task). The edit route opened by its URL',
  'is timed from the navigation\'s start, in a fresh tab of a browser that loaded the app before. Medians of 5.',
].join('\n');

export function editorOpenTable(result: EditorOpenResult | string): string {
  if (typeof result === 'string') return `Not run: ${result}.`;
  const row = (name: string, values: number[], target: number) =>
    `| ${name} | ${median(values).toFixed(0)} ms (min ${Math.min(...values).toFixed(0)}, max ${Math.max(...values).toFixed(0)}) | ≤ ${target} ms | ${median(values) <= target ? 'yes' : 'NO'} |`;
  return [
    '| Measure | Result | Target | Met |',
    '| --- | --- | --- | --- |',
    ...result.click.map((c) => row(`Click on Edit to the caret, ${c.name} (${c.blocks} blocks)`, c.ms, c.target)),
    row('The 300-block page\'s edit route opened by URL, fresh tab', result.byUrl, TARGETS.byUrl),
  ].join('\n');
}

export function editorOpenMet(result: EditorOpenResult | string | undefined): boolean {
  if (result === undefined || typeof result === 'string') return true;
  return result.click.every((c) => median(c.ms) <= c.target) && median(result.byUrl) <= TARGETS.byUrl;
}

export const EDITOR_OPEN_TITLE = 'Editor: opening through the app';

if (import.meta.url === `file://${process.argv[1]}`) {
  // Other work on the machine skews the numbers: the load average before the run says how much there was.
  const load = loadavg()[0]!.toFixed(2);
  const result = await runEditorOpenBench();
  const section = `${editorOpenIntro}\n\nMeasured ${new Date().toISOString()} by \`node --import tsx bench/editor-open.ts\` (load average ${load} when it started).\n\n${editorOpenTable(result)}\n`;
  const output = process.env.BENCH_OUTPUT ?? 'docs/benchmarks.md';
  if (output !== '-') replaceSection(output, EDITOR_OPEN_TITLE, section);
  console.log(`\n## ${EDITOR_OPEN_TITLE}\n\n${section}`);
  if (typeof result !== 'string') console.log(JSON.stringify(result));
}
