// @sqlite-run-only: the people, teams and sharing screens in Chromium; what they change goes through the API, whose operations the API and end-to-end tests run on both databases.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { screenshot, withoutChromium } from '../../../test/browser.ts';
import { webAppSuite } from '../../../test/browser-suite.ts';
import { ok } from '../../../test/assertions.ts';
import { buildPage, buildSpace } from '../../../test/factories.ts';
import { choose } from '../../../test/web-app.ts';

/*
 * Managing people in the browser as an admin does (issue 30, part 5): invite two people by e-mail, find one by
 * search, make a team with one of them, share a space with the team as `edit`, and see that this one can edit
 * the space, signed in in a second browser context, while the other cannot. Then the SSO settings.
 */
describe('people: members, teams and sharing in Chromium', { skip: withoutChromium, timeout: 300_000 }, () => {
  const web = webAppSuite();
  const { settled, assertAccessible } = web;

  const signedIn = (userId: string): Promise<Page> => web.signedIn(userId);

  async function memberId(email: string): Promise<string> {
    const list = ok(await web.t.api('GET', `/v1/orgs/${web.t.org.id}/members?search=${encodeURIComponent(email)}`));
    assert.equal(list.items.length, 1, `one member ${email}`);
    return list.items[0].id as string;
  }

  test('an admin invites two people, makes a team of one, shares a space with it as edit: that one edits, the other cannot', async () => {
    const space = await buildSpace(web.t, { title: 'Handbook' });
    await buildPage(web.t, space.id as string, { title: 'Guide', markdown: 'Welcome aboard.' });
    const admin = await signedIn(web.t.admin.userId);

    // Members: invite two people with the read role.
    await admin.goto(`${web.origin}/app/o/${web.t.org.id}`);
    await admin.getByRole('navigation', { name: 'Organization' }).getByRole('link', { name: 'Members' }).click();
    await settled(admin);
    const invite = admin.getByRole('region', { name: 'Invite a member' });
    for (const email of ['ada@example.com', 'bob@example.com']) {
      await invite.getByLabel('Email').fill(email);
      await choose(invite.getByLabel('Role'), 'read');
      await invite.getByRole('button', { name: 'Invite' }).click();
      await invite.getByRole('status').filter({ hasText: `${email} is invited` }).waitFor();
    }
    const table = admin.getByRole('table');
    await table.getByRole('cell', { name: 'bob@example.com' }).waitFor();
    await assertAccessible(admin, 'members');
    await screenshot(admin, 'people-members');

    // Search by e-mail and filter by role, through the list's query parameters.
    await admin.getByLabel('Search by name or e-mail').fill('ada@');
    await table.getByRole('cell', { name: 'bob@example.com' }).waitFor({ state: 'detached' });
    assert.equal(await table.getByRole('cell', { name: 'ada@example.com' }).count(), 1);
    await admin.getByLabel('Search by name or e-mail').fill('');
    await choose(admin.getByLabel('Filter by role'), 'admin');
    await table.getByRole('cell', { name: 'ada@example.com' }).waitFor({ state: 'detached' });
    await choose(admin.getByLabel('Filter by role'), 'All roles');
    await table.getByRole('cell', { name: 'ada@example.com' }).waitFor();
    const [ada, bob] = [await memberId('ada@example.com'), await memberId('bob@example.com')];

    // Teams: create one and put Ada in it.
    await admin.getByRole('navigation', { name: 'Organization' }).getByRole('link', { name: 'Teams' }).click();
    await settled(admin);
    await admin.getByLabel('Team name').fill('Writers');
    await admin.getByRole('button', { name: 'Create team' }).click();
    await admin.getByRole('link', { name: 'Writers' }).click();
    await admin.getByRole('heading', { name: 'Writers', level: 1 }).waitFor();
    await settled(admin);
    await choose(admin.getByLabel('Member to add'), /ada@example\.com/);
    await admin.getByRole('button', { name: 'Add to team' }).click();
    await admin.getByRole('cell', { name: 'ada@example.com' }).waitFor();
    await assertAccessible(admin, 'team');
    await screenshot(admin, 'people-team');
    const team = ok(await web.t.api('GET', `/v1/orgs/${web.t.org.id}/teams/${admin.url().split('/teams/')[1]}/members`));
    assert.deepEqual(team.items.map((m: { organization: { id: string } }) => m.organization.id), [ada]);

    // The member screen shows Ada's team.
    await admin.goto(`${web.origin}/app/o/${web.t.org.id}/members/${ada}`);
    await settled(admin);
    await admin.getByRole('region', { name: 'Teams' }).getByRole('link', { name: 'Writers' }).waitFor();
    await assertAccessible(admin, 'member');

    // Share the space with the team as edit.
    await admin.goto(`${web.origin}/app/o/${web.t.org.id}/s/${space.id}`);
    await admin.getByRole('button', { name: 'Share' }).click();
    const dialog = admin.getByRole('dialog', { name: 'Share Handbook' });
    await choose(dialog.getByLabel('Member or team'), 'Writers');
    await choose(dialog.getByLabel('Level', { exact: true }), 'edit');
    await dialog.getByRole('button', { name: 'Give access' }).click();
    await dialog.getByRole('combobox', { name: 'Level of Team Writers' }).waitFor();
    // Who has access says why: Ada through the team, Bob by the organization role.
    const viaTeam = dialog.getByRole('row').filter({ has: admin.getByRole('cell', { name: /Team Writers \(edit\)/ }) });
    await viaTeam.waitFor();
    assert.equal(await viaTeam.count(), 1, 'only Ada is in the team');
    assert.match(await viaTeam.innerText(), /\bedit\b/);
    assert.match(await dialog.getByRole('row').filter({ hasText: 'Organization role (read)' }).innerText(), /read/);
    await assertAccessible(admin, 'share dialog');
    await screenshot(admin, 'people-share-dialog');
    const teamGrants = ok(await web.t.api('GET', `/v1/spaces/${space.id}/permissions/teams`));
    assert.deepEqual(teamGrants.items.map((g: { permission: string }) => g.permission), ['edit']);

    // Ada, in the team, edits; Bob, a reader, cannot.
    const adaPage = await signedIn(ada);
    await adaPage.goto(`${web.origin}/app/s/${space.id}/guide`);
    await adaPage.getByRole('link', { name: 'Edit “Guide”' }).click();
    await adaPage.getByLabel('Page title').fill('Guide for writers');
    await adaPage.getByRole('status', { name: 'Save status' }).filter({ hasText: /^Saved/ }).waitFor({ timeout: 15_000 });
    const bobPage = await signedIn(bob);
    await bobPage.goto(`${web.origin}/app/o/${web.t.org.id}/s/${space.id}`);
    await settled(bobPage);
    await screenshot(bobPage, 'people-reader');
    await bobPage.getByRole('heading', { name: /Guide/ }).first().waitFor();
    assert.equal(await bobPage.getByRole('link', { name: /^Edit/ }).count(), 0, 'Bob sees no Edit');
    assert.equal(await bobPage.getByRole('button', { name: 'Share' }).count(), 0, 'Bob cannot share');

    // Disabling Bob shuts him out; he comes back when enabled.
    await admin.goto(`${web.origin}/app/o/${web.t.org.id}/members`);
    await settled(admin);
    // Disabling asks first.
    await admin.getByRole('button', { name: 'Disable bob' }).click();
    await admin.getByRole('alertdialog', { name: 'Disable bob?' }).getByRole('button', { name: 'Disable bob' }).click();
    await admin.getByRole('button', { name: 'Enable bob' }).waitFor();
    assert.equal(ok(await web.t.api('GET', `/v1/orgs/${web.t.org.id}/members/${bob}`)).disabled, true);
    // His session, opened through the organization, has ended: the app asks him to sign in.
    await bobPage.reload();
    await bobPage.getByRole('heading', { name: 'Sign in to Quire' }).waitFor();
    await admin.getByRole('button', { name: 'Enable bob' }).click();
    await admin.getByRole('button', { name: 'Disable bob' }).waitFor();
    assert.equal(ok(await web.t.api('GET', `/v1/orgs/${web.t.org.id}/members/${bob}`)).disabled, false);
    await adaPage.context().close();
    await bobPage.context().close();
    await admin.context().close();
  });

  test('an admin adds a SAML provider with a default role and team, and deletes it; an OpenID Connect provider has a default team too', async () => {
    ok(await web.t.api('PUT', `/v1/orgs/${web.t.org.id}/teams`, { body: { title: 'Newcomers' } }), 201);
    const admin = await signedIn(web.t.admin.userId);
    await admin.goto(`${web.origin}/app/o/${web.t.org.id}`);
    await admin.getByRole('navigation', { name: 'Organization' }).getByRole('link', { name: 'Single sign-on' }).click();
    await settled(admin);
    const add = admin.getByRole('form', { name: 'Add a SAML provider' });
    await add.getByLabel('Name on the sign-in page').fill('Okta');
    await choose(add.getByLabel('Default role of newcomers'), 'comment');
    await choose(add.getByLabel('Default team of newcomers'), 'Newcomers');
    await add.getByRole('button', { name: 'Add SAML provider' }).click();
    const panel = admin.getByRole('article', { name: /Okta/ });
    await panel.waitFor();
    await panel.getByText('pending').waitFor();
    await assertAccessible(admin, 'SSO settings');
    await screenshot(admin, 'people-sso', { fullPage: true });
    const providers = ok(await web.t.api('GET', `/v1/orgs/${web.t.org.id}/saml`));
    assert.equal(providers.items[0].defaultRole, 'comment');
    assert.equal(providers.items[0].defaultTeam?.title, 'Newcomers');

    // A wrong sign-in URL: the API's message shows beside the form, what was typed stays.
    await panel.getByLabel('Identity provider sign-in URL').fill('not a url');
    await panel.getByLabel('Identity provider sign-in URL').evaluate((input: HTMLInputElement) => (input.type = 'text'));
    await panel.getByRole('button', { name: 'Save Okta' }).click();
    await panel.getByRole('alert').waitFor();
    assert.equal(await panel.getByLabel('Identity provider sign-in URL').inputValue(), 'not a url');

    await panel.getByRole('button', { name: 'Delete Okta' }).click();
    await admin.getByRole('alertdialog', { name: 'Delete the SAML provider Okta?' }).getByRole('button', { name: 'Delete Okta' }).click();
    await admin.getByRole('heading', { name: 'No SAML provider yet' }).waitFor();
    assert.equal(ok(await web.t.api('GET', `/v1/orgs/${web.t.org.id}/saml`)).items.length, 0);

    // An OpenID Connect provider has a default team too.
    const oidc = admin.getByRole('form', { name: 'Add an OpenID Connect provider' });
    await oidc.getByLabel('Name on the sign-in page').fill('Keycloak');
    await oidc.getByLabel('Issuer URL').fill('https://login.example.com/realms/docs');
    await oidc.getByLabel('Client ID').fill('quire');
    await oidc.getByLabel('Client secret').fill('s3cret');
    await choose(oidc.getByLabel('Default team of newcomers'), 'Newcomers');
    await oidc.getByRole('button', { name: 'Add OpenID Connect provider' }).click();
    const oidcPanel = admin.getByRole('article', { name: /Keycloak/ });
    await oidcPanel.waitFor();
    assert.equal(await oidcPanel.getByLabel('Default team of newcomers').textContent(), 'Newcomers');
    assert.equal(ok(await web.t.api('GET', `/v1/orgs/${web.t.org.id}/oidc`)).items[0].defaultTeam?.title, 'Newcomers');
    await choose(oidcPanel.getByLabel('Default team of newcomers'), 'No team');
    await oidcPanel.getByRole('button', { name: 'Save Keycloak' }).click();
    for (let i = 0; i < 50 && ok(await web.t.api('GET', `/v1/orgs/${web.t.org.id}/oidc`)).items[0].defaultTeam; i++) await admin.waitForTimeout(100);
    assert.equal(ok(await web.t.api('GET', `/v1/orgs/${web.t.org.id}/oidc`)).items[0].defaultTeam, undefined);
    await admin.context().close();
  });
});
