import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import LZString from 'lz-string';
import { officialClient, rejectsWith, type OfficialClient } from './gitbook-client.ts';
import { listenOnRandomPort, startServer, type TestServer } from '../helpers.ts';
import { buildSpace, editLive } from '../factories.ts';
import { OfficialSpec, SpecViolation, specCheckedFetch, type CheckedExchange } from './spec-validator.ts';
import { startReceiver, type Receiver } from '../../src/features/integration-events/receiver.test-support.ts';
import { verifySignature } from '../../src/features/integration-events/signing.ts';

/**
 * Issue 17 through the official client over real HTTP: an integration published and installed on a space
 * receives a signed event of a content change, its events are listed and read with their trace, and its UI
 * renders through both render operations, the answer being the receiver's ContentKit output. Every exchange is
 * checked against the official spec.
 */
describe('Integration events and UI rendering end to end, through the official client', { timeout: 120_000 }, () => {
  let t: TestServer;
  let endpoint: string;
  let receiver: Receiver;
  const spec = OfficialSpec.load();
  const log: CheckedExchange[] = [];
  const client = (token: string): OfficialClient => officialClient({ endpoint, authToken: token, serviceBinding: { fetch: specCheckedFetch(spec, log) } });

  const output = (text: string) => ({
    type: 'element',
    element: { type: 'block', children: [{ type: 'text', children: [text] }], controls: [] },
    state: { clicks: 1 },
    props: { label: text },
  });

  /** Published (its endpoint is the test receiver) and installed on a new space, as an organization's admin does. */
  async function installedOnSpace(title: string, manifest: { contentSecurityPolicy?: string } = {}) {
    const api = client(t.admin.token);
    const name = `e2e-${title.toLowerCase().replace(/\W+/g, '-')}`;
    // `endpoint` is Quire's extension of the publish body (docs/integrations.md); `signingSecret` is given once.
    const body = { organization: t.org.id, title, description: 'Receives events', endpoint: receiver.url, scopes: ['space:content:read'], target: 'all', visibility: 'private', ...manifest };
    const { data: published } = await api.integrations.publishIntegration(name, body as never);
    const signingSecret = (published as { signingSecret?: string }).signingSecret;
    assert.ok(signingSecret, 'the first publish gives the signing secret');
    const { data: installation } = await api.integrations.installIntegration(name, { organization: t.org.id });
    const space = await buildSpace(t, { title });
    await api.integrations.installIntegrationOnSpace(name, installation.id, { space: space.id });
    // Installing queued installation_setup events: delivered now, so the receiver holds only what follows.
    await t.app.jobs.runDue();
    receiver.received.length = 0;
    return { name, signingSecret, installationId: installation.id, spaceId: space.id as string };
  }

  before(async () => {
    t = await startServer({ env: { ALLOW_PRIVATE_FETCH: 'true' } });
    endpoint = await listenOnRandomPort(t);
    receiver = await startReceiver();
  });
  after(async () => {
    await receiver.close();
    await t.close();
  }, { timeout: 30_000 });

  test('a content change reaches the installed integration signed; its events are listed and read with their trace', async () => {
    const integration = await installedOnSpace('Watched');
    await editLive(t, integration.spaceId, [{ operation: 'insert_page', title: 'News', document: { markdown: 'Fresh.' } }]);
    await t.app.jobs.runDue();
    const delivery = receiver.received.find((r) => r.headers['x-quire-event'] === 'space_content_updated');
    assert.ok(delivery);
    assert.equal(verifySignature(integration.signingSecret, delivery.headers['x-quire-signature'] as string, delivery.body, Math.floor(t.clock.now().getTime() / 1000)).valid, true);

    const api = client(t.admin.token);
    const { data: list } = await api.integrations.listIntegrationEvents(integration.name);
    // The content update, beside the installation_setup events of installing.
    const event = list.items.find((e) => e.payload.type === 'space_content_updated');
    assert.equal(event!.status, 'success');
    assert.equal(event!.payload.type, 'space_content_updated');
    const { data: detail } = await api.integrations.getIntegrationEvent(integration.name, event!.id);
    assert.equal(detail.event.id, event!.id);
    assert.ok(detail.trace && detail.trace.logs.length > 0);

    const stranger = await t.outsider();
    await rejectsWith(client(stranger.token).integrations.listIntegrationEvents(integration.name), 404);
  });

  test('a UI renders through both operations with the receiver’s ContentKit output', async () => {
    const integration = await installedOnSpace('Rendered', { contentSecurityPolicy: "script-src 'self'" });
    const { installationId } = integration;
    const space = { id: integration.spaceId };
    receiver.answer((request) => {
      const event = JSON.parse(request.body);
      return { status: 200, body: output(`${event.componentId} ${event.action?.action ?? 'first'}`) };
    });
    const member = await t.member('read');
    const api = client(member.token);
    const request = { componentId: 'counter', props: { label: 'x' }, state: {}, context: { type: 'document' as const, theme: 'light' as const, spaceId: space.id as string, editable: false } };

    const posted = await api.integrations.renderIntegrationUiWithPost(integration.name, request);
    assert.deepEqual(posted.data, output('counter first'));
    assert.equal(posted.headers.get('content-security-policy'), "script-src 'self'");
    const sent = JSON.parse(receiver.received[receiver.received.length - 1]!.body);
    assert.equal(sent.type, 'ui_render');
    assert.equal(sent.installationId, installationId);
    assert.equal(sent.spaceId, space.id);
    assert.deepEqual(sent.auth, { userId: member.userId });
    assert.deepEqual(sent.context, request.context);

    const compressed = LZString.compressToEncodedURIComponent(JSON.stringify({ ...request, action: { action: 'increment' } }));
    const got = await api.integrations.renderIntegrationUiWithGet(integration.name, { request: compressed });
    assert.deepEqual(got.data, output('counter increment'));

    // Someone in no organization the integration is installed on cannot render it.
    const stranger = await t.outsider();
    await rejectsWith(client(stranger.token).integrations.renderIntegrationUiWithPost(integration.name, request), 404);
    receiver.answer({ status: 200, body: {} });

    const violations = log.filter((entry) => entry.problems.length > 0);
    assert.deepEqual(violations.map((v) => new SpecViolation(v).message), []);
    const succeeded = new Set(log.filter((entry) => entry.status < 300).map((entry) => entry.operationId));
    for (const operation of ['listIntegrationEvents', 'getIntegrationEvent', 'renderIntegrationUIWithPost', 'renderIntegrationUIWithGet']) {
      assert.ok(succeeded.has(operation), `${operation} answered a success`);
    }
  });
});
