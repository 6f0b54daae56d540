import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../../../test/helpers.ts';
import { recordEvent } from '../../platform/events.ts';
import { OUTBOX_RETENTION_MS, processOutbox, purgeProcessedOutbox } from './outbox.ts';

describe('the outbox keeps processed rows for a week', () => {
  let t: TestServer;
  const DAY = 24 * 60 * 60 * 1000;
  before(async () => (t = await startServer()));
  after(() => t.close());

  /** Outbox rows of a type of their own (no integration event is planned for it), so a test counts only its own. */
  const record = (type: string, n = 1) => Promise.all(Array.from({ length: n }, (_, i) => recordEvent(t.db, t.clock, type, t.org.id, { n: i })));
  const rowsOf = async (type: string) => t.db.selectFrom('events').select(['id', 'processed_at']).where('type', '=', type).execute();

  test('a processed row is deleted once the retention has passed; an unprocessed one is kept until processed', async () => {
    await record('retention_old');
    await processOutbox(t.app.ctx);
    t.clock.advance(OUTBOX_RETENTION_MS - DAY);
    await record('retention_unprocessed');
    assert.equal(await purgeProcessedOutbox(t.app.ctx), 0, 'a processed row younger than the retention stays');

    t.clock.advance(2 * DAY);
    await purgeProcessedOutbox(t.app.ctx);
    assert.deepEqual(await rowsOf('retention_old'), []);
    const [waiting] = await rowsOf('retention_unprocessed');
    assert.equal(waiting?.processed_at, null, 'older than the retention, but not yet processed: kept');

    // The worker's sweeps: the integration-events sweep processes it, the purge removes it a week later.
    await t.app.jobs.runDue();
    assert.notEqual((await rowsOf('retention_unprocessed'))[0]?.processed_at, null);
    t.clock.advance(OUTBOX_RETENTION_MS - 1000);
    await t.app.jobs.runDue();
    assert.equal((await rowsOf('retention_unprocessed')).length, 1, 'processed less than a week ago');
    t.clock.advance(2000);
    await t.app.jobs.runDue();
    assert.deepEqual(await rowsOf('retention_unprocessed'), []);
  });

  test('a backlog is deleted in bounded batches: one run deletes at most its share, the next run the rest', async () => {
    await record('retention_backlog', 45);
    await processOutbox(t.app.ctx);
    t.clock.advance(OUTBOX_RETENTION_MS + DAY);
    // Batches of 2: twenty per run.
    assert.equal(await purgeProcessedOutbox(t.app.ctx, 2), 40);
    assert.equal((await rowsOf('retention_backlog')).length, 5);
    assert.equal(await purgeProcessedOutbox(t.app.ctx, 2), 5);
    assert.deepEqual(await rowsOf('retention_backlog'), []);
    assert.equal(await purgeProcessedOutbox(t.app.ctx, 2), 0, 'idempotent');
  });
});
