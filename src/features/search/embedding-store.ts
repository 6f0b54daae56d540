import { sql } from 'kysely';
import type { Executor } from '../../db/types.ts';

/** The section embeddings (migration 0055): one vector per embedding model and embedded text. */

/** A text to embed, and the sections' hash that names it. */
export interface PendingText {
  content_hash: string;
  title: string;
  heading: string;
  body: string;
}

/** Sections indexed before migration 0055, which have no hash of their text yet. */
export async function sectionsWithoutHash(db: Executor, limit: number): Promise<{ id: number; title: string; heading: string; body: string }[]> {
  const rows = await db.selectFrom('search_sections').select(['id', 'title', 'heading', 'body']).where('content_hash', 'is', null).orderBy('id').limit(limit).execute();
  return rows.map((r) => ({ ...r, id: Number(r.id) }));
}

export async function setContentHashes(db: Executor, rows: readonly { id: number; content_hash: string }[]): Promise<void> {
  for (const row of rows) await db.updateTable('search_sections').set({ content_hash: row.content_hash }).where('id', '=', row.id).execute();
}

/** Indexed texts that have no vector of this model yet, oldest sections first; a text shared by sections once. */
export async function textsWithoutVector(db: Executor, model: string, limit: number): Promise<PendingText[]> {
  const rows = await db
    .selectFrom('search_sections as s')
    .select(['s.content_hash', 's.title', 's.heading', 's.body'])
    .where('s.content_hash', 'is not', null)
    .where((eb) => eb.not(eb.exists(eb.selectFrom('section_embeddings as e').select(sql.lit(1).as('one')).where('e.model', '=', model).whereRef('e.content_hash', '=', 's.content_hash'))))
    .orderBy('s.id')
    .limit(limit)
    .execute();
  const seen = new Set<string>();
  const texts: PendingText[] = [];
  for (const row of rows) {
    if (row.content_hash === null || seen.has(row.content_hash)) continue;
    seen.add(row.content_hash);
    texts.push({ content_hash: row.content_hash, title: row.title, heading: row.heading, body: row.body });
  }
  return texts;
}

/** Stores vectors (an empty one: the provider refused that text); a text embedded meanwhile by another process is kept as it is. */
export async function insertVectors(db: Executor, model: string, rows: readonly { content_hash: string; vector: Uint8Array; dimensions: number }[], at: string): Promise<void> {
  for (let i = 0; i < rows.length; i += 100) {
    const values = rows.slice(i, i + 100).map((r) => ({ model, content_hash: r.content_hash, dimensions: r.dimensions, vector: r.vector, created_at: at }));
    await db.insertInto('section_embeddings').values(values).onConflict((oc) => oc.columns(['model', 'content_hash']).doNothing()).execute();
  }
}

/** The vectors of this model for these texts (refused texts left out). */
export async function vectorsOf(db: Executor, model: string, hashes: readonly string[]): Promise<Map<string, Uint8Array>> {
  const found = new Map<string, Uint8Array>();
  for (let i = 0; i < hashes.length; i += 500) {
    const rows = await db
      .selectFrom('section_embeddings')
      .select(['content_hash', 'vector'])
      .where('model', '=', model)
      .where('content_hash', 'in', hashes.slice(i, i + 500))
      .where('dimensions', '>', 0)
      .execute();
    for (const row of rows) found.set(row.content_hash, row.vector);
  }
  return found;
}

/**
 * Deletes up to `limit` vectors no longer of use: of another model than this one (the operator changed it), or
 * of a text no section holds any more. Returns how many.
 */
export async function deleteUnusedVectors(db: Executor, model: string, limit: number): Promise<number> {
  const unused = await db
    .selectFrom('section_embeddings as e')
    .select(['e.model', 'e.content_hash'])
    .where((eb) =>
      eb.or([eb('e.model', '<>', model), eb.not(eb.exists(eb.selectFrom('search_sections as s').select(sql.lit(1).as('one')).whereRef('s.content_hash', '=', 'e.content_hash')))]),
    )
    .limit(limit)
    .execute();
  const byModel = new Map<string, string[]>();
  for (const row of unused) {
    const hashes = byModel.get(row.model);
    if (hashes) hashes.push(row.content_hash);
    else byModel.set(row.model, [row.content_hash]);
  }
  for (const [unusedModel, hashes] of byModel) await db.deleteFrom('section_embeddings').where('model', '=', unusedModel).where('content_hash', 'in', hashes).execute();
  return unused.length;
}
