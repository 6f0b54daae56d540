import { sql, type Kysely } from 'kysely';
import { bytewise, isPostgres } from '../dialect.ts';

/**
 * Editing together (issue 31): the Yjs state of a page being edited, beside our document of record. One row per
 * collaboration document (a page of a space's live content or of a change request); `document_id` names the
 * stored document the state was last written as (content-addressed), so a page changed through the API while
 * nobody edited it is told apart when the state is loaded again. The state is bytes: `bytea` on PostgreSQL,
 * `blob` on SQLite.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const c = bytewise(db);
  await db.schema
    .createTable('collaboration_states')
    .addColumn('name', 'text', (col) => c(col.primaryKey()))
    .addColumn('space_id', 'text', (col) => c(col.notNull().references('spaces.id').onDelete('cascade')))
    .addColumn('change_request_id', 'text', (col) => c(col))
    .addColumn('page_id', 'text', (col) => c(col.notNull()))
    .addColumn('state', isPostgres(db) ? sql`bytea` : sql`blob`, (col) => col.notNull())
    .addColumn('document_id', 'text', (col) => col)
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('collaboration_states_by_space').on('collaboration_states').columns(['space_id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('collaboration_states').execute();
}
