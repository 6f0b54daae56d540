import type { Kysely } from 'kysely';
import { bytewise } from '../dialect.ts';

/**
 * The organization's trash: who deleted each space (null for spaces deleted before, or by an integration), and
 * an index that lists an organization's deleted spaces newest first without reading its live ones.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const c = bytewise(db);
  await db.schema.alterTable('spaces').addColumn('deleted_by', 'text', (col) => c(col)).execute();
  await db.schema.createIndex('spaces_in_trash').on('spaces').columns(['organization_id', 'deleted_at', 'id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('spaces_in_trash').execute();
  await db.schema.alterTable('spaces').dropColumn('deleted_by').execute();
}
