import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import LZString from 'lz-string';
import { officialClient, rejectsWith, type OfficialClient } from './gitbook-client.ts';
import { listenOnRandomPort, startServer, type TestServer } from '../helpers.ts';
import { buildSpace, editLive } from '../factories.ts';
import { OfficialSpec, SpecViolation, specCheckedFetch, type CheckedExchange } from './spec-validator.ts';
import { insertInstallation, insertIntegration, insertSpaceInstallation } from '../../src/features/integration-events/fixtures.test-support.ts';
import { startReceiver, type Receiver } from '../../src/features/integration-events/receiver.test-support.ts';
import { verifySignature } from '../../src/features/integration-events/signing.ts';

/**
 * Issue 17, parts 3 and 4, through the official client over real HTTP: an integration's events listed and read
 * with their trace, and its UI rendered through both render operations, the answer being the receiver's
 * ContentKit output. Every exchange is checked against the official spec.
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

  before(async () => {
    t = await startServer({ env: { ALLOW_PRIVATE_FETCH: 'true' } });
    endpoint = await listenOnRandomPort(t);
    receiver = await startReceiver();
  });
  after(async () => {
    await receiver.close();
    await t.close();
  }, { timeout: 30_000 });

  test('events of a content change are listed and read with their trace', async () => {
    const integration = await insertIntegration(t, { endpoint: receiver.url });
    const installationId = await insertInstallation(t, integration.id);
    const space = await buildSpace(t, { title: 'Watched' });
    await insertSpaceInstallation(t, installationId, space.id);
    await editLive(t, space.id, [{ operation: 'insert_page', title: 'News', document: { markdown: 'Fresh.' } }]);
    await t.app.jobs.runDue();
    const delivery = receiver.received.find((r) => r.headers['x-quire-event'] === 'space_content_updated');
    assert.ok(delivery);
    assert.equal(verifySignature(integration.signingSecret, delivery.headers['x-quire-signature'] as string, delivery.body, Math.floor(t.clock.now().getTime() / 1000)).valid, true);

    const api = client(t.admin.token);
    const { data: list } = await api.integrations.listIntegrationEvents(integration.name);
    assert.equal(list.items.length, 1);
    const [event] = list.items;
    assert.equal(event!.status, 'success');
    assert.equal(event!.payload.type, 'space_content_updated');
    const { data: detail } = await api.integrations.getIntegrationEvent(integration.name, event!.id);
    assert.equal(detail.event.id, event!.id);
    assert.ok(detail.trace && detail.trace.logs.length > 0);

    const stranger = await t.outsider();
    await rejectsWith(client(stranger.token).integrations.listIntegrationEvents(integration.name), 404);
  });

  test('a UI renders through both operations with the receiver’s ContentKit output', async () => {
    const integration = await insertIntegration(t, { endpoint: receiver.url, contentSecurityPolicy: "script-src 'self'" });
    const installationId = await insertInstallation(t, integration.id);
    const space = await buildSpace(t, { title: 'Rendered' });
    await insertSpaceInstallation(t, installationId, space.id);
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
