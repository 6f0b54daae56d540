import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { rejectsWith } from './gitbook-client.ts';
import { e2eSession } from './e2e-session.ts';
import { buildIntegration, buildSpace } from '../factories.ts';
import { startReceiver, type Receiver } from '../../src/features/integration-events/receiver.test-support.ts';
import { verifySignature } from '../../src/features/integration-events/signing.ts';

/**
 * What is installed where, read through the official client: the integrations an organization may use, the
 * status of its installations (on itself, its spaces, its sites), its installations with their integrations,
 * the integrations and blocks of a space and the integrations of a site. And an integration queueing a task for
 * itself, which the job worker delivers to it as the official `task` event. Every exchange is checked against
 * the official spec (0.143.2 for the operations it has).
 */
const OPERATIONS = [
  'listOrganizationIntegrations',
  'getOrganizationIntegrationStatus',
  'listOrganizationIntegrationsStatus',
  'listOrganizationInstallations',
  'listSpaceIntegrations',
  'listSpaceIntegrationsBlocks',
  'listSiteIntegrations',
  'queueIntegrationTask',
  'listSiteIntegrationScripts',
];

describe('installed integrations and integration tasks, through the official client', { timeout: 180_000 }, () => {
  const session = e2eSession({ env: { ALLOW_PRIVATE_FETCH: 'true' } });
  let receiver: Receiver;
  before(async () => {
    receiver = await startReceiver();
  });
  after(() => receiver.close());

  const block = { id: 'diagram', title: 'Diagram', description: 'Draws a diagram', urlUnfurl: ['https://diagrams.example.com/*'] };

  test('an organization lists the integrations it may use and what is installed on it, its spaces and its sites', async () => {
    const { t } = session;
    const api = session.client();
    const org = t.org.id;
    const installed = await buildIntegration(t, { title: 'Diagrams', blocks: [block], endpoint: 'http://127.0.0.1:9/', target: 'all' });
    const own = await buildIntegration(t, { title: 'Internal tool', visibility: 'private', endpoint: 'http://127.0.0.1:9/' });
    const stranger = await t.outsider();
    const theirs = await buildIntegration(t, { title: 'Their tool', visibility: 'private', endpoint: 'http://127.0.0.1:9/' }, { token: stranger.token, organizationId: stranger.organizationId });

    // Public ones and the organization's own, never another organization's private one.
    const { data: usable } = await api.orgs.listOrganizationIntegrations(org, { limit: 1000 });
    const names = usable.items.map((i) => i.name);
    assert.ok(names.includes(installed.name) && names.includes(own.name), JSON.stringify(names));
    assert.ok(!names.includes(theirs.name));
    assert.equal(usable.count, usable.items.length);
    const { data: searched } = await api.orgs.listOrganizationIntegrations(org, { search: 'internal tool' });
    assert.deepEqual(
      searched.items.map((i) => i.name),
      [own.name],
    );
    const { data: firstPage } = await api.orgs.listOrganizationIntegrations(org, { limit: 1 });
    assert.equal(firstPage.items.length, 1);
    const { data: secondPage } = await api.orgs.listOrganizationIntegrations(org, { limit: 1, page: firstPage.next!.page });
    assert.notEqual(secondPage.items[0]!.name, firstPage.items[0]!.name);

    // Installed on the organization, one of its spaces and one of its sites.
    const { data: installation } = await api.integrations.installIntegration(installed.name, { organization: org });
    const space = await buildSpace(t, { title: 'Architecture' });
    const bare = await buildSpace(t, { title: 'Nothing installed' });
    await api.integrations.installIntegrationOnSpace(installed.name, installation.id, { space: space.id });
    const { data: site } = await api.orgs.createSite(org, { title: 'Handbook' });
    await api.integrations.installIntegrationOnSite(installed.name, installation.id, { siteId: site.id });

    assert.deepEqual((await api.orgs.getOrganizationIntegrationStatus(org, installed.name)).data, { status: 'active' });
    await rejectsWith(api.orgs.getOrganizationIntegrationStatus(org, own.name), 404, 'not installed');

    const { data: onOrganization } = await api.orgs.listOrganizationIntegrationsStatus(org);
    assert.deepEqual(
      onOrganization.items.map((i) => [i.integration.name, i.status]),
      [[installed.name, 'active']],
    );
    const { data: onSpaces } = await session.latest().orgs.listOrganizationIntegrationsStatus(org, { target: 'space' });
    assert.deepEqual(
      onSpaces.items.map((i) => i.target),
      [{ type: 'space', spaceId: space.id }],
    );
    const { data: onBare } = await session.latest().orgs.listOrganizationIntegrationsStatus(org, { target: 'space', space: bare.id });
    assert.deepEqual(onBare.items, []);
    const { data: onSites } = await session.latest().orgs.listOrganizationIntegrationsStatus(org, { target: 'site', site: site.id });
    assert.deepEqual(
      onSites.items.map((i) => i.target),
      [{ type: 'site', siteId: site.id }],
    );
    await rejectsWith(session.latest().orgs.listOrganizationIntegrationsStatus(org, { space: space.id }), 400, 'querystring/space');

    const { data: installations } = await api.orgs.listOrganizationInstallations(org, { search: 'diagrams' });
    assert.equal(installations.count, 1);
    assert.equal(installations.items[0]!.installation.id, installation.id);
    assert.equal(installations.items[0]!.installation.spaces, 1);
    assert.equal(installations.items[0]!.integration.name, installed.name);

    const { data: onSpace } = await api.spaces.listSpaceIntegrations(space.id);
    assert.deepEqual(
      onSpace.items.map((i) => i.name),
      [installed.name],
    );
    assert.equal((await api.spaces.listSpaceIntegrations(space.id, { search: 'no such thing' })).data.count, 0);
    assert.equal((await api.spaces.listSpaceIntegrations(bare.id)).data.count, 0);
    const { data: blocks } = await api.spaces.listSpaceIntegrationsBlocks(space.id);
    assert.deepEqual(blocks, [{ name: installed.name, blocks: [block] }]);

    const { data: onSite } = await api.orgs.listSiteIntegrations(org, site.id);
    assert.deepEqual(
      onSite.items.map((i) => i.name),
      [installed.name],
    );

    // A member reads statuses; an installation's configuration is for admins; an outsider sees none of it.
    const reader = await t.member('read');
    const asReader = session.client(reader.token);
    assert.equal((await asReader.orgs.getOrganizationIntegrationStatus(org, installed.name)).data.status, 'active');
    assert.equal((await asReader.orgs.listOrganizationIntegrationsStatus(org)).data.count, 1);
    await rejectsWith(asReader.orgs.listOrganizationInstallations(org), 403);
    const asStranger = session.client(stranger.token);
    await rejectsWith(asStranger.orgs.listOrganizationIntegrations(org), 404);
    await rejectsWith(asStranger.orgs.getOrganizationIntegrationStatus(org, installed.name), 404);
    await rejectsWith(asStranger.orgs.listOrganizationIntegrationsStatus(org), 404);
    await rejectsWith(asStranger.orgs.listOrganizationInstallations(org), 404);
    await rejectsWith(asStranger.spaces.listSpaceIntegrations(space.id), 404);
    await rejectsWith(asStranger.spaces.listSpaceIntegrationsBlocks(space.id), 404);
    await rejectsWith(asStranger.orgs.listSiteIntegrations(org, site.id), 404);
  });

  test('a space a member cannot read is not in their statuses, nor can they name it', async () => {
    const { t } = session;
    const api = session.client();
    const org = t.org.id;
    const integration = await buildIntegration(t, { title: 'Watcher', endpoint: 'http://127.0.0.1:9/' });
    const { data: installation } = await api.integrations.installIntegration(integration.name, { organization: org });
    const secret = await buildSpace(t, { title: 'Board minutes' });
    await api.integrations.installIntegrationOnSpace(integration.name, installation.id, { space: secret.id });
    // A guest (a member without a role) sees the organization and none of its spaces.
    const guest = session.latest((await t.member(null)).token);
    const { data: seen } = await guest.orgs.listOrganizationIntegrationsStatus(org, { target: 'space' });
    assert.deepEqual(seen.items, []);
    await rejectsWith(guest.orgs.listOrganizationIntegrationsStatus(org, { target: 'space', space: secret.id }), 404);
    const { data: all } = await session.latest().orgs.listOrganizationIntegrationsStatus(org, { target: 'space' });
    assert.ok(all.items.some((i) => i.target.type === 'space' && i.target.spaceId === secret.id));
  });

  test('an integration queues a task for itself; the worker delivers it as a task event, when scheduled', async () => {
    const { t } = session;
    const api = session.client();
    const integration = await buildIntegration(t, { title: 'Syncer', visibility: 'private', endpoint: receiver.url });
    const { data: installation } = await api.integrations.installIntegration(integration.name, { organization: t.org.id });
    const { data: issued } = await api.integrations.createIntegrationInstallationToken(integration.name, installation.id);
    const asIntegration = session.client(issued.token);
    await t.app.jobs.runDue();
    receiver.received.length = 0;

    await asIntegration.integrations.queueIntegrationTask(integration.name, { task: { kind: 'sync', page: 2 } });
    await t.app.jobs.runDue();
    const delivered = receiver.received.filter((r) => r.headers['x-quire-event'] === 'task');
    assert.equal(delivered.length, 1);
    const event = JSON.parse(delivered[0]!.body);
    assert.equal(event.type, 'task');
    assert.deepEqual(event.task, { kind: 'sync', page: 2 });
    assert.equal(event.installationId, installation.id);
    assert.equal(typeof event.eventId, 'string');
    const now = Math.floor(t.clock.now().getTime() / 1000);
    assert.equal(verifySignature(integration.signingSecret, delivered[0]!.headers['x-quire-signature'] as string, delivered[0]!.body, now).valid, true);

    // Scheduled an hour ahead: not before; meanwhile the installation's other events are not held back.
    receiver.received.length = 0;
    await asIntegration.integrations.queueIntegrationTask(integration.name, { task: { kind: 'later' }, schedule: 3600 });
    await api.integrations.updateIntegrationInstallation(integration.name, installation.id, { externalIds: ['account-1'] });
    await t.app.jobs.runDue();
    assert.deepEqual(
      receiver.received.map((r) => r.headers['x-quire-event']),
      ['installation_setup'],
    );
    t.clock.advance(3601 * 1000);
    await t.app.jobs.runDue();
    const later = receiver.received.filter((r) => r.headers['x-quire-event'] === 'task');
    assert.deepEqual(
      later.map((r) => JSON.parse(r.body).task),
      [{ kind: 'later' }],
    );

    // Only the integration itself queues its tasks; the body is checked; who cannot see it learns nothing.
    // (An hour went by: the installation's token has expired, the integration asks for another.)
    const renewed = session.client((await api.integrations.createIntegrationInstallationToken(integration.name, installation.id)).data.token);
    await rejectsWith(api.integrations.queueIntegrationTask(integration.name, { task: { kind: 'sync' } }), 403);
    await rejectsWith(renewed.integrations.queueIntegrationTask(integration.name, { task: 'sync' as never }), 400, 'body/task');
    await rejectsWith(renewed.integrations.queueIntegrationTask(integration.name, { task: {}, schedule: 86401 }), 400, 'body/schedule');
    const stranger = await t.outsider();
    await rejectsWith(session.client(stranger.token).integrations.queueIntegrationTask(integration.name, { task: {} }), 404);
  });

  test('a site lists the scripts of its integrations, and each is served with the integration’s answer', async () => {
    const { t } = session;
    const api = session.client();
    const org = t.org.id;
    const integration = await buildIntegration(t, {
      title: 'Analytics',
      endpoint: receiver.url,
      scopes: ['site:script:inject', 'site:script:cookies'],
      contentSecurityPolicy: "script-src 'self'",
    });
    const unscripted = await buildIntegration(t, { title: 'No script', endpoint: receiver.url, scopes: ['site:metadata:read'] });
    const { data: site } = await api.orgs.createSite(org, { title: 'Scripted site' });
    const { data: other } = await api.orgs.createSite(org, { title: 'Plain site' });
    const { data: installation } = await api.integrations.installIntegration(integration.name, { organization: org });
    await api.integrations.installIntegrationOnSite(integration.name, installation.id, { siteId: site.id });
    const { data: second } = await api.integrations.installIntegration(unscripted.name, { organization: org });
    await api.integrations.installIntegrationOnSite(unscripted.name, second.id, { siteId: site.id });
    await t.app.jobs.runDue();
    receiver.received.length = 0;

    const { data: scripts } = await api.orgs.listSiteIntegrationScripts(org, site.id);
    assert.equal(scripts.length, 1);
    assert.equal(scripts[0]!.cookies, true);
    assert.equal(scripts[0]!.contentSecurityPolicy, "script-src 'self'");
    assert.deepEqual((await api.orgs.listSiteIntegrationScripts(org, other.id)).data, []);

    // The URL is really served: the integration's answer to fetch_published_script, fetched without a token.
    receiver.answer((request) => (JSON.parse(request.body).type === 'fetch_published_script' ? { status: 200, body: 'window.analytics = true;' } : { status: 200, body: {} }));
    const served = await fetch(scripts[0]!.script);
    assert.equal(served.status, 200);
    assert.match(served.headers.get('content-type') ?? '', /^text\/javascript/);
    assert.equal(await served.text(), 'window.analytics = true;');
    const asked = JSON.parse(receiver.received.at(-1)!.body);
    assert.deepEqual([asked.type, asked.installationId, asked.siteId], ['fetch_published_script', installation.id, site.id]);
    // The integration failing is a 502; a site it is not on has no script there.
    receiver.answer({ status: 500, body: {} });
    assert.equal((await fetch(scripts[0]!.script)).status, 502);
    receiver.answer({ status: 200, body: {} });
    assert.equal((await fetch(scripts[0]!.script.replace(site.id, other.id))).status, 404);

    await rejectsWith(session.client((await t.outsider()).token).orgs.listSiteIntegrationScripts(org, site.id), 404);
  });

  after(() => session.assertConformed(OPERATIONS));
});
