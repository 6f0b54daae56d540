import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../../../test/helpers.ts';
import { assertError, ok } from '../../../test/assertions.ts';
import { buildInstallation, buildIntegration, buildIntegrationWithoutTarget, buildSpace, editLive } from '../../../test/factories.ts';
import { buildApp } from '../../app.ts';
import { recordEvent } from '../../platform/events.ts';
import { deliveryStatsOf } from '../../platform/delivery-stats.ts';
import { startReceiver, type Receiver } from './receiver.test-support.ts';
import { verifySignature } from './signing.ts';

/**
 * Issue 17, part 3: changes become integration events for the installations that listen, delivered signed to
 * the integration, in order per installation, retried for at least 24 hours, and listed with their trace.
 */
describe('Integration events', () => {
  let t: TestServer;
  let receiver: Receiver;
  const HOUR = 60 * 60 * 1000;

  before(async () => {
    // The receiver listens on 127.0.0.1, which the SSRF-safe fetcher refuses unless private fetches are allowed.
    t = await startServer({ env: { ALLOW_PRIVATE_FETCH: 'true', FETCH_TIMEOUT_MS: '2000' } });
  });
  after(() => t.close());
  beforeEach(async () => {
    receiver = await startReceiver();
    // Outbox rows of earlier tests' set-up are turned into events now, not for this test's installations.
    await t.app.jobs.runDue();
  });
  afterEach(() => receiver.close());

  /**
   * An integration sending to the receiver (`endpoint: null`: to nowhere), published and installed on a new space
   * of the bootstrap organization through the API. Installing wrote installation_setup and
   * space_installation_setup: delivered now, so the receiver holds only what follows, and a second later, so
   * that what follows is newer in the events list.
   */
  async function installedOnSpace(options: { endpoint?: string | null } = {}) {
    const integration = options.endpoint === null ? await buildIntegrationWithoutTarget(t) : await buildIntegration(t, { endpoint: options.endpoint ?? receiver.url });
    const space = await buildSpace(t, { title: 'Hooked' });
    const installation = await buildInstallation(t, integration.name, { spaces: [space.id] });
    await t.app.jobs.runDue();
    receiver.received.length = 0;
    t.clock.advance(1000);
    return { integration, installationId: installation.id as string, spaceId: space.id as string };
  }

  /** An installation on the bootstrap organization (or `organizationId`, by its admin's `token`) listening to every space. */
  async function installedOnAllSpaces(integrationName: string, options: { token?: string; organizationId?: string } = {}) {
    const installation = await buildInstallation(t, integrationName, options);
    ok(await t.api('PATCH', `/v1/integrations/${integrationName}/installations/${installation.id}`, { body: { space_selection: 'all' }, ...(options.token ? { token: options.token } : {}) }));
    return installation.id as string;
  }

  /** Development mode through the API (setIntegrationDevelopmentMode). */
  const setDevelopmentMode = async (integrationName: string, tunnelUrl: string, all = false) =>
    ok(await t.api('PUT', `/v1/integrations/${integrationName}/dev`, { body: { tunnelUrl, all } }), 204);

  type Integration = { id: string; name: string; signingSecret: string };
  const page = (title: string) => [{ operation: 'insert_page', title, document: { markdown: `About ${title}.` } }];
  const events = (integration: Integration) => `/v1/integrations/${integration.name}/events`;
  const contentUpdates = () => receiver.received.filter((r) => r.headers['x-quire-event'] === 'space_content_updated');
  /** The integration's space_content_updated events, newest first (its installation's setup events left aside). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const contentEvents = async (integration: Integration): Promise<any[]> =>
    ok(await t.api('GET', `${events(integration)}?limit=100`)).items.filter((e: { payload: { type: string } }) => e.payload.type === 'space_content_updated');

  test("a content change reaches the receiver signed, at the worker's next run, as the official space_content_updated event", async () => {
    const { integration, installationId, spaceId } = await installedOnSpace();
    await editLive(t, spaceId, page('Hello'));
    const space = ok(await t.api('GET', `/v1/spaces/${spaceId}`));
    // One run delivers it (how soon the worker runs is EVENT_DELIVERY_INTERVAL_MS's test; no clock is read here:
    // a timed assertion fails on a busy machine, not on slow code).
    await t.app.jobs.runDue();

    // Only the merge is an official event; the change request's own outbox rows are not delivered.
    assert.equal(receiver.received.length, 1);
    const [delivery] = receiver.received;
    assert.equal(delivery!.headers['content-type'], 'application/json');
    assert.equal(delivery!.headers['x-quire-event'], 'space_content_updated');
    const payload = JSON.parse(delivery!.body);
    assert.deepEqual(payload, { eventId: delivery!.headers['x-quire-delivery'], type: 'space_content_updated', installationId, spaceId, revisionId: space.revision });

    // The documented scheme: HMAC-SHA256 of "<t>.<body>" with the signing secret.
    const now = Math.floor(t.clock.now().getTime() / 1000);
    const check = verifySignature(integration.signingSecret, delivery!.headers['x-quire-signature'] as string, delivery!.body, now);
    assert.deepEqual(check, { valid: true, timestamp: now });
    assert.equal(verifySignature('another secret', delivery!.headers['x-quire-signature'] as string, delivery!.body, now).valid, false);
    assert.equal(verifySignature(integration.signingSecret, delivery!.headers['x-quire-signature'] as string, `${delivery!.body} `, now).valid, false);
    assert.equal(verifySignature(integration.signingSecret, delivery!.headers['x-quire-signature'] as string, delivery!.body, now + 3600).valid, false, 'an old delivery is refused');

    const list = ok(await t.api('GET', events(integration)));
    // Installing's installation_setup and space_installation_setup, then (newest) the content update.
    assert.equal(list.count, 3);
    const [event] = list.items;
    assert.equal(event.id, payload.eventId);
    assert.equal(event.integrationId, integration.id);
    assert.equal(event.installationId, installationId);
    assert.equal(event.status, 'success');
    assert.deepEqual(event.payload, payload);
    assert.deepEqual(event.delivery, { state: 'success', attempts: 1, deliveredAt: t.clock.now().toISOString() });
    const detail = ok(await t.api('GET', `${events(integration)}/${event.id}`));
    assert.deepEqual(detail.event, event);
    assert.equal(detail.trace.logs.length, 1);
    assert.equal(detail.trace.logs[0].level, 'info');
    assert.match(detail.trace.logs[0].message, /Attempt 1 to endpoint .*: HTTP 200/);
  });

  test('a 2xx is never delivered again, however long the worker keeps running', async () => {
    const { spaceId } = await installedOnSpace();
    await editLive(t, spaceId, page('Once'));
    await t.app.jobs.runDue();
    for (let i = 0; i < 4; i += 1) {
      t.clock.advance(12 * HOUR);
      await t.app.jobs.runDue();
    }
    assert.equal(contentUpdates().length, 1);
  });

  test('while the receiver is down events wait; when it is back they arrive once each, in order', async () => {
    const { integration, spaceId } = await installedOnSpace();
    await receiver.down();
    await editLive(t, spaceId, page('First'));
    const first = ok(await t.api('GET', `/v1/spaces/${spaceId}`)).revision;
    await editLive(t, spaceId, page('Second'));
    const second = ok(await t.api('GET', `/v1/spaces/${spaceId}`)).revision;
    await t.app.jobs.runDue();
    t.clock.advance(5 * 60_000);
    await t.app.jobs.runDue();

    const pending = await contentEvents(integration);
    assert.equal(pending.length, 2);
    for (const event of pending) assert.equal(event.delivery.state, 'pending');
    const head = pending.find((e: { payload: { revisionId: string } }) => e.payload.revisionId === first);
    const later = pending.find((e: { payload: { revisionId: string } }) => e.payload.revisionId === second);
    assert.ok(head.delivery.attempts >= 2, 'the first event was retried');
    assert.equal(later.delivery.attempts, 0, 'the second waits for the first');
    const trace = ok(await t.api('GET', `${events(integration)}/${head.id}`)).trace.logs;
    assert.match(trace[0].message, /Attempt 1 to endpoint .* failed: .*refused/);
    assert.match(trace[1].message, /Retry scheduled at/);

    await receiver.up();
    t.clock.advance(2 * HOUR);
    await t.app.jobs.runDue();
    t.clock.advance(2 * HOUR);
    await t.app.jobs.runDue();
    assert.deepEqual(
      contentUpdates().map((r) => JSON.parse(r.body).revisionId),
      [first, second],
    );
    const done = await contentEvents(integration);
    assert.deepEqual(
      done.map((e: { status: string }) => e.status),
      ['success', 'success'],
    );
  });

  test('a later event waits behind an earlier one the receiver answers 503 to', async () => {
    const { spaceId } = await installedOnSpace();
    receiver.answer({ status: 503 });
    await editLive(t, spaceId, page('A'));
    await t.app.jobs.runDue();
    await editLive(t, spaceId, page('B'));
    await t.app.jobs.runDue();
    const firstRevision = JSON.parse(contentUpdates()[0]!.body).revisionId;
    assert.ok(contentUpdates().every((r) => JSON.parse(r.body).revisionId === firstRevision), 'only the first event was tried');
    receiver.answer({ status: 204 });
    t.clock.advance(HOUR);
    await t.app.jobs.runDue();
    const revisions = contentUpdates().map((r) => JSON.parse(r.body).revisionId as string);
    assert.equal(revisions.filter((r) => r !== firstRevision).length, 1, 'the second arrived once');
    assert.equal(revisions[revisions.length - 1] !== firstRevision, true, 'after the first');
  });

  test('a 4xx fails the event without a retry, and the next event goes on', async () => {
    const { integration, spaceId } = await installedOnSpace();
    receiver.answer({ status: 400, body: { error: 'no' } });
    await editLive(t, spaceId, page('Refused'));
    await t.app.jobs.runDue();
    t.clock.advance(3 * HOUR);
    await t.app.jobs.runDue();
    assert.equal(contentUpdates().length, 1);
    const [refused] = ok(await t.api('GET', events(integration))).items;
    assert.equal(refused.status, 'failed');
    assert.deepEqual(refused.delivery, { state: 'failed', attempts: 1 });
    const logs = ok(await t.api('GET', `${events(integration)}/${refused.id}`)).trace.logs;
    assert.equal(logs[logs.length - 1].level, 'error');
    assert.match(logs[logs.length - 1].message, /HTTP 400.*not retried/);

    receiver.answer({ status: 200 });
    await editLive(t, spaceId, page('Accepted'));
    await t.app.jobs.runDue();
    assert.equal(contentUpdates().length, 2);
  });

  test('5xx answers are retried with growing delays for at least 24 hours, then the event fails', async () => {
    const { integration, spaceId } = await installedOnSpace();
    receiver.answer({ status: 500 });
    const retriedBefore = deliveryStatsOf(t.db).retried;
    await editLive(t, spaceId, page('Doomed'));
    const start = t.clock.now().getTime();
    await t.app.jobs.runDue();
    let [event] = ok(await t.api('GET', events(integration))).items;
    const gaps: number[] = [];
    let last = start;
    while (event.delivery.state === 'pending') {
      const next = Date.parse(event.delivery.nextAttemptAt);
      gaps.push(next - last);
      last = next;
      t.clock.set(new Date(next));
      await t.app.jobs.runDue();
      [event] = ok(await t.api('GET', events(integration))).items;
    }
    assert.equal(event.delivery.state, 'failed');
    assert.ok(last - start >= 24 * HOUR, `retried for ${(last - start) / HOUR} hours`);
    assert.ok(gaps[3]! > gaps[0]!, 'the delay grows');
    assert.ok(Math.max(...gaps) <= HOUR, 'capped at an hour');
    assert.equal(contentUpdates().length, event.delivery.attempts);
    assert.equal(deliveryStatsOf(t.db).retried - retriedBefore, event.delivery.attempts - 1);
  });

  test('only installations on the space (or on all spaces) of its organization get its events', async () => {
    const { integration, spaceId } = await installedOnSpace();
    const other = await buildSpace(t, { title: 'Not hooked' });
    const everywhere = await buildIntegration(t, { endpoint: `${receiver.url}?all` });
    await installedOnAllSpaces(everywhere.name);
    const elsewhere = await t.outsider();
    const foreign = await buildIntegration(t, { endpoint: `${receiver.url}?foreign` });
    await installedOnAllSpaces(foreign.name, { token: elsewhere.token, organizationId: elsewhere.organizationId });
    // Installed on both spaces, but pending: its account configuration lacks a required value.
    const paused = await buildIntegration(t, { endpoint: `${receiver.url}?paused`, configurations: { account: { properties: { channel: { type: 'string' } }, required: ['channel'] } } });
    const pending = await buildInstallation(t, paused.name, { spaces: [other.id, spaceId] });
    assert.equal(pending.status, 'pending');
    await t.app.jobs.runDue();
    receiver.received.length = 0;

    await editLive(t, other.id, page('Elsewhere'));
    await editLive(t, spaceId, page('Here'));
    await t.app.jobs.runDue();
    const got = contentUpdates().map((r) => `${r.path} ${JSON.parse(r.body).spaceId}`);
    assert.deepEqual(got.sort(), [`/hook ${spaceId}`, `/hook?all ${other.id}`, `/hook?all ${spaceId}`].sort());
    assert.equal((await contentEvents(integration)).length, 1);
  });

  test('installation lifecycle events are delivered in their official shapes', async () => {
    const integration = await buildIntegration(t, { endpoint: receiver.url });
    const installationId = (await buildInstallation(t, integration.name)).id;
    // Installing's own installation_setup, delivered now: the test records its own events of each shape.
    await t.app.jobs.runDue();
    receiver.received.length = 0;
    await recordEvent(t.db, t.clock, 'installation_setup', t.org.id, { integrationId: integration.id, installationId, status: 'active' });
    await recordEvent(t.db, t.clock, 'space_installation_setup', t.org.id, {
      integrationId: integration.id,
      installationId,
      spaceId: 'space-1',
      status: 'active',
      previous: { status: 'pending', configuration: { a: 1 } },
    });
    await recordEvent(t.db, t.clock, 'installation_deleted', t.org.id, { integrationId: integration.id, installationId, status: 'active', previous: { status: 'active', configuration: { a: 2 } } });
    await t.app.jobs.runDue();
    const bodies = receiver.received.map((r) => {
      const { eventId, ...rest } = JSON.parse(r.body);
      assert.equal(eventId, r.headers['x-quire-delivery']);
      return rest;
    });
    assert.deepEqual(bodies, [
      { type: 'installation_setup', installationId, status: 'active' },
      { type: 'space_installation_setup', installationId, spaceId: 'space-1', status: 'active', previous: { status: 'pending', configuration: { a: 1 } } },
      { type: 'installation_deleted', installationId, previous: { configuration: { a: 2 } } },
    ]);
  });

  test('in development mode events go to the tunnel, for the owner organization only unless `all`', async () => {
    const tunnel = await startReceiver();
    try {
      const integration = await buildIntegration(t, { endpoint: receiver.url });
      const own = (await buildInstallation(t, integration.name)).id;
      const customer = await t.outsider();
      const theirs = (await buildInstallation(t, integration.name, { token: customer.token, organizationId: customer.organizationId })).id;
      // Installing's own installation_setup events, delivered before development mode begins.
      await t.app.jobs.runDue();
      receiver.received.length = 0;
      await setDevelopmentMode(integration.name, tunnel.url);
      const setup = (installationId: string, organizationId: string) =>
        recordEvent(t.db, t.clock, 'installation_setup', organizationId, { integrationId: integration.id, installationId, status: 'active' });
      await setup(own, t.org.id);
      await setup(theirs, customer.organizationId);
      await t.app.jobs.runDue();
      assert.deepEqual(
        tunnel.received.map((r) => JSON.parse(r.body).installationId),
        [own],
      );
      assert.deepEqual(
        receiver.received.map((r) => JSON.parse(r.body).installationId),
        [theirs],
      );

      await setDevelopmentMode(integration.name, tunnel.url, true);
      await setup(theirs, customer.organizationId);
      await t.app.jobs.runDue();
      assert.deepEqual(
        tunnel.received.map((r) => JSON.parse(r.body).installationId),
        [own, theirs],
      );
    } finally {
      await tunnel.close();
    }
  });

  test('an integration with nowhere to send is recorded as skipped, not retried', async () => {
    const { integration, spaceId } = await installedOnSpace({ endpoint: null });
    await editLive(t, spaceId, page('Lost'));
    await t.app.jobs.runDue();
    const [event] = ok(await t.api('GET', events(integration))).items;
    assert.equal(event.status, 'failed');
    assert.deepEqual(event.delivery, { state: 'skipped', attempts: 1 });
    const logs = ok(await t.api('GET', `${events(integration)}/${event.id}`)).trace.logs;
    assert.match(logs[0].message, /no development tunnel, script or endpoint/);
  });

  test('an integration with a script has its events handed to the script runtime', async () => {
    const integration = await buildIntegration(t, { script: 'export default { fetch: () => new Response("{}") }' });
    // Installing records installation_setup: its one event.
    await buildInstallation(t, integration.name);
    await t.app.jobs.runDue();
    const [event] = ok(await t.api('GET', events(integration))).items;
    const logs = ok(await t.api('GET', `${events(integration)}/${event.id}`)).trace.logs;
    // The isolate runtime is built on another branch; until it lands the script cannot run, which is retried.
    assert.match(logs[0].message, /Attempt 1 to the integration script/);
    assert.ok(event.delivery.state === 'pending' || event.delivery.state === 'success');
  });

  test('a script told of an event about a space finds that space installation, and its configuration, in its environment', async () => {
    // Accepts a space's setup only when the environment names that space's installation configured for #docs.
    const script = `export default { fetch: async (request) => {
      const form = await request.formData();
      const event = JSON.parse(form.get('event'));
      const environment = JSON.parse(form.get('environment'));
      if (event.type !== 'space_installation_setup') return new Response('{}');
      const here = environment.spaceInstallation;
      const ok = here && here.space === event.spaceId && here.configuration.channel === '#docs' && here.installation === environment.installation.id;
      return new Response('{}', { status: ok ? 200 : 422 });
    } }`;
    const integration = await buildIntegration(t, { script });
    const installation = await buildInstallation(t, integration.name);
    const configured = await buildSpace(t, { title: 'Configured' });
    const bare = await buildSpace(t, { title: 'Bare' });
    const base = `/v1/integrations/${integration.name}/installations/${installation.id}/spaces`;
    ok(await t.api('POST', base, { body: { space: configured.id, configuration: { channel: '#docs' } } }), 201);
    ok(await t.api('POST', base, { body: { space: bare.id } }), 201);
    await t.app.jobs.runDue();
    const setups = ok(await t.api('GET', events(integration))).items as { payload: { type: string; spaceId?: string }; delivery: { state: string } }[];
    const stateOf = (spaceId: string) => setups.find((e) => e.payload.type === 'space_installation_setup' && e.payload.spaceId === spaceId)?.delivery.state;
    assert.equal(stateOf(configured.id), 'success');
    assert.equal(stateOf(bare.id), 'failed', 'a space installation without the channel is refused by the script');
  });

  test('nothing is lost when the process stops between the change and the delivery', async () => {
    const { spaceId } = await installedOnSpace();
    await editLive(t, spaceId, page('Before the crash'));
    // Another process on the same database (as after a restart) finds the committed change and delivers it.
    const restarted = await buildApp({ config: t.config, db: t.db, clock: t.clock });
    try {
      await restarted.jobs.runDue();
    } finally {
      await restarted.close();
    }
    assert.equal(contentUpdates().length, 1);
    await t.app.jobs.runDue();
    assert.equal(contentUpdates().length, 1, 'and the first process does not send it again');
  });

  test('an event that cannot be signed is logged and retried, and the others are delivered', async () => {
    const broken = await buildIntegration(t, { endpoint: `${receiver.url}?broken` });
    // A stored secret that does not open (no API writes one): corrupted in place.
    await t.db.updateTable('integrations').set({ signing_secret: 'v1.not-a-sealed-secret-at-all-000000000000' }).where('id', '=', broken.id).execute();
    const healthy = await buildIntegration(t, { endpoint: receiver.url });
    // Installing each records its installation_setup: the events of this test.
    await buildInstallation(t, broken.name);
    await buildInstallation(t, healthy.name);
    await t.app.jobs.runDue();
    assert.deepEqual(
      receiver.received.map((r) => r.path),
      ['/hook'],
    );
    const [event] = ok(await t.api('GET', events(broken))).items;
    assert.equal(event.delivery.state, 'pending');
    assert.equal(event.delivery.attempts, 1);
    const logs = ok(await t.api('GET', `${events(broken)}/${event.id}`)).trace.logs;
    assert.equal(logs[0].level, 'error');
    assert.match(logs[0].message, /Attempt 1 could not be made/);
  });

  test('two processes sharing the database deliver every event once', async () => {
    const integration = await buildIntegration(t, { endpoint: receiver.url });
    const installations: string[] = [];
    for (let i = 0; i < 6; i += 1) {
      const customer = await t.outsider();
      // Installing records the first of the installation's three events.
      installations.push((await buildInstallation(t, integration.name, { token: customer.token, organizationId: customer.organizationId })).id);
      for (let n = 0; n < 2; n += 1) {
        await recordEvent(t.db, t.clock, 'installation_setup', customer.organizationId, { integrationId: integration.id, installationId: installations[i], status: 'active' });
      }
    }
    // Slow answers keep deliveries in flight while the other process looks for work.
    receiver.answer({ status: 200, delayMs: 30 });
    const other = await buildApp({ config: t.config, db: t.db, clock: t.clock });
    try {
      await Promise.all([t.app.jobs.runDue(), other.jobs.runDue(), t.app.jobs.runDue(), other.jobs.runDue()]);
      await Promise.all([t.app.jobs.runDue(), other.jobs.runDue()]);
    } finally {
      await other.close();
    }
    const ids = receiver.received.map((r) => r.headers['x-quire-delivery']);
    assert.equal(ids.length, 18);
    assert.equal(new Set(ids).size, 18, 'no event twice');
    const { items } = ok(await t.api('GET', `${events(integration)}?limit=100`));
    assert.ok(items.every((e: { status: string }) => e.status === 'success'));
  });

  test('only admins of the owner organization read the events; everyone else gets 404', async () => {
    const { integration, spaceId } = await installedOnSpace();
    await editLive(t, spaceId, page('Secret'));
    await t.app.jobs.runDue();
    const [event] = ok(await t.api('GET', events(integration))).items;
    const editor = await t.member('edit');
    const outsider = await t.outsider();
    for (const token of [editor.token, outsider.token]) {
      assertError(await t.api('GET', events(integration), { token }), 404, integration.name);
      assertError(await t.api('GET', `${events(integration)}/${event.id}`, { token }), 404);
    }
    assertError(await t.api('GET', events(integration), { token: null }), 401);
    assertError(await t.api('GET', `${events(integration)}/nope`), 404, 'nope');
    assertError(await t.api('GET', '/v1/integrations/missing-one/events'), 404, 'missing-one');
    assertError(await t.api('GET', `${events(integration)}?page=garbage`), 400, 'page');
  });

  test("an organization's admins read their installation's events and try a failed delivery again", async () => {
    // A public integration of the bootstrap organization, installed by another organization on all its spaces.
    const integration = await buildIntegration(t, { endpoint: receiver.url });
    const elsewhere = await t.outsider();
    const installationId = await installedOnAllSpaces(integration.name, { token: elsewhere.token, organizationId: elsewhere.organizationId });
    const installationEvents = `/v1/integrations/${integration.name}/installations/${installationId}/events`;
    receiver.answer({ status: 400, body: { error: 'no' } });
    await t.app.jobs.runDue();
    const listed = ok(await t.api('GET', installationEvents, { token: elsewhere.token })).items as { id: string; installationId: string; delivery: { state: string } }[];
    assert.ok(listed.length > 0 && listed.every((e) => e.installationId === installationId && e.delivery.state === 'failed'), JSON.stringify(listed));
    const failed = listed[0]!;
    // The owner's admins read it too; a member of the installing organization who is not its admin does not.
    ok(await t.api('GET', `${installationEvents}/${failed.id}`));
    assertError(await t.api('GET', installationEvents, { token: (await t.outsider()).token }), 404);
    assertError(await t.api('GET', `${installationEvents}/nope`, { token: elsewhere.token }), 404, 'nope');

    receiver.answer({ status: 200 });
    const retried = ok(await t.api('POST', `${installationEvents}/${failed.id}/retry`, { token: elsewhere.token }));
    assert.equal(retried.event.delivery.state, 'pending');
    assert.match(retried.trace.logs.at(-1).message, /Another attempt asked for/);
    assertError(await t.api('POST', `${installationEvents}/${failed.id}/retry`, { token: elsewhere.token }), 409, 'still being delivered');
    await t.app.jobs.runDue();
    const delivered = ok(await t.api('GET', `${installationEvents}/${failed.id}`, { token: elsewhere.token }));
    assert.equal(delivered.event.status, 'success');
    assert.equal(delivered.event.delivery.attempts, 2);
    assert.equal(receiver.received.filter((r) => r.headers['x-quire-delivery'] === failed.id).length, 2);
    assertError(await t.api('POST', `${installationEvents}/${failed.id}/retry`, { token: elsewhere.token }), 409, 'delivered already');
  });

  test('the events list pages newest first', async () => {
    const integration = await buildIntegration(t, { endpoint: receiver.url });
    // Installing records the first of three events; two more follow, a second apart.
    const installationId = (await buildInstallation(t, integration.name)).id;
    for (let i = 0; i < 2; i += 1) {
      t.clock.advance(1000);
      await recordEvent(t.db, t.clock, 'installation_setup', t.org.id, { integrationId: integration.id, installationId, status: 'active' });
    }
    await t.app.jobs.runDue();
    const first = ok(await t.api('GET', `${events(integration)}?limit=2`));
    assert.equal(first.count, 3);
    assert.equal(first.items.length, 2);
    const second = ok(await t.api('GET', `${events(integration)}?limit=2&page=${first.next.page}`));
    assert.equal(second.items.length, 1);
    assert.equal(second.next, undefined);
    const times = [...first.items, ...second.items].map((e: { createdAt: string }) => e.createdAt);
    assert.deepEqual(times, [...times].sort().reverse());
  });

  test('GET /metrics counts deliveries by outcome and the events waiting', async () => {
    const { spaceId } = await installedOnSpace();
    const metric = async (name: string) => {
      const text = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
      const line = text.split('\n').find((l) => l.startsWith(name));
      return Number(line?.split(' ').pop());
    };
    const delivered = await metric('quire_integration_event_deliveries_total{outcome="delivered"}');
    const waiting = await metric('quire_integration_event_queue_depth');
    receiver.answer({ status: 503 });
    await editLive(t, spaceId, page('Counted'));
    await t.app.jobs.runDue();
    // Installations on every space of the organization left by earlier tests may wait too: count this one.
    const afterFailure = await metric('quire_integration_event_queue_depth');
    assert.ok(afterFailure >= waiting + 1);
    const retried = await metric('quire_integration_event_deliveries_total{outcome="retried"}');
    assert.ok(retried >= 1);
    receiver.answer({ status: 200 });
    t.clock.advance(HOUR);
    await t.app.jobs.runDue();
    assert.equal(await metric('quire_integration_event_deliveries_total{outcome="delivered"}'), delivered + 1);
    assert.equal(await metric('quire_integration_event_queue_depth'), afterFailure - 1);
  });

  test("a started worker delivers a change every EVENT_DELIVERY_INTERVAL_MS (1 s), not at its own minute's end", async () => {
    const { spaceId } = await installedOnSpace();
    t.app.jobs.start(10 * 60_000);
    try {
      await editLive(t, spaceId, page('Soon'));
      // The worker's own run is ten minutes away: only the frequent sweep can deliver this. The wait is generous
      // (a busy machine); the test tells the two apart, it does not time them.
      for (let waited = 0; contentUpdates().length === 0 && waited < 60_000; waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
      assert.equal(contentUpdates().length, 1);
    } finally {
      await t.app.jobs.stop();
    }
  });
});
