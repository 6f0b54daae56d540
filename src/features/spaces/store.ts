import { sql } from 'kysely';
import type { Executor, SpacesTable } from '../../db/types.ts';
import { keysetPage } from '../../db/keyset.ts';
import type { PageRequest } from '../../platform/pagination.ts';
import type { ReadableScope } from '../access/service.ts';
import type { SpaceVisibility } from './schemas.ts';

export type SpaceRow = SpacesTable;

export interface SpaceFilter {
  organizationId: string;
  /** Only the spaces directly in this collection. */
  collectionId?: string;
  scope: ReadableScope;
  /** The trash instead: the spaces deleted at or after this time, newest first. */
  deletedSince?: string;
}

export async function findSpace(db: Executor, id: string): Promise<SpaceRow | undefined> {
  return db.selectFrom('spaces').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The spaces of these ids that exist, in one query (a list page's). */
export async function findSpaces(db: Executor, ids: readonly string[]): Promise<SpaceRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('spaces').selectAll().where('id', 'in', ids).execute();
}

export async function insertSpace(db: Executor, row: SpaceRow): Promise<void> {
  await db.insertInto('spaces').values(row).execute();
}

export async function updateSpace(db: Executor, id: string, changes: Partial<SpaceRow>): Promise<void> {
  await db.updateTable('spaces').set(changes).where('id', '=', id).execute();
}

function filtered(db: Executor, filter: SpaceFilter) {
  let q = db.selectFrom('spaces').where('organization_id', '=', filter.organizationId);
  q = filter.deletedSince === undefined ? q.where('deleted_at', 'is', null) : q.where('deleted_at', '>=', filter.deletedSince);
  if (filter.collectionId !== undefined) q = q.where('parent_id', '=', filter.collectionId);
  const scope = filter.scope;
  if (!scope.everything) {
    q = q.where((eb) => {
      const readable = [];
      if (scope.explicitLevels) readable.push(eb.and([eb('default_level', 'is not', null), eb('default_level', '!=', 'inherit')]));
      const inheritFrom = [];
      if (scope.topLevel) inheritFrom.push(eb('parent_id', 'is', null));
      if (scope.readableCollections.length > 0) inheritFrom.push(eb('parent_id', 'in', scope.readableCollections));
      if (inheritFrom.length > 0) readable.push(eb.and([eb('default_level', '=', 'inherit'), eb.or(inheritFrom)]));
      // A grant on a space, or on a collection above it, gives access whatever the default levels say.
      if (scope.grantedSpaces.length > 0) readable.push(eb('id', 'in', scope.grantedSpaces));
      if (scope.grantedCollections.length > 0) readable.push(eb('parent_id', 'in', scope.grantedCollections));
      return readable.length > 0 ? eb.or(readable) : eb.lit(false);
    });
  }
  return q;
}

/** Spaces of an organization in creation order, of a collection in their order there, or of the trash newest first. */
export async function listSpaces(db: Executor, filter: SpaceFilter, page: PageRequest, order: 'asc' | 'desc' = 'asc'): Promise<SpaceRow[]> {
  return keysetPage(filtered(db, filter).selectAll(), sortKeyColumns(filter), order, page).execute();
}

export function sortKeyColumns(filter: SpaceFilter): [string, string] {
  if (filter.deletedSince !== undefined) return ['deleted_at', 'id'];
  return filter.collectionId !== undefined ? ['position', 'id'] : ['created_at', 'id'];
}

/** The ids of every space a filter admits (search reads these spaces' index). */
export async function spaceIdsOf(db: Executor, filter: SpaceFilter): Promise<string[]> {
  const rows = await filtered(db, filter).select('id').execute();
  return rows.map((r) => r.id);
}

export async function countSpaces(db: Executor, filter: SpaceFilter): Promise<number> {
  const row = await filtered(db, filter).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * The activity counters of spaces in one grouped query: change requests by status, and (as status
 * `open-comments`) the open comments on their content, not those of change requests.
 */
export async function activityCountsOfSpaces(db: Executor, spaceIds: readonly string[]) {
  if (spaceIds.length === 0) return [];
  const changeRequests = db
    .selectFrom('change_requests')
    .select(['space_id', 'status', (eb) => eb.fn.countAll<number>().as('n')])
    .where('space_id', 'in', spaceIds)
    .groupBy(['space_id', 'status']);
  const openComments = db
    .selectFrom('comments')
    .select(['space_id', sql.lit('open-comments').as('status'), (eb) => eb.fn.countAll<number>().as('n')])
    .where('space_id', 'in', spaceIds)
    .where('change_request_id', 'is', null)
    .where('status', '=', 'open')
    .groupBy('space_id');
  return changeRequests.unionAll(openComments).execute();
}

/** Every space of an organization that is not deleted, as far as access is concerned (ids and levels). */
export async function listSpaceLevels(db: Executor, organizationId: string) {
  return db.selectFrom('spaces').select(['id', 'parent_id', 'default_level']).where('organization_id', '=', organizationId).where('deleted_at', 'is', null).execute();
}

/** Spaces of deleted collections go to the trash, at the top level (their collection no longer exists). */
export async function detachSpacesFromCollections(db: Executor, collectionIds: string[], now: string, deletedBy: string): Promise<void> {
  if (collectionIds.length === 0) return;
  await db
    .updateTable('spaces')
    .set((eb) => ({
      parent_id: null,
      // A space already in the trash keeps when and by whom it was put there.
      deleted_by: eb.case().when('deleted_at', 'is', null).then(eb.val<string | null>(deletedBy)).else(eb.ref('deleted_by')).end(),
      deleted_at: eb.fn.coalesce('deleted_at', eb.val(now)),
      visibility: eb.case().when('visibility', '=', 'in-collection').then(eb.val<SpaceVisibility>('private')).else(eb.ref('visibility')).end(),
      updated_at: now,
    }))
    .where('parent_id', 'in', collectionIds)
    .execute();
}

export async function moveSpacesOfCollections(db: Executor, collectionIds: string[], organizationId: string, now: string): Promise<void> {
  if (collectionIds.length === 0) return;
  await db.updateTable('spaces').set({ organization_id: organizationId, updated_at: now }).where('parent_id', 'in', collectionIds).execute();
}

/** Permanently removes spaces deleted before `cutoff`; their revisions and content go with them (cascade). */
export async function purgeSpacesDeletedBefore(db: Executor, cutoff: string): Promise<number> {
  const result = await db.deleteFrom('spaces').where('deleted_at', 'is not', null).where('deleted_at', '<', cutoff).executeTakeFirst();
  return Number(result.numDeletedRows);
}
