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

/**
 * The connected spaces that have something to sync now (auto-sync.ts): a sync asked for, main moved past what was
 * last synced and quiet for `quietSince`, a paused export whose change request may have been settled, or a poll
 * due. Spaces another process is syncing (their lease runs) and spaces with an operation running are left.
 */
export async function spacesToSync(db: Executor, now: string, quietSince: string, pollBefore: string | null, staleBefore: string): Promise<string[]> {
  const rows = await db
    .selectFrom('space_git_sync as g')
    .innerJoin('spaces as s', 's.id', 'g.space_id')
    .select('g.space_id')
    .where('g.sealed_url', 'is not', null)
    .where('s.deleted_at', 'is', null)
    .where((eb) => eb.or([eb('g.lease_until', 'is', null), eb('g.lease_until', '<', now)]))
    // An operation left running by a process that died is no longer waited for after GIT_SYNC_TIMEOUT_MS.
    .where((eb) => eb.or([eb('g.operation_state', 'is', null), eb('g.operation_state', '!=', 'running'), eb('g.operation_started_at', '<', staleBefore)]))
    .where((eb) =>
      eb.or([
        eb('g.sync_requested_at', 'is not', null),
        eb('g.paused_change_request_id', 'is not', null),
        eb.and([eb('g.paused_change_request_id', 'is', null), eb('s.revision_id', '!=', eb.fn.coalesce('g.synced_revision_id', eb.val(''))), eb('s.updated_at', '<=', quietSince)]),
        ...(pollBefore ? [eb('g.polled_at', 'is', null), eb('g.polled_at', '<', pollBefore)] : []),
      ]),
    )
    .orderBy('g.space_id')
    .execute();
  return rows.map((r) => r.space_id);
}

/** Takes the space's sync lease until `until`, unless another process holds it: whether it was taken. */
export async function takeSyncLease(db: Executor, spaceId: string, now: string, until: string): Promise<boolean> {
  const result = await db
    .updateTable('space_git_sync')
    .set({ lease_until: until })
    .where('space_id', '=', spaceId)
    .where('sealed_url', 'is not', null)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function updateGitSync(db: Executor, spaceId: string, patch: Partial<Omit<GitSyncRow, 'space_id'>>): Promise<void> {
  await db.updateTable('space_git_sync').set(patch).where('space_id', '=', spaceId).execute();
}

/** Clears a request for a sync, unless a newer one came meanwhile (it is then run next). */
export async function clearSyncRequest(db: Executor, spaceId: string, requestedAt: string): Promise<void> {
  await db.updateTable('space_git_sync').set({ sync_requested_at: null }).where('space_id', '=', spaceId).where('sync_requested_at', '=', requestedAt).execute();
}

/** Asks for a sync of every connected space synced with this repository branch (a push may touch any of them). */
export async function requestSyncOfRepository(db: Executor, url: string, ref: string, now: string): Promise<void> {
  await db.updateTable('space_git_sync').set({ sync_requested_at: now }).where('url', '=', url).where('ref', '=', ref).where('sealed_url', 'is not', null).execute();
}

export async function disconnectGitSync(db: Executor, spaceId: string): Promise<void> {
  await db.deleteFrom('space_git_sync').where('space_id', '=', spaceId).execute();
}
