import type { Kysely } from 'kysely';
import { bytewise } from '../dialect.ts';

/**
 * Links and backlinks (issue 12). A document is immutable and stored once per distinct content, so its links
 * are extracted once, when the document is first stored, into `document_links`; every revision that contains
 * the document shares them. A revision's links are then its live page versions joined to those rows (indexed),
 * and a target's backlinks the rows naming it joined back to the page versions holding their documents.
 *
 * `link_checks` holds the last check of each external URL by the job worker (links/check-links.ts).
 * `documents.links_extracted` marks documents whose links are stored: documents written before this
 * migration are extracted by a sweep of the job worker.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const c = bytewise(db);
  await db.schema
    .createTable('document_links')
    .addColumn('document_id', 'text', (col) => c(col.notNull().references('documents.id').onDelete('cascade')))
    .addColumn('position', 'integer', (col) => col.notNull())
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('target', 'text', (col) => c(col.notNull()))
    .addColumn('anchor', 'text', (col) => c(col))
    .addColumn('space_id', 'text', (col) => c(col))
    .addColumn('relation', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('document_links_pk', ['document_id', 'position'])
    .execute();
  await db.schema.createIndex('document_links_by_target').on('document_links').columns(['target', 'kind']).execute();
  // Backlinks go from a document to the page versions holding it.
  await db.schema.createIndex('page_versions_by_document').on('page_versions').columns(['document_id', 'branch_id']).execute();

  await db.schema
    .createTable('link_checks')
    .addColumn('url', 'text', (col) => c(col.primaryKey()))
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('http_status', 'integer')
    .addColumn('error', 'text')
    .addColumn('checked_at', 'text', (col) => c(col.notNull()))
    .execute();
  await db.schema.createIndex('link_checks_by_date').on('link_checks').columns(['checked_at']).execute();

  await db.schema.alterTable('documents').addColumn('links_extracted', 'integer', (col) => col.notNull().defaultTo(0)).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('documents').dropColumn('links_extracted').execute();
  await db.schema.dropTable('link_checks').execute();
  await db.schema.dropIndex('page_versions_by_document').execute();
  await db.schema.dropTable('document_links').execute();
}
