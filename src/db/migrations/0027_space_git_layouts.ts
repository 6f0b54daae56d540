import type { Kysely } from 'kysely';
import { bytewise } from '../dialect.ts';

/**
 * What a Git Sync import learns about the repository's layout and an export must write back, which the content
 * itself cannot hold: the `.gitbook.yaml` as the repository had it (its root, its `structure.readme` and
 * `structure.summary` names, any key Quire does not read), and the repository path of each file of the space
 * (JSON, file id -> path relative to the content root), so an asset outside `.gitbook/assets/` goes back where it was.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const c = bytewise(db);
  await db.schema
    .createTable('space_git_layouts')
    .addColumn('space_id', 'text', (col) => c(col.primaryKey().references('spaces.id').onDelete('cascade')))
    .addColumn('gitbook_yaml', 'text')
    .addColumn('file_paths', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('space_git_layouts').execute();
}
