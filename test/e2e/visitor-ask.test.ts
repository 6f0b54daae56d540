import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { SignJWT } from 'jose';
import { startAiProvider, type AiProviderDouble } from '../ai-provider.ts';
import { ok } from '../assertions.ts';
import { buildSpace, editLive } from '../factories.ts';
import { listenOnRandomPort, startServer, type TestServer } from '../helpers.ts';

/*
 * A published site's own Ask (`~gitbook/ask`, issue 45) applies the visitor's access, checked on the prompt the
 * provider double received: a visitor's claims open adaptive pages and blocks, a section and a site-space variant
 * whose condition they do not meet stay out, and so does a hidden page. Without a browser: the screens' own test
 * (src/features/reader/ask.browser.test.ts) runs only where Chromium is.
 */

describe("a site's Ask and what each visitor may read", { timeout: 120_000 }, () => {
  let t: TestServer;
  let origin: string;
  let provider: AiProviderDouble;
  let siteId = '';
  let sign: (claims: Record<string, unknown>) => Promise<string>;

  before(async () => {
    provider = await startAiProvider();
    t = await startServer({ env: { AI_PROVIDER_URL: provider.url, AI_CHAT_MODEL: 'double-chat' } });
    origin = await listenOnRandomPort(t);
    const org = t.org.id;
    const guides = await buildSpace(t, { title: 'Guides' });
    await editLive(t, guides.id, [
      { operation: 'insert_page', title: 'Home', document: { markdown: 'The private guides.' } },
      { operation: 'insert_page', title: 'Vault basics', document: { markdown: 'The vault is opened with a badge at the front desk.' } },
      { operation: 'insert_page', title: 'Beta features', condition: 'visitor.claims.beta === true', document: { markdown: 'Beta share links never expire.' } },
      { operation: 'insert_page', title: 'Passwords', document: { markdown: 'Passwords are kept in the vault.\n\n{% if visitor.claims.beta === true %}\nThe beta vault password is hunter2.\n{% endif %}\n' } },
      { operation: 'insert_page', title: 'Internal notes', hidden: true, document: { markdown: 'The vault is audited by the night shift.' } },
    ]);
    const partners = await buildSpace(t, { title: 'Partners' });
    await editLive(t, partners.id, [{ operation: 'insert_page', title: 'Partner vault', document: { markdown: 'Partners open the vault with the partner key.' } }]);
    const nightly = await buildSpace(t, { title: 'Nightly' });
    await editLive(t, nightly.id, [{ operation: 'insert_page', title: 'Nightly vault', document: { markdown: 'Nightly builds keep the vault in the cloud.' } }]);

    const site = ok(await t.api('POST', `/v1/orgs/${org}/sites`, { body: { title: 'Beta Docs', visibility: 'visitor-auth', spaces: [guides.id] } }), 201);
    siteId = site.id;
    const section = ok(await t.api('POST', `/v1/orgs/${org}/sites/${siteId}/sections`, { body: { spaceId: partners.id, title: 'Partners' } }), 201);
    ok(await t.api('PATCH', `/v1/orgs/${org}/sites/${siteId}/sections/${section.id}`, { body: { condition: 'visitor.claims.partner === true' } }));
    const [main] = ok(await t.api('GET', `/v1/orgs/${org}/sites/${siteId}/sections`)).items as { id: string }[];
    const variant = ok(await t.api('POST', `/v1/orgs/${org}/sites/${siteId}/site-spaces`, { body: { spaceId: nightly.id, sectionId: main!.id } }), 201);
    ok(await t.api('PATCH', `/v1/orgs/${org}/sites/${siteId}/site-spaces/${variant.id}`, { body: { path: 'nightly', condition: 'visitor.claims.nightly === true' } }));
    ok(await t.api('POST', `/v1/orgs/${org}/sites/${siteId}/publish`));
    const auth = ok(await t.api('GET', `/v1/orgs/${org}/sites/${siteId}/publishing/auth`));
    const now = Math.floor(t.clock.now().getTime() / 1000);
    sign = (claims) => new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setAudience(siteId).setIssuedAt(now).setExpirationTime(now + 3600).sign(new TextEncoder().encode(auth.privateKey));
  });
  after(async () => {
    await t?.close();
    await provider?.close();
  });

  /** What the provider was sent for one visitor's question: the prompts' text. */
  async function prompted(claims: Record<string, unknown>, question = 'Where is the vault and how is it opened?'): Promise<string> {
    const before = provider.requests.length;
    const response = await fetch(`${origin}/sites/${siteId}/~gitbook/ask?question=${encodeURIComponent(question)}&jwt_token=${await sign(claims)}`, { headers: { accept: 'text/event-stream' } });
    assert.equal(response.status, 200);
    assert.match(await response.text(), /event: done/);
    return JSON.stringify(provider.requests.slice(before).map((r) => r.messages));
  }

  test('no token is no answer, nor a word of the site', async () => {
    const before = provider.requests.length;
    assert.equal((await fetch(`${origin}/sites/${siteId}/~gitbook/ask?question=vault`)).status, 404);
    assert.equal(provider.requests.length, before);
  });

  test('a visitor with no claims: the pages everyone reads, nothing adaptive, hidden, or behind a condition', async () => {
    const sent = await prompted({});
    assert.match(sent, /opened with a badge/);
    // A page holding an adaptive block their claims do not open stays out whole (its excerpts are the page's text).
    assert.doesNotMatch(sent, /hunter2/, 'an adaptive block their claims do not open');
    assert.doesNotMatch(sent, /never expire/, 'an adaptive page');
    assert.doesNotMatch(sent, /night shift/, 'a hidden page');
    assert.doesNotMatch(sent, /partner key/, 'a section whose condition they do not meet');
    assert.doesNotMatch(sent, /in the cloud/, 'a variant whose condition they do not meet');
  });

  test('claims open what they name, and only that', async () => {
    const beta = await prompted({ beta: true });
    assert.match(beta, /hunter2/);
    assert.doesNotMatch(beta, /partner key|in the cloud|night shift/);
    const partner = await prompted({ partner: true });
    assert.match(partner, /partner key/);
    assert.doesNotMatch(partner, /hunter2|in the cloud|night shift/);
    const nightly = await prompted({ nightly: true });
    assert.match(nightly, /in the cloud/);
    assert.doesNotMatch(nightly, /hunter2|partner key|night shift/);
  });
});
