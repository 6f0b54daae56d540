import type { Kysely } from 'kysely';
import { bytewise } from '../dialect.ts';

/**
 * A site's custom hostname (issue 11): a request whose Host is it is served that site at `/`. Unique, so one
 * host names one site; a lookup by host is one indexed read (the reader keeps the answer in a read cache).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const c = bytewise(db);
  await db.schema.alterTable('sites').addColumn('hostname', 'text', (col) => c(col)).execute();
  await db.schema.createIndex('sites_by_hostname').unique().on('sites').column('hostname').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('sites_by_hostname').execute();
  await db.schema.alterTable('sites').dropColumn('hostname').execute();
}
