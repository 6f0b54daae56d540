import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../../../test/helpers.ts';
import { assertError, ok } from '../../../test/assertions.ts';
import { buildIntegration, buildOrganization, buildSpace } from '../../../test/factories.ts';

describe('one installation’s spaces and sites', () => {
  let t: TestServer;
  before(async () => (t = await startServer()));
  after(() => t.close());

  const eventsOf = async (type: string) =>
    (await t.db.selectFrom('events').select(['payload']).where('type', '=', type).execute()).map((e) => JSON.parse(e.payload) as Record<string, unknown>);

  /** An integration of the bootstrap organization, installed by another organization's admin on one of its spaces and sites. */
  async function installedElsewhere() {
    const integration = await buildIntegration(t, { script: 'export default {}', configurations: { space: { properties: { channel: { type: 'string' } }, required: ['channel'] } } });
    const other = await buildOrganization(t);
    const as = { token: other.owner.token };
    const installation = ok(await t.api('POST', `/v1/integrations/${integration.name}/installations`, { ...as, body: { organization: other.id } }), 201);
    const space = await buildSpace(t, { title: 'Their space' }, { organizationId: other.id, token: other.owner.token });
    const site = ok(await t.api('POST', `/v1/orgs/${other.id}/sites`, { ...as, body: { title: 'Their site' } }), 201);
    const base = `/v1/integrations/${integration.name}/installations/${installation.id}`;
    ok(await t.api('POST', `${base}/spaces`, { ...as, body: { space: space.id } }), 201);
    ok(await t.api('POST', `${base}/sites`, { ...as, body: { siteId: site.id } }), 201);
    return { integration, installation, space, site, base, owner: other.owner };
  }

  test('the integration’s own admins read installations in other organizations but may not change them (403)', async () => {
    const { base, space, site } = await installedElsewhere();
    // Extended objects of an organization they are not in stay ids.
    assert.equal(ok(await t.api('GET', `${base}/spaces/${space.id}?extended=true`)).space, space.id);
    assert.equal(ok(await t.api('GET', `${base}/sites?extended=true`)).items[0].site, site.id);
    assertError(await t.api('PATCH', `${base}/spaces/${space.id}`, { body: { externalIds: ['x'] } }), 403, 'admins of the organization it is installed in');
    assertError(await t.api('PATCH', `${base}/sites/${site.id}`, { body: { externalIds: ['x'] } }), 403);
    assertError(await t.api('DELETE', `${base}/spaces/${space.id}`), 403);
    assertError(await t.api('DELETE', `${base}/sites/${site.id}`), 403);
  });

  test('a configuration is checked against the manifest, naming the field; a change records the previous state', async () => {
    const { base, space, integration, owner } = await installedElsewhere();
    const as = { token: owner.token };
    assertError(await t.api('PATCH', `${base}/spaces/${space.id}`, { ...as, body: { configuration: { channel: 7 } } }), 400, 'body/configuration/channel');
    assertError(await t.api('PATCH', `${base}/spaces/${space.id}`, { ...as, body: { externalIds: ['1', '2', '3', '4', '5', '6'] } }), 400, 'externalIds');
    const updated = ok(await t.api('PATCH', `${base}/spaces/${space.id}`, { ...as, body: { configuration: { channel: '#docs' } } }));
    assert.equal(updated.status, 'active');
    assert.equal(updated.integration, integration.name);
    const setup = (await eventsOf('space_installation_setup')).filter((e) => e.spaceId === space.id);
    assert.deepEqual(setup.at(-1)!.previous, { status: 'pending', configuration: {} });
  });

  test('uninstalling from a space answers 205 and tells the integration; again, 204 and nothing more', async () => {
    const { base, space, site, owner } = await installedElsewhere();
    const as = { token: owner.token };
    assert.equal((await t.api('DELETE', `${base}/spaces/${space.id}`, as)).status, 205);
    assert.equal((await t.api('DELETE', `${base}/spaces/${space.id}`, as)).status, 204);
    assert.equal((await eventsOf('space_installation_deleted')).filter((e) => e.spaceId === space.id).length, 1);
    assertError(await t.api('GET', `${base}/spaces/${space.id}`, as), 404);
    assert.equal((await t.api('DELETE', `${base}/sites/${site.id}`, as)).status, 205);
    assert.equal((await eventsOf('site_installation_deleted')).filter((e) => e.siteId === site.id).length, 1);
    assert.equal(ok(await t.api('GET', `${base}/sites`, as)).count, 0);
  });

  test('an installation of another integration, or of no integration, is not found', async () => {
    const { base, space, installation } = await installedElsewhere();
    const another = await buildIntegration(t, { script: 'export default {}' });
    assertError(await t.api('GET', `/v1/integrations/${another.name}/installations/${installation.id}/spaces`), 404);
    assertError(await t.api('GET', `/v1/integrations/no-such-integration/installations/${installation.id}/spaces/${space.id}`), 404);
    assertError(await t.api('GET', `${base}/spaces?limit=0`), 400, 'limit');
  });
});
