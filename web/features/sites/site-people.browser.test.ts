// @sqlite-run-only: a site's Sharing tab in Chromium; what they change goes through the API, whose operations the API and end-to-end tests run on both databases.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { screenshot, withoutChromium } from '../../../test/browser.ts';
import { webAppSuite } from '../../../test/browser-suite.ts';
import { ok } from '../../../test/assertions.ts';
import { choose } from '../../../test/web-app.ts';

/*
 * An admin gives a guest the admin role on a site from the site's Sharing tab: the guest, who could not open the
 * site, opens it and renames it; the role taken away, the site is out of the guest's sight again.
 */

describe("a site's people in Chromium", { skip: withoutChromium, timeout: 300_000 }, () => {
  const suite = webAppSuite();

  async function open(page: Page, url: string): Promise<void> {
    await page.goto(`${suite.origin}${url}`);
    await suite.settled(page);
  }

  test('a role given on the Sharing tab opens the site to a guest, and revoking it closes it', async () => {
    const { t } = suite;
    const org = t.org.id;
    const site = ok(await t.api('POST', `/v1/orgs/${org}/sites`, { body: { title: 'Partner portal' } }), 201);
    const guest = await t.member(null);
    const sitePage = `/app/o/${org}/sites/${site.id}`;

    const guestPage = await suite.signedIn(guest.userId);
    await open(guestPage, sitePage);
    await guestPage.getByRole('heading', { name: 'Not found' }).waitFor();

    const admin = await suite.signedIn();
    await open(admin, `${sitePage}/sharing`);
    const people = admin.getByRole('region', { name: 'People' });
    await people.getByText('Nobody yet.').waitFor();
    await choose(people.getByLabel('Member or team'), new RegExp(guest.email.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
    await choose(people.getByLabel('Role', { exact: true }), 'admin');
    await people.getByRole('button', { name: 'Give the role' }).click();
    const row = people.getByRole('listitem').filter({ hasText: 'User' });
    await people.getByRole('combobox', { name: /^Role of User/ }).waitFor();
    assert.equal(await row.count(), 1);
    const holder = people.getByRole('row').filter({ hasText: 'Given on this site' });
    await holder.waitFor();
    assert.match(await holder.innerText(), /\badmin\b/);
    await suite.assertAccessible(admin, "the site's sharing tab with a role given");
    await screenshot(admin, 'site-people');
    const grants = ok(await t.api('GET', `/v1/orgs/${org}/sites/${site.id}/permissions/users`));
    assert.deepEqual(grants.items.map((g: { user: { id: string }; permission: string }) => [g.user.id, g.permission]), [[guest.userId, 'admin']]);

    // The guest opens the site and, as its admin, renames it.
    await open(guestPage, sitePage);
    await guestPage.getByRole('heading', { name: 'Partner portal', level: 1 }).waitFor();
    const renamed = await t.api('PATCH', `/v1/orgs/${org}/sites/${site.id}`, { token: guest.token, body: { title: 'Partner hub' } });
    assert.equal(renamed.status, 200);

    // Revoked, the site is out of the guest's sight again.
    await people.getByRole('button', { name: /^Revoke User/ }).click();
    await admin.getByRole('alertdialog', { name: /^Revoke User.*access to the site\?$/ }).getByRole('button', { name: 'Revoke access' }).click();
    await people.getByText('Nobody yet.').waitFor();
    await open(guestPage, sitePage);
    await guestPage.getByRole('heading', { name: 'Not found' }).waitFor();
  });
});
