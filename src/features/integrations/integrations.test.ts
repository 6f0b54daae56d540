import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../../../test/helpers.ts';
import { assertError, ok } from '../../../test/assertions.ts';
import { buildPage, buildSpace } from '../../../test/factories.ts';
import { openSecret } from '../../platform/secret-box.ts';

// A 1x1 PNG.
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

let counter = 0;
const uniqueName = (prefix: string) => `${prefix}-${++counter}-${Math.random().toString(36).slice(2, 7)}`;

describe('integrations: publishing, installing, tokens and scopes', () => {
  let t: TestServer;
  before(async () => (t = await startServer()));
  after(() => t.close());

  const manifest = (extra: Record<string, unknown> = {}) => ({
    organization: t.org.id,
    title: 'Notifier',
    description: 'Tells a channel about changes',
    script: 'export default {}',
    scopes: ['space:content:read'],
    visibility: 'public',
    ...extra,
  });
  const publish = async (name: string, extra: Record<string, unknown> = {}, token?: string) =>
    t.api('POST', `/v1/integrations/${name}`, { body: manifest(extra), ...(token ? { token } : {}) });
  const install = async (name: string, organization = t.org.id, token?: string) =>
    t.api('POST', `/v1/integrations/${name}/installations`, { body: { organization }, ...(token ? { token } : {}) });
  const eventsOf = async (type: string) =>
    (await t.db.selectFrom('events').select(['type', 'organization_id', 'payload']).where('type', '=', type).execute()).map((e) => ({ ...e, payload: JSON.parse(e.payload) }));

  test('publishing makes version 1, then each publish adds one; the signing secret is returned once; secrets never', async () => {
    const name = uniqueName('notifier');
    const first = ok(await publish(name, { secrets: { API_KEY: 'very-secret-value' }, icon: PNG, previewImages: [PNG], categories: ['content'] }));
    assert.equal(first.object, 'integration');
    assert.equal(first.version, 1);
    assert.equal(first.owner.id, t.org.id);
    assert.equal(first.permissions.admin, true);
    assert.equal(typeof first.signingSecret, 'string');
    assert.ok(!JSON.stringify(first).includes('very-secret-value'));
    const second = ok(await publish(name, { title: 'Notifier 2' }));
    assert.equal(second.version, 2);
    assert.equal(second.title, 'Notifier 2');
    assert.equal(second.signingSecret, undefined, 'the signing secret is shown at the first publish only');
    assert.equal(ok(await t.api('GET', `/v1/integrations/${name}`)).version, 2);

    // At rest: sealed, and the sealed values open to what was given.
    const row = await t.db.selectFrom('integrations').selectAll().where('name', '=', name).executeTakeFirstOrThrow();
    assert.match(row.secrets ?? '', /^v1\./);
    assert.ok(!row.secrets!.includes('very-secret-value'));
    assert.deepEqual(JSON.parse(await openSecret(t.app.ctx, row.secrets!)), { API_KEY: 'very-secret-value' });
    assert.equal(await openSecret(t.app.ctx, row.signing_secret), first.signingSecret);

    // The icon is served at urls.icon without a token.
    const icon = await t.app.inject({ method: 'GET', url: new URL(first.urls.icon as string).pathname });
    assert.equal(icon.statusCode, 200);
    assert.equal(icon.headers['content-type'], 'image/png');
    assert.equal(first.previewImages.length, 1);
  });

  test('a publish is checked: the caller administers the organization, the manifest is valid, the name is theirs', async () => {
    const reader = await t.member('read');
    assertError(await publish(uniqueName('x'), {}, reader.token), 403, 'admins');
    assertError(await publish(uniqueName('x'), { organization: 'no-such-org' }), 404, 'body/organization');
    assertError(await publish(uniqueName('x'), { scopes: ['space:everything'] }), 400, 'scopes');
    assertError(await publish(uniqueName('x'), { endpoint: 'ftp://example.com/hook' }), 400, 'body/endpoint');
    assertError(await publish(uniqueName('x'), { script: undefined }), 400, 'body/script or body/endpoint');
    assertError(await publish(uniqueName('x'), { title: 'x' }), 400, 'title');
    const outsider = await t.outsider();
    const name = uniqueName('taken');
    ok(await publish(name));
    assertError(await t.api('POST', `/v1/integrations/${name}`, { token: outsider.token, body: manifest({ organization: outsider.organizationId }) }), 409, 'another organization');
  });

  test('the endpoint extension is shown only to admins of the owner organization', async () => {
    const name = uniqueName('hooked');
    ok(await publish(name, { script: undefined, endpoint: 'https://hooks.example.com/quire' }));
    assert.equal(ok(await t.api('GET', `/v1/integrations/${name}`)).endpoint, 'https://hooks.example.com/quire');
    const outsider = await t.outsider();
    assert.equal(ok(await t.api('GET', `/v1/integrations/${name}`, { token: outsider.token })).endpoint, undefined);
  });

  test('a private integration is seen by its organization only; lists apply the official filters', async () => {
    const hidden = uniqueName('private');
    ok(await publish(hidden, { visibility: 'private', scopes: ['site:metadata:read'], target: 'site' }));
    const blocky = uniqueName('blocky');
    ok(await publish(blocky, { blocks: [{ id: 'embed', title: 'Embed', urlUnfurl: ['https://figma.example.com/*'] }], categories: ['analytics'], target: 'space' }));
    const outsider = await t.outsider();
    assertError(await t.api('GET', `/v1/integrations/${hidden}`, { token: outsider.token }), 404);
    const names = async (query: string, token?: string) => (ok(await t.api('GET', `/v1/integrations?${query}`, token ? { token } : {})).items as { name: string }[]).map((i) => i.name);
    assert.ok(!(await names('limit=1000', outsider.token)).includes(hidden));
    assert.ok((await names('limit=1000')).includes(hidden));
    assert.deepEqual((await names('scope=site:metadata:read')).filter((n) => n === hidden || n === blocky), [hidden]);
    assert.deepEqual((await names('blocks=true')).filter((n) => n === hidden || n === blocky), [blocky]);
    assert.deepEqual((await names('category=analytics')).filter((n) => n === hidden || n === blocky), [blocky]);
    assert.deepEqual((await names('target=site')).filter((n) => n === hidden || n === blocky), [hidden]);
    assert.deepEqual((await names('blockDomain=figma.example.com')).filter((n) => n === hidden || n === blocky), [blocky]);
    assert.deepEqual(await names(`search=${blocky}`), [blocky]);
    assert.ok((await names(`owner=${outsider.organizationId}`)).length === 0);
    // Keyset pages walk the whole list.
    const first = ok(await t.api('GET', '/v1/integrations?limit=1'));
    assert.equal(first.items.length, 1);
    assert.ok(first.next.page);
    const second = ok(await t.api('GET', `/v1/integrations?limit=1&page=${encodeURIComponent(first.next.page)}`));
    assert.notEqual(second.items[0].name, first.items[0].name);
  });

  test('installing on an organization records installation_setup; admins only, once, and private ones stay home', async () => {
    const name = uniqueName('installable');
    ok(await publish(name, { configurations: { account: { properties: { channel: { type: 'string' }, level: { type: 'string', enum: ['low', 'high'] } }, required: ['channel'] } } }));
    const installation = ok(await install(name), 201);
    assert.equal(installation.status, 'pending', 'a required configuration key is missing');
    assert.deepEqual(installation.target, { organization: t.org.id });
    assert.equal(installation.spaces, 0);
    const setup = (await eventsOf('installation_setup')).find((e) => e.payload.installationId === installation.id);
    assert.ok(setup);
    assert.equal(setup.organization_id, t.org.id);
    assert.equal(setup.payload.status, 'pending');
    assertError(await install(name), 409, 'already installed');
    const reader = await t.member('read');
    assertError(await install(name, t.org.id, reader.token), 403);
    const outsider = await t.outsider();
    const privateName = uniqueName('home');
    ok(await publish(privateName, { visibility: 'private' }));
    assertError(await install(privateName, outsider.organizationId, outsider.token), 404);
    // A public one installs in another organization, whose installations the first does not see.
    const theirs = ok(await install(name, outsider.organizationId, outsider.token), 201);
    const seen = ok(await t.api('GET', `/v1/integrations/${name}/installations`, { token: outsider.token }));
    assert.deepEqual(seen.items.map((i: { id: string }) => i.id), [theirs.id]);
    const all = ok(await t.api('GET', `/v1/integrations/${name}/installations`));
    assert.equal(all.count, 2, 'the owner organization’s admins see every installation');

    // Updating the configuration: checked against configurations.account, then active, with the previous state.
    const path = `/v1/integrations/${name}/installations/${installation.id}`;
    assertError(await t.api('PATCH', path, { body: { configuration: { level: 'low' } } }), 400, 'body/configuration/channel is required');
    assertError(await t.api('PATCH', path, { body: { configuration: { channel: 3 } } }), 400, 'body/configuration/channel must be a string');
    assertError(await t.api('PATCH', path, { body: { configuration: { channel: '#docs', level: 'mid' } } }), 400, 'body/configuration/level');
    const updated = ok(await t.api('PATCH', path, { body: { configuration: { channel: '#docs' }, externalIds: ['ext-1'] } }));
    assert.equal(updated.status, 'active');
    assert.deepEqual(ok(await t.api('GET', path)).configuration, { channel: '#docs' });
    const change = (await eventsOf('installation_setup')).find((e) => e.payload.installationId === installation.id && e.payload.previous);
    assert.deepEqual(change?.payload.previous, { status: 'pending', configuration: {} });
    const byExternal = ok(await t.api('GET', `/v1/integrations/${name}/installations?externalId=ext-1`));
    assert.deepEqual(byExternal.items.map((i: { id: string }) => i.id), [installation.id]);
    assertError(await t.api('GET', path, { token: outsider.token }), 404);
    assertError(await t.api('PATCH', path, { token: reader.token, body: { configuration: {} } }), 404);
  });

  test('installing on spaces and sites of the organization: configuration checked, events recorded, lists extended', async () => {
    const name = uniqueName('spacey');
    ok(await publish(name, { configurations: { space: { properties: { mode: { type: 'string', enum: ['a', 'b'] } } } } }));
    const installation = ok(await install(name), 201);
    const space = await buildSpace(t, { title: 'Installed space' });
    const base = `/v1/integrations/${name}/installations/${installation.id}`;
    assertError(await t.api('POST', `${base}/spaces`, { body: { space: space.id, configuration: { mode: 'c' } } }), 400, 'body/configuration/mode');
    const onSpace = ok(await t.api('POST', `${base}/spaces`, { body: { space: space.id, configuration: { mode: 'a' } } }), 201);
    assert.equal(onSpace.space, space.id);
    assert.equal(onSpace.installation, installation.id);
    const extended = ok(await t.api('POST', `${base}/spaces?extended=true`, { body: { space: space.id, configuration: { mode: 'b' } } }), 201);
    assert.equal(extended.space.id, space.id);
    const setups = (await eventsOf('space_installation_setup')).filter((e) => e.payload.installationId === installation.id);
    assert.equal(setups.length, 2);
    assert.deepEqual(setups[1]!.payload.previous, { status: 'active', configuration: { mode: 'a' } });
    assert.equal(setups[0]!.payload.spaceId, space.id);
    assert.equal(ok(await t.api('GET', base)).spaces, 1);

    const outsider = await t.outsider();
    const foreign = await buildSpace(t, { title: 'Elsewhere' }, { token: outsider.token, organizationId: outsider.organizationId });
    assertError(await t.api('POST', `${base}/spaces`, { body: { space: foreign.id } }), 404, 'body/space');

    const list = ok(await t.api('GET', `/v1/integrations/${name}/spaces?extended=true`));
    assert.equal(list.count, 1);
    assert.equal(list.items[0].space.id, space.id);
    assert.equal(ok(await t.api('GET', `/v1/integrations/${name}/spaces`)).items[0].space, space.id);

    const site = ok(await t.api('POST', `/v1/orgs/${t.org.id}/sites`, { body: { title: 'Docs site', spaces: [space.id] } }), 201);
    const onSite = ok(await t.api('POST', `${base}/sites`, { body: { siteId: site.id } }), 201);
    assert.equal(onSite.site, site.id);
    const sites = ok(await t.api('GET', `/v1/integrations/${name}/sites?extended=true`));
    assert.equal(sites.items[0].site.id, site.id);
    assert.ok((await eventsOf('site_installation_setup')).some((e) => e.payload.siteId === site.id && e.payload.installationId === installation.id));
    assertError(await t.api('POST', `${base}/sites`, { body: { siteId: 'no-such-site' } }), 404, 'body/siteId');

    // The target restricts where it installs.
    const siteOnly = uniqueName('siteonly');
    ok(await publish(siteOnly, { target: 'site' }));
    const siteInstallation = ok(await install(siteOnly), 201);
    assertError(await t.api('POST', `/v1/integrations/${siteOnly}/installations/${siteInstallation.id}/spaces`, { body: { space: space.id } }), 400, 'target');

    // Uninstalling tells each space and site, then the organization, and takes the installation away.
    assert.equal((await t.api('DELETE', base)).status, 204);
    assertError(await t.api('GET', base), 404);
    assert.ok((await eventsOf('space_installation_deleted')).some((e) => e.payload.spaceId === space.id && e.payload.installationId === installation.id));
    assert.ok((await eventsOf('site_installation_deleted')).some((e) => e.payload.siteId === site.id));
    assert.ok((await eventsOf('installation_deleted')).some((e) => e.payload.installationId === installation.id));
    assert.equal((await t.api('DELETE', base)).status, 204, 'a DELETE of what is gone is 204');
  });

  test('each install answers where it now lives: its location header is the installation’s own URL', async () => {
    const name = uniqueName('located');
    ok(await publish(name));
    const created = await install(name);
    const installation = ok(created, 201);
    assert.equal(created.headers.location, installation.urls.location);
    const base = `/v1/integrations/${name}/installations/${installation.id}`;
    const space = await buildSpace(t, { title: 'Located space' });
    const onSpace = await t.api('POST', `${base}/spaces`, { body: { space: space.id } });
    assert.equal(onSpace.headers.location, ok(onSpace, 201).urls.location);
    const site = ok(await t.api('POST', `/v1/orgs/${t.org.id}/sites`, { body: { title: 'Located site', spaces: [space.id] } }), 201);
    const onSite = await t.api('POST', `${base}/sites`, { body: { siteId: site.id } });
    assert.equal(onSite.headers.location, ok(onSite, 201).urls.location);
    // A refused install says where nothing lives.
    const refused = await install(name);
    assertError(refused, 409);
    assert.equal(refused.headers.location, undefined);
  });

  test('an installation token reads what it is installed on with its scopes, and nothing else', async () => {
    const name = uniqueName('reader');
    ok(await publish(name, { scopes: ['space:content:read'] }));
    const installation = ok(await install(name), 201);
    const space = await buildSpace(t, { title: 'Granted' });
    const page = await buildPage(t, space.id, { title: 'Hello', markdown: 'Hi.' });
    const other = await buildSpace(t, { title: 'Not granted' });
    const base = `/v1/integrations/${name}/installations/${installation.id}`;
    ok(await t.api('POST', `${base}/spaces`, { body: { space: space.id } }), 201);
    const { token } = ok(await t.api('POST', `${base}/tokens`));
    assert.match(token, /^quire_inst_/);
    const stored = await t.db.selectFrom('installation_tokens').selectAll().where('installation_id', '=', installation.id).executeTakeFirstOrThrow();
    assert.notEqual(stored.token_hash, token);

    assert.equal(ok(await t.api('GET', `/v1/spaces/${space.id}`, { token })).id, space.id);
    assert.equal(ok(await t.api('GET', `/v1/spaces/${space.id}/content/page/${page}`, { token })).id, page);
    assertError(await t.api('GET', `/v1/spaces/${other.id}`, { token }), 404);
    assertError(await t.api('POST', `/v1/spaces/${space.id}/change-requests`, { token, body: { subject: 'No' } }), 403, 'space:content:write');
    assertError(await t.api('PATCH', `/v1/spaces/${space.id}`, { token, body: { title: 'No' } }), 403, 'space:metadata:write');
    assertError(await t.api('GET', `/v1/orgs/${t.org.id}/members`, { token }), 403, 'not available to integration installation tokens');
    const listed = ok(await t.api('GET', `/v1/orgs/${t.org.id}/spaces`, { token }));
    assert.deepEqual(listed.items.map((s: { id: string }) => s.id), [space.id]);
    // Its own installation, and a renewal of itself.
    assert.equal(ok(await t.api('GET', base, { token })).id, installation.id);
    assert.match(ok(await t.api('POST', `${base}/tokens`, { token })).token, /^quire_inst_/);
    // Another organization is out of reach.
    const outsider = await t.outsider();
    const foreign = await buildSpace(t, { title: 'Foreign' }, { token: outsider.token, organizationId: outsider.organizationId });
    assertError(await t.api('GET', `/v1/spaces/${foreign.id}`, { token }), 404);

    // It keeps its own configuration, but cannot widen its own reach.
    assert.deepEqual(ok(await t.api('PATCH', base, { token, body: { externalIds: ['its-own'] } })).externalIds, ['its-own']);
    assertError(await t.api('PATCH', base, { token, body: { space_selection: 'all' } }), 403, 'selection');
    assertError(await t.api('GET', `/v1/spaces/${other.id}`, { token }), 404);

    // `all` spaces (set by an admin) widens the reach to every space of the organization.
    ok(await t.api('PATCH', base, { body: { space_selection: 'all' } }));
    assert.equal(ok(await t.api('GET', `/v1/spaces/${other.id}`, { token })).id, other.id);

    // A token expires after an hour.
    t.clock.advance(61 * 60 * 1000);
    assertError(await t.api('GET', `/v1/spaces/${space.id}`, { token }), 401);
  });

  test('a token with the write scope writes, in the name of who installed it; uninstalling cuts it off', async () => {
    const name = uniqueName('writer');
    ok(await publish(name, { scopes: ['space:content:write', 'space:metadata:write'] }));
    const installation = ok(await install(name), 201);
    const space = await buildSpace(t, { title: 'Writable' });
    const base = `/v1/integrations/${name}/installations/${installation.id}`;
    ok(await t.api('POST', `${base}/spaces`, { body: { space: space.id } }), 201);
    const { token } = ok(await t.api('POST', `${base}/tokens`));
    const cr = ok(await t.api('POST', `/v1/spaces/${space.id}/change-requests`, { token, body: { subject: 'From the integration' } }), 201);
    assert.equal(cr.createdBy?.id ?? t.admin.userId, t.admin.userId);
    assert.equal(ok(await t.api('PATCH', `/v1/spaces/${space.id}`, { token, body: { title: 'Renamed by it' } })).title, 'Renamed by it');
    assertError(await t.api('POST', `/v1/orgs/${t.org.id}/spaces`, { token, body: { title: 'New' } }), 403);
    assert.equal((await t.api('DELETE', base)).status, 204);
    assertError(await t.api('GET', `/v1/spaces/${space.id}`, { token }), 401);
  });

  test('tokens are created by admins of either organization only', async () => {
    const name = uniqueName('tokened');
    ok(await publish(name));
    const installation = ok(await install(name), 201);
    const reader = await t.member('read');
    const outsider = await t.outsider();
    const path = `/v1/integrations/${name}/installations/${installation.id}/tokens`;
    assertError(await t.api('POST', path, { token: reader.token }), 403);
    assertError(await t.api('POST', path, { token: outsider.token }), 404);
    assertError(await t.api('POST', `/v1/integrations/${name}/installations/nope/tokens`), 404);
  });

  test('development mode is switched by admins of the owner organization', async () => {
    const name = uniqueName('dev');
    ok(await publish(name));
    const reader = await t.member('read');
    assertError(await t.api('PUT', `/v1/integrations/${name}/dev`, { token: reader.token, body: { tunnelUrl: 'https://tunnel.example.com' } }), 403);
    assertError(await t.api('PUT', `/v1/integrations/${name}/dev`, { body: { tunnelUrl: 'not a url' } }), 400, 'tunnelUrl');
    assert.equal((await t.api('PUT', `/v1/integrations/${name}/dev`, { body: { tunnelUrl: 'https://tunnel.example.com/x', all: true } })).status, 204);
    assert.deepEqual(ok(await t.api('GET', `/v1/integrations/${name}`)).development, { tunnelUrl: 'https://tunnel.example.com/x', all: true });
    assert.equal(ok(await t.api('GET', `/v1/integrations/${name}`, { token: reader.token })).development, undefined);
    assert.equal((await t.api('DELETE', `/v1/integrations/${name}/dev`)).status, 205);
    assert.equal(ok(await t.api('GET', `/v1/integrations/${name}`)).development, undefined);
    assertError(await t.api('PUT', `/v1/integrations/nope-${name}/dev`, { body: { tunnelUrl: 'https://tunnel.example.com' } }), 404);
  });

  test('unpublishing removes the integration and its installations; admins only', async () => {
    const name = uniqueName('gone');
    ok(await publish(name));
    const installation = ok(await install(name), 201);
    const reader = await t.member('read');
    assertError(await t.api('DELETE', `/v1/integrations/${name}`, { token: reader.token }), 403);
    assert.equal((await t.api('DELETE', `/v1/integrations/${name}`)).status, 204);
    assertError(await t.api('GET', `/v1/integrations/${name}`), 404);
    assert.equal(await t.db.selectFrom('integration_installations').select('id').where('id', '=', installation.id).executeTakeFirst(), undefined);
    assert.equal((await t.api('DELETE', `/v1/integrations/${name}`)).status, 204);
  });
});

describe('integrations: a manifest may be larger than an ordinary body', () => {
  let t: TestServer;
  before(async () => (t = await startServer({ env: { BODY_LIMIT: '4096' } })));
  after(() => t.close());

  test('publishing takes a manifest past BODY_LIMIT (inline images and scripts), while other operations keep the limit', async () => {
    const script = `// ${'x'.repeat(20_000)}\nexport default {}`;
    const body = { organization: t.org.id, title: 'Large', description: 'A large script', script, scopes: ['space:content:read'], visibility: 'private' };
    const name = uniqueName('large');
    assert.equal(ok(await t.api('POST', `/v1/integrations/${name}`, { body })).name, name);
    const tooLarge = await t.api('POST', `/v1/integrations/${name}/installations`, { body: { organization: t.org.id, padding: 'x'.repeat(20_000) } });
    assertError(tooLarge, 413, /BODY_LIMIT/);
    assert.equal(ok(await t.api('GET', `/v1/integrations/${name}`)).name, name);
  });
});
