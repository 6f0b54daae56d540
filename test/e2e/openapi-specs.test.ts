import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { officialClient, rejectsWith, type OfficialClient } from './gitbook-client.ts';
import { listenOnRandomPort, startServer, type TestServer } from '../helpers.ts';
import { OfficialSpec, specCheckedFetch, type CheckedExchange } from './spec-validator.ts';
import { petstoreYaml, startFixtureServer, type FixtureServer } from '../fixtures/openapi.ts';

/**
 * Issue 16 (OpenAPI specs) over real HTTP with the official client; every answer is checked against the
 * official spec by specCheckedFetch. The documents come from a local fixture server.
 */
describe('OpenAPI specs end to end, through the official client', { timeout: 120_000 }, () => {
  let t: TestServer;
  let endpoint: string;
  let fixtures: FixtureServer;
  const spec = OfficialSpec.load();
  const log: CheckedExchange[] = [];
  const client = (token: string): OfficialClient => officialClient({ endpoint, authToken: token, serviceBinding: { fetch: specCheckedFetch(spec, log) } });

  before(async () => {
    t = await startServer({ env: { ALLOW_PRIVATE_FETCH: 'true' } });
    endpoint = await listenOnRandomPort(t);
    fixtures = await startFixtureServer();
  });
  after(async () => {
    await fixtures.close();
    await t.close();
  }, { timeout: 30_000 });

  test('a spec fetched from a URL becomes versions; every operation answers as the spec says', async () => {
    const api = client(t.admin.token);
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
    assert.ok(log.length >= 14 && log.every((e) => e.problems.length === 0), JSON.stringify(log.filter((e) => e.problems.length > 0)));
  });
});
