import type { Kysely } from 'kysely';
import { bytewise } from '../dialect.ts';

/**
 * Translations (issue 16): an organization's translation settings (the seed's `title` and `languages`, with
 * the official spec's source space and language, instructions, status and run statistics), the space kept per
 * target language, and what each run last wrote for each source page, so that the next run copies only new and
 * changed pages and can tell a page translated by a person from one it wrote itself.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const c = bytewise(db);

  await db.schema
    .createTable('translations')
    .addColumn('id', 'text', (col) => c(col.primaryKey()))
    .addColumn('organization_id', 'text', (col) => c(col.notNull().references('organizations.id').onDelete('cascade')))
    .addColumn('title', 'text', (col) => col.notNull())
    .addColumn('languages', 'text', (col) => col.notNull())
    .addColumn('source_space_id', 'text', (col) => c(col))
    .addColumn('source_language', 'text')
    .addColumn('instructions', 'text')
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('last_error', 'text')
    .addColumn('run_attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('runs', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('total_words', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('total_pages', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('total_duration', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('latest_run_duration', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('latest_pages', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('latest_words', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('last_run_at', 'text')
    .addColumn('created_by', 'text', (col) => c(col.notNull()))
    .addColumn('created_at', 'text', (col) => c(col.notNull()))
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('translations_by_created').on('translations').columns(['organization_id', 'created_at', 'id']).execute();

  // The space holding one target language of a translation; kept when the translation is deleted (it is content).
  await db.schema
    .createTable('translation_targets')
    .addColumn('translation_id', 'text', (col) => c(col.notNull().references('translations.id').onDelete('cascade')))
    .addColumn('language', 'text', (col) => c(col.notNull()))
    .addColumn('space_id', 'text', (col) => c(col.notNull()))
    .addColumn('revision_id', 'text', (col) => c(col))
    .addColumn('pages_to_translate', 'integer', (col) => col.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('translation_targets_pk', ['translation_id', 'language'])
    .execute();

  // Per source page and language: its counterpart in the target space, the source fingerprint it was last written
  // from, the document then written (to tell later human edits apart) and whether a person must translate it.
  await db.schema
    .createTable('translation_pages')
    .addColumn('translation_id', 'text', (col) => c(col.notNull().references('translations.id').onDelete('cascade')))
    .addColumn('language', 'text', (col) => c(col.notNull()))
    .addColumn('source_page_id', 'text', (col) => c(col.notNull()))
    .addColumn('target_page_id', 'text', (col) => c(col.notNull()))
    .addColumn('source_fingerprint', 'text', (col) => col.notNull())
    .addColumn('written_fingerprint', 'text', (col) => col.notNull())
    .addColumn('state', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('translation_pages_pk', ['translation_id', 'language', 'source_page_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['translation_pages', 'translation_targets', 'translations']) await db.schema.dropTable(table).ifExists().execute();
}
