import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../../../test/helpers.ts';
import { DAY_MS } from '../../platform/clock.ts';
import { recordAudit } from './record.ts';
import { pruneAuditLog, updateAuditSettings } from './service.ts';

describe('the audit log keeps events for the retention of their organization', () => {
  let t: TestServer;
  before(async () => (t = await startServer()));
  after(() => t.close());

  const record = (organizationId: string, targetId: string) =>
    recordAudit(t.app.ctx, t.db, organizationId, { kind: 'system' }, { action: 'space.deleted', target: { type: 'space', id: targetId } });
  const targetsOf = async (organizationId: string) =>
    (await t.db.selectFrom('audit_events').select('target_id').where('organization_id', '=', organizationId).where('action', '=', 'space.deleted').execute()).map((row) => row.target_id).sort();

  test('365 days by default; an admin shortens it; the worker prunes what is older, and only that', async () => {
    const other = await t.outsider();
    const caller = { kind: 'user' as const, userId: t.admin.userId, tokenId: 'test' };
    await updateAuditSettings(t.app.ctx, caller, t.org.id, { retentionDays: 30 });
    await record(t.org.id, 'old-here');
    await record(other.organizationId, 'old-there');
    t.clock.advance(20 * DAY_MS);
    await record(t.org.id, 'recent-here');

    t.clock.advance(11 * DAY_MS);
    await t.app.jobs.runDue();
    assert.deepEqual(await targetsOf(t.org.id), ['recent-here'], 'older than 30 days: pruned by the sweep');
    assert.deepEqual(await targetsOf(other.organizationId), ['old-there'], 'the other organization keeps 365 days');

    t.clock.advance(340 * DAY_MS);
    assert.ok((await pruneAuditLog(t.app.ctx)) >= 2);
    assert.deepEqual(await targetsOf(other.organizationId), []);
    assert.deepEqual(await targetsOf(t.org.id), []);
    assert.equal(await pruneAuditLog(t.app.ctx), 0, 'idempotent');
  });

  test('a backlog is pruned in bounded batches', async () => {
    const other = await t.outsider();
    for (let i = 0; i < 12; i += 1) await record(other.organizationId, `backlog-${i}`);
    t.clock.advance(366 * DAY_MS);
    // Batches of 2, twenty per run at most: one run takes them all here.
    assert.equal(await pruneAuditLog(t.app.ctx, 2), 12);
    assert.deepEqual(await targetsOf(other.organizationId), []);
  });
});
