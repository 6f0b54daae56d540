import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { createDatabase } from './database.ts';
import { SQLite } from './sqlite-library.ts';

test('a transaction holds the write lock from its start: another connection waits for it, and its write after a read is never refused', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'quire-transactions-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'quire.db');
  const db = createDatabase({ sqliteFile: file });
  t.after(() => db.destroy());
  await sql`create table counters (id integer primary key, value integer not null)`.execute(db);
  await sql`insert into counters (id, value) values (1, 0)`.execute(db);
  // A second connection to the file, as a CLI command beside the server has; a short wait keeps the test quick.
  const other = new SQLite(file, { timeout: 50 });
  t.after(() => other.close());

  await db.transaction().execute(async (trx) => {
    const { rows } = await sql<{ value: number }>`select value from counters where id = 1`.execute(trx);
    // Begun deferred, this transaction would not hold the lock yet: the other connection's write would land, and
    // the write below would fail at once with SQLITE_BUSY (its snapshot is stale), whatever the busy timeout.
    assert.throws(() => other.prepare('update counters set value = value + 100 where id = 1').run(), { code: 'SQLITE_BUSY' });
    await sql`update counters set value = ${rows[0]!.value + 1} where id = 1`.execute(trx);
  });

  // Once it committed, the other connection writes as usual.
  other.prepare('update counters set value = value + 100 where id = 1').run();
  const { rows } = await sql<{ value: number }>`select value from counters where id = 1`.execute(db);
  assert.equal(rows[0]!.value, 101);
});
