import type { Kysely } from 'kysely';

/**
 * A blob's media type, decided once from its bytes when it is first stored, so the download route serves what
 * the bytes are and not whatever name a URL gives them. Null only for rows written before this migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('blobs').addColumn('content_type', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('blobs').dropColumn('content_type').execute();
}
