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

/** A section as indexing writes it: with the hash of the text it embeds (search/sections.ts). */
export interface IndexedSection extends SectionRow {
  content_hash: string;
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
  /** Pages of these spaces left out (a site's search: hidden pages, and pages a visitor's conditions hide). */
  excludedPages?: readonly PageHit[] | undefined;
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
    const batch = pageIds.slice(i, i + 500);
    await db.deleteFrom('search_sections').where('space_id', '=', spaceId).where('page_id', 'in', batch).execute();
    // The page-level index rows go with their search_pages row (trigger of migration 0012).
    if (!isPostgres(db)) await db.deleteFrom('search_pages').where('space_id', '=', spaceId).where('page_id', 'in', batch).execute();
  }
}

export async function insertSections(db: Executor, rows: readonly IndexedSection[]): Promise<void> {
  // Bounded batches: SQLite allows a limited number of bound values per statement.
  for (let i = 0; i < rows.length; i += 100) await db.insertInto('search_sections').values(rows.slice(i, i + 100)).execute();
  if (isPostgres(db)) return;
  const bySpace = new Map<string, Set<string>>();
  for (const row of rows) bySpace.set(row.space_id, (bySpace.get(row.space_id) ?? new Set()).add(row.page_id));
  for (const [spaceId, pageIds] of bySpace) await writePageIndex(db, spaceId, sql`select value from json_each(${JSON.stringify([...pageIds])})`);
}

/**
 * SQLite: the page-level index rows of these pages (which have no row yet), made of their sections: the title
 * once, every heading, every body, and the token of their space (scopeToken).
 */
async function writePageIndex(db: Executor, spaceId: string, pageIds: RawBuilder<unknown>): Promise<void> {
  await sql`insert into search_pages (space_id, page_id) select distinct space_id, page_id from search_sections where space_id = ${spaceId} and page_id in (${pageIds})`.execute(db);
  await sql`insert into search_pages_fts (rowid, title, headings, body, scope)
    select p.id, max(s.title), group_concat(s.heading, char(10)), group_concat(s.body, char(10)), lower(hex(p.space_id)) || '0'
    from search_pages p join search_sections s on s.space_id = p.space_id and s.page_id = p.page_id
    where p.space_id = ${spaceId} and p.page_id in (${pageIds})
    group by p.id`.execute(db);
}

/** A duplicated space starts with the index of the content it copies. */
export async function copySpaceSections(db: Executor, fromSpaceId: string, toSpaceId: string): Promise<void> {
  await db
    .insertInto('search_sections')
    .columns(['space_id', 'page_id', 'anchor', 'ordinal', 'title', 'heading', 'body', 'content_hash'])
    .expression(
      db
        .selectFrom('search_sections')
        .select([sql.lit(toSpaceId).as('space_id'), 'page_id', 'anchor', 'ordinal', 'title', 'heading', 'body', 'content_hash'])
        .where('space_id', '=', fromSpaceId),
    )
    .execute();
  if (!isPostgres(db)) await writePageIndex(db, toSpaceId, sql`select page_id from search_sections where space_id = ${toSpaceId}`);
}

/**
 * The token naming a space in the page-level index's `scope` column, as migration 0012 and writePageIndex write
 * it (`lower(hex(space_id)) || '0'`): hexadecimal, so that case folding cannot merge two ids, and ending in a
 * digit, so that the porter stemmer leaves it whole.
 */
function scopeToken(spaceId: string): string {
  return `${Buffer.from(spaceId, 'utf8').toString('hex')}0`;
}

/** The spaces of a scope that are not in the trash: a deleted space leaves search at once. */
export async function liveSpaces(db: Executor, scope: SearchScope): Promise<string[]> {
  if (scope.spaceIds.length === 0) return [];
  const rows = await db.selectFrom('spaces').select('id').where('id', 'in', [...scope.spaceIds]).where('deleted_at', 'is', null).execute();
  return rows.map((r) => r.id);
}

/** Pages a search leaves out (site search: hidden pages, pages whose condition the visitor fails), as `space/page` keys. */
function excludedKeys(scope: SearchScope): string | undefined {
  return scope.excludedPages && scope.excludedPages.length > 0 ? JSON.stringify(scope.excludedPages.map((p) => `${p.space_id}/${p.page_id}`)) : undefined;
}

function notExcluded(db: Executor, space: RawBuilder<unknown>, page: RawBuilder<unknown>, keys: string | undefined) {
  if (keys === undefined) return sql`1 = 1`;
  const listed = isPostgres(db) ? sql`select jsonb_array_elements_text(cast(${keys} as jsonb))` : sql`select value from json_each(${keys})`;
  return sql`(${space} || '/' || ${page}) not in (${listed})`;
}

// Scopes of up to this many spaces are named in the FTS5 expression (the index then reads only their pages); a
// wider scope is filtered by a join.
const SCOPE_IN_MATCH = 64;

/** SQLite: the MATCH expression over the page-level index: the words in the text columns, the space(s) in `scope`. */
function pageMatch(spaceIds: readonly string[], terms: SearchTerms): string {
  const words = `{title headings body} : (${fts5Match(terms)})`;
  if (spaceIds.length > SCOPE_IN_MATCH) return words;
  return `scope : (${spaceIds.map((id) => `"${scopeToken(id)}"`).join(' OR ')}) AND ${words}`;
}

const PAGE_RANK = `bm25(10.0, 4.0, 1.0, 0.0)`;

/**
 * SQLite: how many of the best pages by the page-level index are ranked again by their best section. The
 * page-level bm25 finds candidates fast, but ranks common words poorly (FTS5 clamps the idf of a word found in
 * more than half of the pages to zero, and there are eight times fewer pages than sections); the best section
 * ranks as a person expects (relevance.test.ts), and reading the sections of this many pages is cheap.
 */
const RERANKED = 100;

/**
 * Pages matching every term, best first, `offset`/`limit` of them; with the number of matching pages.
 *
 * SQLite: a page matches when its text holds every term (page-level index, migration 0012). The first RERANKED
 * pages by page-level bm25 are then ordered by their best section (the pages whose best section holds every
 * term first), the others follow in page-level order: one total order, so pages of results never overlap.
 * With the scope named in the MATCH expression and nothing left out, FTS5 sorts by bm25 and stops at the limit
 * itself, and counts without reading a row. PostgreSQL ranks every matching page by its best section.
 */
export async function matchingPages(db: Executor, scope: SearchScope, terms: SearchTerms, offset: number, limit: number): Promise<{ hits: PageHit[]; count: number }> {
  const spaceIds = await liveSpaces(db, scope);
  if (spaceIds.length === 0) return { hits: [], count: 0 };
  const keys = excludedKeys(scope);
  if (isPostgres(db)) {
    const ranked = rankedPages(db, spaceIds, terms, keys);
    const rows = await sql<PageHit & { total: number }>`select space_id, page_id, count(*) over () as total from (${ranked}) r order by score desc, space_id, page_id limit ${limit} offset ${offset}`.execute(db);
    const first = rows.rows[0];
    if (first) return { hits: rows.rows.map(({ space_id, page_id }) => ({ space_id, page_id })), count: Number(first.total) };
    const counted = await sql<{ n: number }>`select count(*) as n from (${ranked}) r`.execute(db);
    return { hits: [], count: Number(counted.rows[0]?.n ?? 0) };
  }
  const count = countPages(db, spaceIds, terms, keys);
  if (offset >= RERANKED) return { hits: await pagesByPageRank(db, spaceIds, terms, keys, offset, limit), count: await count };
  const [candidates, tail] = await Promise.all([
    pagesByPageRank(db, spaceIds, terms, keys, 0, RERANKED),
    offset + limit > RERANKED ? pagesByPageRank(db, spaceIds, terms, keys, RERANKED, offset + limit - RERANKED) : [],
  ]);
  const head = await byBestSection(db, candidates, terms);
  return { hits: [...head, ...tail].slice(offset, offset + limit), count: await count };
}

/** SQLite: pages in page-level bm25 order, `offset`/`limit` of them. */
async function pagesByPageRank(db: Executor, spaceIds: readonly string[], terms: SearchTerms, keys: string | undefined, offset: number, limit: number): Promise<PageHit[]> {
  const match = pageMatch(spaceIds, terms);
  if (keys === undefined && spaceIds.length <= SCOPE_IN_MATCH) {
    const rows = await sql<PageHit>`select p.space_id, p.page_id
      from (select rowid, rank from search_pages_fts where search_pages_fts match ${match} and rank match ${PAGE_RANK} order by rank limit ${limit} offset ${offset}) f
      join search_pages p on p.id = f.rowid order by f.rank`.execute(db);
    return rows.rows;
  }
  const rows = await sql<PageHit>`select p.space_id, p.page_id
    from search_pages_fts join search_pages p on p.id = search_pages_fts.rowid
    where search_pages_fts match ${match} and search_pages_fts.rank match ${PAGE_RANK} and ${pageFilter(db, spaceIds, keys)}
    order by search_pages_fts.rank limit ${limit} offset ${offset}`.execute(db);
  return rows.rows;
}

async function countPages(db: Executor, spaceIds: readonly string[], terms: SearchTerms, keys: string | undefined): Promise<number> {
  const match = pageMatch(spaceIds, terms);
  const counted =
    keys === undefined && spaceIds.length <= SCOPE_IN_MATCH
      ? await sql<{ n: number }>`select count(*) as n from search_pages_fts where search_pages_fts match ${match}`.execute(db)
      : await sql<{ n: number }>`select count(*) as n from search_pages_fts join search_pages p on p.id = search_pages_fts.rowid
          where search_pages_fts match ${match} and ${pageFilter(db, spaceIds, keys)}`.execute(db);
  return Number(counted.rows[0]?.n ?? 0);
}

function pageFilter(db: Executor, spaceIds: readonly string[], keys: string | undefined) {
  return sql`p.space_id in (${sql.join(spaceIds.map((id) => sql`${id}`))}) and ${notExcluded(db, sql`p.space_id`, sql`p.page_id`, keys)}`;
}

/**
 * SQLite: these pages ordered by their best matching section (bm25 over the sections, as FTS5 weighs title,
 * heading and body), pages without a section holding every term after them, each group in the given order.
 */
async function byBestSection(db: Executor, pages: readonly PageHit[], terms: SearchTerms): Promise<PageHit[]> {
  if (pages.length === 0) return [];
  const rows = await sql<{ space_id: string; page_id: string; best: number }>`with hits as materialized (
      select rowid, bm25(search_fts, ${FTS5_WEIGHTS}) as score from search_fts
      where search_fts match ${fts5Match(terms)} and +rowid in (select s.id from search_sections s where ${inPagesOf(pages)}))
    select s.space_id, s.page_id, min(h.score) as best from hits h join search_sections s on s.id = h.rowid group by s.space_id, s.page_id`.execute(db);
  const best = new Map(rows.rows.map((r) => [`${r.space_id}/${r.page_id}`, Number(r.best)]));
  const scoreOf = (p: PageHit) => best.get(`${p.space_id}/${p.page_id}`) ?? Number.POSITIVE_INFINITY;
  return pages
    .map((page, position) => ({ page, position, score: scoreOf(page) }))
    .sort((a, b) => (a.score !== b.score ? (a.score < b.score ? -1 : 1) : a.position - b.position))
    .map((r) => r.page);
}

/** Sections of these pages (few: a page of results). */
function inPagesOf(pages: readonly PageHit[]) {
  const spaceIds = [...new Set(pages.map((p) => p.space_id))];
  const pageIds = [...new Set(pages.map((p) => p.page_id))];
  return sql`s.space_id in (${sql.join(spaceIds.map((id) => sql`${id}`))}) and s.page_id in (${sql.join(pageIds.map((id) => sql`${id}`))})`;
}

/** Spaces with matching pages, the space of the best page first, `offset`/`limit` of them, and how many. */
export async function matchingSpaces(db: Executor, scope: SearchScope, terms: SearchTerms, offset: number, limit: number): Promise<{ spaceIds: string[]; count: number }> {
  const spaceIds = await liveSpaces(db, scope);
  if (spaceIds.length === 0) return { spaceIds: [], count: 0 };
  const ranked = rankedPages(db, spaceIds, terms, excludedKeys(scope));
  const bySpace = sql`select space_id, max(score) as score from (${ranked}) r group by space_id`;
  const rows = await sql<{ space_id: string; total: number }>`select space_id, count(*) over () as total from (${bySpace}) s order by score desc, space_id limit ${limit} offset ${offset}`.execute(db);
  const first = rows.rows[0];
  if (first) return { spaceIds: rows.rows.map((r) => r.space_id), count: Number(first.total) };
  const counted = await sql<{ n: number }>`select count(*) as n from (${bySpace}) s`.execute(db);
  return { spaceIds: [], count: Number(counted.rows[0]?.n ?? 0) };
}

/** Ranked (space, page, score) rows, a higher score better on both engines (SQLite: the page-level bm25). */
function rankedPages(db: Executor, spaceIds: readonly string[], terms: SearchTerms, excluded: string | undefined) {
  if (isPostgres(db)) {
    // ts_rank_cd counts matches but does not weigh how much of a field matched, as bm25 does: its rank is
    // bounded (normalization 32: rank / (rank + 1)) and the title's share of the match is added (rank divided by
    // the title's length), so "Change requests" outranks "Change requests in a section" for "change requests".
    // Every section of a page has its title: the title's share is computed once per page, after grouping.
    return sql`select b.space_id, b.page_id, b.best + ts_rank_cd('{1, 1, 1, 1}', to_tsvector('quire_search', translate(b.title, '<>', '  ')), q.q, 2) as score
      from (select s.space_id, s.page_id, max(s.title) as title, max(ts_rank_cd(${TS_WEIGHTS}, s.tsv, q.q, 32)) as best
        from search_sections s, (select ${tsquery(terms)} as q) q
        where s.tsv @@ q.q and s.space_id in (${sql.join(spaceIds.map((id) => sql`${id}`))}) and ${notExcluded(db, sql`s.space_id`, sql`s.page_id`, excluded)}
        group by s.space_id, s.page_id) b, (select ${tsquery(terms)} as q) q`;
  }
  // bm25() is lower for better matches: negated so both engines sort by score descending. FTS5 refuses its
  // ranking functions inside an aggregate (matchingSpaces groups these rows), hence the materialized step.
  return sql`with hits as materialized (
      select p.space_id, p.page_id, -search_pages_fts.rank as score
      from search_pages_fts join search_pages p on p.id = search_pages_fts.rowid
      where search_pages_fts match ${pageMatch(spaceIds, terms)} and search_pages_fts.rank match ${PAGE_RANK} and ${pageFilter(db, spaceIds, excluded)})
    select space_id, page_id, score from hits`;
}

function tsquery(terms: SearchTerms) {
  const { words, prefix } = tsqueryParts(terms);
  const whole = sql`websearch_to_tsquery('quire_search', ${words})`;
  return prefix === null ? whole : sql`(${whole} && to_tsquery('quire_search', ${prefix}))`;
}

/** The matching sections of these pages, with their excerpts, best first within each page. */
export async function matchingSections(db: Executor, pages: readonly PageHit[], terms: SearchTerms): Promise<SectionHit[]> {
  if (pages.length === 0) return [];
  const inPages = inPagesOf(pages);
  if (isPostgres(db)) {
    const rows = await sql<SectionHit & { hb: string }>`select s.space_id, s.page_id, s.anchor, s.ordinal, s.heading,
        ts_headline('quire_search', translate(s.body, '<>', '  '), q.q, ${HEADLINE_OPTIONS}) as excerpt,
        (to_tsvector('quire_search', translate(s.heading, '<>', '  ')) || to_tsvector('quire_search', translate(s.body, '<>', '  '))) @@ q.q as matched
      from search_sections s, (select ${tsquery(terms)} as q) q
      where s.tsv @@ q.q and ${inPages}
      order by s.space_id, s.page_id, ts_rank_cd(${TS_WEIGHTS}, s.tsv, q.q) desc, s.ordinal`.execute(db);
    return rows.rows.map((r) => ({ ...r, matched: Boolean(r.matched) }));
  }
  // The matching sections of a few pages: FTS5 walks the match and keeps the rowids of those pages' sections
  // (`+rowid` keeps it from seeking each rowid, which re-reads the match every time); snippet() and highlight()
  // then run for the kept rows only.
  const rows = await sql<SectionHit & { hl: string }>`select s.space_id, s.page_id, s.anchor, s.ordinal, s.heading, f.excerpt, f.hl
    from (select rowid, snippet(search_fts, 2, ${MARK_START}, ${MARK_END}, ' … ', 24) as excerpt,
        highlight(search_fts, 1, ${MARK_START}, ${MARK_END}) as hl, bm25(search_fts, ${FTS5_WEIGHTS}) as score
      from search_fts
      where search_fts match ${fts5Match(terms)} and +rowid in (select s.id from search_sections s where ${inPages})) f
    join search_sections s on s.id = f.rowid
    order by s.space_id, s.page_id, f.score, s.ordinal`.execute(db);
  return rows.rows.map(({ hl, ...r }) => ({ ...r, matched: hl.includes(MARK_START) || r.excerpt.includes(MARK_START) }));
}

/**
 * The opening section of each of these pages, the start of its text as the excerpt (nothing marked): what a
 * result shows when its words are spread over several sections, none of which holds them all.
 */
export async function openingSections(db: Executor, pages: readonly PageHit[]): Promise<SectionHit[]> {
  if (pages.length === 0) return [];
  const rows = await sql<Omit<SectionHit, 'matched'>>`select s.space_id, s.page_id, s.anchor, s.ordinal, s.heading, substr(s.body, 1, 200) as excerpt
    from search_sections s where ${inPagesOf(pages)} and s.ordinal = 0`.execute(db);
  return rows.rows.map((r) => ({ ...r, matched: false }));
}

/** Lists spaces for the search backfill (search/backfill.ts); a listed space starts over. */
export async function listForBackfill(db: Executor, spaceIds: readonly string[]): Promise<void> {
  for (let i = 0; i < spaceIds.length; i += 500) {
    const values = spaceIds.slice(i, i + 500).map((space_id) => ({ space_id, after_page: null }));
    await db.insertInto('search_backfill').values(values).onConflict((oc) => oc.column('space_id').doUpdateSet({ after_page: null })).execute();
  }
}

/** The first listed space, of these spaces only when given. */
export async function nextBackfill(db: Executor, spaceIds?: readonly string[]): Promise<{ space_id: string; after_page: string | null } | undefined> {
  if (spaceIds?.length === 0) return undefined;
  let q = db.selectFrom('search_backfill').select(['space_id', 'after_page']);
  if (spaceIds) q = q.where('space_id', 'in', spaceIds);
  return q.orderBy('space_id').limit(1).executeTakeFirst();
}

/** Where the space's backfill goes on from (the last page indexed), or null: it is done and leaves the list. */
export async function advanceBackfill(db: Executor, spaceId: string, afterPage: string | null): Promise<void> {
  if (afterPage === null) await db.deleteFrom('search_backfill').where('space_id', '=', spaceId).execute();
  else await db.updateTable('search_backfill').set({ after_page: afterPage }).where('space_id', '=', spaceId).execute();
}

/** A section retrieved for a question (features/ask), with its text. */
export interface RelevantSection extends SectionRow {
  /** The section's row (search_sections.id): how Ask's two rankings name it. */
  id: number;
  /** Higher is better, on both engines. */
  score: number;
}

/**
 * The sections of the scope that match any of these words, best first, at most `limit`: what Ask answers from.
 * A question's words are not all in the section that answers it ("how do I invite my team" is answered by
 * "Members"), so any word matches and the engines' ranking (bm25; ts_rank_cd) weighs how many, and how rare.
 * The scope's sections are filtered inside the match, so that nothing outside it is read nor crowds it out.
 */
export async function relevantSections(db: Executor, scope: SearchScope, words: readonly string[], limit: number): Promise<RelevantSection[]> {
  const spaceIds = await liveSpaces(db, scope);
  if (spaceIds.length === 0 || words.length === 0) return [];
  const keys = excludedKeys(scope);
  const inScope = sql`s.space_id in (${sql.join(spaceIds.map((id) => sql`${id}`))}) and ${notExcluded(db, sql`s.space_id`, sql`s.page_id`, keys)}`;
  if (isPostgres(db)) {
    // ts_rank_cd weighs every word alike, so "page" (in a quarter of the sections) outranked "favicon" (in two);
    // the sum is BM25's as FTS5 computes it: each word weighted by its rarity in the scope (idf), its weighted
    // count in the section (ts_rank_cd without normalization, the body's weight being 0.1) saturating, and
    // sections longer than the average discounted.
    const rows = await sql<RelevantSection>`with scope as materialized (
        select s.id, s.space_id, s.page_id, s.anchor, s.ordinal, s.title, s.heading, s.body, s.tsv from search_sections s where ${inScope}),
      terms as materialized (select t.q from (select plainto_tsquery('quire_search', w.word) as q from unnest(cast(${[...words]} as text[])) as w(word)) t where numnode(t.q) > 0),
      stats as materialized (select count(*)::float8 as n, greatest(coalesce(avg(length(tsv)), 1), 1)::float8 as avgdl from scope),
      df as materialized (select t.q, (select count(*) from scope s where s.tsv @@ t.q)::float8 as df from terms t)
      select s.id, s.space_id, s.page_id, s.anchor, s.ordinal, s.title, s.heading, s.body,
        sum(ln(1 + (st.n - d.df + 0.5) / (d.df + 0.5)) * (r.tf * 2.2) / (r.tf + 1.2 * (0.25 + 0.75 * length(s.tsv) / st.avgdl))) as score
      from scope s join df d on d.df > 0 and s.tsv @@ d.q cross join stats st
      cross join lateral (select ts_rank_cd(${TS_WEIGHTS}, s.tsv, d.q, 0) / 0.1 as tf) r
      group by s.id, s.space_id, s.page_id, s.anchor, s.ordinal, s.title, s.heading, s.body
      order by score desc, s.space_id, s.page_id, s.ordinal limit ${limit}`.execute(db);
    return rows.rows.map((r) => ({ ...r, id: Number(r.id), score: Number(r.score) }));
  }
  const match = words.map((w) => `"${w}"`).join(' OR ');
  const rows = await sql<RelevantSection>`with hits as materialized (
      select rowid, bm25(search_fts, ${FTS5_WEIGHTS}) as score from search_fts
      where search_fts match ${match} and +rowid in (select s.id from search_sections s where ${inScope}))
    select s.id, s.space_id, s.page_id, s.anchor, s.ordinal, s.title, s.heading, s.body, -h.score as score
    from hits h join search_sections s on s.id = h.rowid
    order by h.score, s.space_id, s.page_id, s.ordinal limit ${limit}`.execute(db);
  return rows.rows.map((r) => ({ ...r, id: Number(r.id), score: Number(r.score) }));
}

/**
 * The embedded sections of the scope: each section's row and the hash of its text (the key of its vector, read
 * by search/embeddings.ts). A section indexed before migration 0055 has no hash yet and is left out until the
 * embedding sweep hashes it.
 */
export async function embeddableSectionsOf(db: Executor, scope: SearchScope): Promise<{ id: number; content_hash: string }[]> {
  const spaceIds = await liveSpaces(db, scope);
  if (spaceIds.length === 0) return [];
  const rows = await sql<{ id: number; content_hash: string }>`select s.id, s.content_hash from search_sections s
    where s.space_id in (${sql.join(spaceIds.map((id) => sql`${id}`))}) and ${notExcluded(db, sql`s.space_id`, sql`s.page_id`, excludedKeys(scope))}
      and s.content_hash is not null`.execute(db);
  return rows.rows.map((r) => ({ id: Number(r.id), content_hash: r.content_hash }));
}

/** These sections with their text (those still indexed), in no particular order. */
export async function sectionsByIds(db: Executor, ids: readonly number[]): Promise<(SectionRow & { id: number })[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('search_sections')
    .select(['id', 'space_id', 'page_id', 'anchor', 'ordinal', 'title', 'heading', 'body'])
    .where('id', 'in', [...ids])
    .execute();
  return rows.map((r) => ({ ...r, id: Number(r.id) }));
}

/** The opening sections of the scope's first pages (by space, then the page tree's order of sections): what recommended questions are drawn from. */
export async function openingSectionsOf(db: Executor, scope: SearchScope, limit: number): Promise<SectionRow[]> {
  const spaceIds = await liveSpaces(db, scope);
  if (spaceIds.length === 0) return [];
  const rows = await sql<SectionRow>`select s.space_id, s.page_id, s.anchor, s.ordinal, s.title, s.heading, substr(s.body, 1, 600) as body
    from search_sections s
    where s.ordinal = 0 and s.space_id in (${sql.join(spaceIds.map((id) => sql`${id}`))}) and ${notExcluded(db, sql`s.space_id`, sql`s.page_id`, excludedKeys(scope))} and length(s.body) > 0
    order by s.space_id, s.id limit ${limit}`.execute(db);
  return rows.rows;
}
