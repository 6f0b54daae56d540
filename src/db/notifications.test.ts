import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { newId } from '../platform/ids.ts';
import { createDatabase, migrateToLatest } from './database.ts';
import { listen, notify } from './notifications.ts';
import type { Db } from './types.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitUntil(done: () => boolean, ms = 5_000): Promise<void> {
  const started = performance.now();
  while (!done() && performance.now() - started < ms) await sleep(5);
}

describe('notifications between processes', { skip: process.env.TEST_DATABASE_URL ? false : 'PostgreSQL only (TEST_DATABASE_URL): SQLite has one process' }, () => {
  const url = process.env.TEST_DATABASE_URL!;
  // Each test its own channel, so that the listening connection can be told apart in pg_stat_activity.
  const channel = () => `quire_test_${newId(10).toLowerCase()}`;
  const schemas = [`t_${newId(12).toLowerCase()}`, `t_${newId(12).toLowerCase()}`];
  let db: Db;
  let neighbour: Db;
  before(async () => {
    db = createDatabase({ url, schema: schemas[0] });
    neighbour = createDatabase({ url, schema: schemas[1] });
    await migrateToLatest(db, schemas[0]);
    await migrateToLatest(neighbour, schemas[1]);
  });
  after(async () => {
    for (const schema of schemas) await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(db);
    await db.destroy();
    await neighbour.destroy();
  });

  /** Listens on `name` until a notification sent meanwhile is heard: LISTEN is then in place. */
  async function listening(name: string, handlers: { heard: number; connected: number }, retryMs?: number) {
    const listener = listen(db, name, { onNotification: () => (handlers.heard += 1), onConnected: () => (handlers.connected += 1) }, retryMs ? { retryMs } : {});
    assert.ok(listener, 'PostgreSQL can listen');
    await waitUntil(() => handlers.connected > 0);
    assert.equal(handlers.connected, 1);
    return listener;
  }

  test('a notification sent in a transaction is heard at its commit, never for a rollback', async () => {
    const name = channel();
    const handlers = { heard: 0, connected: 0 };
    const listener = await listening(name, handlers);
    try {
      await db.transaction().execute(async (trx) => {
        await notify(trx, name);
        await sleep(150);
        assert.equal(handlers.heard, 0, 'not before the commit');
      });
      await waitUntil(() => handlers.heard > 0);
      assert.equal(handlers.heard, 1);
      await assert.rejects(
        db.transaction().execute(async (trx) => {
          await notify(trx, name);
          throw new Error('rolled back');
        }),
      );
      await notify(db, name);
      await waitUntil(() => handlers.heard > 1);
      await sleep(50);
      assert.equal(handlers.heard, 2, 'the rolled-back notification was never delivered');
    } finally {
      await listener.close();
    }
  });

  test("a listener hears its own schema's notifications, not those of another schema of the database", async () => {
    const name = channel();
    const handlers = { heard: 0, connected: 0 };
    const listener = await listening(name, handlers);
    try {
      await notify(neighbour, name);
      await notify(db, name);
      await waitUntil(() => handlers.heard > 0);
      await sleep(100);
      assert.equal(handlers.heard, 1);
    } finally {
      await listener.close();
    }
  });

  test('a broken listening connection is opened again, and the listener told so, to catch up', async () => {
    const name = channel();
    const handlers = { heard: 0, connected: 0 };
    const listener = await listening(name, handlers, 50);
    try {
      const { rows } = await sql<{ ended: boolean }>`select pg_terminate_backend(pid) as ended from pg_stat_activity where query = ${`LISTEN "${name}"`}`.execute(db);
      assert.deepEqual(rows.map((row) => row.ended), [true], 'one connection listened on the channel');
      await waitUntil(() => handlers.connected > 1);
      assert.equal(handlers.connected, 2, 'connected again');
      await notify(db, name);
      await waitUntil(() => handlers.heard > 0);
      assert.equal(handlers.heard, 1, 'and listening again');
    } finally {
      await listener.close();
    }
  });

  test('a closed listener keeps no connection open', async () => {
    const name = channel();
    const listener = await listening(name, { heard: 0, connected: 0 });
    await listener.close();
    await sleep(100);
    const { rows } = await sql<{ n: number | string }>`select count(*) as n from pg_stat_activity where query = ${`LISTEN "${name}"`}`.execute(db);
    assert.equal(Number(rows[0]!.n), 0);
  });
});
