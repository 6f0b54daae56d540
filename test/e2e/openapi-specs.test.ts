import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { rejectsWith } from './gitbook-client.ts';
import { e2eSession } from './e2e-session.ts';
import { petstoreYaml, startFixtureServer, type FixtureServer } from '../fixtures/openapi.ts';

/**
 * Issue 16 (OpenAPI specs) over real HTTP with the official client; every answer is checked against the
 * official spec by specCheckedFetch. The documents come from a local fixture server.
 */
describe('OpenAPI specs end to end, through the official client', { timeout: 120_000 }, () => {
  const session = e2eSession({ env: { ALLOW_PRIVATE_FETCH: 'true' } });
  const { client } = session;
  let fixtures: FixtureServer;

  before(async () => {
    fixtures = await startFixtureServer();
  });
  after(() => fixtures?.close());

  test('a spec fetched from a URL becomes versions; every operation answers as the spec says', async () => {
    const { t } = session;
    const api = client();
    const org = t.org.id;
    fixtures.routes.set('/petstore.yaml', petstoreYaml('1.0.0'));

    const { data: created } = await api.orgs.createOpenApiSpec(org, { slug: 'petstore', source: { url: `${fixtures.base}/petstore.yaml` } });
    assert.equal(created.processingState, 'pending');
    await t.app.jobs.runDue();

    const { data: spec } = await api.orgs.getOpenApiSpecBySlug(org, 'petstore');
    assert.equal(spec.processingState, 'complete');
    assert.ok(spec.lastVersion);
    const { data: list } = await api.orgs.listOpenApiSpecs(org);
    assert.deepEqual(list.items.map((s) => s.slug), ['petstore']);

    fixtures.routes.set('/petstore.yaml', petstoreYaml('2.0.0'));
    const updated = await api.orgs.createOrUpdateOpenApiSpecBySlug(org, 'petstore', { source: { url: `${fixtures.base}/petstore.yaml` } });
    assert.equal(updated.status, 200);
    await t.app.jobs.runDue();

    const { data: versions } = await api.orgs.listOpenApiSpecVersions(org, 'petstore');
    assert.equal(versions.items.length, 2);
    const { data: latest } = await api.orgs.getLatestOpenApiSpecVersion(org, 'petstore');
    assert.equal(latest.id, versions.items[0]!.id);
    const { data: byId } = await api.orgs.getOpenApiSpecVersionById(org, 'petstore', versions.items[1]!.id);
    assert.equal(byId.id, spec.lastVersion);
    const { data: content } = await api.orgs.getLatestOpenApiSpecVersionContent(org, 'petstore');
    assert.equal((content.filesystem as Record<string, { specification: { info: { version: string } } }>)['petstore.yaml']!.specification.info.version, '2.0.0');
    const { data: oldContent } = await api.orgs.getOpenApiSpecVersionContentById(org, 'petstore', byId.id);
    assert.equal((oldContent.filesystem as Record<string, { specification: { info: { version: string } } }>)['petstore.yaml']!.specification.info.version, '1.0.0');

    const { data: made } = await api.orgs.updateOpenApiSpecBySlug(org, 'petstore', { visibility: 'public' as never });
    assert.ok(made.urls.published);
    const download = await fetch(made.urls.published!);
    assert.equal(download.status, 200);
    assert.match(await download.text(), /version: "2\.0\.0"/);

    const { data: fromText } = await api.orgs.createOrUpdateOpenApiSpecBySlug(org, 'from-text', { source: { text: petstoreYaml('3.0.0') } });
    assert.equal(fromText.slug, 'from-text');

    const outsider = await t.outsider();
    await rejectsWith(client(outsider.token).orgs.getOpenApiSpecBySlug(org, 'petstore'), 404);
    await rejectsWith(api.orgs.getOpenApiSpecVersionById(org, 'petstore', 'nope'), 404);
    await api.orgs.deleteOpenApiSpecBySlug(org, 'petstore');
    await rejectsWith(api.orgs.getOpenApiSpecBySlug(org, 'petstore'), 404);
    session.assertConformed([
      'createOpenAPISpec', 'getOpenAPISpecBySlug', 'listOpenAPISpecs', 'createOrUpdateOpenAPISpecBySlug', 'listOpenAPISpecVersions',
      'getLatestOpenAPISpecVersion', 'getOpenAPISpecVersionById', 'getLatestOpenAPISpecVersionContent', 'getOpenAPISpecVersionContentById',
      'updateOpenAPISpecBySlug', 'deleteOpenAPISpecBySlug',
    ]);
  });
});
