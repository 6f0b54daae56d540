import type { Kysely } from 'kysely';

/**
 * The sweep purging expired installation tokens (features/integrations/tokens.ts) looks for rows by
 * `expires_at` alone: without an index every run, even one that finds nothing, reads the whole table, and each
 * token an integration asks for (one an hour, or more) adds a row to it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('installation_tokens_by_expiry').on('installation_tokens').column('expires_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('installation_tokens_by_expiry').execute();
}
