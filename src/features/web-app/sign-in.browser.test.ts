// @sqlite-run-only: signing in in Chromium; invitations, links, passwords and sessions are tested through the auth API on both databases.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { describe, test } from 'node:test';
import { openPage, screenshot, withoutChromium } from '../../../test/browser.ts';
import { webAppSuite } from '../../../test/browser-suite.ts';
import { ok } from '../../../test/assertions.ts';
import { choose, seriousViolations } from '../../../test/web-app.ts';
import { authnRequestOf, makeIdp, samlResponse } from '../saml/idp.test-support.ts';
import { startOidcProvider } from '../../../test/oidc-provider.ts';

/*
 * Signing in to the web app as a person does, through the /v1/auth API (features/auth): an admin invites someone
 * on the Members screen and hands over the one-time link; the person opens it, chooses a password and is in;
 * later they sign in with it. Personal API tokens are made and revoked on their screen and used with curl.
 * Each test needs its routes, and says so when the server has none.
 */

const run = promisify(execFile);

describe('signing in to the web app in Chromium', { skip: withoutChromium, timeout: 300_000 }, () => {
  // The OpenID Connect provider of a test listens on 127.0.0.1: the server must be allowed to fetch from it.
  const suite = webAppSuite({ env: { ALLOW_PRIVATE_FETCH: '1' } });
  const needs = (method: 'GET' | 'POST', url: string) => (suite.t.app.hasRoute({ method, url }) ? false : `the server has no ${method} ${url} yet`);

  async function memberByEmail(organizationId: string, email: string): Promise<string | undefined> {
    const members = ok(await suite.t.api('GET', `/v1/orgs/${organizationId}/members`)).items as { id: string; user: { email: string } }[];
    return members.find((m) => m.user.email === email)?.id;
  }

  test('an invited person accepts the link, chooses a password, and signs in with it later', async (context) => {
    const { t, origin } = suite;
    const missing = needs('POST', '/v1/auth/invitations') || needs('POST', '/v1/auth/sign-in');
    if (missing) return context.skip(missing);
    const admin = await suite.signedIn();
    await admin.goto(`${origin}/app/o/${t.org.id}/members`);
    await admin.getByLabel('Email').fill('grace@example.com');
    await choose(admin.getByLabel('Role', { exact: true }), 'edit');
    await admin.getByRole('button', { name: 'Invite', exact: true }).click();
    const link = await admin.getByLabel('Invitation link').inputValue();
    assert.match(link, /\/app\/auth\/link\/[\w-]+$/);
    await screenshot(admin, 'web-app-invite');

    const person = await openPage(suite.browser);
    await person.goto(link);
    await person.getByRole('heading', { name: /^Join/ }).waitFor();
    assert.deepEqual(await seriousViolations(person), []);
    await person.getByLabel('Your name').fill('Grace Hopper');
    await person.getByLabel('Password').fill('short');
    await person.getByRole('button', { name: 'Accept invitation' }).click();
    // The browser refuses it first (minlength); the API's message shows when it does not.
    assert.equal(await person.getByLabel('Password').evaluate((input: HTMLInputElement) => input.validity.tooShort), true);
    await person.getByLabel('Password').fill('correct horse battery');
    await person.getByRole('button', { name: 'Accept invitation' }).click();
    await person.waitForURL(`${origin}/app/o/${t.org.id}`);
    await person.getByRole('button', { name: 'Account of Grace Hopper' }).or(person.getByText('Grace Hopper')).first().waitFor();
    const member = (ok(await t.api('GET', `/v1/orgs/${t.org.id}/members`)).items as { role: string; user: { email: string } }[]).find((m) => m.user.email === 'grace@example.com');
    assert.equal(member?.role, 'edit');

    const later = await openPage(suite.browser);
    await later.goto(`${origin}/app/o/${t.org.id}`);
    await later.getByLabel('Email').fill('grace@example.com');
    await later.getByLabel('Password').fill('wrong password');
    await later.getByRole('button', { name: 'Sign in' }).click();
    await later.getByRole('alert').waitFor();
    assert.match((await later.getByRole('alert').textContent())!, /incorrect/);
    assert.equal(await later.getByLabel('Email').inputValue(), 'grace@example.com', 'what was typed is kept');
    await later.getByLabel('Password').fill('correct horse battery');
    await later.getByRole('button', { name: 'Sign in' }).click();
    await later.waitForURL(`${origin}/app/o/${t.org.id}`);
    await screenshot(later, 'web-app-signed-in');
  });

  test('an invite link: a newcomer creates an account and joins, a member signs in and joins, a revoked link says so', async () => {
    const { t, origin } = suite;
    const admin = await suite.signedIn();
    await admin.goto(`${origin}/app/o/${t.org.id}/members`);
    await choose(admin.getByLabel('Role of the link'), 'comment');
    await admin.getByRole('button', { name: 'Create invite link' }).click();
    const link = await admin.getByLabel('Invite link (comment)').inputValue();
    assert.match(link, new RegExp(`^${origin}/app/o/${t.org.id}/join/[\\w-]+$`));
    const title = ok(await t.api('GET', `/v1/orgs/${t.org.id}`)).title as string;

    // A newcomer opens it signed out: the API's refusal shows next to the form and keeps what was typed.
    const newcomer = await openPage(suite.browser);
    await newcomer.goto(link);
    await newcomer.getByRole('heading', { level: 1, name: `Join ${title}` }).waitFor();
    assert.match((await newcomer.locator('main').textContent())!, /join as comment/);
    assert.deepEqual(await seriousViolations(newcomer), []);
    await screenshot(newcomer, 'web-app-join');
    const signUp = newcomer.getByRole('form', { name: 'New here? Create an account' });
    await signUp.getByLabel('Your name').fill('Katherine Johnson');
    await signUp.getByLabel('Email').fill('admin@quire.test');
    await signUp.getByLabel('Password').fill('orbital mechanics');
    await signUp.getByRole('button', { name: 'Create account and join' }).click();
    await signUp.getByRole('alert').waitFor();
    assert.match((await signUp.getByRole('alert').textContent())!, /already has an account; sign in/);
    assert.equal(await signUp.getByLabel('Your name').inputValue(), 'Katherine Johnson', 'what was typed is kept');
    await signUp.getByLabel('Email').fill('katherine@example.com');
    await signUp.getByRole('button', { name: 'Create account and join' }).click();
    await newcomer.waitForURL(`${origin}/app/o/${t.org.id}`);
    await newcomer.getByText('Katherine Johnson').first().waitFor();
    const members = ok(await t.api('GET', `/v1/orgs/${t.org.id}/members`)).items as { role: string | null; user: { email: string } }[];
    assert.equal(members.find((m) => m.user.email === 'katherine@example.com')?.role, 'comment');

    // Signed in, a link of another organization is one button away.
    const other = ok(await t.api('POST', '/v1/orgs', { body: { title: 'Orbits' } }), 201);
    const otherInvite = ok(await t.api('POST', `/v1/orgs/${other.id}/link-invites`, { body: { role: 'edit' } }), 201).id as string;
    await newcomer.goto(`${origin}/app/o/${other.id}/join/${otherInvite}`);
    await newcomer.getByRole('button', { name: 'Join Orbits' }).click();
    await newcomer.waitForURL(`${origin}/app/o/${other.id}`);
    assert.equal(ok(await t.api('GET', `/v1/orgs/${other.id}/members/${(await memberByEmail(other.id, 'katherine@example.com'))!}`)).role, 'edit');

    // Signed out, a person with an account signs in on the join screen and joins.
    const third = ok(await t.api('POST', '/v1/orgs', { body: { title: 'Trajectories' } }), 201);
    const thirdInvite = ok(await t.api('POST', `/v1/orgs/${third.id}/link-invites`, { body: { role: 'read' } }), 201).id as string;
    const returning = await openPage(suite.browser);
    await returning.goto(`${origin}/app/o/${third.id}/join/${thirdInvite}`);
    const signIn = returning.getByRole('form', { name: 'Sign in to join' });
    await signIn.getByLabel('Email').fill('katherine@example.com');
    await signIn.getByLabel('Password').fill('orbital mechanics');
    await signIn.getByRole('button', { name: 'Sign in and join' }).click();
    await returning.waitForURL(`${origin}/app/o/${third.id}`);
    assert.ok(await memberByEmail(third.id, 'katherine@example.com'));

    // Revoked by the admin, the link says it no longer works.
    await admin.getByRole('button', { name: 'Revoke the comment link' }).click();
    await admin.getByRole('alertdialog', { name: 'Revoke the comment link?' }).getByRole('button', { name: 'Revoke link' }).click();
    await admin.getByLabel('Invite link (comment)').waitFor({ state: 'detached' });
    const late = await openPage(suite.browser);
    await late.goto(link);
    await late.getByRole('alert').waitFor();
    assert.match((await late.getByRole('alert').textContent())!, /no longer valid/);
    assert.equal(await late.getByRole('form').count(), 0);
    assert.deepEqual(await seriousViolations(late), []);
    await screenshot(late, 'web-app-join-revoked');
  });

  test('a personal API token is created, copied once, used with curl, and revoked', async (context) => {
    const { origin } = suite;
    const missing = needs('POST', '/v1/user/tokens');
    if (missing) return context.skip(missing);
    const page = await suite.signedIn();
    await page.goto(`${origin}/app/settings/tokens`);
    await page.getByLabel('Label').fill('CI');
    await page.getByRole('button', { name: 'Create token' }).click();
    const token = await page.getByLabel('New token').inputValue();
    assert.ok(token.length > 20);
    const curl = (value: string) => run('curl', ['-s', '-o', '/dev/null', '-w', '%{http_code}', '-H', `Authorization: Bearer ${value}`, `${origin}/v1/user`]).then((r) => r.stdout);
    assert.equal(await curl(token), '200');
    assert.deepEqual(await seriousViolations(page), []);
    await screenshot(page, 'web-app-tokens');
    await page.reload();
    assert.equal(await page.getByLabel('New token').count(), 0, 'shown once');
    await page.getByRole('button', { name: 'Revoke CI' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Revoke the token CI?' });
    await confirm.getByRole('button', { name: 'Revoke token' }).click();
    // The dialog closes once the server has revoked the token. Until then the page behind it is hidden from the
    // accessibility tree, so a wait for the "Revoke CI" button to go would end at once (CI sent curl before the
    // revocation under load, and got 200).
    await confirm.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Revoke CI' }).waitFor({ state: 'detached' });
    assert.equal(await curl(token), '401');
  });

  test('a member signs in through the organization’s SAML identity provider and lands where they were going', async (context) => {
    const { t, origin } = suite;
    const missing = needs('GET', '/v1/auth/providers');
    if (missing) return context.skip(missing);
    const idp = await makeIdp();
    let service = { acsURL: '', entityID: '' };
    const idpServer: Server = createServer((req, res) => {
      const request = authnRequestOf(`http://${req.headers.host}${req.url}`);
      const response = samlResponse({ idp, acsURL: service.acsURL, audience: service.entityID, inResponseTo: request.id, email: 'ada@example.com', attributes: { displayName: 'Ada Lovelace' } });
      const escape = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><form method="post" action="${escape(service.acsURL)}"><input type="hidden" name="SAMLResponse" value="${escape(response)}"><input type="hidden" name="RelayState" value="${escape(request.relayState ?? '')}"></form><script>document.forms[0].submit()</script>`);
    });
    await new Promise<void>((resolve) => idpServer.listen(0, '127.0.0.1', resolve));
    try {
      const ssoURL = `http://127.0.0.1:${(idpServer.address() as AddressInfo).port}/sso`;
      const provider = ok(await t.api('POST', `/v1/orgs/${t.org.id}/saml`, { body: { label: 'Test IdP', entityID: idp.entityID, ssoURL, certificate: idp.certificate, defaultRole: 'read' } }), 201);
      service = provider.service;
      const page = await openPage(suite.browser);
      await page.goto(`${origin}/app/o/${t.org.id}`);
      await page.getByRole('link', { name: 'Sign in with Test IdP' }).click();
      await page.waitForURL(`${origin}/app/o/${t.org.id}`);
      await page.getByText('Ada Lovelace').first().waitFor();
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      await screenshot(page, 'web-app-saml');
    } finally {
      await new Promise((resolve) => idpServer.close(resolve));
    }
  });

  test('a person signs in through the organization’s OpenID Connect provider, joins it and lands where they were going', async () => {
    const { t, origin } = suite;
    const idp = await startOidcProvider();
    try {
      const owner = await t.outsider();
      const provider = ok(
        await t.api('POST', `/v1/orgs/${owner.organizationId}/oidc`, {
          token: owner.token,
          body: { label: 'Company login', issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret, defaultRole: 'comment' },
        }),
        201,
      );
      idp.allowRedirect(provider.service.redirectURL);
      idp.signInAs({ email: 'dorothy@example.com', name: 'Dorothy Vaughan' });

      // Where they were going: the organization's members screen, which first asks them to sign in.
      const page = await openPage(suite.browser);
      await page.goto(`${origin}/app/o/${owner.organizationId}/members`);
      await page.waitForURL(/\/app\/sign-in\?returnTo=/);
      await page.getByRole('link', { name: 'Sign in with Company login' }).waitFor();
      assert.deepEqual(await seriousViolations(page), []);
      await screenshot(page, 'web-app-oidc-sign-in');
      await page.getByRole('link', { name: 'Sign in with Company login' }).click();
      // The browser goes to the provider, which signs Dorothy in, and comes back through Quire's callback.
      await page.waitForURL(`${origin}/app/o/${owner.organizationId}/members`);
      await page.getByRole('heading', { level: 1, name: 'Members' }).waitFor();
      await page.getByRole('button', { name: 'Account of Dorothy Vaughan' }).or(page.getByText('Dorothy Vaughan').first()).first().waitFor();
      assert.deepEqual(await seriousViolations(page), []);
      await screenshot(page, 'web-app-oidc-signed-in');

      const session = await page.evaluate(async () => (await fetch('/v1/auth/session')).json());
      assert.equal(session.session.method, 'oidc');
      assert.equal(session.session.organizationId, owner.organizationId);
      const members = ok(await t.api('GET', `/v1/orgs/${owner.organizationId}/members`, { token: owner.token })).items as { role: string | null; sso?: boolean; user: { email: string } }[];
      const dorothy = members.find((m) => m.user.email === 'dorothy@example.com');
      assert.equal(dorothy?.role, 'comment', 'joined with the provider’s default role');
    } finally {
      await idp.close();
    }
  });
});
