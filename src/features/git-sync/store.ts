import type { Executor, SpaceGitLayoutsTable, SpaceGitSyncTable, SpaceRedirectsTable } from '../../db/types.ts';

export type GitSyncRow = SpaceGitSyncTable;
export type RedirectRow = SpaceRedirectsTable;
export type GitLayoutRow = SpaceGitLayoutsTable;

export async function findGitSync(db: Executor, spaceId: string): Promise<GitSyncRow | undefined> {
  return db.selectFrom('space_git_sync').selectAll().where('space_id', '=', spaceId).executeTakeFirst();
}

/** Inserts or replaces the space's Git Sync row. */
export async function saveGitSync(db: Executor, row: GitSyncRow): Promise<void> {
  const { space_id: _id, ...rest } = row;
  await db
    .insertInto('space_git_sync')
    .values(row)
    .onConflict((oc) => oc.column('space_id').doUpdateSet(rest))
    .execute();
}

/** Updates the operation `operationId` only: a newer operation started meanwhile keeps its own state. */
export async function updateOperation(db: Executor, spaceId: string, operationId: string, patch: Partial<Omit<GitSyncRow, 'space_id' | 'operation_id'>>): Promise<void> {
  await db.updateTable('space_git_sync').set(patch).where('space_id', '=', spaceId).where('operation_id', '=', operationId).execute();
}

export async function replaceRedirects(db: Executor, spaceId: string, rows: readonly RedirectRow[]): Promise<void> {
  await db.deleteFrom('space_redirects').where('space_id', '=', spaceId).execute();
  for (let i = 0; i < rows.length; i += 200) await db.insertInto('space_redirects').values(rows.slice(i, i + 200)).execute();
}

export async function listRedirects(db: Executor, spaceId: string): Promise<RedirectRow[]> {
  return db.selectFrom('space_redirects').selectAll().where('space_id', '=', spaceId).orderBy('source').execute();
}

export async function findRedirect(db: Executor, spaceId: string, source: string): Promise<RedirectRow | undefined> {
  return db.selectFrom('space_redirects').selectAll().where('space_id', '=', spaceId).where('source', '=', source).executeTakeFirst();
}

export async function findGitLayout(db: Executor, spaceId: string): Promise<GitLayoutRow | undefined> {
  return db.selectFrom('space_git_layouts').selectAll().where('space_id', '=', spaceId).executeTakeFirst();
}

/** Inserts or replaces the layout the space's last import read. */
export async function saveGitLayout(db: Executor, row: GitLayoutRow): Promise<void> {
  const { space_id: _id, ...rest } = row;
  await db
    .insertInto('space_git_layouts')
    .values(row)
    .onConflict((oc) => oc.column('space_id').doUpdateSet(rest))
    .execute();
}
