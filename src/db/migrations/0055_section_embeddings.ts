import { sql, type Kysely } from 'kysely';
import { bytewise, isPostgres } from '../dialect.ts';

/**
 * Ask's semantic retrieval (issue 45): each section of the search index names the text it embeds by a hash of
 * it (`search_sections.content_hash`, written when the section is indexed; null for sections indexed before this
 * migration, which the embedding sweep hashes), and `section_embeddings` holds one vector per embedding model
 * and text. Keyed by the text rather than the section: a page written again re-indexes all of its sections, but
 * only the sections whose text changed are embedded again, and a duplicated space embeds nothing.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const c = bytewise(db);
  const postgres = isPostgres(db);
  await db.schema.alterTable('search_sections').addColumn('content_hash', 'text', (col) => c(col)).execute();
  await db.schema.createIndex('search_sections_by_content_hash').on('search_sections').column('content_hash').execute();
  await db.schema
    .createTable('section_embeddings')
    .addColumn('model', 'text', (col) => c(col.notNull()))
    .addColumn('content_hash', 'text', (col) => c(col.notNull()))
    // 0: the provider refused this text (it is not asked again); else the vector's length.
    .addColumn('dimensions', 'integer', (col) => col.notNull())
    // Little-endian float32, normalized to length 1 (a dot product is the cosine).
    .addColumn('vector', postgres ? 'bytea' : 'blob', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('section_embeddings_pk', ['model', 'content_hash'])
    .execute();
  if (!postgres) return;
  // Vectors are read whole for every question in a scope that has not been read since: kept out of line, uncompressed.
  await sql`alter table section_embeddings alter column vector set storage external`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('section_embeddings').ifExists().execute();
  await db.schema.dropIndex('search_sections_by_content_hash').ifExists().execute();
  await db.schema.alterTable('search_sections').dropColumn('content_hash').execute();
}
