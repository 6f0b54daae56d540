import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { assertError, ok } from '../../../test/assertions.ts';
import type { TestServer } from '../../../test/helpers.ts';
import { startMailingServer, type SmtpSink } from '../../../test/smtp-sink.ts';
import { dnsLookup } from './service.ts';

/*
 * An organization's verified domains (docs/sso.md): added by an admin, verified by a DNS TXT record or by a link
 * mailed to an address of the domain, whose page confirms only with its button (a mail scanner opening the link
 * verifies nothing); a link works once, for a day.
 */
describe('verified domains', () => {
  let t: TestServer;
  let smtp: SmtpSink;
  let close: () => Promise<void>;
  before(async () => ({ t, smtp, close } = await startMailingServer()));
  after(() => close?.());

  const domains = () => `/v1/orgs/${t.org.id}/sso/domains`;
  const add = async (domain: string) => ok(await t.api('POST', domains(), { body: { domain } }), 201);
  const verify = (id: string, body: unknown) => t.api('POST', `${domains()}/${id}/verify`, { body });
  /** The token of the verification link in the last mail to `to`. */
  const mailedToken = async (to: string) => {
    const body = (await smtp.next(to)).raw.replace(/=\r?\n/g, '');
    const match = /\/sso\/domains\/verify\/([\w-]+)/.exec(body);
    assert.ok(match, `no verification link in the mail:\n${body}`);
    return match[1]!;
  };

  test('an admin adds a domain, once, by its name; a name that is not one is refused', async () => {
    const added = await add('Docs.Example.ORG.');
    assert.equal(added.domain, 'docs.example.org');
    assert.equal(added.verified, false);
    assert.match(added.txtRecord.name, /docs\.example\.org$/);
    assertError(await t.api('POST', domains(), { body: { domain: 'docs.example.org' } }), 409, 'body/domain');
    assertError(await t.api('POST', domains(), { body: { domain: 'not a domain' } }), 400, 'body/domain');
    const member = await t.member('edit');
    assertError(await t.api('POST', domains(), { token: member.token, body: { domain: 'other.example' } }), 403);
  });

  test('the DNS record verifies a domain when it is there, and says what it looked for when not', async () => {
    const added = await add('dns.example.net');
    assertError(await verify(added.id, { method: 'dns' }), 400, added.txtRecord.value);
    const real = dnsLookup.resolveTxt;
    dnsLookup.resolveTxt = async (name) => (name === added.txtRecord.name ? [['unrelated'], [added.txtRecord.value]] : real(name));
    try {
      const verified = ok(await verify(added.id, { method: 'dns' }));
      assert.equal(verified.verified, true);
    } finally {
      dnsLookup.resolveTxt = real;
    }
  });

  test('a mailed link: only to an address of the domain; opening it shows a page, its button verifies, once', async () => {
    const added = await add('mail.example.com');
    assertError(await verify(added.id, { method: 'email', email: 'it@elsewhere.example' }), 400, 'body/email must be an address of mail.example.com');
    assertError(await verify(added.id, { method: 'email', email: 'nonsense' }), 400, 'body/email');
    assertError(await verify(added.id, { method: 'email' }), 400, 'body/email is required');
    assertError(await verify(added.id, { method: 'post' }), 400, 'body/method');
    const sent = ok(await verify(added.id, { method: 'email', email: 'IT@mail.example.com' }));
    assert.equal(sent.mailedTo, 'it@mail.example.com');
    assert.equal(sent.verified, false);
    const token = await mailedToken('it@mail.example.com');

    const page = await t.api('GET', `/sso/domains/verify/${token}`, { token: null });
    assert.equal(page.status, 200);
    assert.match(String(page.body), /mail\.example\.com/);
    const listed = ok(await t.api('GET', domains())).items.find((d: { id: string }) => d.id === added.id);
    assert.equal(listed.verified, false, 'opening the link verifies nothing');

    const confirmed = await t.api('POST', `/sso/domains/verify/${token}`, { token: null });
    assert.equal(confirmed.status, 200);
    const after = ok(await t.api('GET', domains())).items.find((d: { id: string }) => d.id === added.id);
    assert.equal(after.verified, true);
    assert.equal((await t.api('POST', `/sso/domains/verify/${token}`, { token: null })).status, 404, 'a link works once');
  });

  test('a mailed link stops working after a day, and a newer link replaces it', async () => {
    const added = await add('late.example.com');
    ok(await verify(added.id, { method: 'email', email: 'a@late.example.com' }));
    const first = await mailedToken('a@late.example.com');
    ok(await verify(added.id, { method: 'email', email: 'b@late.example.com' }));
    const second = await mailedToken('b@late.example.com');
    assert.equal((await t.api('GET', `/sso/domains/verify/${first}`, { token: null })).status, 404, 'the older link was replaced');
    t.clock.advance(24 * 60 * 60_000 + 1);
    assert.equal((await t.api('POST', `/sso/domains/verify/${second}`, { token: null })).status, 404, 'a day later the link has expired');
    const listed = ok(await t.api('GET', domains())).items.find((d: { id: string }) => d.id === added.id);
    assert.equal(listed.verified, false);
  });
});
