import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { screenshot, withoutChromium } from '../../../test/browser.ts';
import { webAppSuite } from '../../../test/browser-suite.ts';
import { ok } from '../../../test/assertions.ts';
import { buildChangeRequest, buildPage, buildSpace, mergeChangeRequest, writeContent } from '../../../test/factories.ts';
import type { TestUser } from '../../../test/helpers.ts';
import { choose } from '../../../test/web-app.ts';

/*
 * Reviewing in the browser as two members do: one edits a page in a change request and asks for a review, the
 * other reads the inline diff, comments on a paragraph and requests changes, the first replies and fixes, the
 * reviewer approves and merges, and the published site shows the change. Then a conflict between two change
 * requests editing one paragraph is resolved on the screen and merged.
 */

type Json = Record<string, unknown> & { nodes?: Json[]; leaves?: { text: string }[] };

describe('reviewing a change request in Chromium', { skip: withoutChromium, timeout: 300_000 }, () => {
  const suite = webAppSuite();
  const { assertAccessible } = suite;

  const signedIn = (user: TestUser) => suite.signedIn(user.userId);

  async function open(page: Page, url: string): Promise<void> {
    await page.goto(`${suite.origin}${url}`);
    await suite.settled(page);
  }

  /** The page's document in the change request with `from` replaced by `to` in its text, keys kept (as the editor keeps them). */
  async function editText(spaceId: string, crId: string, pageId: string, from: string, to: string, token: string): Promise<void> {
    const { t } = suite;
    const page = ok(await t.api('GET', `/v1/spaces/${spaceId}/change-requests/${crId}/content/page/${pageId}?format=document`, { token }));
    const replace = (node: Json): void => {
      for (const leaf of node.leaves ?? []) leaf.text = leaf.text.replace(from, to);
      for (const child of node.nodes ?? []) replace(child);
    };
    replace(page.document);
    await writeContent(t, spaceId, crId, [{ operation: 'update_page', page: pageId, document: { document: page.document } }], { token });
  }

  test('a writer asks for a review, the reviewer comments and requests changes, the writer fixes, the reviewer approves and merges', async () => {
    const { t, origin } = suite;
    const writer = await t.member('edit');
    const reviewer = await t.member('review');
    const space = await buildSpace(t, { title: 'Handbook' });
    const pageId = await buildPage(t, space.id, { title: 'Install', markdown: 'Run the old installer today.\n\nKeep your data safe.' });
    ok(await t.api('PATCH', `/v1/spaces/${space.id}`, { body: { mergeRules: { type: 'rules', rules: [{ rule: 'require_at_least_one_review' }] } } }));
    const site = ok(await t.api('POST', `/v1/orgs/${t.org.id}/sites`, { body: { title: 'Handbook site', visibility: 'public', spaces: [space.id] } }), 201);
    ok(await t.api('POST', `/v1/orgs/${t.org.id}/sites/${site.id}/publish`));

    // The writer edits in a change request (through the API: the editor is another screen) and asks for a review.
    const cr = await buildChangeRequest(t, space.id, { subject: 'Use the new installer', token: writer.token });
    await editText(space.id, cr.id as string, pageId, 'old', 'new', writer.token);
    const writerPage = await signedIn(writer);
    await open(writerPage, `/app/s/${space.id}/~/changes/${cr.number}`);
    await choose(writerPage.getByLabel('Reviewer', { exact: true }), 'User 2');
    await writerPage.getByRole('button', { name: 'Request review' }).click();
    // The list's row, not the picker: it shows the name chosen until the request is answered.
    await writerPage.getByRole('region', { name: 'Requested reviewers' }).getByRole('listitem').filter({ hasText: 'User 2' }).waitFor();
    // The description: written as plain text, stored as the official JSON document, shown as readers see it.
    const description = writerPage.getByRole('region', { name: 'Description' });
    await description.getByText('No description yet.').waitFor();
    await description.getByRole('button', { name: 'Edit description' }).click();
    await writerPage.getByRole('textbox', { name: 'Description' }).fill('The old installer is gone.\n\nThis points to the new one.');
    await assertAccessible(writerPage, 'the description being edited');
    await writerPage.getByRole('button', { name: 'Save description' }).click();
    await description.locator('p', { hasText: 'This points to the new one.' }).waitFor();
    const described = ok(await t.api('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}`));
    assert.deepEqual(described.description.nodes.map((b: Json) => b.type), ['paragraph', 'paragraph']);
    await screenshot(writerPage, 'review-description');
    await assertAccessible(writerPage, 'the change request (writer)');

    // The reviewer hears of it in the inbox, and reads the inline diff.
    const reviewerPage = await signedIn(reviewer);
    await open(reviewerPage, '/app/');
    await reviewerPage.getByRole('link', { name: /^Inbox\s*1\s*unread$/ }).click();
    await reviewerPage.getByRole('heading', { name: 'Inbox' }).waitFor();
    await assertAccessible(reviewerPage, 'the inbox');
    await screenshot(reviewerPage, 'review-inbox');
    await reviewerPage.getByRole('link', { name: /User 1 asked you to review #\d+ Use the new installer/ }).click();
    await reviewerPage.getByRole('heading', { name: /Use the new installer/ }).waitFor();
    await reviewerPage.getByRole('region', { name: 'Description' }).getByText('The old installer is gone.').waitFor();
    await reviewerPage.getByRole('link', { name: 'Inbox' }).waitFor();
    const mergeButton = reviewerPage.getByRole('button', { name: 'Merge change request' });
    assert.equal(await mergeButton.isDisabled(), true, 'no approval yet');
    assert.match(await reviewerPage.locator('#merge-reasons').innerText(), /at least one approving review/);
    await reviewerPage.getByRole('link', { name: 'Install' }).click();
    const diff = reviewerPage.getByRole('region', { name: 'Changes to “Install”' });
    await diff.locator('ins', { hasText: 'new' }).waitFor();
    assert.match(await diff.locator('del').first().innerText(), /old/);
    await screenshot(reviewerPage, 'review-inline-diff', { fullPage: true });
    await assertAccessible(reviewerPage, 'the inline diff');

    // Side by side.
    await reviewerPage.getByRole('button', { name: 'Side by side' }).click();
    await reviewerPage.getByRole('region', { name: 'Before' }).locator('del', { hasText: 'old' }).waitFor();
    await reviewerPage.getByRole('region', { name: 'After' }).locator('ins', { hasText: 'new' }).waitFor();
    await screenshot(reviewerPage, 'review-side-by-side', { fullPage: true });
    await assertAccessible(reviewerPage, 'the side-by-side diff');
    await reviewerPage.getByRole('button', { name: 'Side by side' }).click();

    // A comment on the paragraph, then changes requested.
    await diff.getByRole('button', { name: /Comment on the paragraph “Run the new installer/ }).click();
    await diff.getByRole('textbox', { name: /Comment on the paragraph/ }).fill('Which version of the installer?');
    await diff.getByRole('button', { name: 'Post comment' }).click();
    await diff.getByRole('article', { name: 'Comment by User 2' }).waitFor();
    await reviewerPage.getByLabel('Review comment').fill('Please name the version.');
    await reviewerPage.getByRole('button', { name: 'Request changes' }).click();
    await reviewerPage.getByRole('region', { name: 'Reviews' }).getByText('requested changes').waitFor();
    const comments = ok(await t.api('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}/comments?targetPage=${pageId}`));
    const thread = comments.items.find((c: { target: { node?: { id: string } } }) => c.target.node);
    assert.ok(thread, 'the comment names its block (target.node)');

    // The writer replies and fixes.
    await open(writerPage, `/app/s/${space.id}/~/changes/${cr.number}?page=${pageId}`);
    const writerThread = writerPage.getByRole('article', { name: 'Comment by User 2' });
    await writerThread.getByText('Which version of the installer?').waitFor();
    await writerThread.getByLabel('Reply to User 2').fill('Version 2, fixed.');
    await writerThread.getByRole('button', { name: 'Reply' }).click();
    await writerThread.getByText('Version 2, fixed.').waitFor();
    await editText(space.id, cr.id as string, pageId, 'new installer', 'new installer 2', writer.token);

    // The reviewer approves and merges.
    await open(reviewerPage, `/app/s/${space.id}/~/changes/${cr.number}?page=${pageId}`);
    await reviewerPage.getByRole('region', { name: 'Changes to “Install”' }).locator('ins', { hasText: 'new installer 2' }).or(reviewerPage.locator('ins', { hasText: '2' })).first().waitFor();
    await reviewerPage.getByRole('article', { name: 'Comment by User 2' }).getByRole('button', { name: 'Resolve' }).click();
    await reviewerPage.getByRole('article', { name: 'Comment by User 2' }).getByRole('button', { name: 'Reopen' }).waitFor();
    await reviewerPage.getByRole('button', { name: 'Approve' }).click();
    await reviewerPage.getByRole('region', { name: 'Reviews' }).getByText('approved').waitFor();
    await reviewerPage.getByRole('button', { name: 'Merge change request' }).and(reviewerPage.locator(':enabled')).waitFor();
    await reviewerPage.getByRole('button', { name: 'Merge change request' }).click();
    await reviewerPage.getByText('Merged into the space.').waitFor();
    await screenshot(reviewerPage, 'review-merged', { fullPage: true });
    await assertAccessible(reviewerPage, 'the merged change request');

    // The published site shows the change.
    await reviewerPage.goto(`${origin}/sites/${site.id}/`);
    await reviewerPage.getByText('Run the new installer 2 today.').waitFor();
  });

  test('a conflict between two change requests editing one paragraph is resolved on the screen and merged', async () => {
    const { t } = suite;
    const space = await buildSpace(t, { title: 'Runbook' });
    const pageId = await buildPage(t, space.id, { title: 'Restart', markdown: 'Restart the server at night.\n\nThen check the logs.' });
    const first = await buildChangeRequest(t, space.id, { subject: 'Mornings' });
    await editText(space.id, first.id as string, pageId, 'at night', 'in the morning', t.admin.token);
    const second = await buildChangeRequest(t, space.id, { subject: 'Weekends' });
    await editText(space.id, second.id as string, pageId, 'at night', 'on weekends', t.admin.token);
    await mergeChangeRequest(t, space.id, first.id as string);

    const page = await signedIn(t.admin);
    await open(page, `/app/s/${space.id}/~/changes/${second.number}`);
    await page.getByRole('button', { name: 'Merge change request' }).click();
    const conflicts = page.getByRole('region', { name: 'Conflicts with the space’s content' });
    const region = conflicts.getByRole('group', { name: 'Conflict 1' });
    await region.locator('pre', { hasText: 'Restart the server in the morning.' }).waitFor();
    await region.locator('pre', { hasText: 'Restart the server on weekends.' }).waitFor();
    assert.match(await page.locator('#merge-reasons').innerText(), /conflicts with the space/);
    await screenshot(page, 'review-conflict', { fullPage: true });
    await assertAccessible(page, 'the conflict');
    await region.getByLabel('Resolved text of conflict 1 (markdown)').fill('Restart the server in the morning on weekends.');
    await conflicts.getByRole('button', { name: 'Save the resolution' }).click();
    await conflicts.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Merge change request' }).click();
    await page.getByText('Merged into the space.').waitFor();
    const merged = ok(await t.api('GET', `/v1/spaces/${space.id}/content/page/${pageId}?format=markdown`));
    assert.match(merged.markdown, /Restart the server in the morning on weekends\./);
    assert.match(merged.markdown, /Then check the logs\./);
  });

  test('a space’s history compares two revisions and restores a page as it was', async () => {
    const { t } = suite;
    const space = await buildSpace(t, { title: 'Changelog' });
    const pageId = await buildPage(t, space.id, { title: 'Release', markdown: 'Version one ships on Monday.' });
    const before = ok(await t.api('GET', `/v1/spaces/${space.id}/content`)).id as string;
    const cr = await buildChangeRequest(t, space.id, { subject: 'Tuesday' });
    await editText(space.id, cr.id as string, pageId, 'Monday', 'Tuesday', t.admin.token);
    await mergeChangeRequest(t, space.id, cr.id as string);

    const page = await signedIn(t.admin);
    await open(page, `/app/s/${space.id}/~/history`);
    // Each revision says who made it: a merge who opened its change request and who merged it.
    await page.getByRole('listitem').filter({ hasText: '#2 Tuesday, opened by Administrator' }).filter({ hasText: 'merged by Administrator' }).waitFor();
    await page.getByRole('link', { name: /^What changed on/ }).first().click();
    await choose(page.getByLabel('Page', { exact: true }), 'Release');
    await page.locator('ins', { hasText: 'Tuesday' }).waitFor();
    assert.match(await page.locator('del').first().innerText(), /Monday/);
    await screenshot(page, 'review-history', { fullPage: true });
    await assertAccessible(page, 'the history');

    await open(page, `/app/s/${space.id}/~/revisions/${before}?page=${pageId}`);
    await page.getByRole('article', { name: 'Release as it was' }).getByText('Version one ships on Monday.').waitFor();
    await assertAccessible(page, 'a page as it was');
    await page.getByRole('button', { name: 'Restore this page' }).click();
    await page.getByText('Restored: the page has this content again').waitFor();
    const restored = ok(await t.api('GET', `/v1/spaces/${space.id}/content/page/${pageId}?format=markdown`));
    assert.match(restored.markdown, /Version one ships on Monday\./);
  });
});
