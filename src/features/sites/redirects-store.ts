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

export async function findSiteRedirectBySource(db: Executor, siteId: string, source: string): Promise<SiteRedirectRow | undefined> {
  return db.selectFrom('site_redirects').selectAll().where('site_id', '=', siteId).where('source', '=', source).executeTakeFirst();
}

export async function updateSiteRedirect(db: Executor, id: string, changes: Partial<SiteRedirectRow>): Promise<void> {
  await db.updateTable('site_redirects').set(changes).where('id', '=', id).execute();
}

export async function deleteSiteRedirect(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('site_redirects').where('id', '=', id).execute();
}

/** `search`: redirects whose source contains it, in any case. */
function filtered(db: Executor, siteId: string, search: string | undefined) {
  let q = db.selectFrom('site_redirects').where('site_id', '=', siteId);
  if (search) q = q.where(sql<boolean>`lower(source) like ${containsPattern(search)} escape '\\'`);
  return q;
}

export async function listSiteRedirects(db: Executor, siteId: string, search: string | undefined, page: PageRequest): Promise<SiteRedirectRow[]> {
  return keysetPage(filtered(db, siteId, search).selectAll(), ['created_at', 'id'], 'asc', page).execute();
}

export async function countSiteRedirects(db: Executor, siteId: string, search: string | undefined): Promise<number> {
  const row = await filtered(db, siteId, search).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}
