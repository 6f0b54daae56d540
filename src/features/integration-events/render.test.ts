import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import LZString from 'lz-string';
import { startServer, type TestServer } from '../../../test/helpers.ts';
import { assertError, ok } from '../../../test/assertions.ts';
import { buildInstallation, buildIntegration, buildIntegrationWithoutTarget, buildSpace } from '../../../test/factories.ts';
import { startReceiver, type Receiver } from './receiver.test-support.ts';
import { verifySignature } from './signing.ts';

/**
 * Issue 17, part 4: render requests go to the integration as signed `ui_render` events; its answer is passed on
 * only when it is a ContentKit render output, within bounded time and size.
 */
describe('Rendering an integration UI', () => {
  let t: TestServer;
  let receiver: Receiver;
  let integration: { id: string; name: string; signingSecret: string };
  let spaceId: string;
  const element = { type: 'element', element: { type: 'block', children: [] }, state: {}, props: {} };
  const request = () => ({ componentId: 'panel', props: {}, context: { type: 'document', theme: 'dark', spaceId, editable: true } });
  const render = (name: string, body: unknown, token?: string | null) => t.api('POST', `/v1/integrations/${name}/render`, { body, ...(token !== undefined ? { token } : {}) });

  before(async () => {
    // Long enough for a megabyte to cross a loaded machine (under stress-ng 1.5 s was not), short enough to wait out.
    t = await startServer({ env: { ALLOW_PRIVATE_FETCH: 'true', FETCH_TIMEOUT_MS: '4000' } });
  });
  after(() => t.close());
  beforeEach(async () => {
    receiver = await startReceiver();
    integration = await buildIntegration(t, { endpoint: receiver.url });
    spaceId = (await buildSpace(t, { title: 'Panel' })).id;
    await buildInstallation(t, integration.name, { spaces: [spaceId] });
  });
  afterEach(() => receiver.close());

  test('the render request reaches the integration signed, and its output is answered', async () => {
    receiver.answer({ status: 200, body: element });
    const res = await render(integration.name, request());
    assert.deepEqual(ok(res), element);
    assert.equal(res.headers['cache-control'], 'private, no-store');
    assert.equal(res.headers['content-security-policy'], undefined, 'no policy published, none sent');
    const [delivery] = receiver.received;
    assert.equal(delivery!.headers['x-quire-event'], 'ui_render');
    assert.equal(verifySignature(integration.signingSecret, delivery!.headers['x-quire-signature'] as string, delivery!.body, Math.floor(t.clock.now().getTime() / 1000)).valid, true);
  });

  test('a "complete" output is answered too, and a missing state or props is given as empty', async () => {
    receiver.answer({ status: 200, body: { type: 'complete', returnValue: { ok: true } } });
    assert.deepEqual(ok(await render(integration.name, request())), { type: 'complete', returnValue: { ok: true } });
    receiver.answer({ status: 200, body: { element: { type: 'modal', children: [] } } });
    assert.deepEqual(ok(await render(integration.name, request())), { type: 'element', element: { type: 'modal', children: [] }, state: {}, props: {} });
  });

  test('whatever is not a ContentKit output is a 502 that says why', async () => {
    const cases: [unknown, RegExp][] = [
      [{ type: 'element', element: { type: 'paragraph', children: [] } }, /element\.type must be one of block, modal, configuration/],
      [{ type: 'element' }, /element is missing/],
      [{ type: 'element', element: { type: 'block' } }, /children must be an array/],
      [{ type: 'nonsense' }, /type must be "element" or "complete"/],
      [[1, 2], /not a JSON object/],
      ['<html>', /not JSON/],
    ];
    for (const [body, message] of cases) {
      receiver.answer({ status: 200, body });
      assertError(await render(integration.name, request()), 502, message);
    }
    receiver.answer({ status: 500, body: { error: 'boom' } });
    assertError(await render(integration.name, request()), 502, 'HTTP 500');
    receiver.answer({ status: 200, body: { ...element, props: { big: 'x'.repeat(1024 * 1024) } } });
    assertError(await render(integration.name, request()), 502, 'larger than 1048576 bytes');
  });

  test('an integration that does not answer in time, or at all, is a 502', async () => {
    receiver.answer({ status: 200, body: element, delayMs: 7000 });
    const started = Date.now();
    assertError(await render(integration.name, request()), 502, /no complete answer within/);
    assert.ok(Date.now() - started < 7000);
    await receiver.down();
    assertError(await render(integration.name, request()), 502, 'refused');
    const nowhere = await buildIntegrationWithoutTarget(t);
    await buildInstallation(t, nowhere.name);
    assertError(await render(nowhere.name, request()), 502, 'no development tunnel, script or endpoint');
  });

  test('the published content security policy goes with the rendered UI', async () => {
    const guarded = await buildIntegration(t, { endpoint: receiver.url, contentSecurityPolicy: "default-src 'none'" });
    await buildInstallation(t, guarded.name, { spaces: [spaceId] });
    receiver.answer({ status: 200, body: element });
    const res = await render(guarded.name, request());
    ok(res);
    assert.equal(res.headers['content-security-policy'], "default-src 'none'");
  });

  test('the GET form takes the request compressed with lz-string, and refuses what does not decode', async () => {
    receiver.answer({ status: 200, body: element });
    const encoded = LZString.compressToEncodedURIComponent(JSON.stringify(request()));
    assert.deepEqual(ok(await t.api('GET', `/v1/integrations/${integration.name}/render?request=${encoded}`)), element);
    assert.equal(JSON.parse(receiver.received[0]!.body).componentId, 'panel');
    assertError(await t.api('GET', `/v1/integrations/${integration.name}/render?request=${LZString.compressToEncodedURIComponent('{not json')}`), 400, 'querystring/request');
    const noComponent = LZString.compressToEncodedURIComponent(JSON.stringify({ props: {}, context: { type: 'document' } }));
    assertError(await t.api('GET', `/v1/integrations/${integration.name}/render?request=${noComponent}`), 400, 'componentId');
    assertError(await t.api('GET', `/v1/integrations/${integration.name}/render`), 400, 'request');
    assertError(await render(integration.name, { props: {}, context: { type: 'document' } }), 400, 'componentId');
  });

  test('members of an organization with the integration installed, and of its owner, may render; others get 404', async () => {
    receiver.answer({ status: 200, body: element });
    const reader = await t.member('read');
    ok(await render(integration.name, request(), reader.token));
    const stranger = await t.outsider();
    assertError(await render(integration.name, request(), stranger.token), 404, integration.name);
    // The owner's members render what they build, in an organization without an installation too.
    const own = await buildIntegration(t, { endpoint: receiver.url }, { token: stranger.token, organizationId: stranger.organizationId });
    ok(await render(own.name, { componentId: 'c', props: {}, context: { type: 'configuration_account', theme: 'light', organizationId: stranger.organizationId } }, stranger.token));
    // A render in a space of an organization the integration is not installed on is refused.
    const strangersSpace = await t.api('POST', `/v1/orgs/${stranger.organizationId}/spaces`, { token: stranger.token, body: { title: 'Theirs' } });
    const other = await buildIntegration(t, { endpoint: receiver.url });
    await buildInstallation(t, other.name);
    assertError(
      await render(other.name, { componentId: 'c', props: {}, context: { type: 'document', theme: 'light', spaceId: ok(strangersSpace, 201).id, editable: false } }, stranger.token),
      404,
    );
    // A guest is a member of the organization but cannot open the space: no render in it.
    const guest = await t.member(null);
    assertError(await render(integration.name, request(), guest.token), 404, spaceId);
    assertError(await render('no-such-integration', request()), 404, 'no-such-integration');
    assertError(await render(integration.name, request(), null), 401);
  });

  test('a render in a site happens in the site’s organization, for callers who see the site; an unknown site is 404', async () => {
    receiver.answer({ status: 200, body: element });
    const site = ok(await t.api('POST', `/v1/orgs/${t.org.id}/sites`, { body: { title: 'Rendered site', spaces: [spaceId] } }), 201);
    const inSite = (siteId: string) => ({ componentId: 'panel', props: {}, context: { type: 'document', theme: 'dark', siteId } });
    assert.deepEqual(ok(await render(integration.name, inSite(site.id))), element);
    const delivered = JSON.parse(receiver.received.at(-1)!.body);
    assert.equal(delivered.siteId, site.id);
    assert.ok(delivered.installationId, 'the installation of the site’s organization renders');
    assertError(await render(integration.name, inSite('no-such-site')), 404, 'no-such-site');
    // A site of an organization the caller is not in is, for them, not there.
    const stranger = await t.outsider();
    const theirs = ok(await t.api('POST', `/v1/orgs/${stranger.organizationId}/sites`, { token: stranger.token, body: { title: 'Their site' } }), 201);
    assertError(await render(integration.name, inSite(theirs.id)), 404);
  });
});
