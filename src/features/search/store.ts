import { sql, type RawBuilder } from 'kysely';
import { isPostgres } from '../../db/dialect.ts';
import type { Executor } from '../../db/types.ts';
import { fts5Match, tsqueryParts, type SearchTerms } from './terms.ts';

/**
 * The search index (table `search_sections`, migration 0008) and the one place where the two engines differ:
 * SQLite's FTS5 (bm25, snippet) and PostgreSQL's tsvector (ts_rank_cd, ts_headline). Both answer the same
 * questions with the same shapes, and the same tests run on both.
 */

export interface SectionRow {
  space_id: string;
  page_id: string;
  anchor: string;
  ordinal: number;
  title: string;
  heading: string;
  body: string;
}

export interface PageHit {
  space_id: string;
  page_id: string;
}

export interface SectionHit {
  space_id: string;
  page_id: string;
  anchor: string;
  ordinal: number;
  heading: string;
  /** The excerpt, matched words between MARK_START and MARK_END. */
  excerpt: string;
  /** Whether the heading or the body matched (not only the page title). */
  matched: boolean;
}

/** Which spaces a search reads: their ids (already checked for access by the service). */
export interface SearchScope {
  spaceIds: readonly string[];
}

/** Private-use characters delimit matches in excerpts: text can never contain them, so the presenter can escape the text and then mark. */
export const MARK_START = '\uE000';
export const MARK_END = '\uE001';

// Column weights: a match in the page title outranks one in a heading, which outranks one in the body.
const FTS5_WEIGHTS = sql`10.0, 4.0, 1.0`;
// ts_rank_cd's weights are listed {D, C, B, A}: body is C, heading B, title A.
const TS_WEIGHTS = sql`'{0.02, 0.1, 0.4, 1.0}'::float4[]`;
const HEADLINE_OPTIONS = `StartSel=${MARK_START}, StopSel=${MARK_END}, MaxWords=28, MinWords=12, ShortWord=2, MaxFragments=2, FragmentDelimiter=" … "`;

export async function deletePageSections(db: Executor, spaceId: string, pageIds: readonly string[]): Promise<void> {
  for (let i = 0; i < pageIds.length; i += 500) {
    await db.deleteFrom('search_sections').where('space_id', '=', spaceId).where('page_id', 'in', pageIds.slice(i, i + 500)).execute();
  }
}

export async function insertSections(db: Executor, rows: readonly SectionRow[]): Promise<void> {
  // Bounded batches: SQLite allows a limited number of bound values per statement.
  for (let i = 0; i < rows.length; i += 100) await db.insertInto('search_sections').values(rows.slice(i, i + 100)).execute();
}

/** A duplicated space starts with the index of the content it copies. */
export async function copySpaceSections(db: Executor, fromSpaceId: string, toSpaceId: string): Promise<void> {
  await db
    .insertInto('search_sections')
    .columns(['space_id', 'page_id', 'anchor', 'ordinal', 'title', 'heading', 'body'])
    .expression(
      db
        .selectFrom('search_sections')
        .select([sql.lit(toSpaceId).as('space_id'), 'page_id', 'anchor', 'ordinal', 'title', 'heading', 'body'])
        .where('space_id', '=', fromSpaceId),
    )
    .execute();
}

function inScope(column: RawBuilder<unknown>, scope: SearchScope) {
  return sql`${column} in (${sql.join(scope.spaceIds.map((id) => sql`${id}`))})`;
}

/**
 * Pages matching every term, best first (a page ranks by its best section), `offset`/`limit` of them; with the
 * number of matching pages. Spaces in the trash are left out here, so a delete shows at once.
 */
export async function matchingPages(db: Executor, scope: SearchScope, terms: SearchTerms, offset: number, limit: number): Promise<{ hits: PageHit[]; count: number }> {
  if (scope.spaceIds.length === 0) return { hits: [], count: 0 };
  const ranked = rankedPages(db, scope, terms);
  const rows = await sql<PageHit & { total: number }>`select space_id, page_id, count(*) over () as total from (${ranked}) r order by score desc, space_id, page_id limit ${limit} offset ${offset}`.execute(db);
  const first = rows.rows[0];
  if (first) return { hits: rows.rows.map(({ space_id, page_id }) => ({ space_id, page_id })), count: Number(first.total) };
  const counted = await sql<{ n: number }>`select count(*) as n from (${ranked}) r`.execute(db);
  return { hits: [], count: Number(counted.rows[0]?.n ?? 0) };
}

/** Spaces with matching pages, the space of the best page first, `offset`/`limit` of them, and how many. */
export async function matchingSpaces(db: Executor, scope: SearchScope, terms: SearchTerms, offset: number, limit: number): Promise<{ spaceIds: string[]; count: number }> {
  if (scope.spaceIds.length === 0) return { spaceIds: [], count: 0 };
  const ranked = rankedPages(db, scope, terms);
  const bySpace = sql`select space_id, max(score) as score from (${ranked}) r group by space_id`;
  const rows = await sql<{ space_id: string; total: number }>`select space_id, count(*) over () as total from (${bySpace}) s order by score desc, space_id limit ${limit} offset ${offset}`.execute(db);
  const first = rows.rows[0];
  if (first) return { spaceIds: rows.rows.map((r) => r.space_id), count: Number(first.total) };
  const counted = await sql<{ n: number }>`select count(*) as n from (${bySpace}) s`.execute(db);
  return { spaceIds: [], count: Number(counted.rows[0]?.n ?? 0) };
}

/** Ranked (space, page, score) rows, a higher score better on both engines. */
function rankedPages(db: Executor, scope: SearchScope, terms: SearchTerms) {
  if (isPostgres(db)) {
    // ts_rank_cd counts matches but does not weigh how much of a field matched, as bm25 does: its rank is
    // bounded (normalization 32: rank / (rank + 1)) and the title's share of the match is added (rank divided by
    // the title's length), so "Change requests" outranks "Change requests in a section" for "change requests".
    return sql`select s.space_id, s.page_id, max(ts_rank_cd(${TS_WEIGHTS}, s.tsv, q.q, 32) + ts_rank_cd('{1, 1, 1, 1}', to_tsvector('quire_search', translate(s.title, '<>', '  ')), q.q, 2)) as score
      from search_sections s join spaces sp on sp.id = s.space_id, (select ${tsquery(terms)} as q) q
      where s.tsv @@ q.q and ${inScope(sql`s.space_id`, scope)} and sp.deleted_at is null
      group by s.space_id, s.page_id`;
  }
  // bm25() is lower for better matches: negated so both engines sort by score descending. FTS5 refuses its
  // ranking functions inside an aggregate, hence the materialized step before grouping by page.
  return sql`with hits as materialized (
      select s.space_id, s.page_id, -bm25(search_fts, ${FTS5_WEIGHTS}) as score
      from search_fts join search_sections s on s.id = search_fts.rowid join spaces sp on sp.id = s.space_id
      where search_fts match ${fts5Match(terms)} and ${inScope(sql`s.space_id`, scope)} and sp.deleted_at is null)
    select space_id, page_id, max(score) as score from hits group by space_id, page_id`;
}

function tsquery(terms: SearchTerms) {
  const { words, prefix } = tsqueryParts(terms);
  const whole = sql`websearch_to_tsquery('quire_search', ${words})`;
  return prefix === null ? whole : sql`(${whole} && to_tsquery('quire_search', ${prefix}))`;
}

/** The matching sections of these pages, with their excerpts, best first within each page. */
export async function matchingSections(db: Executor, pages: readonly PageHit[], terms: SearchTerms): Promise<SectionHit[]> {
  if (pages.length === 0) return [];
  const spaceIds = [...new Set(pages.map((p) => p.space_id))];
  const pageIds = [...new Set(pages.map((p) => p.page_id))];
  const inPages = sql`s.space_id in (${sql.join(spaceIds.map((id) => sql`${id}`))}) and s.page_id in (${sql.join(pageIds.map((id) => sql`${id}`))})`;
  if (isPostgres(db)) {
    const rows = await sql<SectionHit & { hb: string }>`select s.space_id, s.page_id, s.anchor, s.ordinal, s.heading,
        ts_headline('quire_search', translate(s.body, '<>', '  '), q.q, ${HEADLINE_OPTIONS}) as excerpt,
        (to_tsvector('quire_search', translate(s.heading, '<>', '  ')) || to_tsvector('quire_search', translate(s.body, '<>', '  '))) @@ q.q as matched
      from search_sections s, (select ${tsquery(terms)} as q) q
      where s.tsv @@ q.q and ${inPages}
      order by s.space_id, s.page_id, ts_rank_cd(${TS_WEIGHTS}, s.tsv, q.q) desc, s.ordinal`.execute(db);
    return rows.rows.map((r) => ({ ...r, matched: Boolean(r.matched) }));
  }
  const rows = await sql<SectionHit & { hl: string }>`select s.space_id, s.page_id, s.anchor, s.ordinal, s.heading,
      snippet(search_fts, 2, ${MARK_START}, ${MARK_END}, ' … ', 24) as excerpt,
      highlight(search_fts, 1, ${MARK_START}, ${MARK_END}) as hl
    from search_fts join search_sections s on s.id = search_fts.rowid
    where search_fts match ${fts5Match(terms)} and ${inPages}
    order by s.space_id, s.page_id, bm25(search_fts, ${FTS5_WEIGHTS}), s.ordinal`.execute(db);
  return rows.rows.map(({ hl, ...r }) => ({ ...r, matched: hl.includes(MARK_START) || r.excerpt.includes(MARK_START) }));
}
