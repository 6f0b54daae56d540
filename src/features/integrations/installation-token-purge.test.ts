import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../../../test/helpers.ts';
import { assertError, ok } from '../../../test/assertions.ts';
import { buildInstallation, buildIntegration, buildSpace } from '../../../test/factories.ts';
import { watchStatements } from '../../db/statement-watch.ts';
import { EXPIRED_TOKEN_GRACE_MS, INSTALLATION_TOKEN_TTL_MS, purgeExpiredInstallationTokens } from './tokens.ts';

describe('expired installation tokens are purged', () => {
  let t: TestServer;
  before(async () => (t = await startServer()));
  after(() => t.close());

  /** A token of a new installation with read access to a new space. */
  async function installationToken(name: string) {
    // The endpoint is a loopback address the server refuses to reach: its events fail at once, without retries.
    ok(await t.api('POST', `/v1/integrations/${name}`, { body: { organization: t.org.id, title: 'Tokens', description: '', endpoint: 'http://127.0.0.1:9/hook', scopes: ['space:content:read'] } }));
    const installation = ok(await t.api('POST', `/v1/integrations/${name}/installations`, { body: { organization: t.org.id } }), 201);
    const space = await buildSpace(t, { title: 'Tokened' });
    const base = `/v1/integrations/${name}/installations/${installation.id}`;
    ok(await t.api('POST', `${base}/spaces`, { body: { space: space.id } }), 201);
    const issue = async () => (ok(await t.api('POST', `${base}/tokens`)) as { token: string }).token;
    return { installationId: installation.id as string, spaceId: space.id as string, issue };
  }
  const tokensOf = async (installationId: string) => (await t.db.selectFrom('installation_tokens').select('id').where('installation_id', '=', installationId).execute()).length;

  test('a token is kept for a day after it expires, then the worker deletes it; live tokens stay', async () => {
    const { installationId, spaceId, issue } = await installationToken('token-purge');
    const old = await issue();
    t.clock.advance(INSTALLATION_TOKEN_TTL_MS + 1000);
    assertError(await t.api('GET', `/v1/spaces/${spaceId}`, { token: old }), 401);
    await t.app.jobs.runDue();
    assert.equal(await tokensOf(installationId), 1, 'expired, but within the grace period');

    t.clock.advance(EXPIRED_TOKEN_GRACE_MS);
    const fresh = await issue();
    await t.app.jobs.runDue();
    assert.equal(await tokensOf(installationId), 1, 'the expired one is gone, the fresh one kept');
    assert.equal(ok(await t.api('GET', `/v1/spaces/${spaceId}`, { token: fresh })).id, spaceId);
    // Idempotent: another run (or another process) finds nothing more to delete.
    assert.equal(await purgeExpiredInstallationTokens(t.app.ctx), 0);
    assert.equal(ok(await t.api('GET', `/v1/spaces/${spaceId}`, { token: fresh })).id, spaceId);
  });

  test('every token past its grace period goes in one run, whichever installation it acts as', async () => {
    const first = await installationToken('token-backlog-1');
    const second = await installationToken('token-backlog-2');
    for (let i = 0; i < 6; i += 1) await Promise.all([first.issue(), second.issue()]);
    t.clock.advance(INSTALLATION_TOKEN_TTL_MS + EXPIRED_TOKEN_GRACE_MS + 1000);
    // The earlier test's fresh token has expired by now too.
    assert.ok((await purgeExpiredInstallationTokens(t.app.ctx)) >= 12);
    assert.equal(await tokensOf(first.installationId), 0);
    assert.equal(await tokensOf(second.installationId), 0);
  });
});

describe('the token sweep and the cache of installation tokens', () => {
  let t: TestServer;
  /** Statements that looked an installation token up (authenticateInstallationToken). */
  const lookups: string[] = [];
  let stop: (() => void) | undefined;
  before(async () => {
    // Cached tokens must not expire in the middle of a measurement on a slow machine.
    t = await startServer({ env: { CACHE_TTL_MS: '600000' } });
    stop = watchStatements(t.db, { statement: (sql) => void (sql.includes('from "installation_tokens" as "t"') && lookups.push(sql)) });
    assert.ok(stop, 'the test database reports its statements');
  });
  after(async () => {
    stop?.();
    await t.close();
  });

  /** How many times one request with `token` read it from the database rather than from the cache. */
  async function lookupsOf(token: string, spaceId: string): Promise<number> {
    lookups.length = 0;
    assert.equal(ok(await t.api('GET', `/v1/spaces/${spaceId}`, { token })).id, spaceId);
    return lookups.length;
  }

  test('a sweep that deletes nothing keeps the cache warm; one that deletes a token empties it', async () => {
    const space = await buildSpace(t, { title: 'Cached' });
    const integration = await buildIntegration(t, { endpoint: 'http://127.0.0.1:9/', scopes: ['space:content:read'] });
    const installation = await buildInstallation(t, integration.name, { spaces: [space.id] });
    const issue = async () => (ok(await t.api('POST', `/v1/integrations/${integration.name}/installations/${installation.id}/tokens`)) as { token: string }).token;
    await issue();
    // The first token is a minute short of the end of its grace period when the second is issued.
    t.clock.advance(INSTALLATION_TOKEN_TTL_MS + EXPIRED_TOKEN_GRACE_MS - 60_000);
    const token = await issue();
    assert.equal(await lookupsOf(token, space.id), 1, 'the first use reads the token');
    assert.equal(await lookupsOf(token, space.id), 0, 'then it is cached');

    assert.equal(await purgeExpiredInstallationTokens(t.app.ctx), 0);
    assert.equal(await lookupsOf(token, space.id), 0, 'a sweep that deleted nothing left the cache warm');

    t.clock.advance(120_000);
    assert.equal(await purgeExpiredInstallationTokens(t.app.ctx), 1);
    assert.equal(await lookupsOf(token, space.id), 1, 'a sweep that deleted a token emptied the cache');
  });
});
