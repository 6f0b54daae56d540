import { randomBytes } from 'node:crypto';
import type { Static } from 'typebox';
import type { Executor } from '../../db/types.ts';
import { isUniqueViolation } from '../../db/dialect.ts';
import type { AppContext, Caller } from '../../platform/context.ts';
import { badRequest, conflict, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { isoNow } from '../../platform/clock.ts';
import { recordEvent } from '../../platform/events.ts';
import { recordAudit } from '../audit/record.ts';
import { announcePublication } from '../../platform/publications.ts';
import { isInstallationAccess, type OrgAccess } from '../access/service.ts';
import { highest, isRole, type Role } from '../access/roles.ts';
import { loadVisibleOrganization } from '../organizations/service.ts';
import { resolveCustomizationFonts } from '../fonts/service.ts';
import { loadSpace, presentSpacesFor } from '../spaces/service.ts';
import { checkAdaptiveSchema, defaultAdaptiveSchema, templateConditions } from '../adaptive/schema.ts';
import { checkCustomization, defaultCustomization, withCurrentFields, type CustomizationValue } from './customization-schema.ts';
import { applyOverride, overrideOf } from './customization-override.ts';
import { authorizeSite, authorizeSiteCreation, standingOf, type SiteAction, type SiteStanding } from './policy.ts';
import { presentSite, presentTree, type SiteTree } from './present.ts';
import type { CreateSiteBody, ListSitesQuery, UpdateSiteBody } from './schemas.ts';
import { checkPath, effectiveDefault, inOrder, pathFromTitle, uniquePath } from './structure.ts';
import {
  countSites,
  deleteSite,
  findShareLinkByKey,
  findSite,
  findSiteByHostname,
  externalLinksOfSite,
  groupsOfSite,
  insertSite,
  insertSiteSpace,
  listSites,
  markDefaultSection,
  markDefaultSiteSpace,
  sectionsOfSite,
  siteSpaceCounts,
  siteSpacesOfSite,
  spacesOfSites,
  updateSite,
  type SiteRow,
  type SiteSpaceRow,
} from './store.ts';
import { positionAtEnd } from '../placement/positions.ts';
import { listSiteGrantsReachingUsers } from './site-grants-store.ts';

/** The private key that signs a site's visitor tokens (see publishing-auth.ts). */
export function newSigningSecret(): string {
  return randomBytes(32).toString('base64url');
}

export interface LoadedSite {
  site: SiteRow;
  access: OrgAccess;
  standing: SiteStanding;
}

/** Whether the caller can read at least one space published by each of the given sites. */
async function sitesWithReadableSpace(ctx: AppContext, access: OrgAccess, siteIds?: string[]): Promise<Set<string>> {
  // An integration installation sees the sites it is installed on, whatever they publish.
  if (isInstallationAccess(access)) {
    const ids = siteIds ?? (await spacesOfSites(ctx.db, access.organizationId)).map((row) => row.site_id);
    return new Set(ids.filter((id) => access.reachesSite(id)));
  }
  const rows = await spacesOfSites(ctx.db, access.organizationId, siteIds);
  const readable = new Set<string>();
  const roleOf = new Map<string, Promise<unknown>>();
  for (const row of rows) {
    if (readable.has(row.site_id)) continue;
    if (!roleOf.has(row.id)) roleOf.set(row.id, access.roleOn(row));
    if (await roleOf.get(row.id)) readable.add(row.site_id);
  }
  return readable;
}

/**
 * The ids of the organization's sites the caller can see, or undefined when they see every one (its admins): the
 * sites whose spaces they read and those given to them (or to a team of theirs). What other features filter
 * site-level records by (features/integrations lists installations on sites).
 */
export async function visibleSiteIds(ctx: AppContext, access: OrgAccess): Promise<string[] | undefined> {
  if (access.orgRole === 'admin') return undefined;
  return [...new Set([...(await sitesWithReadableSpace(ctx, access)), ...(await siteRolesGranted(ctx, access)).keys()])];
}

/**
 * The highest role given on each of these sites (every site of the organization when absent) to the caller or
 * to a team of theirs. An installation holds no site grants: it reaches the sites it is installed on.
 */
async function siteRolesGranted(ctx: AppContext, access: OrgAccess, siteIds?: string[]): Promise<Map<string, Role>> {
  if (!access.isMember || access.userId === null || isInstallationAccess(access)) return new Map();
  const rows = await listSiteGrantsReachingUsers(ctx.db, access.organizationId, [access.userId], siteIds);
  const roles = new Map<string, Role>();
  for (const row of rows) if (isRole(row.role)) roles.set(row.site_id, highest(roles.get(row.site_id), row.role)!);
  return roles;
}

/** A site of the organization the caller can see, authorized for `action`; 404 / 403 otherwise. */
export async function loadSite(ctx: AppContext, caller: Caller, organizationId: string, siteId: string, action: SiteAction, what = 'This'): Promise<LoadedSite> {
  const { access } = await loadVisibleOrganization(ctx, caller, organizationId);
  const site = await findSite(ctx.db, siteId);
  // A site's read token (urls/read-token.ts) reaches its own site only, whatever spaces another one shares with it.
  if (!site || site.organization_id !== organizationId || (caller.kind === 'site-reader' && caller.siteId !== site.id)) throw notFound(`No site ${siteId}`);
  const orgAdmin = access.orgRole === 'admin';
  const [readable, granted] = orgAdmin ? [new Set([site.id]), new Map<string, Role>()] : await Promise.all([sitesWithReadableSpace(ctx, access, [site.id]), siteRolesGranted(ctx, access, [site.id])]);
  const standing = standingOf(access, readable.has(site.id), granted.get(site.id) ?? null);
  authorizeSite(standing, action, siteId, what);
  return { site, access, standing };
}

/** Like loadSite for a DELETE: what the caller cannot see is, for them, already gone (answers undefined). */
export async function loadSiteForDelete(ctx: AppContext, caller: Caller, organizationId: string, siteId: string, what: string): Promise<LoadedSite | undefined> {
  let loaded: LoadedSite;
  try {
    loaded = await loadSite(ctx, caller, organizationId, siteId, 'view');
  } catch {
    return undefined;
  }
  authorizeSite(loaded.standing, 'manage', siteId, what);
  return loaded;
}

export async function readTree(db: Executor, site: SiteRow): Promise<SiteTree> {
  const [sections, groups, links, siteSpaces] = await Promise.all([sectionsOfSite(db, site.id), groupsOfSite(db, site.id), externalLinksOfSite(db, site.id), siteSpacesOfSite(db, site.id)]);
  return { site, sections, groups, links, siteSpaces };
}

/** The API objects of the site's structure as the caller sees them (see present.ts). */
export async function presentTreeFor(ctx: AppContext, access: OrgAccess, tree: SiteTree, shareKey?: string) {
  const spaces = await presentSpacesFor(ctx, access, tree.siteSpaces.map((ss) => ss.space));
  return presentTree(ctx.config, tree, (row) => spaces.get(row.space_id)!, shareKey);
}

async function presentOne(ctx: AppContext, site: SiteRow) {
  const counts = await siteSpaceCounts(ctx.db, [site.id]);
  return presentSite(ctx.config, site, counts.get(site.id) ?? 0);
}

/** The space a site-space may point to: one of the site's organization, not in the trash; 400 otherwise. */
export async function spaceForSite(ctx: AppContext, caller: Caller, site: SiteRow, spaceId: string, field: string) {
  try {
    const { space } = await loadSpace(ctx, caller, spaceId);
    if (space.organization_id === site.organization_id) return space;
  } catch {
    // Answered below like a space that does not exist.
  }
  throw badRequest(`${field}: no space ${spaceId} in this organization`);
}

/** A new site-space row at the end of its siblings; the first one of its siblings is their default. */
export function newSiteSpaceRow(ctx: AppContext, site: SiteRow, sectionId: string | null, space: { id: string; title: string }, siblings: SiteSpaceRow[]): SiteSpaceRow {
  const ordered = inOrder(siblings);
  return {
    id: newId(),
    site_id: site.id,
    section_id: sectionId,
    space_id: space.id,
    path: uniquePath(pathFromTitle(space.title, 'space'), siblings.map((s) => s.path)),
    condition: null,
    is_default: siblings.length === 0 ? 1 : 0,
    position: positionAtEnd(ordered.map((s) => s.position)),
    created_at: isoNow(ctx.clock),
    customization: null,
  };
}

export async function structureChanged(db: Executor, ctx: AppContext, site: SiteRow, change: string, details: Record<string, unknown> = {}) {
  await recordEvent(db, ctx.clock, 'site_structure_updated', site.organization_id, { siteId: site.id, change, ...details });
}

export async function createSite(ctx: AppContext, caller: Caller, organizationId: string, body: Static<typeof CreateSiteBody>) {
  const { access } = await loadVisibleOrganization(ctx, caller, organizationId);
  authorizeSiteCreation(access);
  const now = isoNow(ctx.clock);
  const row: SiteRow = {
    id: newId(),
    organization_id: organizationId,
    type: body.type ?? 'basic',
    title: body.title?.trim() || 'Untitled site',
    visibility: body.visibility ?? 'public',
    basename: null,
    hostname: null,
    hostname_status: null,
    hostname_checked_at: null,
    proxy_origin: null,
    published: 0,
    adaptive_content: 0,
    agents_context: 'included',
    customization: null,
    adaptive_schema: null,
    adaptive_schema_updated_at: null,
    visitor_auth_secret: newSigningSecret(),
    visitor_auth_jwks_url: null,
    visitor_auth_fallback_url: null,
    agent_settings: null,
    agent_settings_updated_at: null,
    agent_settings_updated_by: null,
    created_at: now,
    updated_at: now,
  };
  if (row.title.length < 2) throw badRequest('body/title must NOT have fewer than 2 characters');
  const spaces: Awaited<ReturnType<typeof spaceForSite>>[] = [];
  for (const [i, spaceId] of [...new Set(body.spaces ?? [])].entries()) spaces.push(await spaceForSite(ctx, caller, row, spaceId, `body/spaces/${i}`));
  await ctx.db.transaction().execute(async (trx) => {
    await insertSite(trx, row);
    const added: SiteSpaceRow[] = [];
    for (const space of spaces) {
      const siteSpace = newSiteSpaceRow(ctx, row, null, space, added);
      await insertSiteSpace(trx, siteSpace);
      added.push(siteSpace);
    }
    await recordEvent(trx, ctx.clock, 'site_created', organizationId, { siteId: row.id });
  });
  return presentOne(ctx, row);
}

export async function getSite(ctx: AppContext, caller: Caller, organizationId: string, siteId: string) {
  const { site } = await loadSite(ctx, caller, organizationId, siteId, 'view');
  return presentOne(ctx, site);
}

export async function listSitesOfOrganization(ctx: AppContext, caller: Caller, organizationId: string, query: Static<typeof ListSitesQuery>) {
  const { access } = await loadVisibleOrganization(ctx, caller, organizationId);
  const onlyIds = await visibleSiteIds(ctx, access);
  const filter = { organizationId, onlyIds, spaceId: query.space, title: query.title, published: query.published, types: query.type };
  const listKey = `sites:${organizationId}:${JSON.stringify([query.space, query.title, query.published, query.type])}`;
  const page = ctx.cursors.open(listKey, query, ctx.config.defaultPageSize);
  const [rows, count] = await Promise.all([listSites(ctx.db, filter, page), countSites(ctx.db, filter)]);
  const counts = await siteSpaceCounts(ctx.db, rows.map((r) => r.id));
  return ctx.cursors.close(listKey, page, rows, count, (r) => [r.created_at, r.id], (r) => presentSite(ctx.config, r, counts.get(r.id) ?? 0));
}

export async function updateSiteSettings(ctx: AppContext, caller: Caller, organizationId: string, siteId: string, body: Static<typeof UpdateSiteBody>) {
  const { site } = await loadSite(ctx, caller, organizationId, siteId, 'manage', 'Updating a site');
  const changes: Partial<SiteRow> = {};
  if (body.title !== undefined) changes.title = body.title;
  if (body.visibility !== undefined) changes.visibility = body.visibility;
  if (body.basename !== undefined) {
    const problem = checkPath(body.basename);
    if (problem) throw badRequest(`body/basename ${problem}`);
    changes.basename = body.basename;
  }
  if (body.adaptiveContent !== undefined) changes.adaptive_content = body.adaptiveContent.enabled ? 1 : 0;
  if (body.agentsContext !== undefined) changes.agents_context = body.agentsContext;
  if (body.proxy !== undefined) changes.proxy_origin = body.proxy;
  if (body.hostname !== undefined && body.hostname !== site.hostname) {
    if (body.hostname !== null) {
      if (body.hostname === new URL(ctx.config.publicUrl).hostname) throw badRequest(`body/hostname: "${body.hostname}" is this server's own host (PUBLIC_URL)`);
      if (await findSiteByHostname(ctx.db, body.hostname)) throw conflict(`body/hostname: "${body.hostname}" is already the hostname of another site`);
    }
    changes.hostname = body.hostname;
    // A new name's DNS has not been checked yet (dnsRevalidateCustomHostname).
    changes.hostname_status = null;
    changes.hostname_checked_at = null;
  }
  const tree = body.defaultSiteSpace !== undefined || body.defaultSiteSection !== undefined ? await readTree(ctx.db, site) : undefined;
  let defaultSection: string | undefined;
  if (tree && body.defaultSiteSection !== undefined) {
    if (!tree.sections.some((s) => s.id === body.defaultSiteSection)) throw badRequest(`body/defaultSiteSection: no section ${body.defaultSiteSection} in this site`);
    defaultSection = body.defaultSiteSection;
  }
  let defaultSiteSpace: SiteSpaceRow | undefined;
  if (tree && body.defaultSiteSpace !== undefined) {
    defaultSiteSpace = tree.siteSpaces.find((ss) => ss.id === body.defaultSiteSpace);
    if (!defaultSiteSpace) throw badRequest(`body/defaultSiteSpace: no site-space ${body.defaultSiteSpace} in this site`);
    // In a site with sections, the root default is the default section's default.
    const rootSection = tree.sections.length > 0 ? (defaultSection ?? effectiveDefault(flatSectionOrder(tree))) : null;
    if (defaultSiteSpace.section_id !== (rootSection ?? null)) {
      throw badRequest(`body/defaultSiteSpace: site-space ${body.defaultSiteSpace} is not in the default section`);
    }
  }
  changes.updated_at = isoNow(ctx.clock);
  try {
    await ctx.db.transaction().execute(async (trx) => {
      await updateSite(trx, site.id, changes);
      if (defaultSection) await markDefaultSection(trx, site.id, defaultSection);
      if (defaultSiteSpace) await markDefaultSiteSpace(trx, site.id, defaultSiteSpace.section_id, defaultSiteSpace.id);
      await recordEvent(trx, ctx.clock, 'site_updated', site.organization_id, { siteId: site.id, fields: Object.keys(body) });
      if (changes.visibility !== undefined && changes.visibility !== site.visibility) {
        await recordAudit(ctx, trx, site.organization_id, caller, {
          action: 'site.visibility_changed',
          target: { type: 'site', id: site.id, label: site.title },
          details: { visibility: { from: site.visibility, to: changes.visibility } },
        });
      }
      if (defaultSection || defaultSiteSpace) await structureChanged(trx, ctx, site, 'defaults');
    });
  } catch (error) {
    if (isUniqueViolation(error)) {
      if (changes.hostname && (await findSiteByHostname(ctx.db, changes.hostname))) throw conflict(`body/hostname: "${changes.hostname}" is already the hostname of another site`);
      throw conflict(`body/basename: "${body.basename}" is already the basename of another site`);
    }
    throw error;
  }
  return presentOne(ctx, { ...site, ...changes });
}

/** Sections in the order a reader meets them (top level, a group's sections in place of the group). */
export function flatSectionOrder(tree: Pick<SiteTree, 'sections' | 'groups'>) {
  const top = inOrder<{ id: string; position: string }>([...tree.sections.filter((s) => s.group_id === null), ...tree.groups]);
  return top.flatMap((item) => {
    const section = tree.sections.find((s) => s.id === item.id);
    return section ? [section] : inOrder(tree.sections.filter((s) => s.group_id === item.id));
  });
}

export async function deleteSiteById(ctx: AppContext, caller: Caller, organizationId: string, siteId: string): Promise<void> {
  const loaded = await loadSiteForDelete(ctx, caller, organizationId, siteId, 'Deleting a site');
  if (!loaded) return;
  await ctx.db.transaction().execute(async (trx) => {
    await deleteSite(trx, siteId);
    await recordEvent(trx, ctx.clock, 'site_deleted', organizationId, { siteId });
  });
}

export async function setPublished(ctx: AppContext, caller: Caller, organizationId: string, siteId: string, published: boolean) {
  const { site } = await loadSite(ctx, caller, organizationId, siteId, 'manage', published ? 'Publishing a site' : 'Unpublishing a site');
  const changes = { published: published ? 1 : 0, updated_at: isoNow(ctx.clock) };
  await ctx.db.transaction().execute(async (trx) => {
    await updateSite(trx, site.id, changes);
    await recordEvent(trx, ctx.clock, published ? 'site_published' : 'site_unpublished', organizationId, { siteId: site.id });
    if (site.published !== changes.published) {
      await recordAudit(ctx, trx, organizationId, caller, { action: 'site.visibility_changed', target: { type: 'site', id: site.id, label: site.title }, details: { published } });
    }
  });
  if (published) announcePublication(ctx.db, { kind: 'site', organizationId, siteId: site.id });
  return presentOne(ctx, { ...site, ...changes });
}

/**
 * Tells the reader that a published site now shows `space` (a site-space added, or pointed at another space), so
 * that its code is highlighted ahead of readers as a publication's is. Call it once the transaction committed.
 */
export function announceSpaceShown(ctx: AppContext, site: SiteRow, space: { id: string; revision_id: string }): void {
  if (site.published === 1) announcePublication(ctx.db, { kind: 'space', organizationId: site.organization_id, spaceId: space.id, revisionId: space.revision_id });
}

/** Up to `limit` published sites that publish this space: for work done ahead of their readers (no caller). */
export async function publishedSitesOfSpace(ctx: AppContext, organizationId: string, spaceId: string, limit: number): Promise<SiteRow[]> {
  return listSites(ctx.db, { organizationId, spaceId, published: true }, { after: undefined, limit });
}

/** A share key given to resolve published URLs must be an active link of this site. */
export async function checkShareKey(ctx: AppContext, site: SiteRow, shareKey: string | undefined): Promise<string | undefined> {
  if (shareKey === undefined || shareKey === '') return undefined;
  const link = await findShareLinkByKey(ctx.db, site.id, shareKey);
  if (!link || link.active !== 1) throw badRequest('querystring/shareKey is not the key of an active share link of this site');
  return shareKey;
}

/** A site's customization: what was saved, else the defaults (the reader shows the same). */
export function customizationOf(site: SiteRow): CustomizationValue {
  return withCurrentFields(site.customization ? JSON.parse(site.customization) : defaultCustomization({ title: site.title }));
}

export async function getPublishedContent(ctx: AppContext, caller: Caller, organizationId: string, siteId: string, shareKey: string | undefined) {
  const { site, access } = await loadSite(ctx, caller, organizationId, siteId, 'view');
  const key = await checkShareKey(ctx, site, shareKey);
  const tree = await readTree(ctx.db, site);
  const presented = await presentTreeFor(ctx, access, tree, key);
  const customization = customizationOf(site);
  return {
    object: 'published-content-site' as const,
    site: await presentOne(ctx, site),
    structure: presented.structure,
    // Each site-space shows the site's customization, with its own override over it when it has one.
    customizations: { site: customization, siteSpaces: Object.fromEntries(tree.siteSpaces.map((ss) => [ss.id, applyOverride(customization, overrideOf(ss))])) },
    scripts: [],
  };
}

/** getSiteStructure: the site's sections, groups and site-spaces as the caller sees them (URLs with the share key). */
export async function getStructure(ctx: AppContext, caller: Caller, organizationId: string, siteId: string, shareKey: string | undefined) {
  const { site, access } = await loadSite(ctx, caller, organizationId, siteId, 'view');
  const key = await checkShareKey(ctx, site, shareKey);
  return (await presentTreeFor(ctx, access, await readTree(ctx.db, site), key)).structure;
}

export async function getCustomization(ctx: AppContext, caller: Caller, organizationId: string, siteId: string) {
  const { site } = await loadSite(ctx, caller, organizationId, siteId, 'view');
  return customizationOf(site);
}

export async function putCustomization(ctx: AppContext, caller: Caller, organizationId: string, siteId: string, body: CustomizationValue) {
  const { site } = await loadSite(ctx, caller, organizationId, siteId, 'manage', 'Customizing a site');
  const checked = checkCustomization(body, 'body');
  if (!checked.ok) throw badRequest(checked.message);
  const customization = { ...body, styling: await resolveCustomizationFonts(ctx, site.organization_id, body.styling, 'body/styling') };
  await ctx.db.transaction().execute(async (trx) => {
    await updateSite(trx, site.id, { customization: JSON.stringify(customization), updated_at: isoNow(ctx.clock) });
    await recordEvent(trx, ctx.clock, 'site_customization_updated', organizationId, { siteId: site.id });
  });
  return customization;
}

function adaptiveSchemaOf(site: SiteRow) {
  return {
    object: 'site-adaptive-schema' as const,
    jsonSchema: site.adaptive_schema ? JSON.parse(site.adaptive_schema) : defaultAdaptiveSchema(),
    updatedAt: site.adaptive_schema_updated_at ?? site.created_at,
  };
}

export async function getAdaptiveSchema(ctx: AppContext, caller: Caller, organizationId: string, siteId: string) {
  const { site } = await loadSite(ctx, caller, organizationId, siteId, 'view');
  return adaptiveSchemaOf(site);
}

export async function putAdaptiveSchema(ctx: AppContext, caller: Caller, organizationId: string, siteId: string, jsonSchema: unknown) {
  const { site } = await loadSite(ctx, caller, organizationId, siteId, 'manage', 'Changing the adaptive schema of a site');
  const checked = checkAdaptiveSchema(jsonSchema, 'body/jsonSchema');
  if (!checked.ok) throw badRequest(checked.message);
  const changes = { adaptive_schema: JSON.stringify(jsonSchema), adaptive_schema_updated_at: isoNow(ctx.clock), updated_at: isoNow(ctx.clock) };
  await ctx.db.transaction().execute(async (trx) => {
    await updateSite(trx, site.id, changes);
    await recordEvent(trx, ctx.clock, 'site_adaptive_schema_updated', organizationId, { siteId: site.id });
  });
  return adaptiveSchemaOf({ ...site, ...changes });
}

export async function listTemplateConditions(ctx: AppContext, caller: Caller, organizationId: string, siteId: string) {
  const { site } = await loadSite(ctx, caller, organizationId, siteId, 'view');
  return { items: templateConditions(adaptiveSchemaOf(site).jsonSchema) };
}

/**
 * One page of a site's site-spaces, sections or groups, in the order of the structure. A site's structure is
 * small and is read whole to present anything of it, so a page is a slice of that order. The cursor holds
 * the last item's id (and index, used only if that item has been removed since): each page costs the same.
 */
export function pageOfStructure<T extends { id: string }>(ctx: AppContext, listKey: string, query: { page?: string | undefined; limit?: number | undefined }, ordered: readonly T[]) {
  const page = ctx.cursors.open(listKey, query, ctx.config.defaultPageSize);
  let start = 0;
  if (page.after) {
    const [index, id] = page.after;
    const found = ordered.findIndex((item) => item.id === id);
    start = found >= 0 ? found + 1 : Number(index) + 1;
  }
  const indexOf = new Map(ordered.map((item, i) => [item.id, i]));
  const rows = ordered.slice(start, start + page.limit + 1);
  return ctx.cursors.close(listKey, page, rows, ordered.length, (item) => [indexOf.get(item.id) ?? 0, item.id], (item) => item);
}
