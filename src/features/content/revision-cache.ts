import type { AppContext } from '../../platform/context.ts';
import { cachedRead, readCache, type ReadCacheOptions } from '../../platform/read-cache.ts';

/**
 * Reads of one revision, kept per revision: a revision's content does not change once it exists (versions are
 * only appended and closed, see version-store.ts), and readers ask for the same tree and pages on every view.
 *
 * Two guards all the same. A read of a branch's head runs against the open versions (`to_seq is null`), so a
 * write committing in the middle of it could mix in the next revision's rows: any write of versions in this
 * process empties these caches, and a read that overlapped one is not kept (platform/read-cache.ts). A write
 * from another process on the same PostgreSQL is not seen here, so entries also expire after a minute.
 */
const REVISION_FACTS = { dependsOn: ['page_versions', 'file_versions'], ttlMs: 60_000 } as const;

/** At most this many pages held by the tree cache in all. */
const MAX_PAGES_HELD = 200_000;

export interface PresentedTree<P, F, R = unknown> {
  pages: P[];
  files: F[];
  reusableContents: R[];
  /** Pages in the tree, all levels, and reusable contents: the weight of the entry. */
  size: number;
}

/** The presented page tree, files and reusable contents of a revision; the public URL is in the key, since they carry URLs. */
const TREES: ReadCacheOptions<PresentedTree<unknown, unknown>> = { ...REVISION_FACTS, max: 1_000, size: { maxSize: MAX_PAGES_HELD, of: (tree) => tree.size + tree.files.length } };

export function presentedTreeOf<P, F, R>(ctx: AppContext, revisionId: string, build: () => Promise<PresentedTree<P, F, R>>): Promise<PresentedTree<P, F, R>> {
  const cache = readCache<PresentedTree<P, F, R>>(ctx.db, 'content:tree', TREES as ReadCacheOptions<PresentedTree<P, F, R>>);
  return cachedRead(cache, `${ctx.config.publicUrl} ${revisionId}`, build);
}

const SNAPSHOT_READS: ReadCacheOptions<unknown> = { ...REVISION_FACTS, max: 20_000 };

/**
 * One read of a revision's pages (a page by id, the children of a page) through the cache of `db`; `db` is a
 * transaction inside writes, which has no cache.
 */
export function revisionRead<V>(db: object, key: string, load: () => Promise<V>): Promise<V> {
  return cachedRead(readCache<V>(db, 'content:reads', SNAPSHOT_READS as ReadCacheOptions<V>), key, load);
}

/** At most this many characters of revision JSON held in all. */
const MAX_JSON_HELD = 64 * 1024 * 1024;

/** The JSON text of a revision's answer (not a merge revision: see readRevisionJson). */
const REVISION_JSON: ReadCacheOptions<string> = { ...REVISION_FACTS, max: 1_000, size: { maxSize: MAX_JSON_HELD, of: (text) => text.length } };

export function serializedRevisionOf(ctx: AppContext, revisionId: string, write: () => Promise<string>): Promise<string> {
  const cache = readCache<string>(ctx.db, 'content:revision-json', REVISION_JSON);
  return cachedRead(cache, `${ctx.config.publicUrl} ${revisionId}`, write);
}

/** At most this many characters of page bodies (stored JSON, or markdown) held in all. */
const MAX_BODY_HELD = 64 * 1024 * 1024;

/** A page body as presented, with its weight (characters of its source text). */
export interface HeldBody<B> {
  body: B;
  size: number;
}

/**
 * A page's body as presented in one format (its document, or its markdown), per revision and document: a
 * document never changes (its id is the hash of its content), and its markdown is rendered against the revision
 * it is read in. Kept values are shared between responses and never changed.
 */
const BODIES: ReadCacheOptions<HeldBody<unknown>> = { ...REVISION_FACTS, max: 5_000, size: { maxSize: MAX_BODY_HELD, of: (held) => held.size } };

export function presentedBodyOf<B>(ctx: AppContext, revisionId: string, documentId: string, format: string, build: () => Promise<HeldBody<B>>): Promise<HeldBody<B>> {
  const cache = readCache<HeldBody<B>>(ctx.db, 'content:bodies', BODIES as ReadCacheOptions<HeldBody<B>>);
  return cachedRead(cache, `${ctx.config.publicUrl} ${revisionId} ${documentId} ${format}`, build);
}
