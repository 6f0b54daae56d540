import { sql, type Kysely } from 'kysely';
import { bytewise, isPostgres } from '../dialect.ts';

/**
 * Full-text search over the current content of every space's main line (issue 12), in each database's own engine.
 *
 * `search_sections` holds one row per section of a page (the text before the first heading, then one per
 * heading): the page title, the heading, the body text. The rows of a page are replaced in the transaction that
 * writes a new main-line revision, so search reads exactly the current revision; a space's rows go with it when
 * it is purged (cascade), and a trashed space is left out by joining `spaces` at query time.
 *
 * SQLite: an FTS5 index over the table (external content, kept in step by triggers), tokenized by
 * `porter unicode61 remove_diacritics 2` (English stemming, accents folded). PostgreSQL: a stored `tsvector`
 * (title weight A, heading B, body C, English configuration) with a GIN index.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const c = bytewise(db);
  const postgres = isPostgres(db);
  await db.schema
    .createTable('search_sections')
    .addColumn('id', postgres ? 'bigserial' : 'integer', (col) => col.primaryKey())
    .addColumn('space_id', 'text', (col) => c(col.notNull().references('spaces.id').onDelete('cascade')))
    .addColumn('page_id', 'text', (col) => c(col.notNull()))
    .addColumn('anchor', 'text', (col) => col.notNull())
    .addColumn('ordinal', 'integer', (col) => col.notNull())
    .addColumn('title', 'text', (col) => col.notNull())
    .addColumn('heading', 'text', (col) => col.notNull())
    .addColumn('body', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('search_sections_by_page').on('search_sections').columns(['space_id', 'page_id', 'ordinal']).execute();

  if (postgres) {
    await createSearchConfiguration(db);
    // `<` and `>` are blanked because PostgreSQL's parser reads `<word ...` as an HTML tag and skips what follows.
    await sql`alter table search_sections add column tsv tsvector generated always as (
      setweight(to_tsvector('quire_search', translate(title, '<>', '  ')), 'A') ||
      setweight(to_tsvector('quire_search', translate(heading, '<>', '  ')), 'B') ||
      setweight(to_tsvector('quire_search', translate(body, '<>', '  ')), 'C')
    ) stored`.execute(db);
    await sql`create index search_sections_tsv on search_sections using gin (tsv)`.execute(db);
    return;
  }
  await sql`create virtual table search_fts using fts5(
    title, heading, body,
    content = 'search_sections', content_rowid = 'id',
    tokenize = 'porter unicode61 remove_diacritics 2'
  )`.execute(db);
  // External content: the index learns of every insert and delete (cascades included) from these triggers.
  await sql`create trigger search_sections_ai after insert on search_sections begin
    insert into search_fts(rowid, title, heading, body) values (new.id, new.title, new.heading, new.body);
  end`.execute(db);
  await sql`create trigger search_sections_ad after delete on search_sections begin
    insert into search_fts(search_fts, rowid, title, heading, body) values ('delete', old.id, old.title, old.heading, old.body);
  end`.execute(db);
}

/**
 * `quire_search`: English stemming, accents folded by the `unaccent` dictionary when the server has the
 * extension (as SQLite's remove_diacritics does); plain English otherwise. The extension is database-wide, so
 * creating it is serialized (several servers may migrate at once) and it goes to `public`.
 */
async function createSearchConfiguration(db: Kysely<unknown>): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext('quire:0008_search'))`.execute(db);
  const available = await sql<{ n: number }>`select count(*)::int as n from pg_available_extensions where name = 'unaccent'`.execute(db);
  let unaccent = false;
  if (Number(available.rows[0]?.n) > 0) {
    await sql`create extension if not exists unaccent with schema public`.execute(db);
    const installed = await sql<{ schema: string }>`select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'unaccent'`.execute(db);
    const schema = installed.rows[0]?.schema;
    if (schema) {
      await sql`create text search configuration quire_search (copy = english)`.execute(db);
      await sql`alter text search configuration quire_search alter mapping for hword, hword_part, word with ${sql.id(schema, 'unaccent')}, english_stem`.execute(db);
      unaccent = true;
    }
  }
  if (!unaccent) await sql`create text search configuration quire_search (copy = english)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) await sql`drop table if exists search_fts`.execute(db);
  await db.schema.dropTable('search_sections').execute();
  if (isPostgres(db)) await sql`drop text search configuration if exists quire_search`.execute(db);
}
