import type { Kysely } from 'kysely';

/**
 * A change request's description (the official ChangeRequest `description`, a JSON document): its JSON, null when
 * it has none.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('change_requests').addColumn('description', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('change_requests').dropColumn('description').execute();
}
