import type { Static } from 'typebox';
import type { AppContext, Caller } from '../../platform/context.ts';
import { badRequest, conflict, notFound } from '../../platform/errors.ts';
import { checkCondition } from '../adaptive/conditions.ts';
import type { ListSiteSpacesQuery, MoveSiteSpaceBody, UpdateSiteSpaceBody } from './schemas.ts';
import {
  announceSpaceShown,
  checkShareKey,
  flatSectionOrder,
  loadSite,
  loadSiteForDelete,
  newSiteSpaceRow,
  pageOfStructure,
  presentTreeFor,
  readTree,
  spaceForSite,
  structureChanged,
} from './service.ts';
import { checkPath, effectiveDefault, inOrder, pathTaken, positionAmong } from './structure.ts';
import { deleteSiteSpace, insertSiteSpace, markDefaultSiteSpace, updateSiteSpace, type SiteSpaceRow } from './store.ts';
import { sectionsOf, type SiteTree } from './present.ts';

/** A condition as written: checked by the expression parser, so that an invalid one is refused at once. */
export function checkedCondition(value: string | null | undefined, field: string): string | null | undefined {
  if (value === undefined || value === null) return value;
  const result = checkCondition(value, field);
  if (!result.ok) throw badRequest(result.message);
  return value;
}

function siblingsOf(tree: SiteTree, sectionId: string | null, exceptId?: string): SiteSpaceRow[] {
  return tree.siteSpaces.filter((ss) => ss.section_id === sectionId && ss.id !== exceptId);
}

async function presentSiteSpace(ctx: AppContext, loaded: { access: Parameters<typeof presentTreeFor>[1] }, tree: SiteTree, id: string) {
  const presented = await presentTreeFor(ctx, loaded.access, tree);
  return presented.siteSpaces.get(id)!;
}

/** Adds a space to a site: to the given section, else to the default section, else at the root. */
export async function addSpaceToSite(ctx: AppContext, caller: Caller, organizationId: string, siteId: string, body: { spaceId: string; sectionId?: string | undefined }) {
  const loaded = await loadSite(ctx, caller, organizationId, siteId, 'manage', 'Adding a space to a site');
  const { site } = loaded;
  const space = await spaceForSite(ctx, caller, site, body.spaceId, 'body/spaceId');
  const tree = await readTree(ctx.db, site);
  let sectionId: string | null = null;
  if (body.sectionId !== undefined) {
    if (!tree.sections.some((s) => s.id === body.sectionId)) throw badRequest(`body/sectionId: no section ${body.sectionId} in this site`);
    sectionId = body.sectionId;
  } else if (tree.sections.length > 0) {
    sectionId = effectiveDefault(flatSectionOrder(tree)) ?? null;
  }
  const row = newSiteSpaceRow(ctx, site, sectionId, space, siblingsOf(tree, sectionId));
  await ctx.db.transaction().execute(async (trx) => {
    await insertSiteSpace(trx, row);
    await structureChanged(trx, ctx, site, 'site_space_added', { siteSpaceId: row.id, spaceId: space.id });
  });
  announceSpaceShown(ctx, site, space);
  return presentSiteSpace(ctx, loaded, await readTree(ctx.db, site), row.id);
}

/** Every site-space in reading order: the root's, or each section's in the order of the sections. */
function orderedSiteSpaces(structure: Awaited<ReturnType<typeof presentTreeFor>>['structure']) {
  if (structure.type === 'siteSpaces') return structure.structure;
  return sectionsOf(structure.structure).flatMap((section) => section.siteSpaces);
}

/**
 * Site-spaces in the order of the structure. `default`: true lists the default of each section (or of the
 * root), false every other one.
 */
export async function listSiteSpaces(ctx: AppContext, caller: Caller, organizationId: string, siteId: string, query: Static<typeof ListSiteSpacesQuery>) {
  const loaded = await loadSite(ctx, caller, organizationId, siteId, 'view');
  const key = await checkShareKey(ctx, loaded.site, query.shareKey);
  const tree = await readTree(ctx.db, loaded.site);
  const presented = await presentTreeFor(ctx, loaded.access, tree, key);
  const ordered = orderedSiteSpaces(presented.structure).filter((ss) => query.default === undefined || ss.default === query.default);
  return pageOfStructure(ctx, `site-spaces:${siteId}:${query.default ?? ''}`, query, ordered);
}

async function loadSiteSpace(ctx: AppContext, caller: Caller, organizationId: string, siteId: string, siteSpaceId: string, what: string) {
  const loaded = await loadSite(ctx, caller, organizationId, siteId, 'manage', what);
  const tree = await readTree(ctx.db, loaded.site);
  const siteSpace = tree.siteSpaces.find((ss) => ss.id === siteSpaceId);
  if (!siteSpace) throw notFound(`No site-space ${siteSpaceId} in site ${siteId}`);
  return { ...loaded, tree, siteSpace };
}

export async function updateSiteSpaceById(
  ctx: AppContext,
  caller: Caller,
  organizationId: string,
  siteId: string,
  siteSpaceId: string,
  body: Static<typeof UpdateSiteSpaceBody>,
) {
  const loaded = await loadSiteSpace(ctx, caller, organizationId, siteId, siteSpaceId, 'Updating a site-space');
  const { site, tree, siteSpace } = loaded;
  const changes: Partial<SiteSpaceRow> = {};
  if (body.path !== undefined) {
    const problem = checkPath(body.path);
    if (problem) throw badRequest(`body/path ${problem}`);
    if (pathTaken(body.path, siblingsOf(tree, siteSpace.section_id), siteSpace.id)) throw conflict(`body/path: "${body.path}" is already the path of another site-space here`);
    changes.path = body.path;
  }
  if (body.condition !== undefined) changes.condition = checkedCondition(body.condition, 'body/condition') ?? null;
  const space = body.spaceId !== undefined ? await spaceForSite(ctx, caller, site, body.spaceId, 'body/spaceId') : undefined;
  if (space) changes.space_id = space.id;
  if (Object.keys(changes).length > 0) {
    await ctx.db.transaction().execute(async (trx) => {
      await updateSiteSpace(trx, siteSpace.id, changes);
      await structureChanged(trx, ctx, site, 'site_space_updated', { siteSpaceId: siteSpace.id, fields: Object.keys(body) });
    });
  }
  if (space && space.id !== siteSpace.space_id) announceSpaceShown(ctx, site, space);
  return presentSiteSpace(ctx, loaded, await readTree(ctx.db, site), siteSpace.id);
}

/** Removes a site-space; when it was its siblings' default, the first remaining sibling becomes the default. */
export async function deleteSiteSpaceById(ctx: AppContext, caller: Caller, organizationId: string, siteId: string, siteSpaceId: string): Promise<void> {
  const loaded = await loadSiteForDelete(ctx, caller, organizationId, siteId, 'Removing a space from a site');
  if (!loaded) return;
  const tree = await readTree(ctx.db, loaded.site);
  const siteSpace = tree.siteSpaces.find((ss) => ss.id === siteSpaceId);
  if (!siteSpace) return;
  const remaining = inOrder(siblingsOf(tree, siteSpace.section_id, siteSpace.id));
  const wasDefault = effectiveDefault(inOrder(siblingsOf(tree, siteSpace.section_id))) === siteSpace.id;
  await ctx.db.transaction().execute(async (trx) => {
    await deleteSiteSpace(trx, siteSpace.id);
    if (wasDefault && remaining[0]) await markDefaultSiteSpace(trx, siteId, siteSpace.section_id, remaining[0].id);
    await structureChanged(trx, ctx, loaded.site, 'site_space_removed', { siteSpaceId });
  });
}

/**
 * Moves a site-space before or after another (which may be in another section: it then moves there), or to
 * the end of its siblings.
 */
export async function moveSiteSpaceTo(
  ctx: AppContext,
  caller: Caller,
  organizationId: string,
  siteId: string,
  siteSpaceId: string,
  target: { before?: string | undefined; after?: string | undefined },
  field = 'body/position',
) {
  const loaded = await loadSiteSpace(ctx, caller, organizationId, siteId, siteSpaceId, 'Moving a site-space');
  const { site, tree, siteSpace } = loaded;
  const refId = target.before ?? target.after;
  const ref = refId === undefined ? undefined : tree.siteSpaces.find((ss) => ss.id === refId);
  if (refId !== undefined && !ref) throw badRequest(`${field}: no site-space ${refId} in this site`);
  if (ref?.id === siteSpace.id) throw badRequest(`${field}: a site-space cannot move next to itself`);
  const sectionId = ref ? ref.section_id : siteSpace.section_id;
  const placed = positionAmong(siblingsOf(tree, sectionId, siteSpace.id), target);
  if ('error' in placed) throw badRequest(`${field} ${placed.error}`);
  const changes: Partial<SiteSpaceRow> = { position: placed.position, section_id: sectionId };
  const leavesDefault = sectionId !== siteSpace.section_id && effectiveDefault(inOrder(siblingsOf(tree, siteSpace.section_id))) === siteSpace.id;
  if (sectionId !== siteSpace.section_id) changes.is_default = siblingsOf(tree, sectionId).length === 0 ? 1 : 0;
  await ctx.db.transaction().execute(async (trx) => {
    await updateSiteSpace(trx, siteSpace.id, changes);
    const heir = inOrder(siblingsOf(tree, siteSpace.section_id, siteSpace.id))[0];
    if (leavesDefault && heir) await markDefaultSiteSpace(trx, siteId, siteSpace.section_id, heir.id);
    await structureChanged(trx, ctx, site, 'site_space_moved', { siteSpaceId });
  });
  return presentSiteSpace(ctx, loaded, await readTree(ctx.db, site), siteSpace.id);
}

export async function moveSiteSpace(ctx: AppContext, caller: Caller, organizationId: string, siteId: string, siteSpaceId: string, body: Static<typeof MoveSiteSpaceBody>) {
  return moveSiteSpaceTo(ctx, caller, organizationId, siteId, siteSpaceId, { before: body.position?.before?.siteSpace, after: body.position?.after?.siteSpace });
}
