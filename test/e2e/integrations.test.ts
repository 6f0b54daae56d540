import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { officialClient, rejectsWith, type OfficialClient } from './gitbook-client.ts';
import { listenOnRandomPort, startServer, type TestServer } from '../helpers.ts';
import { OfficialSpec, specCheckedFetch, type CheckedExchange } from './spec-validator.ts';
import { buildPage, buildSpace } from '../factories.ts';

/**
 * Issue 17 over real HTTP with the official client: an integration is published, installed on a space, and a
 * token of its installation reads that space, cannot write with a read-only scope and cannot reach another
 * space. Every answer is checked against the official spec (Integration, IntegrationInstallation,
 * IntegrationSpaceInstallation, APITemporaryToken, Space, …).
 */
describe('integrations end to end, through the official client', { timeout: 120_000 }, () => {
  let t: TestServer;
  let endpoint: string;
  const spec = OfficialSpec.load();
  const log: CheckedExchange[] = [];
  const client = (token: string): OfficialClient => officialClient({ endpoint, authToken: token, serviceBinding: { fetch: specCheckedFetch(spec, log) } });

  before(async () => {
    t = await startServer();
    endpoint = await listenOnRandomPort(t);
  });
  after(() => t.close(), { timeout: 30_000 });

  test('publish, install on a space, act with an installation token within its scopes and reach', async () => {
    const api = client(t.admin.token);
    const { data: published } = await api.integrations.publishIntegration('docs-notifier', {
      organization: t.org.id,
      title: 'Docs notifier',
      description: 'Reads the docs it is installed on',
      script: 'export default {}',
      scopes: ['space:content:read' as never],
      visibility: 'public' as never,
      target: 'all' as never,
      configurations: { space: { properties: { channel: { type: 'string' } } } as never },
    });
    assert.equal(published.version, 1);
    assert.equal((await api.integrations.publishIntegration('docs-notifier', { organization: t.org.id, title: 'Docs notifier', description: 'v2', script: 'export default {}', scopes: ['space:content:read' as never] })).data.version, 2);
    assert.equal((await api.integrations.getIntegrationByName('docs-notifier')).data.description, 'v2');
    const { data: listed } = await api.integrations.listIntegrations({ search: 'docs-notifier' });
    assert.deepEqual(listed.items.map((i) => i.name), ['docs-notifier']);

    const { data: installation } = await api.integrations.installIntegration('docs-notifier', { organization: t.org.id });
    assert.equal(installation.status, 'active');
    const space = await buildSpace(t, { title: 'Product docs' });
    const page = await buildPage(t, space.id, { title: 'Start', markdown: 'Hello.' });
    const other = await buildSpace(t, { title: 'Internal notes' });
    const { data: onSpace } = await api.integrations.installIntegrationOnSpace('docs-notifier', installation.id, { space: space.id });
    assert.equal(onSpace.installation, installation.id);
    const { data: spaces } = await api.integrations.listIntegrationSpaceInstallations('docs-notifier', { extended: true });
    assert.equal((spaces.items[0]!.space as { id: string }).id, space.id);
    const { data: fetched } = await api.integrations.getIntegrationInstallationById('docs-notifier', installation.id);
    assert.equal(fetched.spaces, 1);

    const { data: issued } = await api.integrations.createIntegrationInstallationToken('docs-notifier', installation.id);
    const asIntegration = client(issued.token);
    assert.equal((await asIntegration.spaces.getSpaceById(space.id)).data.id, space.id);
    assert.equal((await asIntegration.spaces.getPageById(space.id, page)).data.id, page);
    await rejectsWith(asIntegration.spaces.createChangeRequest(space.id, { subject: 'Not allowed' }), 403);
    await rejectsWith(asIntegration.spaces.updateSpaceById(space.id, { title: 'Not allowed' }), 403);
    await rejectsWith(asIntegration.spaces.getSpaceById(other.id), 404);
    await rejectsWith(asIntegration.orgs.listMembersInOrganizationById(t.org.id), 403);

    // Uninstalling ends the token at once.
    await api.integrations.uninstallIntegration('docs-notifier', installation.id);
    await rejectsWith(asIntegration.spaces.getSpaceById(space.id), 401);

    assert.ok(log.length > 10);
    assert.deepEqual(log.filter((entry) => entry.problems.length > 0), []);
  });
});
