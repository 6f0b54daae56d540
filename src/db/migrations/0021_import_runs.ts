import type { Kysely } from 'kysely';
import { bytewise } from '../dialect.ts';

/**
 * Import runs (the official startImportRun, getImportRun, listImportRuns and cancelImportRun): an import of a
 * website or of uploaded files into a space, a change request or a page, done by a job. The row records what
 * was asked (target and source as JSON), who asked (the caller the job acts as), how far it went and what it
 * wrote: the revision and the pages with the URL each came from.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const c = bytewise(db);
  await db.schema
    .createTable('import_runs')
    .addColumn('id', 'text', (col) => c(col.primaryKey()))
    .addColumn('organization_id', 'text', (col) => c(col.notNull().references('organizations.id').onDelete('cascade')))
    .addColumn('space_id', 'text', (col) => c(col.notNull()))
    .addColumn('change_request_id', 'text', (col) => c(col))
    .addColumn('page_id', 'text', (col) => c(col))
    .addColumn('source', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) => c(col.notNull()))
    .addColumn('progress', 'text')
    .addColumn('imported_resources', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('total_resources', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('revision_id', 'text', (col) => c(col))
    .addColumn('pages', 'text', (col) => col.notNull().defaultTo('[]'))
    .addColumn('error', 'text')
    .addColumn('caller', 'text', (col) => col.notNull())
    .addColumn('created_by', 'text', (col) => c(col.notNull()))
    .addColumn('created_at', 'text', (col) => c(col.notNull()))
    .addColumn('started_at', 'text')
    .addColumn('completed_at', 'text')
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('import_runs_by_created').on('import_runs').columns(['organization_id', 'created_at', 'id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('import_runs').ifExists().execute();
}
