import type { Static } from 'typebox';
import type { Executor } from '../../db/types.ts';
import type { AppContext, Caller } from '../../platform/context.ts';
import { badRequest, conflict, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { isoNow } from '../../platform/clock.ts';
import { positionAtEnd } from '../placement/positions.ts';
import { sectionsOf, type SiteTree } from './present.ts';
import type { AddSectionBody, AddSectionGroupBody, ListWithShareKeyQuery, SortStructureBody, UpdateSectionBody, UpdateSectionGroupBody } from './schemas.ts';
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
  type LoadedSite,
} from './service.ts';
import { checkedCondition, moveSiteSpaceTo } from './site-spaces.ts';
import { checkPath, effectiveDefault, inOrder, pathFromTitle, pathTaken, positionAmong, uniquePath, type Positioned } from './structure.ts';
import {
  deleteGroup,
  deleteSection,
  insertGroup,
  insertSection,
  insertSiteSpace,
  markDefaultSection,
  markDefaultSiteSpace,
  updateExternalLink,
  updateGroup,
  updateSection,
  updateSiteSpace,
  type GroupRow,
  type SectionRow,
} from './store.ts';

/** The items at the site's top level (sections outside groups, groups, external links), or a group's sections and links. */
export function level(tree: SiteTree, groupId: string | null, exceptId?: string): Positioned[] {
  const sections = tree.sections.filter((s) => s.group_id === groupId && s.id !== exceptId);
  const links = tree.links.filter((l) => l.group_id === groupId && l.id !== exceptId);
  return groupId === null ? [...sections, ...links, ...tree.groups.filter((g) => g.id !== exceptId)] : [...sections, ...links];
}

export function endOf(tree: SiteTree, groupId: string | null, exceptId?: string): string {
  return positionAtEnd(inOrder(level(tree, groupId, exceptId)).map((i) => i.position));
}

async function presentAfter(ctx: AppContext, loaded: LoadedSite, shareKey?: string) {
  return presentTreeFor(ctx, loaded.access, await readTree(ctx.db, loaded.site), shareKey);
}

function sectionOf(tree: SiteTree, id: string, field?: string): SectionRow {
  const section = tree.sections.find((s) => s.id === id);
  if (!section) throw field ? badRequest(`${field}: no section ${id} in this site`) : notFound(`No section ${id} in this site`);
  return section;
}

function groupOf(tree: SiteTree, id: string): GroupRow {
  const group = tree.groups.find((g) => g.id === id);
  if (!group) throw notFound(`No section group ${id} in this site`);
  return group;
}

/** When a section leaves the default, the first section in reading order takes over. */
async function keepDefaultSection(db: Executor, tree: SiteTree, removedId: string) {
  const order = flatSectionOrder(tree);
  if (effectiveDefault(order) !== removedId) return;
  const heir = order.find((s) => s.id !== removedId);
  if (heir) await markDefaultSection(db, tree.site.id, heir.id);
}

/**
 * Adds a section with its first variant (the given space). A site whose spaces were at its root gets them
 * wrapped in a first section (named after the site, the default) before the new one: a site has either
 * sections or root site-spaces, never both.
 */
export async function addSectionToSite(ctx: AppContext, caller: Caller, organizationId: string, siteId: string, body: Static<typeof AddSectionBody>) {
  const loaded = await loadSite(ctx, caller, organizationId, siteId, 'manage', 'Adding a section');
  const { site } = loaded;
  const space = await spaceForSite(ctx, caller, site, body.spaceId, 'body/spaceId');
  const tree = await readTree(ctx.db, site);
  const now = isoNow(ctx.clock);
  const paths = tree.sections.map((s) => s.path);
  let end = endOf(tree, null);
  const rows: SectionRow[] = [];
  const rootSpaces = tree.siteSpaces.filter((ss) => ss.section_id === null);
  if (tree.sections.length === 0 && rootSpaces.length > 0) {
    const wrapper: SectionRow = {
      id: newId(),
      site_id: site.id,
      group_id: null,
      title: site.title,
      description: null,
      icon: null,
      path: uniquePath(pathFromTitle(site.title), paths),
      condition: null,
      is_default: 1,
      position: end,
      created_at: now,
    };
    rows.push(wrapper);
    paths.push(wrapper.path);
    end = positionAtEnd([end]);
  }
  const title = body.title ?? (space.title.trim().length >= 2 ? space.title.trim() : 'Section');
  const section: SectionRow = {
    id: newId(),
    site_id: site.id,
    group_id: null,
    title,
    description: null,
    icon: body.icon ?? null,
    path: uniquePath(pathFromTitle(title), paths),
    condition: null,
    is_default: tree.sections.length === 0 && rows.length === 0 ? 1 : 0,
    position: end,
    created_at: now,
  };
  rows.push(section);
  await ctx.db.transaction().execute(async (trx) => {
    for (const row of rows) await insertSection(trx, row);
    if (rows.length > 1) for (const ss of rootSpaces) await updateSiteSpace(trx, ss.id, { section_id: rows[0]!.id });
    await insertSiteSpace(trx, newSiteSpaceRow(ctx, site, section.id, space, []));
    await structureChanged(trx, ctx, site, 'section_added', { sectionId: section.id });
  });
  announceSpaceShown(ctx, site, space);
  return (await presentAfter(ctx, loaded)).sections.get(section.id)!;
}

export async function listSiteSections(ctx: AppContext, caller: Caller, organizationId: string, siteId: string, query: Static<typeof ListWithShareKeyQuery>) {
  const loaded = await loadSite(ctx, caller, organizationId, siteId, 'view');
  const key = await checkShareKey(ctx, loaded.site, query.shareKey);
  const presented = await presentAfter(ctx, loaded, key);
  const ordered = presented.structure.type === 'sections' ? sectionsOf(presented.structure.structure) : [];
  return pageOfStructure(ctx, `site-sections:${siteId}`, query, ordered);
}

export async function updateSiteSection(ctx: AppContext, caller: Caller, organizationId: string, siteId: string, sectionId: string, body: Static<typeof UpdateSectionBody>) {
  const loaded = await loadSite(ctx, caller, organizationId, siteId, 'manage', 'Updating a section');
  const tree = await readTree(ctx.db, loaded.site);
  const section = sectionOf(tree, sectionId);
  const changes: Partial<SectionRow> = {};
  if (body.title !== undefined) changes.title = body.title;
  if (body.path !== undefined) {
    const problem = checkPath(body.path);
    if (problem) throw badRequest(`body/path ${problem}`);
    if (pathTaken(body.path, tree.sections, section.id)) throw conflict(`body/path: "${body.path}" is already the path of another section of this site`);
    changes.path = body.path;
  }
  if (body.condition !== undefined) changes.condition = checkedCondition(body.condition, 'body/condition') ?? null;
  if (body.icon !== undefined) changes.icon = body.icon;
  if (body.description !== undefined) changes.description = body.description;
  let defaultSiteSpace: string | undefined;
  if (body.defaultSiteSpace !== undefined) {
    if (!tree.siteSpaces.some((ss) => ss.id === body.defaultSiteSpace && ss.section_id === section.id)) {
      throw badRequest(`body/defaultSiteSpace: no site-space ${body.defaultSiteSpace} in this section`);
    }
    defaultSiteSpace = body.defaultSiteSpace;
  }
  await ctx.db.transaction().execute(async (trx) => {
    if (Object.keys(changes).length > 0) await updateSection(trx, section.id, changes);
    if (defaultSiteSpace) await markDefaultSiteSpace(trx, siteId, section.id, defaultSiteSpace);
    await structureChanged(trx, ctx, loaded.site, 'section_updated', { sectionId, fields: Object.keys(body) });
  });
  return (await presentAfter(ctx, loaded)).sections.get(section.id)!;
}

/** Deletes a section with its site-spaces; the default passes to the first remaining section. */
export async function deleteSiteSection(ctx: AppContext, caller: Caller, organizationId: string, siteId: string, sectionId: string): Promise<void> {
  const loaded = await loadSiteForDelete(ctx, caller, organizationId, siteId, 'Deleting a section');
  if (!loaded) return;
  const tree = await readTree(ctx.db, loaded.site);
  if (!tree.sections.some((s) => s.id === sectionId)) return;
  await ctx.db.transaction().execute(async (trx) => {
    await keepDefaultSection(trx, tree, sectionId);
    await deleteSection(trx, sectionId);
    await structureChanged(trx, ctx, loaded.site, 'section_deleted', { sectionId });
  });
}

/** Places a section next to a section or group (in that one's level: the top, or a group), or last in its own level. */
async function placeSection(ctx: AppContext, loaded: LoadedSite, tree: SiteTree, section: SectionRow, ref: { id: string; kind: 'section' | 'group' } | undefined, side: 'before' | 'after', field: string) {
  let groupId = section.group_id;
  if (ref?.kind === 'section') groupId = sectionOf(tree, ref.id, field).group_id;
  if (ref?.kind === 'group') {
    groupOf(tree, ref.id);
    groupId = null;
  }
  if (ref?.id === section.id) throw badRequest(`${field}: a section cannot move next to itself`);
  const placed = positionAmong(level(tree, groupId, section.id), ref ? { [side]: ref.id } : {});
  if ('error' in placed) throw badRequest(`${field} ${placed.error}`);
  await ctx.db.transaction().execute(async (trx) => {
    await updateSection(trx, section.id, { position: placed.position, group_id: groupId });
    await structureChanged(trx, ctx, loaded.site, 'section_moved', { sectionId: section.id });
  });
  return (await presentAfter(ctx, loaded)).sections.get(section.id)!;
}

export async function moveSiteSection(
  ctx: AppContext,
  caller: Caller,
  organizationId: string,
  siteId: string,
  sectionId: string,
  position: { before?: { siteSection: string } | undefined; after?: { siteSection: string } | undefined } | undefined,
) {
  const loaded = await loadSite(ctx, caller, organizationId, siteId, 'manage', 'Moving a section');
  const tree = await readTree(ctx.db, loaded.site);
  const section = sectionOf(tree, sectionId);
  if (position?.before && position.after) throw badRequest('body/position must name either before or after, not both');
  const refId = position?.before?.siteSection ?? position?.after?.siteSection;
  return placeSection(ctx, loaded, tree, section, refId ? { id: refId, kind: 'section' } : undefined, position?.before ? 'before' : 'after', 'body/position');
}

// --- Section groups

export async function addSectionGroup(ctx: AppContext, caller: Caller, organizationId: string, siteId: string, body: Static<typeof AddSectionGroupBody>) {
  const loaded = await loadSite(ctx, caller, organizationId, siteId, 'manage', 'Adding a section group');
  const tree = await readTree(ctx.db, loaded.site);
  const sections = [...new Set(body.sections ?? [])].map((id, i) => sectionOf(tree, id, `body/sections/${i}`));
  const group: GroupRow = { id: newId(), site_id: siteId, title: body.title, icon: body.icon ?? null, position: endOf(tree, null), created_at: isoNow(ctx.clock) };
  await ctx.db.transaction().execute(async (trx) => {
    await insertGroup(trx, group);
    let last: string | null = null;
    for (const section of sections) {
      last = positionAtEnd(last ? [last] : []);
      await updateSection(trx, section.id, { group_id: group.id, position: last });
    }
    await structureChanged(trx, ctx, loaded.site, 'section_group_added', { sectionGroupId: group.id });
  });
  return (await presentAfter(ctx, loaded)).groups.get(group.id)!;
}

export async function listSectionGroups(ctx: AppContext, caller: Caller, organizationId: string, siteId: string, query: { page?: string; limit?: number }) {
  const loaded = await loadSite(ctx, caller, organizationId, siteId, 'view');
  const presented = await presentAfter(ctx, loaded);
  const ordered = presented.structure.type === 'sections' ? presented.structure.structure.filter((item) => item.object === 'site-section-group') : [];
  return pageOfStructure(ctx, `site-section-groups:${siteId}`, query, ordered);
}

export async function updateSectionGroup(ctx: AppContext, caller: Caller, organizationId: string, siteId: string, groupId: string, body: Static<typeof UpdateSectionGroupBody>) {
  const loaded = await loadSite(ctx, caller, organizationId, siteId, 'manage', 'Updating a section group');
  const tree = await readTree(ctx.db, loaded.site);
  const group = groupOf(tree, groupId);
  const changes: Partial<GroupRow> = {};
  if (body.title !== undefined) changes.title = body.title;
  if (body.icon !== undefined) changes.icon = body.icon;
  if (Object.keys(changes).length > 0) {
    await ctx.db.transaction().execute(async (trx) => {
      await updateGroup(trx, group.id, changes);
      await structureChanged(trx, ctx, loaded.site, 'section_group_updated', { sectionGroupId: groupId });
    });
  }
  return (await presentAfter(ctx, loaded)).groups.get(group.id)!;
}

/** Deletes a group; its sections and external links stay, at the top level where the group was (in their order). */
export async function deleteSectionGroup(ctx: AppContext, caller: Caller, organizationId: string, siteId: string, groupId: string): Promise<void> {
  const loaded = await loadSiteForDelete(ctx, caller, organizationId, siteId, 'Deleting a section group');
  if (!loaded) return;
  const tree = await readTree(ctx.db, loaded.site);
  const group = tree.groups.find((g) => g.id === groupId);
  if (!group) return;
  const links = new Set(tree.links.filter((l) => l.group_id === groupId).map((l) => l.id));
  const members = inOrder<Positioned>([...tree.sections.filter((s) => s.group_id === groupId), ...tree.links.filter((l) => links.has(l.id))]);
  let previous = group.position;
  const top = inOrder(level(tree, null, groupId));
  const next = top.find((i) => i.position > group.position)?.position ?? null;
  await ctx.db.transaction().execute(async (trx) => {
    for (const section of members) {
      const placed = positionAmong([{ id: 'lower', position: previous }, ...(next ? [{ id: 'upper', position: next }] : [])], { after: 'lower' });
      if ('error' in placed) throw new Error(placed.error);
      previous = placed.position;
      if (links.has(section.id)) await updateExternalLink(trx, section.id, { group_id: null, position: placed.position });
      else await updateSection(trx, section.id, { group_id: null, position: placed.position });
    }
    await deleteGroup(trx, groupId);
    await structureChanged(trx, ctx, loaded.site, 'section_group_deleted', { sectionGroupId: groupId });
  });
}

export async function addSectionToGroup(ctx: AppContext, caller: Caller, organizationId: string, siteId: string, groupId: string, sectionId: string) {
  const loaded = await loadSite(ctx, caller, organizationId, siteId, 'manage', 'Adding a section to a group');
  const tree = await readTree(ctx.db, loaded.site);
  const group = groupOf(tree, groupId);
  const section = sectionOf(tree, sectionId, 'body/sectionId');
  if (section.group_id !== group.id) {
    await ctx.db.transaction().execute(async (trx) => {
      await updateSection(trx, section.id, { group_id: group.id, position: endOf(tree, group.id, section.id) });
      await structureChanged(trx, ctx, loaded.site, 'section_moved', { sectionId, sectionGroupId: groupId });
    });
  }
  return (await presentAfter(ctx, loaded)).groups.get(group.id)!;
}

/** Takes a section out of a group, to the top level right after the group; nothing to do is fine too. */
export async function removeSectionFromGroup(ctx: AppContext, caller: Caller, organizationId: string, siteId: string, groupId: string, sectionId: string): Promise<void> {
  const loaded = await loadSiteForDelete(ctx, caller, organizationId, siteId, 'Removing a section from a group');
  if (!loaded) return;
  const tree = await readTree(ctx.db, loaded.site);
  const section = tree.sections.find((s) => s.id === sectionId);
  if (!section || section.group_id !== groupId) return;
  const placed = positionAmong(level(tree, null), { after: groupId });
  if ('error' in placed) return;
  await ctx.db.transaction().execute(async (trx) => {
    await updateSection(trx, section.id, { group_id: null, position: placed.position });
    await structureChanged(trx, ctx, loaded.site, 'section_moved', { sectionId });
  });
}

async function placeGroup(ctx: AppContext, loaded: LoadedSite, tree: SiteTree, group: GroupRow, target: { before?: string | undefined; after?: string | undefined }, field: string) {
  if ((target.before ?? target.after) === group.id) throw badRequest(`${field}: a section group cannot move next to itself`);
  const placed = positionAmong(level(tree, null, group.id), target);
  if ('error' in placed) throw badRequest(`${field} ${placed.error}`);
  await ctx.db.transaction().execute(async (trx) => {
    await updateGroup(trx, group.id, { position: placed.position });
    await structureChanged(trx, ctx, loaded.site, 'section_group_moved', { sectionGroupId: group.id });
  });
  return (await presentAfter(ctx, loaded)).groups.get(group.id)!;
}

export async function moveSectionGroup(
  ctx: AppContext,
  caller: Caller,
  organizationId: string,
  siteId: string,
  groupId: string,
  position: { before?: { id: string } | undefined; after?: { id: string } | undefined } | undefined,
) {
  const loaded = await loadSite(ctx, caller, organizationId, siteId, 'manage', 'Moving a section group');
  const tree = await readTree(ctx.db, loaded.site);
  const group = groupOf(tree, groupId);
  return placeGroup(ctx, loaded, tree, group, { before: position?.before?.id, after: position?.after?.id }, 'body/position');
}

/**
 * sortSiteStructure: moves a site-space, section or group before or after another item of the structure
 * (or to the end of its level when the position names none). A site-space moves among site-spaces, a section
 * next to a section or a group, a group among the top-level items.
 */
export async function sortSiteStructure(ctx: AppContext, caller: Caller, organizationId: string, siteId: string, body: Static<typeof SortStructureBody>) {
  const { item, position } = body;
  if (position.before && position.after) throw badRequest('body/position must name either before or after, not both');
  const ref = position.before ?? position.after;
  const side = position.before ? 'before' : 'after';
  if (item.type === 'site-space') {
    if (ref && ref.type !== 'site-space') throw badRequest('body/position: a site-space moves next to another site-space');
    return moveSiteSpaceTo(ctx, caller, organizationId, siteId, item.id, ref ? { [side]: ref.id } : {});
  }
  const loaded = await loadSite(ctx, caller, organizationId, siteId, 'manage', 'Sorting the structure of a site');
  const tree = await readTree(ctx.db, loaded.site);
  if (ref && ref.type === 'site-space') throw badRequest(`body/position: a ${item.type} moves next to a section or a section group`);
  if (item.type === 'site-section') {
    const section = sectionOf(tree, item.id, 'body/item');
    return placeSection(ctx, loaded, tree, section, ref ? { id: ref.id, kind: ref.type === 'site-section' ? 'section' : 'group' } : undefined, side, 'body/position');
  }
  const group = tree.groups.find((g) => g.id === item.id);
  if (!group) throw badRequest(`body/item: no section group ${item.id} in this site`);
  if (ref?.type === 'site-section' && sectionOf(tree, ref.id, 'body/position').group_id !== null) {
    throw badRequest('body/position: a section group moves among the top-level items of the site');
  }
  return placeGroup(ctx, loaded, tree, group, ref ? { [side]: ref.id } : {}, 'body/position');
}
