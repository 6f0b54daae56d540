import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { AxeResults } from 'axe-core';
import { parse } from 'cookie';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { openSession } from '../src/features/sessions/service.ts';
import type { TestServer } from './helpers.ts';

/*
 * Support for the tests that use the members' web app in Chromium: the app built from the current web/ (built
 * again when a source is newer than the build), a browser session for a person, and axe-core on a screen.
 */

const root = join(import.meta.dirname, '..');
const MANIFEST = join(root, 'dist', 'web', '.vite', 'manifest.json');

function newestIn(dir: string): number {
  let newest = 0;
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const stat = statSync(path);
    // Test files are not built: editing one needs no new build (a minute on two cores).
    if (stat.isDirectory()) newest = Math.max(newest, newestIn(path));
    else if (!name.endsWith('.test.ts')) newest = Math.max(newest, stat.mtimeMs);
  }
  return newest;
}

/** dist/web as web/ (and the reader's stylesheet it uses) now are. */
export async function ensureWebAppBuilt(): Promise<void> {
  const built = (() => {
    try {
      return statSync(MANIFEST).mtimeMs;
    } catch {
      return 0;
    }
  })();
  const sources = Math.max(newestIn(join(root, 'web')), statSync(join(root, 'src/features/reader/assets/reader.css')).mtimeMs);
  if (built > sources) return;
  // @ts-expect-error: a plain ES module of the build, without types
  const { buildWebApp } = (await import('../scripts/build-web.mjs')) as { buildWebApp(): Promise<void> };
  await buildWebApp();
}

/**
 * Signs `userId` in within the browser context as a password sign-in would (the session and CSRF cookies),
 * through the sessions service, so a test need not know the person's password. The session reaches
 * `organizationId` only, as a provider's sign-in does; `null` reaches all of the person's organizations, as a
 * password sign-in does.
 */
export async function signInAs(t: TestServer, context: BrowserContext, origin: string, userId: string, organizationId: string | null = t.org.id): Promise<void> {
  const { setCookies } = await openSession(t.app.ctx, t.db, { userId, organizationId, providerId: null, method: 'password' });
  await context.addCookies(
    setCookies.map((header) => {
      const [pair, ...attributes] = header.split(';').map((part) => part.trim());
      const [name, value] = Object.entries(parse(pair!))[0]!;
      return { name, value: value ?? '', url: origin, httpOnly: attributes.some((a) => a.toLowerCase() === 'httponly'), sameSite: 'Lax' as const };
    }),
  );
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core's serious and critical violations on the page as it is now, described for an assertion message. */
export async function seriousViolations(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol, which the page's Content-Security-Policy does not govern (a script tag would be refused).
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  // The screen as it settles, not halfway through a transition: a button just enabled fades its background from
  // grey to the primary colour while its text is already white, which axe measured as low contrast.
  await page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== 'running' || animation.effect?.getComputedTiming().iterations === Infinity), undefined, { timeout: 10_000 });
  // Only the violations are gathered in full: axe then describes one node per rule that passed instead of every
  // node it checked, which took three quarters of its time (some 2 s of a renderer a screen on a two-core machine,
  // and the suite runs it some 250 times). Every rule still runs on every node.
  const results = (await page.evaluate(() => (window as unknown as { axe: { run(options: object): Promise<unknown> } }).axe.run({ resultTypes: ['violations'] }))) as AxeResults;
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
}

/**
 * Chooses in the kit's Select as a person does: opens the listbox from its button (found by its label) and clicks
 * the option by its name. The listbox is in a portal, outside the field's form or dialog, so it is looked up on the
 * page; the choice is made once it has closed.
 */
export async function choose(select: Locator, option: string | RegExp): Promise<void> {
  const page = select.page();
  await select.click();
  const listbox = page.getByRole('listbox');
  await listbox.getByRole('option', { name: option, exact: typeof option === 'string' }).click();
  await listbox.waitFor({ state: 'detached' });
}

/** Every `urls.app` in an API answer, however deep. */
export function appUrlsIn(value: unknown, into = new Set<string>()): Set<string> {
  const stack = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (!node || typeof node !== 'object') continue;
    const urls = (node as { urls?: { app?: unknown } }).urls;
    if (urls && typeof urls.app === 'string') into.add(urls.app);
    for (const child of Object.values(node)) if (child && typeof child === 'object') stack.push(child);
  }
  return into;
}
