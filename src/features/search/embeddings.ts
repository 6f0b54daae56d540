import { setImmediate as yieldToRequests } from 'node:timers/promises';
import type { Embeddings } from '../../platform/ai-provider.ts';
import type { AppContext } from '../../platform/context.ts';
import { ApiError } from '../../platform/errors.ts';
import { deleteUnusedVectors, insertVectors, sectionsWithoutHash, setContentHashes, textsWithoutVector, vectorsOf } from './embedding-store.ts';
import { contentHash, embeddedText } from './sections.ts';
import { embeddableSectionsOf, type SearchScope } from './store.ts';
import { normalized, similarity, vectorBytes, vectorOfBytes } from './vectors.ts';

/**
 * Sections embedded by the operator's embedding model (AI_EMBEDDING_MODEL), and the sections nearest a question.
 *
 * Embedding is not on the path of a write: the job worker's sweep embeds, a batch per provider call, the texts
 * the index holds that have no vector of the model yet (a new or changed section, a whole space after a model
 * change), and drops the vectors no section uses. A question is embedded when it is asked and compared with the
 * vectors of the scope's sections, read once per process and kept (bounded): at documentation scale a full
 * comparison costs less than a provider's round trip, and needs no vector extension on either database.
 */

/** Texts per provider call. */
const BATCH = 32;
/** A question's embedding is bounded more tightly than an answer: without it the answer still comes from full-text search. */
const QUESTION_TIMEOUT_MS = 10_000;
/** Below this cosine a section is not near the question, whatever else is nearer (typical of unrelated texts). */
export const MIN_SIMILARITY = 0.3;
/** Floats of vectors kept in this process at most (64 MB): the vectors of ~20,000 sections of a 768-dimension model. */
const CACHED_FLOATS = 16_000_000;

export interface EmbedOptions {
  /** A run stops after this long; the next run of the worker goes on. */
  budgetMs?: number;
}

/**
 * One run of the embedding sweep: hashes the sections indexed before migration 0055, embeds the texts without a
 * vector, then deletes vectors of no use. Returns the number of texts embedded. A provider that fails stops the
 * run with its error (the worker logs it; the next run tries again); a batch it refuses as a request (HTTP 400-499 but 408 and 429: a text too long
 * for the model, say) is embedded one text at a time, and a text refused alone is recorded as refused and not
 * asked again.
 */
export async function embedPendingSections(ctx: AppContext, options: EmbedOptions = {}): Promise<number> {
  const embeddings = ctx.ai?.embeddings;
  if (!embeddings) return 0;
  const deadline = Date.now() + (options.budgetMs ?? 20_000);
  await hashUnhashedSections(ctx, deadline);
  let embedded = 0;
  while (Date.now() < deadline) {
    const texts = await textsWithoutVector(ctx.db, embeddings.model, BATCH * 2);
    if (texts.length === 0) break;
    const batch = texts.slice(0, BATCH);
    const inputs = batch.map((t) => embeddedText(t.title, t.heading, t.body));
    // The provider down or slow stops the run, said in the server's log by the worker; the next run tries again.
    const vectors = await embedBatch(embeddings, inputs);
    const at = ctx.clock.now().toISOString();
    await insertVectors(
      ctx.db,
      embeddings.model,
      batch.map((text, i) => {
        const vector = vectors[i];
        return vector ? { content_hash: text.content_hash, vector: vectorBytes(normalized(vector)), dimensions: vector.length } : { content_hash: text.content_hash, vector: new Uint8Array(), dimensions: 0 };
      }),
      at,
    );
    embedded += batch.length;
    await yieldToRequests();
  }
  while (Date.now() < deadline && (await deleteUnusedVectors(ctx.db, embeddings.model, 500)) === 500) await yieldToRequests();
  return embedded;
}

/** The batch's vectors (undefined for a text refused alone); throws when the provider failed. */
async function embedBatch(embeddings: Embeddings, inputs: readonly string[]): Promise<(number[] | undefined)[]> {
  try {
    return await embeddings.embed(inputs);
  } catch (error) {
    if (!refusedRequest(error)) throw error;
  }
  const vectors: (number[] | undefined)[] = [];
  for (const input of inputs) {
    try {
      vectors.push((await embeddings.embed([input]))[0]);
    } catch (error) {
      if (!refusedRequest(error)) throw error;
      vectors.push(undefined);
    }
  }
  return vectors;
}

function refusedRequest(error: unknown): boolean {
  const match = error instanceof ApiError ? /answered HTTP (\d{3})/.exec(error.message) : null;
  const status = match ? Number(match[1]) : 0;
  return status >= 400 && status < 500 && status !== 408 && status !== 429;
}

async function hashUnhashedSections(ctx: AppContext, deadline: number): Promise<void> {
  while (Date.now() < deadline) {
    const rows = await sectionsWithoutHash(ctx.db, 500);
    if (rows.length === 0) return;
    await ctx.db.transaction().execute((trx) => setContentHashes(trx, rows.map((r) => ({ id: r.id, content_hash: contentHash(embeddedText(r.title, r.heading, r.body)) }))));
    await yieldToRequests();
  }
}

/** A section near a question: its row in the index, and the cosine of their vectors. */
export interface NearSection {
  id: number;
  similarity: number;
}

/**
 * The sections of the scope nearest the text by meaning, at most `limit`, nearest first; none when no embedding
 * model is set. A provider that fails or is slow gives none (`onFailure` is told): retrieval then ranks by words
 * alone, and the asker still gets an answer.
 */
export async function nearestSections(ctx: AppContext, scope: SearchScope, text: string, limit: number, onFailure?: (error: unknown) => void): Promise<NearSection[]> {
  const embeddings = ctx.ai?.embeddings;
  if (!embeddings || text.trim() === '') return [];
  const [question, sections] = await Promise.all([
    embeddings.embed([text], { timeoutMs: Math.min(QUESTION_TIMEOUT_MS, ctx.config.aiTimeoutMs) }).then(
      ([vector]) => normalized(vector!),
      (error: unknown) => {
        onFailure?.(error);
        return undefined;
      },
    ),
    embeddableSectionsOf(ctx.db, scope),
  ]);
  if (!question || sections.length === 0) return [];
  const vectors = await cachedVectors(ctx, embeddings.model, [...new Set(sections.map((s) => s.content_hash))]);
  const near: NearSection[] = [];
  for (const section of sections) {
    const vector = vectors.get(section.content_hash);
    if (!vector) continue;
    const score = similarity(question, vector);
    if (score >= MIN_SIMILARITY) near.push({ id: section.id, similarity: score });
  }
  return near.sort((a, b) => b.similarity - a.similarity || a.id - b.id).slice(0, limit);
}

// The vectors read in this process, by model and text; a Map's order of insertion makes it a least-recently-used list.
const cache = new Map<string, Float32Array>();
let cachedFloats = 0;

async function cachedVectors(ctx: AppContext, model: string, hashes: readonly string[]): Promise<Map<string, Float32Array>> {
  const found = new Map<string, Float32Array>();
  const missing: string[] = [];
  for (const hash of hashes) {
    const key = `${model}\n${hash}`;
    const vector = cache.get(key);
    if (!vector) {
      missing.push(hash);
      continue;
    }
    cache.delete(key);
    cache.set(key, vector);
    found.set(hash, vector);
  }
  for (const [hash, bytes] of await vectorsOf(ctx.db, model, missing)) {
    const vector = vectorOfBytes(bytes);
    found.set(hash, vector);
    cache.set(`${model}\n${hash}`, vector);
    cachedFloats += vector.length;
  }
  for (const [key, vector] of cache) {
    if (cachedFloats <= CACHED_FLOATS) break;
    cache.delete(key);
    cachedFloats -= vector.length;
  }
  return found;
}
