import type { Kysely } from 'kysely';
import { bytewise } from '../dialect.ts';

/**
 * Git Sync (issue 13). `space_git_sync` holds a space's link to its repository (URL without credentials, ref,
 * provider) and the state of its last import or export, which getSpaceGitInfo answers and the job updates as
 * it goes. `space_redirects` holds the space's redirects from `.gitbook.yaml`: an old path of the space, the
 * page it now leads to (and the file that named it, written back on export); the reader answers them with 301s.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const c = bytewise(db);
  await db.schema
    .createTable('space_git_sync')
    .addColumn('space_id', 'text', (col) => c(col.primaryKey().references('spaces.id').onDelete('cascade')))
    .addColumn('installation_id', 'text', (col) => c(col.notNull()))
    .addColumn('url', 'text', (col) => col.notNull())
    .addColumn('ref', 'text', (col) => col.notNull())
    .addColumn('provider', 'text', (col) => col.notNull())
    .addColumn('tree_url', 'text')
    .addColumn('project_directory', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('commit_oid', 'text')
    .addColumn('operation_id', 'text')
    .addColumn('operation_state', 'text')
    .addColumn('operation_direction', 'text')
    .addColumn('operation_started_at', 'text')
    .addColumn('operation_ended_at', 'text')
    .addColumn('operation_error', 'text')
    .addColumn('operation_progress', 'text')
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('space_redirects')
    .addColumn('space_id', 'text', (col) => c(col.notNull().references('spaces.id').onDelete('cascade')))
    .addColumn('source', 'text', (col) => c(col.notNull()))
    .addColumn('destination', 'text', (col) => col.notNull())
    .addColumn('page_id', 'text', (col) => c(col))
    .addColumn('anchor', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('space_redirects_pk', ['space_id', 'source'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('space_redirects').execute();
  await db.schema.dropTable('space_git_sync').execute();
}
