// @sqlite-run-only: the browser's side of a SAML sign-in; the assertion's checks, the account it proves and the session are tested on both databases (saml, sessions).
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { screenshot, withoutChromium } from '../../../test/browser.ts';
import { webAppSuite } from '../../../test/browser-suite.ts';
import { buildSpace, editLive } from '../../../test/factories.ts';
import { ok } from '../../../test/assertions.ts';
import { authnRequestOf, makeIdp, samlResponse, type TestIdp } from './idp.test-support.ts';

/*
 * Signing in as a person does: Chromium follows the organization's start URL to a tiny local identity
 * provider, whose page posts a signed SAML response back to our ACS by itself (HTTP-POST binding), and lands
 * on a private site of the organization. Skipped, with the reason, where Chromium is not installed.
 */

describe('SAML sign-in in Chromium', { skip: withoutChromium, timeout: 180_000 }, () => {
  const suite = webAppSuite();
  let idp: TestIdp;
  let idpServer: Server;
  /** Who the identity provider says is signing in, and the provider's service URLs it answers for. */
  const person = 'ada@example.com';
  let service = { acsURL: '', entityID: '' };
  /** A response the attacker's own sign-in obtained, which their page posts from the victim's browser. */
  let stolen = '';

  before(async () => {
    idp = await makeIdp();
    idpServer = createServer((req, res) => {
      const url = `http://${req.headers.host}${req.url}`;
      if (req.url === '/evil') {
        // Another site's page that posts a response the attacker obtained for their own sign-in (login CSRF).
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(`<!doctype html><html><body><form method="post" action="${service.acsURL}"><input type="hidden" name="SAMLResponse" value="${stolen.replace(/"/g, '&quot;')}"></form>
<script>document.forms[0].submit()</script></body></html>`);
        return;
      }
      const request = authnRequestOf(url);
      const response = samlResponse({ idp, acsURL: service.acsURL, audience: service.entityID, inResponseTo: request.id, email: person, attributes: { displayName: 'Ada Lovelace' } });
      const escape = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><html><body><p>Test IdP: signing in ${escape(person)}…</p>
<form method="post" action="${escape(service.acsURL)}"><input type="hidden" name="SAMLResponse" value="${escape(response)}"><input type="hidden" name="RelayState" value="${escape(request.relayState ?? '')}"></form>
<script>document.forms[0].submit()</script></body></html>`);
    });
    await new Promise<void>((resolve) => idpServer.listen(0, '127.0.0.1', resolve));
  });
  after(async () => {
    await new Promise((resolve) => idpServer?.close(resolve));
  });

  test('a member signs in through the identity provider and reads a private site of the organization', async () => {
    const { t, origin, browser } = suite;
    // The identity provider is another site than ours (localhost, not 127.0.0.1), as real ones are: its form's
    // POST to the ACS carries no SameSite=Lax cookie, and the step after it must still find the browser's.
    const idpUrl = `http://localhost:${(idpServer.address() as AddressInfo).port}/sso`;
    const provider = ok(
      await t.api('POST', `/v1/orgs/${t.org.id}/saml`, { body: { label: 'Test IdP', entityID: idp.entityID, ssoURL: idpUrl, certificate: idp.certificate, defaultRole: 'read' } }),
      201,
    );
    service = provider.service;
    const space = await buildSpace(t, { title: 'Handbook' });
    await editLive(t, space.id, [{ operation: 'insert_page', title: 'Onboarding', document: { markdown: 'Welcome aboard, colleague.' } }]);
    const site = ok(await t.api('POST', `/v1/orgs/${t.org.id}/sites`, { body: { title: 'Internal Handbook', visibility: 'share-link', spaces: [space.id] } }), 201);
    ok(await t.api('POST', `/v1/orgs/${t.org.id}/sites/${site.id}/publish`));
    const siteUrl = `${origin}/sites/${site.id}/`;

    const stranger = await (await browser.newContext()).newPage();
    assert.equal((await stranger.goto(siteUrl))!.status(), 404, 'the site is private');

    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${provider.service.startURL}?next=${encodeURIComponent(`/sites/${site.id}/`)}`);
    await page.waitForURL(siteUrl);
    await page.getByText('Welcome aboard, colleague.').waitFor();
    await screenshot(page, 'saml-sign-in');

    const cookies = await context.cookies(origin);
    const session = cookies.find((c) => c.name === 'quire_session');
    assert.ok(session, 'a session cookie');
    assert.equal(session.httpOnly, true);
    assert.equal(session.sameSite, 'Lax');

    // The API from a page of ours: reads with the cookie, writes with the CSRF token from the readable cookie.
    const calls = await page.evaluate(async (orgId) => {
      const csrf = /quire_csrf=([^;]+)/.exec(document.cookie)?.[1] ?? '';
      const me = await fetch('/v1/user');
      const user = (await me.json()) as { email: string };
      const without = await fetch(`/v1/orgs/${orgId}/ping`, { method: 'POST' });
      const ping = await fetch(`/v1/orgs/${orgId}/ping`, { method: 'POST', headers: { 'x-csrf-token': csrf } });
      return { me: me.status, email: user.email, without: without.status, ping: ping.status, csrfReadable: csrf.length > 0 };
    }, t.org.id);
    assert.deepEqual(calls, { me: 200, email: 'ada@example.com', without: 403, ping: 200, csrfReadable: true });
    const member = (await t.db.selectFrom('members').innerJoin('users', 'users.id', 'members.user_id').select(['members.sso', 'members.role']).where('users.email', '=', 'ada@example.com').executeTakeFirstOrThrow());
    assert.deepEqual({ sso: Number(member.sso), role: member.role }, { sso: 1, role: 'read' });

    // Signing out from the session page ends it: the private site is closed again.
    await page.goto(`${origin}/sso/session`);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByText('Your session has ended.').waitFor({ timeout: 5000 }).catch(async (error: unknown) => {
      throw new Error(`${String(error)}\n${await page.content()}`);
    });
    assert.equal((await page.goto(siteUrl))!.status(), 404);
  });

  test('a response posted by another site into a browser that did not start its sign-in opens no session there (login CSRF)', async () => {
    const { t, origin, browser } = suite;
    // The attacker starts a sign-in of their own (their cookie jar, not the victim's) and keeps the provider's answer.
    const start = await t.app.inject({ method: 'GET', url: new URL(`${origin}/sso/saml/${(await t.db.selectFrom('saml_providers').select('id').executeTakeFirstOrThrow()).id}/start`).pathname });
    assert.equal(start.statusCode, 302, start.body);
    const request = authnRequestOf(String(start.headers.location));
    stolen = samlResponse({ idp, acsURL: service.acsURL, audience: service.entityID, inResponseTo: request.id, email: 'mallory@example.com' });

    const victim = await browser.newContext();
    const page = await victim.newPage();
    await page.goto(`http://localhost:${(idpServer.address() as AddressInfo).port}/evil`);
    await page.getByText(/Sign-in failed/).waitFor();
    await page.getByText(/started in another browser/).waitFor();
    await screenshot(page, 'saml-login-csrf');
    const cookies = await victim.cookies(origin);
    assert.equal(cookies.find((c) => c.name === 'quire_session'), undefined, 'no session in the victim\'s browser');
    await victim.close();
  });
});
