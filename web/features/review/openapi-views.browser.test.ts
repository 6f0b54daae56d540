// @sqlite-run-only: OpenAPI blocks drawn in the review and history screens; the server stores and serves the revisions, which the content tests do on both databases.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Locator } from 'playwright-core';
import { ok } from '../../../test/assertions.ts';
import { screenshot, withoutChromium } from '../../../test/browser.ts';
import { webAppSuite } from '../../../test/browser-suite.ts';
import { buildChangeRequest, buildOpenAPISpec, buildPage, buildSpace, mergeChangeRequest, writeContent } from '../../../test/factories.ts';
import { petstoreYaml } from '../../../test/fixtures/openapi.ts';

/*
 * An OpenAPI operation added in a change request is drawn from the organization's spec wherever the app shows a
 * document, not only in the page view: the change request's diff, the page as it was in a revision, two
 * revisions compared and a reusable content in the editor show its method, path and summary, and no block says
 * its spec is not available.
 */

describe('OpenAPI blocks in the review and history screens, in Chromium', { skip: withoutChromium, timeout: 300_000 }, () => {
  const suite = webAppSuite();

  /** The operation's block in `within`, drawn from the spec: its method, path and summary. */
  async function assertDrawn(within: Locator): Promise<void> {
    const operation = within.getByRole('region', { name: 'GET /pets/{petId}', exact: true }).first();
    await operation.getByText('Info for a specific pet', { exact: true }).waitFor();
    assert.equal(await operation.locator('.http-method').innerText(), 'GET');
    assert.equal(await operation.locator('.openapi-path').innerText(), '/pets/{petId}');
    assert.equal(await within.getByText('not available', { exact: false }).count(), 0, 'no block without its spec');
  }

  test('a change request\'s diff, a page as it was and a comparison draw the operation from the organization\'s spec', async () => {
    const { t, origin } = suite;
    await buildOpenAPISpec(t, 'petstore', { text: petstoreYaml() });
    const space = await buildSpace(t, { title: 'API guide' });
    const pageId = await buildPage(t, space.id, { title: 'Pets', markdown: 'Read a pet.' });
    const before = ok(await t.api('GET', `/v1/spaces/${space.id}`)).revision as string;

    // The change request adds the operation after the paragraph, keys kept (as the editor keeps them).
    const cr = await buildChangeRequest(t, space.id, { subject: 'Document reading a pet' });
    const current = ok(await t.api('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}/content/page/${pageId}?format=document`)).document;
    const operation = { object: 'block', type: 'openapi-operation', isVoid: true, data: { ref: { kind: 'openapi', spec: 'petstore' }, method: 'get', path: '/pets/{petId}' } };
    const document = { ...current, nodes: [...current.nodes, operation] };
    await writeContent(t, space.id, cr.id, [{ operation: 'update_page', page: pageId, document: { document } }]);

    const page = await suite.signedIn();
    await page.goto(`${origin}/app/s/${space.id}/~/changes/${cr.number}?page=${pageId}`);
    const diff = page.getByRole('region', { name: 'Changes to “Pets”' });
    await diff.locator('ins', { hasText: 'Added' }).waitFor();
    await assertDrawn(diff);
    await screenshot(page, 'review-openapi-operation', { fullPage: true });
    await suite.assertAccessible(page, 'a change request\'s diff with an OpenAPI operation');

    const merged = (await mergeChangeRequest(t, space.id, cr.id)).revision as string;
    await page.goto(`${origin}/app/s/${space.id}/~/revisions/${merged}?page=${pageId}`);
    await assertDrawn(page.getByRole('article', { name: 'Pets as it was' }));
    await suite.assertAccessible(page, 'a page as it was with an OpenAPI operation');

    await page.goto(`${origin}/app/s/${space.id}/~/history?from=${before}&to=${merged}&page=${pageId}`);
    await assertDrawn(page.getByLabel('Changes to the page'));
    await page.context().close();
  });

  test('the editor draws the operation in a reusable content the page includes', async () => {
    const { t, origin } = suite;
    await buildOpenAPISpec(t, 'petstore-reused', { text: petstoreYaml() });
    const space = await buildSpace(t, { title: 'Reused API' });
    const operation = { object: 'block', type: 'openapi-operation', isVoid: true, data: { ref: { kind: 'openapi', spec: 'petstore-reused' }, method: 'get', path: '/pets/{petId}' } };
    const included = { object: 'block', type: 'reusable-content', isVoid: true, data: { ref: { kind: 'reusable-content', reusableContent: 'read-a-pet' } } };
    const batch = ok(await t.api('POST', `/v1/spaces/${space.id}/content`, {
      body: {
        changes: [
          { operation: 'insert_reusable_content', reusableContent: 'read-a-pet', title: 'Read a pet', document: { document: { object: 'document', data: {}, nodes: [operation] } } },
          { operation: 'insert_page', title: 'Pets', document: { document: { object: 'document', data: {}, nodes: [included] } } },
        ],
      },
    }));
    const pageId = batch.changes.find((c: { object: string }) => c.object === 'created_page').page.id;

    const page = await suite.signedIn();
    await page.goto(`${origin}/app/s/${space.id}/~/edit/${pageId}`);
    await assertDrawn(page.getByRole('textbox', { name: 'Page content' }).getByRole('region', { name: 'Reusable content: Read a pet' }));
    await page.context().close();
  });
});
