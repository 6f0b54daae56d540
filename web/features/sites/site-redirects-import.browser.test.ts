// @sqlite-run-only: a site's Redirects tab in Chromium; what they change goes through the API, whose operations the API and end-to-end tests run on both databases.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { screenshot, withoutChromium } from '../../../test/browser.ts';
import { webAppSuite } from '../../../test/browser-suite.ts';
import { ok } from '../../../test/assertions.ts';
import { buildPage, buildSpace } from '../../../test/factories.ts';

/*
 * An admin imports a spreadsheet of redirects on a site's Redirects tab (GitBook's "Upload CSV"): a file with a
 * mistake is refused by line before anything is sent; a good one, with a web address, a page's URL copied from
 * the app, a page's editor URL as a draft and a source repeated, is imported whole; a file the API refuses (a draft
 * to publish that is not there) says which line, and nothing is written.
 */

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe("importing a site's redirects in Chromium", { skip: withoutChromium, timeout: 300_000 }, () => {
  const suite = webAppSuite();

  async function upload(page: Page, name: string, lines: string[]): Promise<void> {
    await page.getByLabel('CSV file', { exact: true }).setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(lines.join('\n')) });
  }

  test('a CSV of redirects is checked by line, then imported whole or not at all', async () => {
    const { t } = suite;
    const org = t.org.id;
    const space = await buildSpace(t, { title: 'Handbook' });
    const started = await buildPage(t, space.id, { title: 'Getting started', markdown: 'Start here.' });
    const billing = await buildPage(t, space.id, { title: 'Billing', markdown: 'Invoices and plans.' });
    const site = ok(await t.api('POST', `/v1/orgs/${org}/sites`, { body: { title: 'Help center' } }), 201);
    ok(await t.api('POST', `/v1/orgs/${org}/sites/${site.id}/site-spaces`, { body: { spaceId: space.id } }), 201);
    // Live and draft, by source.
    const redirects = async () =>
      [...(ok(await t.api('GET', `/v1/orgs/${org}/sites/${site.id}/redirects`)).items as Json[]), ...(ok(await t.api('GET', `/v1/orgs/${org}/sites/${site.id}/redirects?draft=true`)).items as Json[])].sort(
        (a, b) => a.source.localeCompare(b.source),
      );

    const page = await suite.signedIn();
    await page.goto(`${suite.origin}/app/o/${org}/sites/${site.id}/redirects`);
    await suite.settled(page);
    const form = page.getByRole('form', { name: 'Import from a CSV' });
    const importButton = form.getByRole('button', { name: /^Import/ });

    // A mistake is said by line, and nothing can be sent.
    await upload(page, 'wrong.csv', ['source,destination,intent', '/old-a,https://example.com/a,', '/old-b,,soon']);
    await form.getByRole('alert').filter({ hasText: 'Line 3: intent “soon” is not one of live, draft or publish.' }).waitFor();
    assert.equal(await importButton.isDisabled(), true);

    // A good file: a web address, a page's URL as the app shows it, a page's editor URL as a draft, a source repeated.
    await upload(page, 'redirects.csv', [
      'source,destination,intent',
      '/old-a,https://example.com/a,',
      `/old-start,${suite.origin}/app/s/${space.id}/getting-started,live`,
      `/old-billing,${suite.origin}/app/s/${space.id}/~/edit/${billing},draft`,
      '/old-a,https://example.com/other,',
    ]);
    await form.getByText('3 redirects to import from redirects.csv. Line 5 names a source again and is left out.').waitFor();
    await suite.assertAccessible(page, 'the redirects import, ready');
    await form.getByRole('button', { name: 'Import 3 redirects' }).click();
    await form.getByRole('status').filter({ hasText: 'Imported from redirects.csv: 3 created.' }).waitFor();
    const list = page.getByRole('list', { name: 'Redirects', exact: true });
    await list.getByRole('link', { name: 'https://example.com/a' }).waitFor();
    await list.getByText('Page Getting started in Variant').waitFor();
    const drafts = page.getByRole('list', { name: 'Draft redirects' });
    await drafts.getByRole('listitem').filter({ hasText: '/old-billing' }).getByText('Page Billing in Variant').waitFor();
    await screenshot(page, 'site-redirects-import');
    const imported = await redirects();
    assert.deepEqual(
      imported.map((r) => [r.source, r.draft, r.destination.kind, r.destination.url ?? r.destination.pageId]),
      [
        ['/old-a', false, 'external', 'https://example.com/a'],
        ['/old-billing', true, 'site-page', billing],
        ['/old-start', false, 'site-page', started],
      ],
    );

    // The API refuses a row (no draft to publish there): the line is named, and nothing of the file is written.
    await upload(page, 'publish.csv', ['source,destination,intent', '/old-billing,,publish', '/old-a,,', '/missing,,publish']);
    await form.getByRole('button', { name: 'Import 3 redirects' }).click();
    await form.getByRole('alert').filter({ hasText: /^Line 4: .*no draft redirect from \/missing to publish.* Nothing was imported\.$/ }).waitFor();
    assert.deepEqual(await redirects(), imported);

    // Fixed, the same import publishes the draft and deletes a redirect.
    await upload(page, 'publish.csv', ['source,destination,intent', '/old-billing,,publish', '/old-a,,']);
    await form.getByRole('button', { name: 'Import 2 redirects' }).click();
    await form.getByRole('status').filter({ hasText: 'Imported from publish.csv: 1 deleted, 1 published.' }).waitFor();
    await list.getByRole('link', { name: 'https://example.com/a' }).waitFor({ state: 'detached' });
    await list.getByText('Page Billing in Variant').waitFor();
    assert.deepEqual((await redirects()).map((r) => [r.source, r.draft]), [['/old-billing', false], ['/old-start', false]]);

    // A draft is also published from its row.
    await upload(page, 'draft.csv', ['source,destination,intent', '/old-c,https://example.com/c,draft']);
    await form.getByRole('button', { name: 'Import one redirect' }).click();
    await drafts.getByRole('button', { name: 'Publish the draft from /old-c' }).click();
    await list.getByRole('link', { name: 'https://example.com/c' }).waitFor();
    await drafts.waitFor({ state: 'detached' });
  });
});
