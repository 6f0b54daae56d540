// @sqlite-run-only: the kit's looks, axe-core and widths are the app's, whatever the database; each screen's data is tested on both by its own file.
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { openPage, screenshot, withoutChromium } from '../../test/browser.ts';
import { webAppSuite } from '../../test/browser-suite.ts';
import { ok } from '../../test/assertions.ts';
import { signInAs } from '../../test/web-app.ts';
import { buildChangeRequest, buildCollection, buildInstallation, buildOpenAPISpec, buildPage, buildSpace, buildTeam, mergeChangeRequest, writeContent } from '../../test/factories.ts';
import { bundleLikeGitBookCli } from '../../src/features/integrations/runtime/bundle.test-support.ts';
import { startGitServer, type GitServer } from '../../src/features/git-sync/git-server.test-support.ts';
import { createLink } from '../../src/features/auth/links.ts';

/*
 * The kit on every screen of the app, as a person sees it in Chromium at a phone's, a tablet's and a desktop's
 * width, in both themes: no control left with the browser's own look, nothing serious for axe-core, no sideways
 * scrolling on the phone, and a screenshot of each for a person to look at (test-results/kit-*.png). A screen is
 * opened once and looked at in its six sizes and themes (resized and switched in place), so that twenty screens
 * stay a few minutes on a two-core CI machine.
 */

const WIDTHS = [390, 768, 1440] as const;
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

describe('the kit on the app’s screens in Chromium', { skip: withoutChromium, timeout: 900_000 }, () => {
  // A repository a space syncs with (served by git http-backend on this machine), started before the suite's
  // server, which is told it may fetch from a private address.
  let git: GitServer;
  before(async () => {
    git = await startGitServer();
    git.createRepository('docs', { 'README.md': '# Docs\n\nWelcome from the repository.\n', 'SUMMARY.md': '# Table of contents\n\n* [Docs](README.md)\n' });
  });
  after(async () => git.close());
  const suite = webAppSuite({ env: { ALLOW_PRIVATE_FETCH: 'true' } });
  interface Screen {
    name: string;
    path: string;
    ready: (page: Page) => Promise<unknown>;
    /** Who looks: the admin unless said (the first steps are a new organization's owner's; sign-in nobody's). */
    as?: { userId: string; organizationId: string | null } | 'nobody';
  }
  let screens: Screen[];

  before(async () => {
    const { t } = suite;
    const org = t.org.id;
    const space = await buildSpace(t, { title: 'Handbook', emoji: '1f4d8' });
    const guide = await buildPage(t, space.id, { title: 'Guide', markdown: '## Install\n\nRun the installer, then open the **dashboard**.\n' });
    const site = ok(await t.api('POST', `/v1/orgs/${org}/sites`, { body: { title: 'Docs site', spaces: [space.id] } }), 201) as { id: string };
    const cr = await buildChangeRequest(t, space.id, { subject: 'Use the new installer', pages: ['Installer'] });
    const team = await buildTeam(t, { title: 'Writers' });
    const outsider = await t.outsider();
    const invite = ok(await t.api('POST', `/v1/orgs/${org}/link-invites`, { body: { role: 'read' } }), 201) as { id: string };
    const revision = ok(await t.api('GET', `/v1/spaces/${space.id}`)).revision as string;
    // An integration whose installation screen is its own ContentKit component (a text input and a select).
    const script = await bundleLikeGitBookCli(fileURLToPath(new URL('../features/integrations/fixtures/announcer-integration.jsx', import.meta.url)));
    ok(await t.api('POST', '/v1/integrations/announcer', {
      body: { organization: org, title: 'Announcer', description: 'Announces new pages', visibility: 'public', script, scopes: [], configurations: { account: { componentId: 'configure' } } },
    }));
    const installation = await buildInstallation(t, 'announcer');
    // Its first event delivered (refused: nothing configured), so that the screen shows a row of its events table.
    await t.app.jobs.runDue();
    const collection = await buildCollection(t, { title: 'Guides' });
    const reader = await t.member('read');
    // A person in two organizations: their Home is the list of both (with one, it opens that one).
    const twoOrgs = await t.member('read');
    ok(await t.api('POST', '/v1/orgs', { token: twoOrgs.token, body: { title: 'Lab notes' } }), 201);
    await buildOpenAPISpec(t, 'petstore', { text: JSON.stringify({ openapi: '3.0.0', info: { title: 'Petstore', version: '1' }, paths: { '/pets': { get: { responses: { 200: { description: 'The pets' } } } } } }) });
    const translation = ok(await t.api('POST', `/v1/orgs/${org}/translations`, { body: { title: 'Handbook abroad', languages: ['fr'], source: { space: space.id, language: 'en' } } }), 201) as { id: string };
    // Two change requests that changed one paragraph two ways: the second, once the first is merged, conflicts.
    const runbook = await buildSpace(t, { title: 'Runbook' });
    const restart = await buildPage(t, runbook.id, { title: 'Restart', markdown: 'Restart the server at night.\n\nThen check the logs.' });
    const rewrite = async (crId: string, to: string) => {
      const { document } = ok(await t.api('GET', `/v1/spaces/${runbook.id}/change-requests/${crId}/content/page/${restart}?format=document`));
      const replace = (node: { leaves?: { text: string }[]; nodes?: unknown[] }): void => {
        for (const leaf of node.leaves ?? []) leaf.text = leaf.text.replace('at night', to);
        for (const child of node.nodes ?? []) replace(child as never);
      };
      replace(document);
      await writeContent(t, runbook.id, crId, [{ operation: 'update_page', page: restart, document: { document } }]);
    };
    const mornings = await buildChangeRequest(t, runbook.id, { subject: 'Mornings' });
    await rewrite(mornings.id as string, 'in the morning');
    const weekends = await buildChangeRequest(t, runbook.id, { subject: 'Weekends' });
    await rewrite(weekends.id as string, 'on weekends');
    await mergeChangeRequest(t, runbook.id, mornings.id as string);
    // A space connected to the repository by its first import.
    const synced = await buildSpace(t, { title: 'Synced docs' });
    ok(await t.api('POST', `/v1/spaces/${synced.id}/git/import`, { body: { url: git.url('docs'), ref: 'refs/heads/main' } }), 204);
    await t.app.jobs.runDue();
    // An e-mail invitation's link, as the invited person opens it.
    const invited = await t.member('read');
    const invitation = await createLink(t.app.ctx, t.db, { kind: 'invite', userId: invited.userId, organizationId: org, role: 'read' });
    const h1 = (name?: string | RegExp) => async (page: Page) => page.getByRole('heading', { level: 1, ...(name ? { name } : {}) }).first().waitFor();
    const h2 = (name: string) => async (page: Page) => page.getByRole('heading', { level: 2, name, exact: true }).waitFor();
    screens = [
      { name: 'sign-in', path: '/app/sign-in', as: 'nobody', ready: h1('Sign in to Quire') },
      // An invite link opened before signing in.
      { name: 'join', path: `/app/o/${org}/join/${invite.id}`, as: 'nobody', ready: h1(/^Join/) },
      { name: 'organization', path: `/app/o/${org}`, ready: h1() },
      { name: 'home', path: '/app/', as: { userId: twoOrgs.userId, organizationId: null }, ready: async (page) => page.getByRole('region', { name: 'Organizations' }).getByRole('link', { name: 'Lab notes' }).waitFor() },
      // A new organization: its owner is shown its first actions.
      { name: 'first-steps', path: `/app/o/${outsider.organizationId}`, as: outsider, ready: async (page) => page.getByRole('heading', { name: 'Get started' }).waitFor() },
      { name: 'import', path: `/app/o/${org}/import`, ready: h1('Import') },
      { name: 'space', path: `/app/o/${org}/s/${space.id}`, ready: h1('Guide') },
      {
        name: 'sharing',
        path: `/app/o/${org}/s/${space.id}`,
        ready: async (page) => {
          await page.getByRole('button', { name: 'Share' }).click();
          await page.getByRole('dialog', { name: 'Share Handbook' }).getByRole('table').waitFor();
        },
      },
      {
        name: 'search',
        path: `/app/o/${org}/s/${space.id}`,
        ready: async (page) => {
          await page.getByRole('heading', { level: 1, name: 'Guide' }).waitFor();
          await page.keyboard.press('Control+k');
          await page.getByRole('combobox', { name: 'Search' }).fill('installer');
          await page.getByRole('listbox', { name: 'Results' }).waitFor();
        },
      },
      { name: 'editor', path: `/app/s/${space.id}/~/edit/${guide}`, ready: async (page) => page.getByLabel('Page title').waitFor() },
      { name: 'change-requests', path: `/app/s/${space.id}/~/changes`, ready: h1() },
      { name: 'change-request', path: `/app/s/${space.id}/~/changes/${cr.number}`, ready: h1(/Use the new installer/) },
      {
        name: 'change-request-diff',
        path: `/app/s/${space.id}/~/changes/${cr.number}?page=${cr.pages[0]}`,
        ready: async (page) => {
          await h1(/Use the new installer/)(page);
          await page.waitForFunction(() => document.querySelectorAll('.skeleton').length === 0, undefined, { timeout: 15_000 });
        },
      },
      { name: 'history', path: `/app/s/${space.id}/~/history`, ready: h1('History') },
      { name: 'revision', path: `/app/s/${space.id}/~/revisions/${revision}`, ready: h1('Revision') },
      { name: 'git-sync', path: `/app/s/${space.id}/~/git`, ready: h1('Git Sync') },
      { name: 'inbox', path: '/app/inbox', ready: h1('Inbox') },
      { name: 'collection', path: `/app/o/${org}/c/${collection.id}`, ready: h1('Guides') },
      { name: 'members', path: `/app/o/${org}/members`, ready: h1('Members') },
      { name: 'member', path: `/app/o/${org}/members/${reader.userId}`, ready: h1() },
      { name: 'teams', path: `/app/o/${org}/teams`, ready: h1() },
      { name: 'team', path: `/app/o/${org}/teams/${team.id}`, ready: h1('Writers') },
      { name: 'sites', path: `/app/o/${org}/sites`, ready: h1() },
      // Six tabs: a row that once was 467px wide at 390px (it scrolls sideways now).
      { name: 'site', path: `/app/o/${org}/sites/${site.id}`, ready: async (page) => page.getByRole('navigation', { name: 'Site' }).waitFor() },
      { name: 'site-customization', path: `/app/o/${org}/sites/${site.id}/customization`, ready: async (page) => page.getByRole('heading', { name: 'Customization', level: 2 }).waitFor() },
      { name: 'site-questions', path: `/app/o/${org}/sites/${site.id}/questions`, ready: async (page) => page.getByRole('group', { name: 'Ask in numbers' }).waitFor() },
      { name: 'site-sharing', path: `/app/o/${org}/sites/${site.id}/sharing`, ready: async (page) => page.getByRole('region', { name: 'People' }).waitFor() },
      { name: 'site-redirects', path: `/app/o/${org}/sites/${site.id}/redirects`, ready: h2('Redirects') },
      { name: 'site-access', path: `/app/o/${org}/sites/${site.id}/access`, ready: async (page) => page.getByRole('region', { name: 'Address' }).waitFor() },
      { name: 'integrations', path: `/app/o/${org}/integrations`, ready: h1() },
      {
        name: 'installation',
        path: `/app/o/${org}/integrations/announcer/installations/${installation.id}`,
        ready: async (page) => page.getByRole('region', { name: 'Configuration' }).getByLabel('Frequency').waitFor(),
      },
      { name: 'integration', path: '/app/integrations/announcer', ready: h1('Announcer') },
      { name: 'openapi', path: `/app/o/${org}/openapi`, ready: h1() },
      { name: 'openapi-spec', path: `/app/o/${org}/openapi/petstore`, ready: h1('petstore') },
      { name: 'translations', path: `/app/o/${org}/translations`, ready: h1() },
      { name: 'translation', path: `/app/o/${org}/translations/${translation.id}`, ready: h1('Handbook abroad') },
      { name: 'settings', path: `/app/o/${org}/settings`, ready: h1() },
      { name: 'sso', path: `/app/o/${org}/settings/sso`, ready: h1() },
      { name: 'audit-log', path: `/app/o/${org}/settings/audit`, ready: h1('Audit log') },
      { name: 'profile', path: '/app/settings/profile', ready: h1('Profile') },
      { name: 'tokens', path: '/app/settings/tokens', ready: h1('API tokens') },
      { name: 'trash', path: `/app/o/${org}/trash`, ready: h1('Trash') },
      { name: 'accept-invitation', path: new URL(invitation.url).pathname, as: 'nobody', ready: h1(/^Join/) },
      { name: 'not-found', path: `/app/o/${org}/nowhere/at/all`, ready: h1('Not found') },
      { name: 'git-sync-connected', path: `/app/s/${synced.id}/~/git`, ready: async (page) => page.getByRole('heading', { level: 2, name: /^Synced automatically/ }).waitFor() },
      {
        name: 'conflicts',
        path: `/app/s/${runbook.id}/~/changes/${weekends.number}`,
        ready: async (page) => {
          await page.getByRole('button', { name: 'Merge change request' }).click();
          const conflict = page.getByRole('region', { name: 'Conflicts with the space’s content' }).getByRole('group', { name: 'Conflict 1' });
          await conflict.waitFor();
          await conflict.scrollIntoViewIfNeeded();
        },
      },
      // The editor's floating widgets, each open as a person leaves it (last: the `/` menu types in the page).
      {
        name: 'editor-link-picker',
        path: `/app/s/${space.id}/~/edit/${guide}`,
        ready: async (page) => {
          await page.locator('.qe-content > p').first().getByText('dashboard').dblclick();
          await page.keyboard.press('Control+k');
          await page.getByRole('dialog', { name: 'Link' }).getByLabel('Link to a URL or a page').waitFor();
        },
      },
      {
        name: 'editor-block-menu',
        path: `/app/s/${space.id}/~/edit/${guide}`,
        ready: async (page) => {
          await page.locator('.qe-content > p').first().hover();
          await page.getByRole('button', { name: 'Block menu' }).click();
          await page.getByRole('menu').waitFor();
        },
      },
      {
        name: 'editor-slash-menu',
        path: `/app/s/${space.id}/~/edit/${guide}`,
        ready: async (page) => {
          await page.locator('.qe-content > p').first().click();
          await page.keyboard.press('End');
          await page.keyboard.press('Enter');
          await page.keyboard.type('/');
          await page.getByRole('listbox', { name: 'Insert a block' }).waitFor();
        },
      },
    ];
  });

  async function openScreen(width: number, theme: 'light' | 'dark', path: string, as?: Screen['as']): Promise<Page> {
    const options = { viewport: { width, height: width < 800 ? 844 : 900 }, colorScheme: theme };
    const page = as ? await openPage(suite.browser, options) : await suite.signedIn(undefined, options);
    if (as && as !== 'nobody') await signInAs(suite.t, page.context(), suite.origin, as.userId, as.organizationId);
    // The app's own theme switch, as a person who chose it left it (it sets data-theme on <html>).
    await page.addInitScript((chosen) => localStorage.setItem('quire-theme', chosen), theme);
    await page.goto(`${suite.origin}${path}`);
    await suite.settled(page);
    return page;
  }

  /** The theme as the app's switch leaves it: the choice kept, data-theme on <html>, and the system's to match. */
  async function switchTheme(page: Page, theme: 'light' | 'dark'): Promise<void> {
    await page.emulateMedia({ colorScheme: theme });
    await page.evaluate((chosen) => {
      localStorage.setItem('quire-theme', chosen);
      document.documentElement.setAttribute('data-theme', chosen);
    }, theme);
  }

  test('every screen at 390, 768 and 1,440px in both themes: the kit’s controls, axe-clean, no sideways scrolling on a phone', async (context) => {
    // KIT_SCREENS=editor,conflicts looks at those screens only (while fixing them); unset, at every screen.
    const only = process.env.KIT_SCREENS?.split(',');
    for (const screen of screens.filter((s) => !only || only.includes(s.name))) {
      await context.test(screen.name, async () => {
        const page = await openScreen(1440, 'light', screen.path, screen.as);
        await screen.ready(page);
        for (const theme of THEMES) {
          await switchTheme(page, theme);
          for (const width of WIDTHS) {
            await page.setViewportSize({ width, height: width < 800 ? 844 : 900 });
            // The layout at the new width, a frame later.
            await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
            const where = `${screen.name} at ${width}px, ${theme}`;
            assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), theme);
            assert.deepEqual(await controlsWithBrowserLook(page), [], `controls with the browser's look on ${where}`);
            await suite.assertAccessible(page, where);
            if (width < 800) {
              const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
              assert.ok(scrollWidth <= width, `${where}: no sideways scrolling (${scrollWidth}px)`);
            }
            await screenshot(page, `kit-${screen.name}-${width}-${theme}`);
          }
        }
        await page.context().close();
      });
    }
  });

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

  test('a list’s status filter is one radio group: the arrow keys move between its chips, Space chooses, the list and the URL follow', async () => {
    const { t } = suite;
    const space = await buildSpace(t, { title: 'Filtered' });
    await buildChangeRequest(t, space.id, { subject: 'Still open' });
    const page = await openScreen(390, 'light', `/app/s/${space.id}/~/changes`);
    const status = page.getByRole('radiogroup', { name: 'Status' });
    await page.getByRole('link', { name: /Still open/ }).waitFor();
    assert.deepEqual(await status.getByRole('radio', { checked: true }).allTextContents(), ['Open']);
    await status.getByRole('radio', { name: 'Open' }).focus();
    const focused = async (name: string) => page.waitForFunction((text) => document.activeElement?.textContent === text, name, { timeout: 5_000 });
    await page.keyboard.press('ArrowRight');
    await focused('Draft');
    await page.keyboard.press('ArrowRight');
    await focused('Merged');
    await page.keyboard.press('Space');
    await page.getByRole('heading', { name: 'No merged change request yet' }).waitFor();
    assert.match(page.url(), /\?status=merged$/);
    assert.deepEqual(await status.getByRole('radio', { checked: true }).allTextContents(), ['Merged']);
    // Choosing the chosen chip again keeps it: a filter always has a value.
    await status.getByRole('radio', { name: 'Merged' }).click();
    assert.deepEqual(await status.getByRole('radio', { checked: true }).allTextContents(), ['Merged']);
    await suite.assertAccessible(page, 'the change requests’ status filter');
    await page.context().close();
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

  test('the first screen, a person’s one organization, loads at most 200 KB of gzipped JavaScript', async (context) => {
    const { origin } = suite;
    const page = await suite.signedIn(undefined, { viewport: { width: 1440, height: 900 } });
    const scripts = new Map<string, Promise<number>>();
    page.on('response', (response) => {
      if (response.request().resourceType() === 'script' && response.url().startsWith(origin)) {
        scripts.set(response.url(), response.body().then((body) => gzipSync(body, { level: 9 }).length, () => 0));
      }
    });
    await page.goto(`${origin}/app/`);
    // The admin is in one organization, so the first screen is that organization's home.
    await page.waitForURL(`${origin}/app/o/${suite.t.org.id}`);
    await suite.settled(page);
    await page.waitForLoadState('networkidle');
    const sizes = await Promise.all(scripts.values());
    const total = sizes.reduce((sum, size) => sum + size, 0);
    context.diagnostic(`first screen: ${total} bytes of gzipped JavaScript in ${sizes.length} files`);
    assert.ok(total <= 200_000, `first screen: ${total} bytes of gzipped JavaScript in ${sizes.length} files`);
    await page.context().close();
  });
});
