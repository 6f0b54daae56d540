import type { CollectionsTable, Executor } from '../../db/types.ts';
import { keysetPage } from '../../db/keyset.ts';
import type { PageRequest } from '../../platform/pagination.ts';

export type CollectionRow = CollectionsTable;

/** Which collections a list may show: all of them, or those with the given ids. */
export type CollectionFilter = { organizationId: string; topLevelOnly: boolean; onlyIds?: string[] | undefined };

export async function findCollection(db: Executor, id: string): Promise<CollectionRow | undefined> {
  return db.selectFrom('collections').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertCollection(db: Executor, row: CollectionRow): Promise<void> {
  await db.insertInto('collections').values(row).execute();
}

export async function updateCollection(db: Executor, id: string, changes: Partial<CollectionRow>): Promise<void> {
  await db.updateTable('collections').set(changes).where('id', '=', id).execute();
}

export async function deleteCollections(db: Executor, ids: string[]): Promise<void> {
  if (ids.length > 0) await db.deleteFrom('collections').where('id', 'in', ids).execute();
}

export async function moveCollectionsToOrganization(db: Executor, ids: string[], organizationId: string, now: string): Promise<void> {
  if (ids.length > 0) await db.updateTable('collections').set({ organization_id: organizationId, updated_at: now }).where('id', 'in', ids).execute();
}

function filtered(db: Executor, filter: CollectionFilter) {
  let q = db.selectFrom('collections').where('organization_id', '=', filter.organizationId);
  if (filter.topLevelOnly) q = q.where('parent_id', 'is', null);
  if (filter.onlyIds) q = filter.onlyIds.length > 0 ? q.where('id', 'in', filter.onlyIds) : q.where(({ lit }) => lit(false));
  return q;
}

/** Collections in creation order (a stable order across the whole, possibly nested, tree). */
export async function listCollections(db: Executor, filter: CollectionFilter, page: PageRequest): Promise<CollectionRow[]> {
  return keysetPage(filtered(db, filter).selectAll(), ['created_at', 'id'], 'asc', page).execute();
}

export async function countCollections(db: Executor, filter: CollectionFilter): Promise<number> {
  const row = await filtered(db, filter).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}
