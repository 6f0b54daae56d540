import type { Executor, GitSyncInstallationsTable } from '../../db/types.ts';

export type InstallationRow = GitSyncInstallationsTable;

export function targetKeyOf(target: { type: 'space'; spaceId: string } | { type: 'site'; siteId: string }): string {
  return target.type === 'space' ? `space:${target.spaceId}` : `site:${target.siteId}`;
}

export async function findInstallation(db: Executor, id: string): Promise<InstallationRow | undefined> {
  return db.selectFrom('git_sync_installations').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findInstallationOfTarget(db: Executor, targetKey: string): Promise<InstallationRow | undefined> {
  return db.selectFrom('git_sync_installations').selectAll().where('target_key', '=', targetKey).executeTakeFirst();
}

export async function insertInstallation(db: Executor, row: InstallationRow): Promise<void> {
  await db.insertInto('git_sync_installations').values(row).execute();
}

export async function updateInstallation(db: Executor, id: string, patch: Partial<Omit<InstallationRow, 'id' | 'organization_id' | 'target_key'>>): Promise<void> {
  await db.updateTable('git_sync_installations').set(patch).where('id', '=', id).execute();
}

export async function childrenOf(db: Executor, parentId: string): Promise<InstallationRow[]> {
  return db.selectFrom('git_sync_installations').selectAll().where('parent_installation_id', '=', parentId).orderBy('created_at').orderBy('id').execute();
}

/** Removes the installation and the space installations it manages. */
export async function deleteInstallation(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('git_sync_installations').where('parent_installation_id', '=', id).execute();
  await db.deleteFrom('git_sync_installations').where('id', '=', id).execute();
}

/** The site's own installation and those of the spaces it publishes, in the order they were made (ties by id). */
export async function installationsOfSite(db: Executor, organizationId: string, siteId: string): Promise<InstallationRow[]> {
  return db
    .selectFrom('git_sync_installations')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where((eb) => eb.or([eb('target_key', '=', `site:${siteId}`), eb('space_id', 'in', eb.selectFrom('site_spaces').select('space_id').where('site_id', '=', siteId))]))
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}
