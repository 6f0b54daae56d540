import type { Kysely } from 'kysely';

/**
 * What a server records about itself for the commands run beside it, one row per name (issue 40): the public
 * URL it serves under, which `quire user invite` puts in its links when the operator's shell has no PUBLIC_URL.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('server_settings')
    .addColumn('name', 'text', (col) => col.primaryKey())
    .addColumn('value', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('server_settings').execute();
}
