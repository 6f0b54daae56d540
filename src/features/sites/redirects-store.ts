import { sql } from 'kysely';
import { containsPattern } from '../../db/dialect.ts';
import type { Executor, SiteRedirectsTable } from '../../db/types.ts';
import { keysetPage } from '../../db/keyset.ts';
import type { PageRequest } from '../../platform/pagination.ts';

/* The SQL of site redirects (redirects.ts). */

export type SiteRedirectRow = SiteRedirectsTable;

export async function insertSiteRedirect(db: Executor, row: SiteRedirectRow): Promise<void> {
  await db.insertInto('site_redirects').values(row).execute();
}

export async function findSiteRedirect(db: Executor, siteId: string, id: string): Promise<SiteRedirectRow | undefined> {
  return db.selectFrom('site_redirects').selectAll().where('site_id', '=', siteId).where('id', '=', id).executeTakeFirst();
}

export async function findSiteRedirectBySource(db: Executor, siteId: string, source: string, draft = false): Promise<SiteRedirectRow | undefined> {
  return db.selectFrom('site_redirects').selectAll().where('site_id', '=', siteId).where('draft', '=', draft ? 1 : 0).where('source', '=', source).executeTakeFirst();
}

/** The live redirects of a site from any of these sources (the wildcard candidates of a path). */
export async function findLiveRedirectsBySources(db: Executor, siteId: string, sources: readonly string[]): Promise<SiteRedirectRow[]> {
  if (sources.length === 0) return [];
  return db.selectFrom('site_redirects').selectAll().where('site_id', '=', siteId).where('draft', '=', 0).where('source', 'in', sources).execute();
}

/** The redirects of a site from these sources, drafts and live ones (a bulk upsert's targets). */
export async function findRedirectsBySources(db: Executor, siteId: string, sources: readonly string[]): Promise<SiteRedirectRow[]> {
  const rows: SiteRedirectRow[] = [];
  for (let i = 0; i < sources.length; i += 500) {
    rows.push(...(await db.selectFrom('site_redirects').selectAll().where('site_id', '=', siteId).where('source', 'in', sources.slice(i, i + 500)).execute()));
  }
  return rows;
}

export async function updateSiteRedirect(db: Executor, id: string, changes: Partial<SiteRedirectRow>): Promise<void> {
  await db.updateTable('site_redirects').set(changes).where('id', '=', id).execute();
}

export async function deleteSiteRedirect(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('site_redirects').where('id', '=', id).execute();
}

/** `search`: redirects whose source contains it, in any case; drafts or live ones. */
function filtered(db: Executor, siteId: string, search: string | undefined, draft: boolean) {
  let q = db.selectFrom('site_redirects').where('site_id', '=', siteId).where('draft', '=', draft ? 1 : 0);
  if (search) q = q.where(sql<boolean>`lower(source) like ${containsPattern(search)} escape '\\'`);
  return q;
}

export async function listSiteRedirects(db: Executor, siteId: string, search: string | undefined, draft: boolean, page: PageRequest): Promise<SiteRedirectRow[]> {
  return keysetPage(filtered(db, siteId, search, draft).selectAll(), ['created_at', 'id'], 'asc', page).execute();
}

export async function countSiteRedirects(db: Executor, siteId: string, search: string | undefined, draft: boolean): Promise<number> {
  const row = await filtered(db, siteId, search, draft).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}
