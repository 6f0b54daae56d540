// @sqlite-run-only: the audit log screen in Chromium; what they change goes through the API, whose operations the API and end-to-end tests run on both databases.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { screenshot, withoutChromium } from '../../../test/browser.ts';
import { webAppSuite } from '../../../test/browser-suite.ts';
import { ok } from '../../../test/assertions.ts';
import { choose } from '../../../test/web-app.ts';

/*
 * The audit log screen (issue 46, part 3): an admin finds it in the organization's menu, reads the events,
 * filters them by action and by actor, loads more, and sets the retention; a member who is not an admin has no
 * entry for it.
 */
describe('the audit log screen in Chromium', { skip: withoutChromium, timeout: 300_000 }, () => {
  const web = webAppSuite();
  const { settled, assertAccessible } = web;

  test('an admin reads, filters and pages the audit log and sets its retention; a member sees no entry', async () => {
    const org = web.t.org.id;
    // More invite links than a page holds, so that "Load more" has something to load.
    for (let i = 0; i < 27; i += 1) ok(await web.t.api('POST', `/v1/orgs/${org}/link-invites`, { body: { role: 'read' } }), 201);
    // Events of one millisecond come in the order of their random ids: the token is made a second later, so it is newest.
    web.t.clock.advance(1000);
    const editor = await web.t.member('edit');
    ok(await web.t.api('POST', '/v1/user/tokens', { token: editor.token, body: { label: 'Editor script' } }), 201);

    const admin = await web.signedIn(web.t.admin.userId);
    await admin.goto(`${web.origin}/app/o/${org}`);
    await admin.getByRole('navigation', { name: 'Organization' }).getByRole('link', { name: 'Audit log' }).click();
    await admin.getByRole('heading', { name: 'Audit log', level: 1 }).waitFor();
    await settled(admin);
    const table = admin.getByRole('table', { name: 'Audit events, newest first' });
    await table.getByRole('cell', { name: 'API token created' }).first().waitFor();
    await assertAccessible(admin, 'audit log');
    await screenshot(admin, 'audit-log');

    const rowsBefore = await table.getByRole('row').count();
    await admin.getByRole('button', { name: 'Load more' }).click();
    await settled(admin);
    await admin.waitForFunction((n) => document.querySelectorAll('table tbody tr').length > n, rowsBefore - 1);

    await admin.getByLabel('Actor').fill(editor.userId);
    await admin.getByRole('button', { name: 'Filter' }).click();
    await settled(admin);
    await table.getByRole('cell', { name: 'Invite link created' }).first().waitFor({ state: 'detached' });
    await table.getByRole('cell', { name: 'API token created' }).first().waitFor();

    await admin.getByLabel('Actor').fill('');
    await admin.getByRole('button', { name: 'Filter' }).click();
    await table.getByRole('cell', { name: 'Invite link created' }).first().waitFor();
    await choose(admin.getByLabel('Action'), 'API token created');
    await settled(admin);
    await table.getByRole('cell', { name: 'Invite link created' }).first().waitFor({ state: 'detached' });
    assert.ok((await table.getByRole('cell', { name: 'API token created' }).count()) >= 1);

    await admin.getByLabel('Keep events for (days)').fill('90');
    await admin.getByRole('button', { name: 'Save retention' }).click();
    await admin.getByRole('status').filter({ hasText: 'Events are kept 90 days.' }).waitFor();
    assert.equal(ok(await web.t.api('GET', `/v1/orgs/${org}/audit-settings`)).retentionDays, 90);

    const member = await web.signedIn(editor.userId);
    await member.goto(`${web.origin}/app/o/${org}`);
    await member.getByRole('navigation', { name: 'Organization' }).getByRole('link', { name: 'Members' }).waitFor();
    assert.equal(await member.getByRole('link', { name: 'Audit log' }).count(), 0);
  });
});
