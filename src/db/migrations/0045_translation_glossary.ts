import type { Kysely } from 'kysely';
import { bytewise } from '../dialect.ts';

/**
 * An organization's translation glossary: terms and how each language says them. `translations` is a JSON object
 * of language code → term; translation runs keep these terms as the glossary says. `position` keeps the order
 * entries were inserted in, within one batch too (they share a creation time).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const c = bytewise(db);
  await db.schema
    .createTable('glossary_entries')
    .addColumn('id', 'text', (col) => c(col.primaryKey()))
    .addColumn('organization_id', 'text', (col) => c(col.notNull().references('organizations.id').onDelete('cascade')))
    .addColumn('translations', 'text', (col) => col.notNull())
    .addColumn('position', 'integer', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => c(col.notNull()))
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('glossary_entries_organization').on('glossary_entries').columns(['organization_id', 'position']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('glossary_entries').execute();
}
