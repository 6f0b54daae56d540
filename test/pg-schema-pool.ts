import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../src/db/types.ts';
import { migrations } from '../src/db/migrations/index.ts';
import { newId } from '../src/platform/ids.ts';

/*
 * PostgreSQL test schemas, migrated once and reused: a test server takes a free schema of the current
 * migrations, empties its tables and starts at once (migrating a new schema costs some two seconds, and the
 * suite starts more than a hundred servers). The pool is a table of `public` shared by every test process,
 * and outlives a run: the next run on the same database finds its schemas ready. A schema is taken with
 * FOR UPDATE SKIP LOCKED (two processes never take one schema); one held for over an hour belonged to a
 * process that died and is free again. Schemas of other migrations (an older checkout) are dropped when met.
 */

const POOL = sql.raw('public.quire_test_schemas');
/** Which migrations a schema holds: a schema is reused only by a suite of the same ones. */
const MIGRATIONS_KEY = createHash('sha256').update(Object.keys(migrations).join('\n')).digest('hex').slice(0, 16);

async function ensurePool(db: Db): Promise<void> {
  // Several processes may create it at once: the advisory lock makes one of them do it.
  await db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(7319001)`.execute(trx);
    await sql`create table if not exists ${POOL} (name text primary key, migrations text not null, held_at timestamptz)`.execute(trx);
  });
}

/**
 * A schema for a new test server: `reused` when it came from the pool, its tables emptied (no migration to run);
 * else a new name, which the caller migrates and which joins the pool as held.
 */
export async function takeSchema(db: Db): Promise<{ schema: string; reused: boolean }> {
  await ensurePool(db);
  const taken = await db.transaction().execute(async (trx) => {
    const row = await sql<{ name: string }>`
      select name from ${POOL}
      where migrations = ${MIGRATIONS_KEY} and (held_at is null or held_at < now() - interval '1 hour')
      order by name limit 1 for update skip locked`.execute(trx);
    const name = row.rows[0]?.name;
    if (name) await sql`update ${POOL} set held_at = now() where name = ${name}`.execute(trx);
    return name;
  });
  if (taken) {
    if (!(await migratedInOrder(db, taken))) {
      await forgetSchema(db, taken);
      return takeSchema(db);
    }
    await emptyTables(db, taken);
    return { schema: taken, reused: true };
  }
  await dropStaleSchemas(db);
  const schema = `t_${newId(12).toLowerCase()}`;
  await sql`insert into ${POOL} (name, migrations, held_at) values (${schema}, ${MIGRATIONS_KEY}, now())`.execute(db);
  return { schema, reused: false };
}

/** Gives a schema back to the pool (its tables are emptied by whoever takes it next). */
export async function returnSchema(db: Db, schema: string): Promise<void> {
  await sql`update ${POOL} set held_at = null where name = ${schema}`.execute(db);
}

/** A schema whose migration failed halfway is no good to anyone. */
export async function forgetSchema(db: Db, schema: string): Promise<void> {
  await sql`delete from ${POOL} where name = ${schema}`.execute(db);
  await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(db);
}

/**
 * Whether the schema's record of migrations is every migration, stamped in their order: a suite that rewrote it
 * (a migration undone and redone, a row put back later) leaves one Kysely's migrator refuses as corrupted.
 */
async function migratedInOrder(db: Db, schema: string): Promise<boolean> {
  const done = await sql<{ name: string }>`select name from ${sql.id(schema, 'kysely_migration')} order by timestamp, name`.execute(db);
  return done.rows.map((r) => r.name).join('\n') === Object.keys(migrations).sort().join('\n');
}

async function emptyTables(db: Db, schema: string): Promise<void> {
  const tables = await sql<{ tablename: string }>`
    select tablename from pg_tables where schemaname = ${schema} and tablename not like 'kysely_migration%'`.execute(db);
  if (tables.rows.length === 0) return;
  const list = sql.join(tables.rows.map((t) => sql.id(schema, t.tablename)));
  await sql`truncate table ${list} restart identity cascade`.execute(db);
}

async function dropStaleSchemas(db: Db): Promise<void> {
  const stale = await db.transaction().execute(async (trx) => {
    const rows = await sql<{ name: string }>`
      select name from ${POOL} where migrations <> ${MIGRATIONS_KEY} and (held_at is null or held_at < now() - interval '1 hour')
      for update skip locked`.execute(trx);
    for (const { name } of rows.rows) await sql`delete from ${POOL} where name = ${name}`.execute(trx);
    return rows.rows.map((r) => r.name);
  });
  for (const name of stale) await sql`drop schema if exists ${sql.id(name)} cascade`.execute(db);
}
