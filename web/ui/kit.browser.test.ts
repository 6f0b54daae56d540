import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { screenshot, withoutChromium } from '../../test/browser.ts';
import { webAppSuite } from '../../test/browser-suite.ts';
import { ok } from '../../test/assertions.ts';
import { buildOpenAPISpec, buildPage, buildSpace } from '../../test/factories.ts';

/*
 * The kit on the screens moved to it (home, an organization, a space, the editor, members, a site), as a person sees them in Chromium at a phone's and a desktop's width, in
 * both themes: no control left with the browser's own look, nothing serious for axe-core, no sideways scrolling on
 * the phone, and a screenshot of each for a person to look at (test-results/kit-*.png).
 */

const WIDTHS = [390, 1440] as const;
const THEMES = ['light', 'dark'] as const;

/**
 * Buttons, fields and lists still drawn the browser's way: Chromium's ButtonFace greys (light and dark), its
 * inset/outset borders and its default field border colours, or a checkbox without the accent colour.
 */
async function controlsWithBrowserLook(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const faceGreys = new Set(['rgb(239, 239, 239)', 'rgb(240, 240, 240)', 'rgb(233, 233, 237)', 'rgb(107, 107, 107)', 'rgb(59, 59, 59)']);
    const fieldBorders = new Set(['rgb(118, 118, 118)', 'rgb(133, 133, 133)', 'rgb(169, 169, 169)']);
    const found: string[] = [];
    for (const element of document.querySelectorAll<HTMLElement>('button, input, select, textarea')) {
      if (element.getClientRects().length === 0 || (element instanceof HTMLInputElement && element.type === 'hidden')) continue;
      const style = getComputedStyle(element);
      if (style.visibility === 'hidden' || style.opacity === '0') continue;
      const name = `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''}${element.className ? `.${String(element.className).trim().split(/\s+/).join('.')}` : ''} "${(element.getAttribute('aria-label') ?? element.textContent ?? '').trim().slice(0, 30)}"`;
      if (element instanceof HTMLInputElement && (element.type === 'checkbox' || element.type === 'radio')) {
        if (style.accentColor === 'auto') found.push(`${name}: the browser's accent colour`);
        continue;
      }
      if (faceGreys.has(style.backgroundColor)) found.push(`${name}: background ${style.backgroundColor}`);
      if (/inset|outset/.test(style.borderTopStyle)) found.push(`${name}: ${style.borderTopStyle} border`);
      if (fieldBorders.has(style.borderTopColor) && style.borderTopStyle !== 'none') found.push(`${name}: border ${style.borderTopColor}`);
    }
    return found;
  });
}

describe('the kit on the app’s screens in Chromium', { skip: withoutChromium, timeout: 600_000 }, () => {
  const suite = webAppSuite();
  let screens: Array<{ name: string; path: string; ready: (page: Page) => Promise<void> }>;

  before(async () => {
    const { t } = suite;
    const space = await buildSpace(t, { title: 'Handbook', emoji: '1f4d8' });
    const guide = await buildPage(t, space.id, { title: 'Guide', markdown: '## Install\n\nRun the installer, then open the **dashboard**.\n' });
    const site = ok(await t.api('POST', `/v1/orgs/${t.org.id}/sites`, { body: { title: 'Docs site', spaces: [space.id] } }), 201) as { id: string };
    screens = [
      { name: 'home', path: '/app/', ready: async (page) => void (await page.getByRole('heading', { level: 1 }).first().waitFor()) },
      { name: 'organization', path: `/app/o/${t.org.id}`, ready: async (page) => void (await page.getByRole('heading', { level: 1 }).first().waitFor()) },
      { name: 'space', path: `/app/o/${t.org.id}/s/${space.id}`, ready: async (page) => void (await page.getByRole('heading', { level: 1, name: 'Guide' }).waitFor()) },
      { name: 'members', path: `/app/o/${t.org.id}/members`, ready: async (page) => void (await page.getByRole('heading', { level: 1 }).first().waitFor()) },
      { name: 'editor', path: `/app/s/${space.id}/~/edit/${guide}`, ready: async (page) => void (await page.getByLabel('Page title').waitFor()) },
      // Five tabs: the row that used to be 467px wide at 390px.
      { name: 'site', path: `/app/o/${t.org.id}/sites/${site.id}`, ready: async (page) => void (await page.getByRole('navigation', { name: 'Site' }).waitFor()) },
    ];
  });

  async function openScreen(width: number, theme: 'light' | 'dark', path: string): Promise<Page> {
    const page = await suite.signedIn(undefined, { viewport: { width, height: width < 800 ? 844 : 900 }, colorScheme: theme });
    // The app's own theme switch, as a person who chose it left it (it sets data-theme on <html>).
    await page.addInitScript((chosen) => localStorage.setItem('quire-theme', chosen), theme);
    await page.goto(`${suite.origin}${path}`);
    await suite.settled(page);
    return page;
  }

  for (const width of WIDTHS) {
    for (const theme of THEMES) {
      test(`home, organization, space, editor, members and site at ${width}px in the ${theme} theme: the kit's controls, axe-clean${width < 800 ? ', no sideways scrolling' : ''}`, async () => {
        for (const screen of screens) {
          const page = await openScreen(width, theme, screen.path);
          await screen.ready(page);
          assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), theme);
          assert.deepEqual(await controlsWithBrowserLook(page), [], `controls with the browser's look on ${screen.name}`);
          await suite.assertAccessible(page, `${screen.name} at ${width}px, ${theme}`);
          if (width < 800) {
            const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
            assert.ok(scrollWidth <= width, `${screen.name}: no sideways scrolling at ${width}px (${scrollWidth}px)`);
          }
          await screenshot(page, `kit-${screen.name}-${width}-${theme}`);
          await page.context().close();
        }
      });
    }
  }

  test('the person’s menu opens from the keyboard, keeps on screen, and Escape closes it and gives focus back', async () => {
    for (const width of WIDTHS) {
      const page = await openScreen(width, 'light', '/app/');
      const trigger = page.getByRole('button', { name: 'Account of Administrator' });
      await trigger.focus();
      await page.keyboard.press('Enter');
      const menu = page.getByRole('menu');
      await menu.waitFor();
      // Radix moves focus into the menu; the arrow keys walk its items, links included.
      await page.getByRole('menuitem', { name: 'Profile' }).waitFor();
      await page.keyboard.press('ArrowDown');
      const box = await menu.boundingBox();
      assert.ok(box && box.x >= 0 && box.x + box.width <= width, `the menu is on screen at ${width}px (${JSON.stringify(box)})`);
      await suite.assertAccessible(page, `the open person's menu at ${width}px`);
      await screenshot(page, `kit-user-menu-${width}`);
      await page.keyboard.press('Escape');
      await menu.waitFor({ state: 'detached' });
      // Radix gives the focus back as the menu unmounts, a task after it is gone: waited for, not read at once.
      await page.waitForFunction((element) => element === document.activeElement, await trigger.elementHandle(), { timeout: 5_000 });
      await page.context().close();
    }
  });

  test('a destructive action asks first: focus starts on Cancel, Escape keeps everything, the named button deletes', async () => {
    const { t } = suite;
    const spec = JSON.stringify({ openapi: '3.0.0', info: { title: 'Pets', version: '1' }, paths: {} });
    await buildOpenAPISpec(t, 'pets', { text: spec });
    const page = await openScreen(390, 'dark', `/app/o/${t.org.id}/openapi/pets`);
    const trigger = page.getByRole('button', { name: 'Delete pets' });
    await trigger.click();
    const dialog = page.getByRole('alertdialog', { name: 'Delete the specification pets?' });
    await dialog.waitFor();
    assert.equal(await dialog.getByRole('button', { name: 'Cancel' }).evaluate((element) => element === document.activeElement), true, 'focus starts on Cancel');
    await suite.assertAccessible(page, 'the confirmation of a deletion');
    await screenshot(page, 'kit-alert-dialog-390-dark');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    assert.equal(await trigger.evaluate((element) => element === document.activeElement), true, 'focus is back on the button that asked');
    assert.equal((await t.api('GET', `/v1/orgs/${t.org.id}/openapi/pets`)).status, 200, 'Escape deleted nothing');
    await trigger.click();
    await dialog.getByRole('button', { name: 'Delete specification' }).click();
    await page.waitForURL(`**/o/${t.org.id}/openapi`);
    assert.equal((await t.api('GET', `/v1/orgs/${t.org.id}/openapi/pets`)).status, 404);
    await page.context().close();
  });

  test('the first screen loads at most 200 KB of gzipped JavaScript', async (context) => {
    const { origin } = suite;
    const page = await suite.signedIn(undefined, { viewport: { width: 1440, height: 900 } });
    const scripts = new Map<string, Promise<number>>();
    page.on('response', (response) => {
      if (response.request().resourceType() === 'script' && response.url().startsWith(origin)) {
        scripts.set(response.url(), response.body().then((body) => gzipSync(body, { level: 9 }).length, () => 0));
      }
    });
    await page.goto(`${origin}/app/`);
    await suite.settled(page);
    await page.waitForLoadState('networkidle');
    const sizes = await Promise.all(scripts.values());
    const total = sizes.reduce((sum, size) => sum + size, 0);
    context.diagnostic(`first screen: ${total} bytes of gzipped JavaScript in ${sizes.length} files`);
    assert.ok(total <= 200_000, `first screen: ${total} bytes of gzipped JavaScript in ${sizes.length} files`);
    await page.context().close();
  });
});
