import type { Static } from 'typebox';
import type { Executor } from '../../db/types.ts';
import { authorOf, type AppContext, type Caller } from '../../platform/context.ts';
import { badRequest, conflict, isNotFound, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { isoNow } from '../../platform/clock.ts';
import { recordEvent } from '../../platform/events.ts';
import { recordAudit } from '../audit/record.ts';
import { OrgAccess } from '../access/service.ts';
import { assertCanInOrganization, assertOrganizationVisible } from '../organizations/policy.ts';
import { assertCanCreateIn, assertCollectionAdmin } from './policy.ts';
import { findOrganization } from '../organizations/queries.ts';
import { deleteGrantsOnTransferred } from '../grants/queries.ts';
import { resolvePlacement, type PlacementInput } from '../placement/service.ts';
import { detachSpacesFromCollections, moveSpacesOfCollections } from '../spaces/queries.ts';
import { presentCollection } from './present.ts';
import type { CreateCollectionBody, ListCollectionsQuery, UpdateCollectionBody } from './schemas.ts';
import {
  countCollections,
  deleteCollections,
  findCollection,
  insertCollection,
  listCollections,
  moveCollectionsToOrganization,
  updateCollection,
  type CollectionFilter,
  type CollectionRow,
} from './store.ts';

/** A collection the caller can see, with the caller's role on it; 404 otherwise. */
export async function loadCollection(ctx: AppContext, caller: Caller, collectionId: string) {
  const collection = await findCollection(ctx.db, collectionId);
  if (collection) {
    const access = await OrgAccess.load(ctx.db, collection.organization_id, caller);
    const role = await access.roleOn(collection);
    if (role) return { collection, access, role };
  }
  throw notFound(`No collection ${collectionId}`);
}

/**
 * Checks that a space or collection may be created in (or moved into) `parentId`, null being the top level of
 * the organization; the decision is the policy's (assertCanCreateIn). Inside a transaction, pass it as `db`:
 * SQLite has a single connection, so a query on ctx.db would wait forever.
 */
export async function assertCanPlaceIn(ctx: AppContext, access: OrgAccess, parentId: string | null, db: Executor = ctx.db): Promise<void> {
  assertOrganizationVisible(access);
  if (parentId === null) return assertCanCreateIn(access, null);
  const parent = await findCollection(db, parentId);
  const role = parent && parent.organization_id === access.organizationId ? await access.roleOn(parent) : null;
  // A collection the caller cannot see is answered like one that does not exist.
  if (!parent || role === null) throw badRequest(`body/parent: no collection ${parentId} in this organization`);
  assertCanCreateIn(access, { id: parentId, role });
}

export async function createCollection(ctx: AppContext, caller: Caller, organizationId: string, body: Static<typeof CreateCollectionBody>) {
  const access = await OrgAccess.load(ctx.db, organizationId, caller);
  const parentId = body.parent ?? null;
  await assertCanPlaceIn(ctx, access, parentId);
  const now = isoNow(ctx.clock);
  const row = await ctx.db.transaction().execute(async (trx) => {
    const placement = await resolvePlacement(trx, organizationId, undefined, { parent: parentId });
    const row: CollectionRow = {
      id: newId(),
      organization_id: organizationId,
      parent_id: placement.parentId,
      title: body.title?.trim() || 'Untitled',
      description: null,
      default_level: 'inherit',
      position: placement.position,
      created_at: now,
      updated_at: now,
    };
    await insertCollection(trx, row);
    await recordEvent(trx, ctx.clock, 'collection_created', organizationId, { collectionId: row.id });
    return row;
  });
  return presentCollection(ctx.config, row, await access.roleOn(row));
}

export async function getCollection(ctx: AppContext, caller: Caller, collectionId: string) {
  const { collection, role } = await loadCollection(ctx, caller, collectionId);
  return presentCollection(ctx.config, collection, role);
}

export async function listCollectionsOfOrganization(ctx: AppContext, caller: Caller, organizationId: string, query: Static<typeof ListCollectionsQuery>) {
  const access = await OrgAccess.load(ctx.db, organizationId, caller);
  assertOrganizationVisible(access);
  if (!(await findOrganization(ctx.db, organizationId))) throw notFound(`No organization ${organizationId}`);
  const nested = query.nested ?? true;
  const scope = await access.readableScope();
  const filter: CollectionFilter = { organizationId, topLevelOnly: !nested, onlyIds: scope.everything ? undefined : scope.readableCollections };
  const listKey = `collections:${organizationId}:${nested}`;
  const page = ctx.cursors.open(listKey, query, ctx.config.defaultPageSize);
  const [rows, count] = await Promise.all([listCollections(ctx.db, filter, page), countCollections(ctx.db, filter)]);
  const roles = await Promise.all(rows.map((row) => access.roleOn(row)));
  const roleOf = new Map(rows.map((row, i) => [row.id, roles[i] ?? null]));
  return ctx.cursors.close(listKey, page, rows, count, (row) => [row.created_at, row.id], (row) => presentCollection(ctx.config, row, roleOf.get(row.id) ?? null));
}

export async function updateCollectionSettings(ctx: AppContext, caller: Caller, collectionId: string, body: Static<typeof UpdateCollectionBody>) {
  const { collection, access, role } = await loadCollection(ctx, caller, collectionId);
  assertCollectionAdmin(role, 'Updating a collection');
  const changes: Partial<CollectionRow> = {};
  if (body.title !== undefined) changes.title = body.title.trim() || collection.title;
  if (body.description !== undefined) changes.description = body.description;
  if (body.defaultLevel !== undefined) changes.default_level = body.defaultLevel;
  if (Object.keys(changes).length > 0) {
    changes.updated_at = isoNow(ctx.clock);
    await ctx.db.transaction().execute(async (trx) => {
      await updateCollection(trx, collection.id, changes);
      await recordEvent(trx, ctx.clock, 'collection_updated', collection.organization_id, { collectionId: collection.id });
    });
  }
  const updated = { ...collection, ...changes };
  // The new default level may change the caller's own role (never an admin's).
  return presentCollection(ctx.config, updated, await access.roleOn(updated));
}

/**
 * Deleting a collection deletes the collections below it and moves every space inside to the trash (restorable
 * for 7 days, at the top level of the organization since their collection is gone).
 */
export async function deleteCollection(ctx: AppContext, caller: Caller, collectionId: string): Promise<void> {
  let loaded;
  try {
    loaded = await loadCollection(ctx, caller, collectionId);
  } catch (error) {
    // Deleting what does not exist (for this caller) succeeds; anything else (a database failure) is not a 204.
    if (isNotFound(error)) return;
    throw error;
  }
  const { collection, access, role } = loaded;
  assertCollectionAdmin(role, 'Deleting a collection');
  const subtree = await access.subtreeOf(collection.id);
  const now = isoNow(ctx.clock);
  await ctx.db.transaction().execute(async (trx) => {
    await detachSpacesFromCollections(trx, subtree, now, authorOf(caller));
    await deleteCollections(trx, subtree);
    await recordEvent(trx, ctx.clock, 'collection_deleted', collection.organization_id, { collectionId: collection.id });
    await recordAudit(ctx, trx, collection.organization_id, caller, { action: 'collection.deleted', target: { type: 'collection', id: collection.id, label: collection.title } });
  });
}

export async function moveCollection(ctx: AppContext, caller: Caller, collectionId: string, input: PlacementInput) {
  const { collection, access, role } = await loadCollection(ctx, caller, collectionId);
  assertCollectionAdmin(role, 'Moving a collection');
  const subtree = new Set(await access.subtreeOf(collection.id));
  const updated = await ctx.db.transaction().execute(async (trx) => {
    const placement = await resolvePlacement(
      trx,
      collection.organization_id,
      { kind: 'collection', id: collection.id, current: { parentId: collection.parent_id, position: collection.position } },
      input,
      (id) => subtree.has(id),
    );
    if (placement.parentId !== collection.parent_id) await assertCanPlaceIn(ctx, access, placement.parentId, trx);
    const changes = { parent_id: placement.parentId, position: placement.position, updated_at: isoNow(ctx.clock) };
    await updateCollection(trx, collection.id, changes);
    if (placement.parentId !== collection.parent_id) {
      await recordAudit(ctx, trx, collection.organization_id, caller, {
        action: 'collection.moved',
        target: { type: 'collection', id: collection.id, label: collection.title },
        details: { collection: { from: collection.parent_id, to: placement.parentId } },
      });
    }
    return { ...collection, ...changes };
  });
  return presentCollection(ctx.config, updated, await access.roleOn(updated));
}

/** Moves a collection, everything below it and its spaces to another organization the caller administers. */
export async function transferCollection(ctx: AppContext, caller: Caller, collectionId: string, organizationId: string) {
  const { collection, access, role } = await loadCollection(ctx, caller, collectionId);
  assertCollectionAdmin(role, 'Transferring a collection');
  const target = await OrgAccess.load(ctx.db, organizationId, caller);
  if (!target.isMember || !(await findOrganization(ctx.db, organizationId))) throw notFound(`No organization ${organizationId}`);
  assertCanInOrganization(target, 'admin', 'Transferring to another organization');
  if (organizationId === collection.organization_id) throw conflict('The collection already belongs to this organization');
  const subtree = await access.subtreeOf(collection.id);
  const now = isoNow(ctx.clock);
  const updated = await ctx.db.transaction().execute(async (trx) => {
    const placement = await resolvePlacement(trx, organizationId, undefined, { parent: null });
    await deleteGrantsOnTransferred(trx, { collectionIds: subtree });
    await moveCollectionsToOrganization(trx, subtree, organizationId, now);
    await moveSpacesOfCollections(trx, subtree, organizationId, now);
    const changes = { organization_id: organizationId, parent_id: null, position: placement.position, updated_at: now };
    await updateCollection(trx, collection.id, changes);
    await recordEvent(trx, ctx.clock, 'collection_transferred', organizationId, { collectionId: collection.id, from: collection.organization_id });
    await recordAudit(ctx, trx, [collection.organization_id, organizationId], caller, {
      action: 'collection.moved',
      target: { type: 'collection', id: collection.id, label: collection.title },
      details: { organization: { from: collection.organization_id, to: organizationId } },
    });
    return { ...collection, ...changes };
  });
  return presentCollection(ctx.config, updated, 'admin');
}
