import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect.ts';

/**
 * Events are delivered in order per installation (issue 17). Timestamps tie within a millisecond and ids are
 * random, so the order is a number given when the outbox is turned into events: one more than the
 * installation's last. The outbox itself is read in the order rows were written: SQLite's rowid says it; on
 * PostgreSQL a sequence column does (several rows of one transaction share a timestamp).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) await sql`alter table events add column write_order bigserial`.execute(db);
  await db.schema.alterTable('integration_events').addColumn('sequence', 'integer', (col) => col.notNull().defaultTo(0)).execute();
  await db.schema.createIndex('integration_events_in_order').on('integration_events').columns(['installation_id', 'sequence']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('integration_events_in_order').execute();
  await db.schema.alterTable('integration_events').dropColumn('sequence').execute();
  if (isPostgres(db)) await db.schema.alterTable('events').dropColumn('write_order').execute();
}
