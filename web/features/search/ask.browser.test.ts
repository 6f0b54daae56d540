// @sqlite-run-only: asking from the app's search in Chromium; the answers' sources and permissions are tested through the API on both databases.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startAiProvider, type AiProviderDouble } from '../../../test/ai-provider.ts';
import { screenshot, withoutChromium } from '../../../test/browser.ts';
import { webAppSuite } from '../../../test/browser-suite.ts';
import { buildSpace, editLive } from '../../../test/factories.ts';

/*
 * A member asks the docs in the app's search (Ctrl/Cmd-K, issue 45): the answer streams in from what they can
 * read of the organization, its sources open the pages, a follow-up is asked with a click, and a model that fails
 * says so next to the question, which stays as typed.
 */

describe('Ask in the app, in Chromium', { skip: withoutChromium, timeout: 180_000 }, () => {
  let provider: AiProviderDouble;
  const env: Record<string, string> = { AI_CHAT_MODEL: 'double-chat' };
  // Before the suite's own hook, which starts the server with `env`.
  before(async () => {
    provider = await startAiProvider();
    env.AI_PROVIDER_URL = provider.url;
  });
  after(() => provider.close());
  const suite = webAppSuite({ env });

  test('a question answered with its sources and a follow-up; a failure shown where the answer would be', async () => {
    const { t } = suite;
    const space = await buildSpace(t, { title: 'Handbook' });
    await editLive(t, space.id, [
      { operation: 'insert_page', title: 'Welcome', document: { markdown: 'The team handbook.' } },
      { operation: 'insert_page', title: 'Share links', document: { markdown: 'Share links open a private site.\n\n## Revoking\n\nDelete a share link to revoke its access at once.' } },
    ]);
    const page = await suite.signedIn();
    await page.goto(`${suite.origin}/app/o/${t.org.id}`);
    await suite.settled(page);
    await page.keyboard.press('Control+K');
    const input = page.getByRole('combobox', { name: 'Search' });
    await input.fill('How do I revoke a share link?');
    await page.getByRole('button', { name: 'Ask the docs: “How do I revoke a share link?”' }).click();
    const answer = page.getByRole('region', { name: 'Answer from the docs' });
    await answer.getByText(/Delete a share link to revoke its access at once\. \[1\]/).waitFor();
    await page.waitForFunction(() => document.querySelector('.ask-answer')?.getAttribute('aria-busy') === 'false');
    const source = answer.getByRole('link', { name: 'Share links' });
    await source.waitFor();
    const followUp = answer.getByRole('button', { name: 'What else is there about Share links › Revoking?' });
    await followUp.waitFor();
    await suite.assertAccessible(page, 'the search dialog with an answer');
    await screenshot(page, 'app-ask-answer');

    await followUp.click();
    assert.equal(await input.inputValue(), 'What else is there about Share links › Revoking?');
    await page.waitForFunction(() => document.querySelector('.ask-answer')?.getAttribute('aria-busy') === 'false');

    provider.behaviour = { kind: 'fail', status: 503, message: 'model loading' };
    await input.fill('Is the handbook up to date?');
    await page.getByRole('button', { name: /^Ask the docs/ }).click();
    await answer.getByRole('alert').getByText(/HTTP 503/).waitFor();
    assert.equal(await input.inputValue(), 'Is the handbook up to date?');
    provider.behaviour = { kind: 'model' };

    await input.fill('How do I revoke a share link?');
    await page.getByRole('button', { name: /^Ask the docs/ }).click();
    await answer.getByRole('link', { name: 'Share links' }).click();
    await page.waitForURL(/\/app\/s\/[^/]+\/share-links#revoking$/);
    await page.context().close();
  });
});

describe('Ask in the app on a server with no model, in Chromium', { skip: withoutChromium, timeout: 180_000 }, () => {
  const suite = webAppSuite();

  test('the search says Ask is off and why instead of offering it; the site’s Questions tab says so by its switch', async () => {
    const { t } = suite;
    const space = await buildSpace(t, { title: 'Handbook' });
    await editLive(t, space.id, [{ operation: 'insert_page', title: 'Share links', document: { markdown: 'Delete a share link to revoke its access at once.' } }]);
    const page = await suite.signedIn();
    await page.goto(`${suite.origin}/app/o/${t.org.id}`);
    await suite.settled(page);
    await page.keyboard.press('Control+K');
    await page.getByRole('combobox', { name: 'Search' }).fill('How do I revoke a share link?');
    await page.getByText(/Ask is off on this server: its operator has not set AI_PROVIDER_URL/).waitFor();
    assert.equal(await page.getByRole('button', { name: /^Ask the docs/ }).count(), 0);
    await suite.assertAccessible(page, 'the search dialog with Ask off');
    await page.keyboard.press('Escape');

    const site = (await t.api('POST', `/v1/orgs/${t.org.id}/sites`, { body: { title: 'Help center' } })).body as { id: string };
    await page.goto(`${suite.origin}/app/o/${t.org.id}/sites/${site.id}/questions`);
    const toggle = page.getByRole('switch', { name: 'Answer readers’ questions (Ask)' });
    await toggle.waitFor();
    await page.getByText(/Readers are offered no Ask until it is set/).waitFor();
    assert.equal(await toggle.isDisabled(), true);
    assert.equal(await toggle.getAttribute('aria-checked'), 'false');
    await suite.assertAccessible(page, 'the Questions tab with Ask off on the server');
    await screenshot(page, 'site-questions-ask-off');
    await page.context().close();
  });
});
