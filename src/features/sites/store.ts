import type { Executor, SiteSectionGroupsTable, SiteSectionsTable, SiteShareLinksTable, SitesTable, SiteSpacesTable, SpacesTable, SiteExternalLinksTable } from '../../db/types.ts';
import { keysetPage } from '../../db/keyset.ts';
import type { PageRequest } from '../../platform/pagination.ts';

export type SiteRow = SitesTable;
export type SectionRow = SiteSectionsTable;
export type GroupRow = SiteSectionGroupsTable;
export type ExternalLinkRow = SiteExternalLinksTable;
export type SiteSpaceRow = SiteSpacesTable;
export type ShareLinkRow = SiteShareLinksTable;
/** A site-space with the space it points to. */
export type SiteSpaceWithSpace = SiteSpaceRow & { space: SpacesTable };

// --- Sites

export async function findSite(db: Executor, id: string): Promise<SiteRow | undefined> {
  return db.selectFrom('sites').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The organization a site belongs to; undefined when there is no such site. */
export async function organizationOfSite(db: Executor, siteId: string): Promise<string | undefined> {
  return (await db.selectFrom('sites').select('organization_id').where('id', '=', siteId).executeTakeFirst())?.organization_id;
}

export async function findSiteByBasename(db: Executor, basename: string): Promise<SiteRow | undefined> {
  return db.selectFrom('sites').selectAll().where('basename', '=', basename).executeTakeFirst();
}

export async function findSiteByHostname(db: Executor, hostname: string): Promise<SiteRow | undefined> {
  return db.selectFrom('sites').selectAll().where('hostname', '=', hostname).executeTakeFirst();
}

export async function insertSite(db: Executor, row: SiteRow): Promise<void> {
  await db.insertInto('sites').values(row).execute();
}

export async function updateSite(db: Executor, id: string, changes: Partial<SiteRow>): Promise<void> {
  await db.updateTable('sites').set(changes).where('id', '=', id).execute();
}

export async function deleteSite(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('sites').where('id', '=', id).execute();
}

export interface SiteFilter {
  organizationId: string;
  /** Only these sites (what a non-admin may see); undefined: all. */
  onlyIds?: string[] | undefined;
  spaceId?: string | undefined;
  title?: string | undefined;
  published?: boolean | undefined;
  types?: string[] | undefined;
}

function filteredSites(db: Executor, filter: SiteFilter) {
  let q = db.selectFrom('sites').where('organization_id', '=', filter.organizationId);
  if (filter.onlyIds) q = filter.onlyIds.length > 0 ? q.where('id', 'in', filter.onlyIds) : q.where(({ lit }) => lit(false));
  if (filter.published !== undefined) q = q.where('published', '=', filter.published ? 1 : 0);
  if (filter.types && filter.types.length > 0) q = q.where('type', 'in', filter.types);
  if (filter.title) {
    const needle = `%${filter.title.toLowerCase().replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
    q = q.where((eb) => eb(eb.fn('lower', ['title']), 'like', eb.val(needle)));
  }
  if (filter.spaceId) {
    const spaceId = filter.spaceId;
    q = q.where((eb) => eb.exists(eb.selectFrom('site_spaces').select('site_spaces.id').whereRef('site_spaces.site_id', '=', 'sites.id').where('site_spaces.space_id', '=', spaceId)));
  }
  return q;
}

/** Sites in creation order. */
export async function listSites(db: Executor, filter: SiteFilter, page: PageRequest): Promise<SiteRow[]> {
  return keysetPage(filteredSites(db, filter).selectAll(), ['created_at', 'id'], 'asc', page).execute();
}

export async function countSites(db: Executor, filter: SiteFilter): Promise<number> {
  const row = await filteredSites(db, filter).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The spaces each site publishes (not in the trash), for deciding who may see which site. */
export async function spacesOfSites(db: Executor, organizationId: string, siteIds?: string[]) {
  let q = db
    .selectFrom('site_spaces')
    .innerJoin('sites', 'sites.id', 'site_spaces.site_id')
    .innerJoin('spaces', 'spaces.id', 'site_spaces.space_id')
    .select(['site_spaces.site_id', 'spaces.id', 'spaces.default_level', 'spaces.parent_id'])
    .where('sites.organization_id', '=', organizationId)
    .where('spaces.deleted_at', 'is', null);
  if (siteIds) q = q.where('site_spaces.site_id', 'in', siteIds);
  return q.execute();
}

/** How many visible site-spaces each site has, for a whole page of sites in one query. */
export async function siteSpaceCounts(db: Executor, siteIds: readonly string[]): Promise<Map<string, number>> {
  if (siteIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('site_spaces')
    .innerJoin('spaces', 'spaces.id', 'site_spaces.space_id')
    .select(['site_spaces.site_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('site_spaces.site_id', 'in', siteIds)
    .where('spaces.deleted_at', 'is', null)
    .groupBy('site_spaces.site_id')
    .execute();
  return new Map(rows.map((r) => [r.site_id, Number(r.n)]));
}

// --- Structure (a site's sections, groups and site-spaces are few: they are read whole)

export async function sectionsOfSite(db: Executor, siteId: string): Promise<SectionRow[]> {
  return db.selectFrom('site_sections').selectAll().where('site_id', '=', siteId).orderBy('position').orderBy('id').execute();
}

export async function groupsOfSite(db: Executor, siteId: string): Promise<GroupRow[]> {
  return db.selectFrom('site_section_groups').selectAll().where('site_id', '=', siteId).orderBy('position').orderBy('id').execute();
}

const SPACE_COLUMNS = [
  'id', 'organization_id', 'parent_id', 'title', 'emoji', 'icon_url', 'visibility', 'edit_mode', 'default_level', 'language',
  'merge_rules', 'revision_id', 'position', 'created_by', 'created_at', 'updated_at', 'deleted_at', 'change_request_counter',
] as const;

/** Every site-space of a site whose space is not in the trash, with its space. */
export async function siteSpacesOfSite(db: Executor, siteId: string): Promise<SiteSpaceWithSpace[]> {
  const rows = await db
    .selectFrom('site_spaces')
    .innerJoin('spaces', 'spaces.id', 'site_spaces.space_id')
    .selectAll('site_spaces')
    .select(SPACE_COLUMNS.map((c) => `spaces.${c} as space_${c}` as const))
    .where('site_spaces.site_id', '=', siteId)
    .where('spaces.deleted_at', 'is', null)
    .orderBy('site_spaces.position')
    .orderBy('site_spaces.id')
    .execute();
  return rows.map((row) => {
    const r = row as unknown as Record<string, unknown>;
    const space = Object.fromEntries(SPACE_COLUMNS.map((c) => [c, r[`space_${c}`]])) as unknown as SpacesTable;
    const own = Object.fromEntries(Object.entries(r).filter(([k]) => !k.startsWith('space_') || k === 'space_id')) as unknown as SiteSpaceRow;
    return { ...own, space };
  });
}

export async function insertSection(db: Executor, row: SectionRow): Promise<void> {
  await db.insertInto('site_sections').values(row).execute();
}

export async function updateSection(db: Executor, id: string, changes: Partial<SectionRow>): Promise<void> {
  await db.updateTable('site_sections').set(changes).where('id', '=', id).execute();
}

export async function deleteSection(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('site_sections').where('id', '=', id).execute();
}

/** Makes `sectionId` the site's one default section. */
export async function markDefaultSection(db: Executor, siteId: string, sectionId: string): Promise<void> {
  await db.updateTable('site_sections').set({ is_default: 0 }).where('site_id', '=', siteId).where('id', '!=', sectionId).execute();
  await db.updateTable('site_sections').set({ is_default: 1 }).where('id', '=', sectionId).execute();
}

export async function insertGroup(db: Executor, row: GroupRow): Promise<void> {
  await db.insertInto('site_section_groups').values(row).execute();
}

export async function updateGroup(db: Executor, id: string, changes: Partial<GroupRow>): Promise<void> {
  await db.updateTable('site_section_groups').set(changes).where('id', '=', id).execute();
}

export async function deleteGroup(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('site_section_groups').where('id', '=', id).execute();
}

export async function externalLinksOfSite(db: Executor, siteId: string): Promise<ExternalLinkRow[]> {
  return db.selectFrom('site_external_links').selectAll().where('site_id', '=', siteId).orderBy('position').orderBy('id').execute();
}

export async function insertExternalLink(db: Executor, row: ExternalLinkRow): Promise<void> {
  await db.insertInto('site_external_links').values(row).execute();
}

export async function updateExternalLink(db: Executor, id: string, changes: Partial<ExternalLinkRow>): Promise<void> {
  await db.updateTable('site_external_links').set(changes).where('id', '=', id).execute();
}

export async function deleteExternalLink(db: Executor, siteId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('site_external_links').where('site_id', '=', siteId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function insertSiteSpace(db: Executor, row: SiteSpaceRow): Promise<void> {
  await db.insertInto('site_spaces').values(row).execute();
}

export async function updateSiteSpace(db: Executor, id: string, changes: Partial<SiteSpaceRow>): Promise<void> {
  await db.updateTable('site_spaces').set(changes).where('id', '=', id).execute();
}

export async function deleteSiteSpace(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('site_spaces').where('id', '=', id).execute();
}

/** Makes `siteSpaceId` the one default among its siblings (same section, or the site's root). */
export async function markDefaultSiteSpace(db: Executor, siteId: string, sectionId: string | null, siteSpaceId: string): Promise<void> {
  let q = db.updateTable('site_spaces').set({ is_default: 0 }).where('site_id', '=', siteId).where('id', '!=', siteSpaceId);
  q = sectionId === null ? q.where('section_id', 'is', null) : q.where('section_id', '=', sectionId);
  await q.execute();
  await db.updateTable('site_spaces').set({ is_default: 1 }).where('id', '=', siteSpaceId).execute();
}

export async function countShareLinks(db: Executor, siteId: string): Promise<number> {
  const row = await db.selectFrom('site_share_links').select((eb) => eb.fn.countAll<number>().as('n')).where('site_id', '=', siteId).executeTakeFirstOrThrow();
  return Number(row.n);
}

// --- Share links

export async function insertShareLink(db: Executor, row: ShareLinkRow): Promise<void> {
  await db.insertInto('site_share_links').values(row).execute();
}

export async function findShareLink(db: Executor, siteId: string, id: string): Promise<ShareLinkRow | undefined> {
  return db.selectFrom('site_share_links').selectAll().where('site_id', '=', siteId).where('id', '=', id).executeTakeFirst();
}

export async function findShareLinkByKey(db: Executor, siteId: string, key: string): Promise<ShareLinkRow | undefined> {
  return db.selectFrom('site_share_links').selectAll().where('share_key', '=', key).where('site_id', '=', siteId).executeTakeFirst();
}

export async function updateShareLink(db: Executor, id: string, changes: Partial<ShareLinkRow>): Promise<void> {
  await db.updateTable('site_share_links').set(changes).where('id', '=', id).execute();
}

export async function deleteShareLink(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('site_share_links').where('id', '=', id).execute();
}

export async function listShareLinks(db: Executor, siteId: string, page: PageRequest): Promise<ShareLinkRow[]> {
  return keysetPage(db.selectFrom('site_share_links').selectAll().where('site_id', '=', siteId), ['created_at', 'id'], 'asc', page).execute();
}

// --- For spaces (urls.published of a space): where a space is published

export async function publishedPlacesOfSpace(db: Executor, spaceId: string) {
  return db
    .selectFrom('site_spaces')
    .innerJoin('sites', 'sites.id', 'site_spaces.site_id')
    .select(['site_spaces.id as site_space_id', 'sites.id as site_id'])
    .where('site_spaces.space_id', '=', spaceId)
    .where('sites.published', '=', 1)
    .orderBy('sites.created_at')
    .orderBy('sites.id')
    .execute();
}
