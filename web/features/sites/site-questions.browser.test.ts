// @sqlite-run-only: a site's Questions tab in Chromium; what they change goes through the API, whose operations the API and end-to-end tests run on both databases.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startAiProvider, type AiProviderDouble } from '../../../test/ai-provider.ts';
import { ok } from '../../../test/assertions.ts';
import { screenshot, withoutChromium } from '../../../test/browser.ts';
import { webAppSuite } from '../../../test/browser-suite.ts';
import { buildSpace, editLive } from '../../../test/factories.ts';

/*
 * A writer opens a site's Questions tab (issue 45) after readers asked the published site: the questions most
 * asked, those the docs did not answer and those rated down, each with the pages its answers used; they write
 * the instructions answers follow (the next answer's prompt carries them) and turn Ask off for the site.
 */

describe("a site's Questions tab in Chromium", { skip: withoutChromium, timeout: 300_000 }, () => {
  let provider: AiProviderDouble;
  const env: Record<string, string> = { AI_CHAT_MODEL: 'double-chat' };
  before(async () => {
    provider = await startAiProvider();
    env.AI_PROVIDER_URL = provider.url;
  });
  after(() => provider?.close());
  const suite = webAppSuite({ env });

  test('what readers asked, what the docs did not answer, the instructions answers follow, Ask off', async () => {
    const { t } = suite;
    const org = t.org.id;
    const space = await buildSpace(t, { title: 'Guides' });
    await editLive(t, space.id, [
      { operation: 'insert_page', title: 'Share links', document: { markdown: 'Share links open a private site.\n\n## Revoking\n\nDelete a share link to revoke its access at once.' } },
      { operation: 'insert_page', title: 'Custom domains', document: { markdown: 'Add a CNAME record pointing to the server to serve the site at your own domain.' } },
    ]);
    const site = ok(await t.api('POST', `/v1/orgs/${org}/sites`, { body: { title: 'Help center', visibility: 'public', spaces: [space.id] } }), 201);
    ok(await t.api('POST', `/v1/orgs/${org}/sites/${site.id}/publish`));
    const ask = async (question: string) => {
      const response = await fetch(`${suite.origin}/sites/${site.id}/~gitbook/ask?question=${encodeURIComponent(question)}`);
      const text = await response.text();
      assert.match(text, /event: done/);
      return (JSON.parse(/data: (.*)\n\nevent: done/.exec(text)![1]!) as { id: string }).id;
    };
    const revoke = await ask('How do I revoke a share link?');
    await ask('how do I revoke a share link');
    await ask('Where do I add a CNAME record?');
    await ask('zebra quokka marmalade');
    const rated = await fetch(`${suite.origin}/sites/${site.id}/~gitbook/ask/feedback`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ answer: revoke, rating: -1 }) });
    assert.equal(rated.status, 204);

    const page = await suite.signedIn();
    await page.goto(`${suite.origin}/app/o/${org}/sites/${site.id}/questions`);
    await suite.settled(page);
    const tab = page.getByRole('region', { name: 'Questions' });
    const stats = tab.getByRole('group', { name: 'Ask in numbers' });
    await stats.getByText('Questions').waitFor();
    assert.match(await stats.innerText(), /Questions\s*3[\s\S]*Answers\s*4/);
    const most = tab.getByRole('list', { name: 'Most asked questions' });
    await most.waitFor();
    const rows = most.getByRole('listitem');
    assert.equal(await rows.count(), 3);
    assert.match(await rows.first().innerText(), /How do I revoke a share link[\s\S]*Asked 2 times[\s\S]*Rated down 1/);
    await rows.first().getByRole('button', { name: /Pages used/ }).click();
    const pages = tab.getByRole('list', { name: 'Pages used for “How do I revoke a share link”' });
    await pages.getByRole('link', { name: 'Share links' }).waitFor();
    await suite.assertAccessible(page, "a site's Questions tab");
    await screenshot(page, 'site-questions');

    await tab.getByRole('tab', { name: 'Unanswered' }).click();
    const unanswered = tab.getByRole('list', { name: 'Questions the docs did not answer' });
    await unanswered.getByText('zebra quokka marmalade', { exact: true }).waitFor();
    assert.equal(await unanswered.getByRole('listitem').count(), 1);
    await tab.getByRole('tab', { name: 'Rated down' }).click();
    const down = tab.getByRole('list', { name: 'Questions whose answers readers rated down' });
    await down.getByText('How do I revoke a share link', { exact: true }).waitFor();
    assert.equal(await down.getByRole('listitem').count(), 1);

    // The instructions the answers follow, saved, reach the next answer's prompt.
    const instructions = tab.getByRole('textbox', { name: 'Instructions for answers' });
    await instructions.fill('Answer in one short paragraph.\n\nEnd by naming the page.');
    await tab.getByRole('button', { name: 'Save instructions' }).click();
    await tab.getByRole('button', { name: 'Save instructions' }).and(page.locator(':disabled')).waitFor();
    const settings = ok(await t.api('GET', `/v1/orgs/${org}/sites/${site.id}/agent-settings`));
    assert.equal(settings.editing.customInstructions.nodes.length, 2);
    await ask('How do I revoke a share link?');
    assert.match(provider.requests.at(-1)!.messages[0]!.content, /Answer in one short paragraph\.\n\nEnd by naming the page\./);

    // Ask off: the published site no longer answers.
    await tab.getByRole('switch', { name: 'Answer readers’ questions (Ask)' }).click();
    await page.waitForFunction(() => document.querySelector('[role="switch"]')?.getAttribute('aria-checked') === 'false');
    const customization = ok(await t.api('GET', `/v1/orgs/${org}/sites/${site.id}/customization`));
    assert.equal(customization.ai.mode, 'none');
    assert.equal((await fetch(`${suite.origin}/sites/${site.id}/~gitbook/ask?question=anything`)).status, 404);
    await page.context().close();
  });
});
