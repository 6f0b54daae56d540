import type { Static } from 'typebox';
import type { Executor } from '../../db/types.ts';
import { type AppContext, type Caller, authorOf } from '../../platform/context.ts';
import { badRequest, conflict, isNotFound, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { DAY_MS, isoNow } from '../../platform/clock.ts';
import { recordEvent } from '../../platform/events.ts';
import { recordAudit } from '../audit/record.ts';
import type { Role } from '../access/roles.ts';
import { ACCESS_TABLES, OrgAccess } from '../access/service.ts';
import { assertCanInOrganization, assertOrganizationVisible } from '../organizations/policy.ts';
import { assertSpaceAdmin } from './policy.ts';
import { assertMergeRuleUsers, findOrganization } from '../organizations/queries.ts';
import { assertCanPlaceIn, loadCollection } from '../collections/service.ts';
import { resolvePlacement, type PlacementInput } from '../placement/service.ts';
import { startMainBranch } from '../content/revisions.ts';
import { findRevision } from '../content/revisions.ts';
import { NO_ACTIVITY, presentSpace, type SpaceCounters } from './present.ts';
import { publishedUrlOfSpace } from '../sites/published-urls.ts';
import { cachedRead, cachedReadMany, readCache, serializedRead } from '../../platform/read-cache.ts';
import { deleteGrantsOnTransferred } from '../grants/queries.ts';
import { cachedUserById } from '../users/service.ts';
import { presentUser } from '../users/present.ts';
import type { CreateSpaceBody, UpdateSpaceBody } from './schemas.ts';
import {
  activityCountsOfSpaces,
  countSpaces,
  findSpace,
  insertSpace,
  listSpaces,
  purgeSpacesDeletedBefore,
  sortKeyColumns,
  updateSpace,
  type SpaceFilter,
  type SpaceRow,
} from './store.ts';

/** Deleted spaces stay restorable this long, then they are removed for good. */
export const TRASH_RETENTION_MS = 7 * DAY_MS;

function purgeCutoff(ctx: AppContext): string {
  return new Date(ctx.clock.now().getTime() - TRASH_RETENTION_MS).toISOString();
}

/**
 * Space rows by id, read by every request about a space and changed by few (platform/read-cache.ts): emptied
 * by any write to spaces. Rows are shared between requests: never change one, copy it.
 */
function spaceRow(ctx: AppContext, spaceId: string): Promise<SpaceRow | undefined> {
  const cache = readCache<SpaceRow | undefined>(ctx.db, 'spaces:rows', { max: 10_000, ttlMs: 'shared', dependsOn: ['spaces'], keep: (row) => row !== undefined });
  return cachedRead(cache, spaceId, () => findSpace(ctx.db, spaceId));
}

/**
 * A space the caller can see, with the caller's role on it; 404 otherwise. A space deleted more than 7 days
 * ago is gone even before the purge job has removed its row.
 */
export async function loadSpace(ctx: AppContext, caller: Caller, spaceId: string, options: { allowDeleted?: boolean } = {}) {
  const space = await spaceRow(ctx, spaceId);
  if (space && !(space.deleted_at && space.deleted_at < purgeCutoff(ctx))) {
    const access = await OrgAccess.load(ctx.db, space.organization_id, caller);
    const role = await access.roleOn(space);
    if (role) {
      if (space.deleted_at && !options.allowDeleted) throw notFound(`Space ${spaceId} is deleted; restore it first`);
      return { space, access, role };
    }
  }
  throw notFound(`No space ${spaceId}`);
}

function assertVisibilityFits(visibility: string, parentId: string | null): void {
  if (visibility === 'in-collection' && parentId === null) {
    throw badRequest('body/visibility: "in-collection" is only for spaces inside a collection');
  }
}

export async function createSpace(ctx: AppContext, caller: Caller, organizationId: string, body: Static<typeof CreateSpaceBody>) {
  const access = await OrgAccess.load(ctx.db, organizationId, caller);
  assertOrganizationVisible(access);
  if (!(await findOrganization(ctx.db, organizationId))) throw notFound(`No organization ${organizationId}`);
  const parentId = body.parent ?? null;
  await assertCanPlaceIn(ctx, access, parentId);
  const visibility = body.visibility ?? 'private';
  assertVisibilityFits(visibility, parentId);
  const now = isoNow(ctx.clock);
  const row = await ctx.db.transaction().execute(async (trx) => {
    const placement = await resolvePlacement(trx, organizationId, undefined, { parent: parentId });
    const row: SpaceRow = {
      id: newId(),
      organization_id: organizationId,
      parent_id: placement.parentId,
      title: body.title?.trim() || 'Untitled',
      emoji: body.emoji ?? '',
      icon_url: null,
      visibility,
      edit_mode: body.editMode ?? 'live',
      default_level: 'inherit',
      language: body.language ?? null,
      merge_rules: JSON.stringify({ type: 'inherit' }),
      revision_id: '',
      position: placement.position,
      created_by: authorOf(caller),
      created_at: now,
      updated_at: now,
      deleted_at: null,
      deleted_by: null,
      change_request_counter: 0,
    };
    await insertSpace(trx, row);
    row.revision_id = await startMainBranch(ctx, trx, row.id, authorOf(caller));
    await updateSpace(trx, row.id, { revision_id: row.revision_id });
    await recordEvent(trx, ctx.clock, 'space_created', organizationId, { spaceId: row.id });
    return row;
  });
  return presentSpace(ctx.config, row, await access.roleOn(row), await countersOf(ctx, row.id));
}

/** A space as GET answers it; `shareKey` (of a share link of a site publishing it) makes `urls.published` carry that key. */
async function presentWithPublishedUrl(ctx: AppContext, space: SpaceRow, role: Role | null, shareKey: string | undefined) {
  // The counters and the published URL are read together: on PostgreSQL, when not cached, each is a round trip.
  const [counters, published] = await Promise.all([countersOf(ctx, space.id), publishedUrlOfSpace(ctx.db, ctx.config, space.id, shareKey)]);
  const presented = presentSpace(ctx.config, space, role, counters);
  const url = space.deleted_at ? undefined : published;
  return url ? { ...presented, urls: { ...presented.urls, published: url } } : presented;
}

/** What a space's answer is read from: the space, its counters and the sites that publish it. */
const SPACE_ANSWER_TABLES = ['spaces', 'change_requests', 'comments', 'sites', 'site_spaces', 'site_sections', 'site_section_groups', 'site_share_links'];

/**
 * GET space as JSON text, written by `serialize` (the route's response serializer): the most frequent request
 * of all. Kept per space, share key and role of the caller (who may see it is checked first, every time)
 * until a write to what it shows (platform/read-cache.ts serializedRead).
 */
export async function getSpaceJson(ctx: AppContext, caller: Caller, spaceId: string, shareKey: string | undefined, serialize: (space: unknown) => string): Promise<string> {
  const { space, role } = await loadSpace(ctx, caller, spaceId, { allowDeleted: true });
  const key = `${ctx.config.publicUrl} ${space.id} ${role} ${shareKey ?? ''}`;
  // The row is read again inside: one read before the cache's own look-up could be older than its last emptying.
  return serializedRead(ctx.db, 'spaces:answers', SPACE_ANSWER_TABLES, key, async () => {
    const { space: current } = await loadSpace(ctx, caller, spaceId, { allowDeleted: true });
    return serialize(await presentWithPublishedUrl(ctx, current, role, shareKey));
  });
}

export async function updateSpaceSettings(ctx: AppContext, caller: Caller, spaceId: string, body: Static<typeof UpdateSpaceBody>) {
  const { space, access, role } = await loadSpace(ctx, caller, spaceId);
  assertSpaceAdmin(role, 'Updating a space');
  const changes: Partial<SpaceRow> = {};
  if (body.title !== undefined) changes.title = body.title.trim() || space.title;
  if (body.emoji !== undefined) changes.emoji = body.emoji ?? '';
  if (body.icon !== undefined) changes.icon_url = body.icon;
  if (body.editMode !== undefined) changes.edit_mode = body.editMode;
  if (body.defaultLevel !== undefined) changes.default_level = body.defaultLevel;
  if (body.language !== undefined) changes.language = body.language;
  if (body.mergeRules !== undefined) {
    await assertMergeRuleUsers(ctx.db, space.organization_id, body.mergeRules);
    changes.merge_rules = JSON.stringify(body.mergeRules);
  }
  if (body.visibility !== undefined) {
    assertVisibilityFits(body.visibility, space.parent_id);
    changes.visibility = body.visibility;
  }
  if (Object.keys(changes).length > 0) {
    changes.updated_at = isoNow(ctx.clock);
    await ctx.db.transaction().execute(async (trx) => {
      await updateSpace(trx, space.id, changes);
      await recordEvent(trx, ctx.clock, 'space_updated', space.organization_id, { spaceId: space.id, fields: Object.keys(changes) });
    });
  }
  const updated = { ...space, ...changes };
  return presentSpace(ctx.config, updated, await access.roleOn(updated), await countersOf(ctx, updated.id));
}

/** Moves a space to the trash; it can be restored for 7 days. Deleting what the caller cannot see succeeds. */
export async function deleteSpace(ctx: AppContext, caller: Caller, spaceId: string): Promise<void> {
  let loaded;
  try {
    loaded = await loadSpace(ctx, caller, spaceId, { allowDeleted: true });
  } catch (error) {
    if (isNotFound(error)) return;
    throw error;
  }
  const { space, role } = loaded;
  assertSpaceAdmin(role, 'Deleting a space');
  if (space.deleted_at) return;
  const now = isoNow(ctx.clock);
  await ctx.db.transaction().execute(async (trx) => {
    await updateSpace(trx, space.id, { deleted_at: now, deleted_by: authorOf(caller), updated_at: now });
    await recordEvent(trx, ctx.clock, 'space_deleted', space.organization_id, { spaceId: space.id });
    await recordAudit(ctx, trx, space.organization_id, caller, { action: 'space.deleted', target: { type: 'space', id: space.id, label: space.title } });
  });
}

export async function restoreSpace(ctx: AppContext, caller: Caller, spaceId: string) {
  const { space, access, role } = await loadSpace(ctx, caller, spaceId, { allowDeleted: true });
  assertSpaceAdmin(role, 'Restoring a space');
  if (!space.deleted_at) throw conflict(`Space ${spaceId} is not deleted`);
  const now = isoNow(ctx.clock);
  const updated = await ctx.db.transaction().execute(async (trx) => {
    // Its collection may have been deleted meanwhile: then it comes back at the top level, at the end.
    const placement = await resolvePlacement(trx, space.organization_id, undefined, { parent: space.parent_id });
    const changes: Partial<SpaceRow> = { deleted_at: null, deleted_by: null, updated_at: now, parent_id: placement.parentId, position: placement.position };
    await updateSpace(trx, space.id, changes);
    await recordEvent(trx, ctx.clock, 'space_restored', space.organization_id, { spaceId: space.id });
    return { ...space, ...changes };
  });
  return presentSpace(ctx.config, updated, await access.roleOn(updated), await countersOf(ctx, updated.id));
}

/** A copy of the space's settings and current content, next to the original. */
export async function duplicateSpace(ctx: AppContext, caller: Caller, spaceId: string) {
  const { space, access } = await loadSpaceToDuplicate(ctx, caller, spaceId);
  const copy = await ctx.db.transaction().execute((trx) => writeSpaceCopy(ctx, trx, caller, space));
  return presentSpace(ctx.config, copy, await access.roleOn(copy), await countersOf(ctx, copy.id));
}

/** The space, when the caller may duplicate it: they read it, and may create spaces where it is. */
export async function loadSpaceToDuplicate(ctx: AppContext, caller: Caller, spaceId: string) {
  const { space, access } = await loadSpace(ctx, caller, spaceId);
  await assertCanPlaceIn(ctx, access, space.parent_id);
  return { space, access };
}

/**
 * Writes a copy of the space (settings and current content, its main line starting from the original's head)
 * next to it, in the caller's transaction: a site duplicating one of its spaces writes the copy and its place
 * in the site together (sites/duplicate-site-space.ts).
 */
export async function writeSpaceCopy(ctx: AppContext, trx: Executor, caller: Caller, space: SpaceRow): Promise<SpaceRow> {
  const now = isoNow(ctx.clock);
  const placement = await resolvePlacement(trx, space.organization_id, undefined, { parent: space.parent_id });
  const copy: SpaceRow = {
    ...space,
    id: newId(),
    title: `${space.title} (copy)`.slice(0, 50),
    revision_id: '',
    position: placement.position,
    created_by: authorOf(caller),
    created_at: now,
    updated_at: now,
    deleted_at: null,
    deleted_by: null,
    change_request_counter: 0,
  };
  await insertSpace(trx, copy);
  const source = await findRevision(trx, space.revision_id);
  copy.revision_id = await startMainBranch(ctx, trx, copy.id, authorOf(caller), { spaceId: space.id, revisionId: space.revision_id, variables: source?.variables ?? '{}' });
  await updateSpace(trx, copy.id, { revision_id: copy.revision_id });
  await recordEvent(trx, ctx.clock, 'space_created', space.organization_id, { spaceId: copy.id, duplicatedFrom: space.id });
  return copy;
}

export async function moveSpace(ctx: AppContext, caller: Caller, spaceId: string, input: PlacementInput) {
  const { space, access, role } = await loadSpace(ctx, caller, spaceId);
  assertSpaceAdmin(role, 'Moving a space');
  const updated = await ctx.db.transaction().execute(async (trx) => {
    const placement = await resolvePlacement(trx, space.organization_id, { kind: 'space', id: space.id, current: { parentId: space.parent_id, position: space.position } }, input);
    if (placement.parentId !== space.parent_id) await assertCanPlaceIn(ctx, access, placement.parentId, trx);
    const changes: Partial<SpaceRow> = { parent_id: placement.parentId, position: placement.position, updated_at: isoNow(ctx.clock) };
    // "in-collection" means nothing at the top level: the space becomes private rather than more exposed.
    if (placement.parentId === null && space.visibility === 'in-collection') changes.visibility = 'private';
    await updateSpace(trx, space.id, changes);
    if (placement.parentId !== space.parent_id) {
      await recordAudit(ctx, trx, space.organization_id, caller, {
        action: 'space.moved',
        target: { type: 'space', id: space.id, label: space.title },
        details: { collection: { from: space.parent_id, to: placement.parentId } },
      });
    }
    return { ...space, ...changes };
  });
  return presentSpace(ctx.config, updated, await access.roleOn(updated), await countersOf(ctx, updated.id));
}

export async function transferSpace(ctx: AppContext, caller: Caller, spaceId: string, organizationId: string) {
  const { space, role } = await loadSpace(ctx, caller, spaceId);
  assertSpaceAdmin(role, 'Transferring a space');
  const target = await OrgAccess.load(ctx.db, organizationId, caller);
  if (!target.isMember || !(await findOrganization(ctx.db, organizationId))) throw notFound(`No organization ${organizationId}`);
  assertCanInOrganization(target, 'admin', 'Transferring to another organization');
  if (organizationId === space.organization_id) throw conflict('The space already belongs to this organization');
  const now = isoNow(ctx.clock);
  const updated = await ctx.db.transaction().execute(async (trx) => {
    const placement = await resolvePlacement(trx, organizationId, undefined, { parent: null });
    const changes: Partial<SpaceRow> = { organization_id: organizationId, parent_id: null, position: placement.position, updated_at: now };
    if (space.visibility === 'in-collection') changes.visibility = 'private';
    await updateSpace(trx, space.id, changes);
    await deleteGrantsOnTransferred(trx, { spaceIds: [space.id] });
    await recordEvent(trx, ctx.clock, 'space_transferred', organizationId, { spaceId: space.id, from: space.organization_id });
    // Both organizations' logs: the one that lost the space and the one that got it.
    await recordAudit(ctx, trx, [space.organization_id, organizationId], caller, {
      action: 'space.moved',
      target: { type: 'space', id: space.id, label: space.title },
      details: { organization: { from: space.organization_id, to: organizationId } },
    });
    return { ...space, ...changes };
  });
  return presentSpace(ctx.config, updated, await target.roleOn(updated), await countersOf(ctx, updated.id));
}

type PresentedSpace = ReturnType<typeof presentSpace>;

async function pageOfSpaces<T = PresentedSpace>(
  ctx: AppContext,
  access: OrgAccess,
  filter: SpaceFilter,
  listKey: string,
  query: { page?: string; limit?: number },
  item: (space: PresentedSpace, row: SpaceRow) => T = (space) => space as T,
) {
  const page = ctx.cursors.open(listKey, query, ctx.config.defaultPageSize);
  const order = filter.deletedSince === undefined ? 'asc' : 'desc';
  const [rows, count] = await Promise.all([listSpaces(ctx.db, filter, page, order), countSpaces(ctx.db, filter)]);
  const roles = await Promise.all(rows.map((row) => access.roleOn(row)));
  const counters = await countersOfMany(ctx, rows.map((row) => row.id));
  const [first, second] = sortKeyColumns(filter);
  return ctx.cursors.close(
    listKey,
    page,
    rows.map((row, i) => ({ row, role: roles[i] ?? null })),
    count,
    ({ row }) => [row[first as 'position'], row[second as 'id']],
    ({ row, role }) => item(presentSpace(ctx.config, row, role, counters.get(row.id) ?? NO_ACTIVITY), row),
  );
}

/** What a page of spaces is read from: the spaces, their counters, and the caller's access (roles, scope). */
const SPACE_PAGE_TABLES = ['spaces', 'change_requests', 'comments', ...ACCESS_TABLES];

/**
 * A page of the organization's spaces the caller can read, as JSON text written by `serialize` (the route's
 * response serializer). Kept per caller and page until a write to what it shows (platform/read-cache.ts
 * serializedRead): which spaces a caller sees and their role on each depend on the caller alone.
 */
export async function listSpacesInOrganizationJson(ctx: AppContext, caller: Caller, organizationId: string, query: { page?: string; limit?: number }, serialize: (page: unknown) => string): Promise<string> {
  const access = await OrgAccess.load(ctx.db, organizationId, caller);
  assertOrganizationVisible(access);
  if (!(await findOrganization(ctx.db, organizationId))) throw notFound(`No organization ${organizationId}`);
  const listKey = `spaces:org:${organizationId}`;
  // The cursor is checked before the cache, so that a bad one is refused whatever is kept.
  const limit = ctx.cursors.open(listKey, query, ctx.config.defaultPageSize).limit;
  const key = JSON.stringify([ctx.config.publicUrl, listKey, query.page ?? '', limit, caller]);
  return serializedRead(ctx.db, 'spaces:pages', SPACE_PAGE_TABLES, key, async () => {
    // Access is read again inside: one read before the cache's own look-up could be older than its last emptying.
    const current = await OrgAccess.load(ctx.db, organizationId, caller);
    const filter: SpaceFilter = { organizationId, scope: await current.readableScope() };
    return serialize(await pageOfSpaces(ctx, current, filter, listKey, query));
  });
}

/**
 * The organization's trash: the deleted spaces the caller could read, newest first, until they are purged.
 * Restoring one needs the admin role on it (its `permissions.admin`).
 */
export async function listSpacesInTrash(ctx: AppContext, caller: Caller, organizationId: string, query: { page?: string; limit?: number }) {
  const access = await OrgAccess.load(ctx.db, organizationId, caller);
  assertOrganizationVisible(access);
  if (!(await findOrganization(ctx.db, organizationId))) throw notFound(`No organization ${organizationId}`);
  const filter: SpaceFilter = { organizationId, scope: await access.readableScope(), deletedSince: purgeCutoff(ctx) };
  const page = await pageOfSpaces(ctx, access, filter, `spaces:trash:${organizationId}`, query, (space, row) => ({ space, deletedBy: row.deleted_by }));
  // A page names few deleters, each read once (and usually from the users cache).
  const deleterIds = [...new Set(page.items.flatMap((item) => (item.deletedBy ? [item.deletedBy] : [])))];
  const deleters = new Map(await Promise.all(deleterIds.map(async (id) => [id, await cachedUserById(ctx, id)] as const)));
  return {
    ...page,
    items: page.items.map(({ space, deletedBy }) => {
      const user = deletedBy ? deleters.get(deletedBy) : undefined;
      return {
        object: 'trashed-space' as const,
        space,
        deletedBy: user ? presentUser(ctx.config, user) : null,
        restorableUntil: new Date(Date.parse(space.deletedAt!) + TRASH_RETENTION_MS).toISOString(),
      };
    }),
  };
}

export async function listSpacesInCollection(ctx: AppContext, caller: Caller, collectionId: string, query: { page?: string; limit?: number }) {
  const { collection, access } = await loadCollection(ctx, caller, collectionId);
  const filter: SpaceFilter = { organizationId: collection.organization_id, collectionId, scope: await access.readableScope() };
  return pageOfSpaces(ctx, access, filter, `spaces:collection:${collectionId}`, query);
}

/** The true counts of a space's change requests and of the open comments on its content. */
export async function countersOfMany(ctx: AppContext, spaceIds: readonly string[]): Promise<Map<string, SpaceCounters>> {
  // Cached per space (every GET and list of spaces shows them), emptied by any write to what they count.
  const cache = readCache<SpaceCounters>(ctx.db, 'spaces:counters', { max: 10_000, ttlMs: 'shared', dependsOn: ['change_requests', 'comments'] });
  return cachedReadMany(cache, spaceIds, (missing) => readCounters(ctx, missing));
}

async function readCounters(ctx: AppContext, spaceIds: readonly string[]): Promise<Map<string, SpaceCounters>> {
  const out = new Map<string, SpaceCounters>(spaceIds.map((id) => [id, { ...NO_ACTIVITY }]));
  for (const row of await activityCountsOfSpaces(ctx.db, spaceIds)) {
    const c = out.get(row.space_id)!;
    const n = Number(row.n);
    if (row.status === 'open-comments') {
      c.comments = n;
      continue;
    }
    c.changeRequests += n;
    if (row.status === 'open') c.changeRequestsOpen += n;
    if (row.status === 'draft') c.changeRequestsDraft += n;
  }
  return out;
}

async function countersOf(ctx: AppContext, spaceId: string): Promise<SpaceCounters> {
  return (await countersOfMany(ctx, [spaceId])).get(spaceId)!;
}

/** The purge sweep: spaces deleted more than 7 days ago are removed with everything they hold. */
export async function purgeDeletedSpaces(ctx: AppContext): Promise<number> {
  return purgeSpacesDeletedBefore(ctx.db, purgeCutoff(ctx));
}

/**
 * Spaces as the caller sees them (role and counters in one batch), for features that embed Space objects
 * (a site's site-spaces). The rows come from the caller's own join; the role may be null (flags all false).
 */
export async function presentSpacesFor(ctx: AppContext, access: OrgAccess, rows: readonly SpaceRow[]) {
  const counters = await countersOfMany(ctx, rows.map((row) => row.id));
  const roles = await Promise.all(rows.map((row) => access.roleOn(row)));
  return new Map(rows.map((row, i) => [row.id, presentSpace(ctx.config, row, roles[i] ?? null, counters.get(row.id) ?? NO_ACTIVITY)]));
}
