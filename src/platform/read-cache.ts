import { LRUCache } from 'lru-cache';
import { watchStatements, type WrittenTables } from '../db/statement-watch.ts';

/**
 * In-process caches of facts every request reads and few requests change (who a token is, a caller's
 * membership, grants and collection tree; the presented tree of an immutable revision). Each cache names the
 * tables its facts come from and is emptied when this process writes one of them (at the write and again at the
 * commit: see db/statement-watch.ts). Entries also expire after a few seconds (CACHE_TTL_MS), so a change made
 * by another process on the same PostgreSQL (a revoked token, a removed member) is seen within that time.
 *
 * Caches belong to one database handle, and so to one application: transactions are other handles and never
 * see a cache, so reads inside a transaction always go to the database.
 */

export interface ReadCacheOptions<V> {
  /** Most entries kept; the least recently used go first. */
  max: number;
  /**
   * How long an entry may be served, in ms; 'shared' for facts another process may change (the application's
   * CACHE_TTL_MS; 0 there turns such a cache off).
   */
  ttlMs: number | 'shared';
  /** Tables whose writes empty this cache. A cache of immutable facts depends on none. */
  dependsOn: readonly string[];
  /** Weight of an entry against `maxSize` (e.g. the pages of a tree), for caches of values of very different sizes. */
  size?: { maxSize: number; of: (value: V) => number };
  /** Which loaded values are kept (e.g. not the absence of a token, so a flood of bad ones evicts nothing). */
  keep?: (value: V) => boolean;
}

/** Keys are text: ids, or ids joined by spaces. */
export class ReadCache<V> {
  private readonly lru: LRUCache<string, { value: V }>;
  /** Moves on every invalidation: a load that started before it must not store what it read. */
  private generation = 0;
  /** Lookups answered from the cache and lookups that had to load, since start (for /metrics). */
  hits = 0;
  misses = 0;

  constructor(
    readonly options: ReadCacheOptions<V>,
    ttlMs: number,
  ) {
    const size = options.size;
    this.lru = new LRUCache<string, { value: V }>({
      max: options.max,
      ttl: ttlMs,
      ...(size ? { maxSize: size.maxSize, sizeCalculation: (entry: { value: V }) => Math.max(1, size.of(entry.value)) } : {}),
    });
  }

  /** The cached value of `key`, or what `load` reads (kept unless the cache was emptied meanwhile). */
  async get(key: string, load: () => Promise<V>): Promise<V> {
    const hit = this.lru.get(key);
    if (hit) {
      this.hits += 1;
      return hit.value;
    }
    this.misses += 1;
    const generation = this.generation;
    const value = await load();
    if (generation === this.generation && (this.options.keep?.(value) ?? true)) this.lru.set(key, { value });
    return value;
  }

  /**
   * The values of many keys (a page of a list): the cached ones, and those `load` reads in one go for the keys
   * missing, which it must answer all.
   */
  async getMany(keys: readonly string[], load: (missing: string[]) => Promise<Map<string, V>>): Promise<Map<string, V>> {
    const out = new Map<string, V>();
    const missing: string[] = [];
    for (const key of keys) {
      const hit = this.lru.get(key);
      if (hit) out.set(key, hit.value);
      else missing.push(key);
    }
    this.hits += keys.length - missing.length;
    this.misses += missing.length;
    if (missing.length === 0) return out;
    const generation = this.generation;
    const loaded = await load(missing);
    const store = generation === this.generation;
    for (const key of missing) {
      const value = loaded.get(key) as V;
      out.set(key, value);
      if (store && (this.options.keep?.(value) ?? true)) this.lru.set(key, { value });
    }
    return out;
  }

  clear(): void {
    this.generation += 1;
    // lru-cache's clear() refills its arrays of `max` slots (10,000 for most caches here) whatever it holds, and
    // caches that every write of a busy table empties (a space's counters on each new comment) hold few entries:
    // those are deleted one by one. Stale entries its iterator skips are never served (get drops them).
    if (this.lru.size === 0) return;
    if (this.lru.size > this.options.max / 16) return this.lru.clear();
    for (const key of [...this.lru.keys()]) this.lru.delete(key);
  }
}

export class ReadCaches {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  private readonly caches = new Map<string, ReadCache<any>>();

  /** `sharedTtlMs`: what a 'shared' TTL means here (CACHE_TTL_MS). */
  constructor(private readonly sharedTtlMs: number) {}

  /** The cache of this name, created with `options` on first use; undefined when its TTL is 0 (caching off). */
  cache<V>(name: string, options: ReadCacheOptions<V>): ReadCache<V> | undefined {
    let cache = this.caches.get(name) as ReadCache<V> | undefined;
    if (!cache) {
      const ttl = options.ttlMs === 'shared' ? this.sharedTtlMs : options.ttlMs;
      if (ttl <= 0) return undefined;
      this.caches.set(name, (cache = new ReadCache<V>(options, ttl)));
    }
    return cache;
  }

  /** Empties every cache whose facts come from one of the written tables. */
  written(tables: WrittenTables): void {
    for (const cache of this.caches.values()) {
      if (tables === '*' || cache.options.dependsOn.some((t) => tables.includes(t))) cache.clear();
    }
  }

  clear(): void {
    for (const cache of this.caches.values()) cache.clear();
  }

  /** Each cache by name, for its hit and miss counts. */
  all(): ReadonlyMap<string, ReadCache<unknown>> {
    return this.caches;
  }
}

const byDatabase = new WeakMap<object, ReadCaches>();

/**
 * Gives `db` read caches, emptied by its writes; returns what ends them. A handle whose writes cannot be
 * watched gets none (every read then goes to the database).
 */
export function enableReadCaches(db: object, options: { sharedTtlMs: number }): () => void {
  const caches = new ReadCaches(options.sharedTtlMs);
  const stop = watchStatements(db, { committed: (tables) => caches.written(tables) });
  if (!stop) return () => undefined;
  byDatabase.set(db, caches);
  return () => {
    stop();
    caches.clear();
    if (byDatabase.get(db) === caches) byDatabase.delete(db);
  };
}

/**
 * The cache `name` of this database handle, or undefined for a transaction or an unwatched handle: the caller
 * then reads the database directly.
 */
export function readCache<V>(db: object, name: string, options: ReadCacheOptions<V>): ReadCache<V> | undefined {
  return byDatabase.get(db)?.cache<V>(name, options);
}

/** `load()` through the cache when there is one. */
export function cachedRead<V>(cache: ReadCache<V> | undefined, key: string, load: () => Promise<V>): Promise<V> {
  return cache ? cache.get(key, load) : load();
}

/** `load(keys)` for the keys the cache does not hold, when there is one; `load` answers every key it is given. */
export function cachedReadMany<V>(cache: ReadCache<V> | undefined, keys: readonly string[], load: (missing: string[]) => Promise<Map<string, V>>): Promise<Map<string, V>> {
  return cache ? cache.getMany(keys, load) : load([...keys]);
}

/** The read caches of a database handle, by name (for /metrics); empty when it has none. */
export function readCachesOf(db: object): ReadonlyMap<string, ReadCache<unknown>> {
  return byDatabase.get(db)?.all() ?? new Map();
}

/** At most this many characters of JSON text held by one cache of serialized answers. */
const MAX_TEXT_HELD = 32 * 1024 * 1024;

/**
 * The JSON text of an answer, kept in the cache `name` under `key` (which must hold everything of the request
 * and of the caller the answer shows) and emptied by writes to `dependsOn`, the tables it is read from. For
 * lists read far more often than they change: presenting and serializing fifty items costs many times what
 * sending their text does. Like every cache of facts others may change, an entry lives CACHE_TTL_MS at most.
 */
export function serializedRead(db: object, name: string, dependsOn: readonly string[], key: string, write: () => Promise<string>): Promise<string> {
  const cache = readCache<string>(db, name, { max: 2_000, ttlMs: 'shared', dependsOn, size: { maxSize: MAX_TEXT_HELD, of: (text) => text.length } });
  return cachedRead(cache, key, write);
}
