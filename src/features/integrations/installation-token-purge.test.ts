import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../../../test/helpers.ts';
import { assertError, ok } from '../../../test/assertions.ts';
import { buildSpace } from '../../../test/factories.ts';
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
