// @sqlite-run-only: asking a published site in Chromium; the answers' sources and permissions are tested through the API on both databases.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { SignJWT } from 'jose';
import type { Browser } from 'playwright-core';
import { startAiProvider, type AiProviderDouble } from '../../../test/ai-provider.ts';
import { ok } from '../../../test/assertions.ts';
import { openPage, releaseChromium, screenshot, suiteChromium, withoutChromium } from '../../../test/browser.ts';
import { buildSpace, editLive } from '../../../test/factories.ts';
import { listenOnRandomPort, startServer, type TestServer } from '../../../test/helpers.ts';
import { seriousViolations } from '../../../test/web-app.ts';

/*
 * A reader asks the published site a question in its search dialog (issue 45): the answer streams in, cites the
 * pages it came from (links that open there), offers follow-up questions, and is written only from what that
 * visitor may read: a page their claims do not open never reaches the prompt.
 */

describe('Ask in the published site, in Chromium', { skip: withoutChromium, timeout: 120_000 }, () => {
  let t: TestServer;
  let origin: string;
  let browser: Browser;
  let provider: AiProviderDouble;

  before(async () => {
    provider = await startAiProvider();
    t = await startServer({ env: { AI_PROVIDER_URL: provider.url, AI_CHAT_MODEL: 'double-chat' } });
    origin = await listenOnRandomPort(t);
    browser = await suiteChromium();
  });
  after(async () => {
    await releaseChromium(browser);
    await t?.close();
    await provider?.close();
  });

  test('the answer streams with its sources and follow-ups; a source opens its page at the section', async () => {
    const space = await buildSpace(t, { title: 'Guides' });
    await editLive(t, space.id, [
      { operation: 'insert_page', title: 'Introduction', document: { markdown: 'Welcome to the guides.' } },
      { operation: 'insert_page', title: 'Share links', document: { markdown: 'Share links open a private site.\n\n## Revoking\n\nDelete a share link to revoke its access at once.' } },
      { operation: 'insert_page', title: 'Beta features', condition: 'visitor.claims.beta === true', document: { markdown: 'Beta testers revoke nothing: beta share links never expire.' } },
    ]);
    const site = ok(await t.api('POST', `/v1/orgs/${t.org.id}/sites`, { body: { title: 'Acme Docs', visibility: 'public', spaces: [space.id] } }), 201);
    ok(await t.api('POST', `/v1/orgs/${t.org.id}/sites/${site.id}/publish`));
    const url = `${origin}/sites/${site.id}/`;

    const page = await openPage(browser);
    assert.equal((await page.goto(url))?.status(), 200);
    await page.keyboard.press('Control+K');
    await page.locator('#search-dialog input').fill('How do I revoke a share link?');
    const ask = page.getByRole('button', { name: /Ask about “How do I revoke a share link\?”/ });
    await ask.click();
    const answer = page.locator('.ask-answer');
    await answer.getByText(/Delete a share link to revoke its access at once\. \[1\]/).waitFor();
    await page.waitForFunction(() => !document.querySelector('.ask-answer')?.hasAttribute('aria-busy'));
    const source = answer.getByRole('link', { name: '[1] Share links' });
    assert.equal(await source.getAttribute('href'), `/sites/${site.id}/share-links#revoking`);
    assert.ok(await answer.getByRole('button', { name: 'What else is there about Share links › Revoking?' }).isVisible());
    assert.deepEqual(await seriousViolations(page), [], 'axe-core on the answered dialog');
    await screenshot(page, 'reader-ask-answer');
    // The beta page's text, which this visitor cannot read, was never sent.
    assert.doesNotMatch(JSON.stringify(provider.requests.map((r) => r.messages)), /never expire/);

    // The reader rates the answer, then asks the follow-up: both are kept among what readers asked the site.
    await answer.getByRole('button', { name: 'Yes', exact: true }).click();
    await answer.getByRole('status').getByText('Thank you for your feedback.').waitFor();
    assert.equal(await answer.getByRole('button', { name: 'Yes', exact: true }).getAttribute('aria-pressed'), 'true');
    await answer.getByRole('button', { name: 'What else is there about Share links › Revoking?' }).click();
    await page.waitForFunction(() => !document.querySelector('.ask-answer')?.hasAttribute('aria-busy') && document.querySelector('.ask-rating'));
    const answers = ok(await t.api('GET', `/v1/orgs/${t.org.id}/sites/${site.id}/answers`)).items as { id: string; input: { raw: string }; feedback?: { rating: number }; thread?: { id: string; previous: string } }[];
    const first = answers.find((a) => a.input.raw === 'How do I revoke a share link?');
    const followUp = answers.find((a) => a.input.raw !== first?.input.raw);
    assert.deepEqual(first!.feedback, { rating: 1 });
    assert.equal(followUp!.input.raw, 'What else is there about Share links › Revoking?');
    assert.deepEqual(followUp!.thread, { id: first!.id, previous: first!.id });
    await screenshot(page, 'reader-ask-follow-up');
    await source.click();
    await page.waitForURL(`${url}share-links#revoking`);
    await page.context().close();
  });

  test("a question the docs do not cover says so; a provider's failure is shown in the dialog, the question kept", async () => {
    const space = await buildSpace(t, { title: 'Small' });
    await editLive(t, space.id, [{ operation: 'insert_page', title: 'Home', document: { markdown: 'Nothing much here.' } }]);
    const site = ok(await t.api('POST', `/v1/orgs/${t.org.id}/sites`, { body: { title: 'Small Docs', visibility: 'public', spaces: [space.id] } }), 201);
    ok(await t.api('POST', `/v1/orgs/${t.org.id}/sites/${site.id}/publish`));
    const page = await openPage(browser);
    await page.goto(`${origin}/sites/${site.id}/`);
    await page.keyboard.press('Control+K');
    const input = page.locator('#search-dialog input');
    await input.fill('zebra quokka');
    await page.getByRole('button', { name: /Ask about/ }).click();
    await page.locator('.ask-answer').getByText('The documentation does not cover this question.').waitFor();

    provider.behaviour = { kind: 'fail', status: 503, message: 'model loading' };
    await input.fill('What is on the home page?');
    await page.getByRole('button', { name: /Ask about/ }).click();
    await page.locator('.ask-answer .ask-error').getByText(/HTTP 503/).waitFor();
    assert.equal(await input.inputValue(), 'What is on the home page?');
    await screenshot(page, 'reader-ask-failure');
    provider.behaviour = { kind: 'model' };
    await page.context().close();
  });

  test('a visitor let in by their token gets answers from what their claims open, and a site with ai.mode none offers no Ask', async () => {
    const space = await buildSpace(t, { title: 'Private' });
    await editLive(t, space.id, [
      { operation: 'insert_page', title: 'Home', document: { markdown: 'The private guides.' } },
      { operation: 'insert_page', title: 'Beta features', condition: 'visitor.claims.beta === true', document: { markdown: 'Beta share links never expire.' } },
      { operation: 'insert_page', title: 'Passwords', document: { markdown: 'Passwords are kept in the vault.\n\n{% if visitor.claims.beta === true %}\nThe beta vault password is hunter2.\n{% endif %}\n' } },
    ]);
    const site = ok(await t.api('POST', `/v1/orgs/${t.org.id}/sites`, { body: { title: 'Beta Docs', visibility: 'visitor-auth', spaces: [space.id] } }), 201);
    ok(await t.api('POST', `/v1/orgs/${t.org.id}/sites/${site.id}/publish`));
    const auth = ok(await t.api('GET', `/v1/orgs/${t.org.id}/sites/${site.id}/publishing/auth`));
    const now = Math.floor(t.clock.now().getTime() / 1000);
    const sign = (claims: Record<string, unknown>) =>
      new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setAudience(site.id).setIssuedAt(now).setExpirationTime(now + 3600).sign(new TextEncoder().encode(auth.privateKey));
    const ask = async (claims: Record<string, unknown>) =>
      fetch(`${origin}/sites/${site.id}/~gitbook/ask?question=${encodeURIComponent('Do beta share links expire?')}&jwt_token=${await sign(claims)}`);
    assert.equal((await fetch(`${origin}/sites/${site.id}/~gitbook/ask?question=expire`)).status, 404, 'no token, no answer (nor a word of the site)');
    assert.match(await (await ask({})).text(), /does not cover/);
    assert.match(await (await ask({ beta: true })).text(), /Beta share links never expire/);
    // An adaptive block of a page the visitor reads is text their claims may not open: its page stays out of their prompt.
    const vault = async (claims: Record<string, unknown>) => {
      const before = provider.requests.length;
      await (await fetch(`${origin}/sites/${site.id}/~gitbook/ask?question=${encodeURIComponent('Where is the vault password kept?')}&jwt_token=${await sign(claims)}`)).text();
      return JSON.stringify(provider.requests.slice(before).map((r) => r.messages));
    };
    assert.doesNotMatch(await vault({}), /hunter2/);
    assert.match(await vault({ beta: true }), /hunter2/);

    const customization = ok(await t.api('GET', `/v1/orgs/${t.org.id}/sites/${site.id}/customization`));
    ok(await t.api('PUT', `/v1/orgs/${t.org.id}/sites/${site.id}/customization`, { body: { ...customization, ai: { mode: 'none' } } }));
    assert.equal((await ask({ beta: true })).status, 404);
    const page = await openPage(browser);
    await page.goto(`${origin}/sites/${site.id}/?jwt_token=${await sign({ beta: true })}`);
    await page.keyboard.press('Control+K');
    await page.locator('#search-dialog input').fill('expire');
    assert.equal(await page.locator('.ask-button').count(), 0, 'no Ask button');
    await page.context().close();
  });
});
