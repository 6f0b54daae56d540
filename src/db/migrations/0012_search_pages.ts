import { sql, type Kysely } from 'kysely';
import { bytewise, isPostgres } from '../dialect.ts';

/**
 * Search speed and the search backfill (issue 12).
 *
 * SQLite: `search_pages` gives each indexed page a row, and `search_pages_fts` indexes each page as a whole
 * (title, headings, body, and a `scope` token naming its space). Ranking reads this page-level index, where FTS5
 * sorts and limits by bm25 itself and counts matching pages without a join, instead of ranking every matching
 * section and grouping them by page; `search_sections` / `search_fts` (0008) still give each result its
 * sections and excerpts. The page-level index is contentless (the text is in `search_sections` already); its
 * rows go with their `search_pages` row (trigger), which goes with its space (cascade).
 *
 * Both databases: `search_backfill` lists the spaces whose index the job worker rebuilds, page by page in
 * batches (search/backfill.ts), with how far it got. Every space present now is listed: content written before
 * 0008 was never indexed, and re-indexing a page that was is harmless.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const c = bytewise(db);
  await db.schema
    .createTable('search_backfill')
    .addColumn('space_id', 'text', (col) => c(col.primaryKey().references('spaces.id').onDelete('cascade')))
    .addColumn('after_page', 'text', (col) => c(col))
    .execute();
  await sql`insert into search_backfill (space_id) select id from spaces`.execute(db);
  if (isPostgres(db)) return;

  await db.schema
    .createTable('search_pages')
    .addColumn('id', 'integer', (col) => col.primaryKey())
    .addColumn('space_id', 'text', (col) => col.notNull().references('spaces.id').onDelete('cascade'))
    .addColumn('page_id', 'text', (col) => col.notNull())
    .addUniqueConstraint('search_pages_unique', ['space_id', 'page_id'])
    .execute();
  await sql`create virtual table search_pages_fts using fts5(
    title, headings, body, scope,
    content = '', contentless_delete = 1,
    tokenize = 'porter unicode61 remove_diacritics 2'
  )`.execute(db);
  await sql`create trigger search_pages_ad after delete on search_pages begin
    delete from search_pages_fts where rowid = old.id;
  end`.execute(db);
  await sql`insert into search_pages (space_id, page_id) select distinct space_id, page_id from search_sections`.execute(db);
  // The same text as search/store.ts writes for a page (pageIndexRows).
  await sql`insert into search_pages_fts (rowid, title, headings, body, scope)
    select p.id, max(s.title), group_concat(s.heading, char(10)), group_concat(s.body, char(10)), lower(hex(p.space_id)) || '0'
    from search_pages p join search_sections s on s.space_id = p.space_id and s.page_id = p.page_id
    group by p.id`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) {
    await sql`drop table if exists search_pages_fts`.execute(db);
    await db.schema.dropTable('search_pages').execute();
  }
  await db.schema.dropTable('search_backfill').execute();
}
