import { generateNKeysBetween } from 'fractional-indexing';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { buildApp } from '../src/app.ts';
import { bootstrapIfEmpty } from '../src/bootstrap.ts';
import { loadConfig } from '../src/config.ts';
import { createDatabase, migrateToLatest } from '../src/db/database.ts';
import type { Executor } from '../src/db/types.ts';
import { findRevision, lockBranch } from '../src/features/content/branch-store.ts';
import { commitToBranch } from '../src/features/content/commit-revision.ts';
import { getDocuments, putDocument } from '../src/features/content/document-store.ts';
import type { Document } from '../src/features/content/document/types.ts';
import { markdownToDocument } from '../src/features/content/document/to-document.ts';
import type { PageRecord } from '../src/features/content/pages.ts';
import { reindexPages } from '../src/features/search/indexing.ts';
import { corpusPages, urlRefs } from '../test/corpus/pages.ts';
import { searchSpace } from '../src/features/search/service.ts';
import { updateSpace } from '../src/features/spaces/store.ts';
import { authenticateToken } from '../src/features/tokens/service.ts';
import { newId } from '../src/platform/ids.ts';

/**
 * Issue 12's search bench, on SQLite and on PostgreSQL (BENCH_PG_URL, default the local test database; skipped
 * when it cannot be reached): a space of 10,000 pages made of the GitBook docs corpus (each corpus page many
 * times, each copy with a paragraph of its own), then
 * - indexing the 10,000 pages from scratch (pages per second);
 * - searching it through the HTTP API, one request at a time (p50, p99; goal p50 <= 15 ms on SQLite);
 * - one page edit (a one-page revision on the main line) with its re-indexing, against the same edit's write
 *   without it (the edit's time less the time re-indexing that page takes alone); goal: at most 2x.
 */

const PAGES = 10_000;
const QUERIES = [
  'change requests', 'merge rules', 'custom domain', 'cloudflare subdirectory', 'okta', 'auth0', 'share links', 'github sync',
  'monorepo', 'test it button', 'mermaid', 'keyboard shortcuts', 'pdf export', 'redirects', 'sso saml', 'invoices', 'free trial',
  'roles', 'feature flags', 'cookies', 'reusable content', 'gitbook cli', 'quickstart', 'expandable', 'seo', 'live edits',
  'notif', 'custom doma', 'adaptive content', 'openapi',
];

export interface SearchBenchResult {
  database: string;
  indexPagesPerSecond: number;
  searchP50: number;
  searchP99: number;
  /** The search service's own time, called in-process (no HTTP, no JSON): what the query costs. */
  serviceP50: number;
  serviceP99: number;
  editWith: number;
  editWithout: number;
}

const median = (values: number[]) => quantile(values, 0.5);
function quantile(values: number[], q: number): number {
  const sorted = values.slice().sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

export async function server(pgUrl: string | undefined) {
  const dir = mkdtempSync(join(tmpdir(), 'quire-bench-search-'));
  const schema = pgUrl ? `bench_search_${newId(8).toLowerCase()}` : undefined;
  // Load shedding would refuse the seeding on a busy machine (and the bench server of server.ts turns it off too).
  const config = { ...loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent', HOST: '127.0.0.1', PORT: '0', RATE_LIMIT_MAX: '0', RATE_LIMIT_EXPENSIVE_MAX: '0', AUTH_FAILURE_LIMIT: '0', MAX_EVENT_LOOP_DELAY_MS: '0' }), databaseUrl: pgUrl };
  const db = createDatabase({ dataDir: dir, ...(pgUrl ? { url: pgUrl, schema } : {}) });
  await migrateToLatest(db, schema);
  const app = await buildApp({ config, db });
  const boot = (await bootstrapIfEmpty(app.ctx, { adminEmail: 'bench@quire.test' }))!;
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  const api = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${url}/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${boot.token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return JSON.parse(text) as T;
  };
  const close = async () => {
    await app.close();
    if (schema) await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(db);
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  };
  return { app, db, api, token: boot.token, organizationId: boot.organizationId, close };
}

/** A space of PAGES pages: the corpus over and over, in sections of 100, each page with a paragraph of its own. */
export async function seed(s: Awaited<ReturnType<typeof server>>): Promise<{ spaceId: string; pages: Map<string, PageRecord> }> {
  const corpus = corpusPages().map((p) => ({ title: p.title, document: markdownToDocument(p.markdown, urlRefs) }));
  const space = await s.api<{ id: string }>('POST', `/orgs/${s.organizationId}/spaces`, { title: 'Search bench' });
  const ctx = s.app.ctx;
  const now = new Date().toISOString();
  const records = new Map<string, PageRecord>();
  await ctx.db.transaction().execute(async (trx) => {
    const branch = (await lockBranch(trx, space.id))!;
    const head = (await findRevision(trx, branch.head_revision_id))!;
    const sectionKeys = generateNKeysBetween(null, null, PAGES / 100);
    for (let sec = 0; sec < PAGES / 100; sec++) {
      const sectionId = newId();
      records.set(sectionId, record(sectionId, null, sectionKeys[sec]!, `Part ${sec}`, await putDocument(trx, { object: 'document', nodes: [] }, now), now));
      const keys = generateNKeysBetween(null, null, 99);
      for (let c = 0; c < 99; c++) {
        const n = sec * 99 + c;
        const source = corpus[n % corpus.length]!;
        const own = markdownToDocument(`Copy ${n} of this page, kept for reference number r${n}.`, urlRefs);
        const document = { ...source.document, nodes: [...source.document.nodes, ...own.nodes] };
        const id = newId();
        records.set(id, record(id, sectionId, keys[c]!, source.title, await putDocument(trx, document, now), now));
      }
    }
    const revision = await commitToBranch(ctx, trx, branch, head, { pages: records, type: 'edits', createdBy: null });
    await updateSpace(trx, space.id, { revision_id: revision.id });
  });
  return { spaceId: space.id, pages: records };
}

function record(id: string, parentId: string | null, position: string, title: string, documentId: string, now: string): PageRecord {
  return { id, parentId, position, kind: 'document', title, slug: title.toLowerCase().replace(/[^a-z0-9]+/g, '-') || 'page', documentId, attributes: {}, createdAt: now, updatedAt: now };
}

async function indexed(db: Executor, pages: PageRecord[]) {
  const documents = await getDocuments(db, pages.flatMap((p) => (p.documentId ? [p.documentId] : [])));
  return pages.map((p) => ({ id: p.id, title: p.title, kind: p.kind, document: documents.get(p.documentId!) as Document | undefined }));
}

async function runOn(database: string, pgUrl: string | undefined): Promise<SearchBenchResult> {
  const s = await server(pgUrl);
  try {
    const { spaceId, pages } = await seed(s);
    const all = [...pages.values()];
    const db = s.app.ctx.db;

    // Indexing from scratch: every page's rows deleted and written again, in one transaction.
    const input = await indexed(db, all);
    const started = performance.now();
    await db.transaction().execute((trx) => reindexPages(trx, spaceId, input, []));
    const indexPagesPerSecond = PAGES / ((performance.now() - started) / 1000);

    // Search latency through HTTP, one request at a time, after a warm-up round.
    for (const q of QUERIES) await s.api('GET', `/spaces/${spaceId}/search?query=${encodeURIComponent(q)}&limit=10`);
    const latencies: number[] = [];
    for (let round = 0; round < 7; round++) {
      for (const q of QUERIES) {
        const t0 = performance.now();
        await s.api('GET', `/spaces/${spaceId}/search?query=${encodeURIComponent(q)}&limit=10`);
        latencies.push(performance.now() - t0);
      }
    }

    // The same queries through the service, in-process: the search's own time, without HTTP and serialization.
    const caller = (await authenticateToken(s.app.ctx, s.token))!;
    const own: number[] = [];
    for (let round = 0; round < 7; round++) {
      for (const q of QUERIES) {
        const t0 = performance.now();
        await searchSpace(s.app.ctx, caller, spaceId, { query: q, limit: 10 });
        own.push(performance.now() - t0);
      }
    }

    // One page edit: a one-page main-line revision (which re-indexes the page), against re-indexing alone.
    const target = all[all.length / 2]!;
    const edits: number[] = [];
    const reindexes: number[] = [];
    for (let i = 0; i < 30; i++) {
      const now = new Date().toISOString();
      const t0 = performance.now();
      await db.transaction().execute(async (trx) => {
        const branch = (await lockBranch(trx, spaceId))!;
        const head = (await findRevision(trx, branch.head_revision_id))!;
        const documentId = await putDocument(trx, markdownToDocument(`Edited ${i}: the okta setup changed.\n\n## Steps\n\nDo this ${i}.`, urlRefs), now);
        const revision = await commitToBranch(s.app.ctx, trx, branch, head, { pages: new Map([[target.id, { ...target, documentId, updatedAt: now }]]), type: 'edits', createdBy: null });
        await updateSpace(trx, spaceId, { revision_id: revision.id });
      });
      edits.push(performance.now() - t0);
      const one = await indexed(db, [target]);
      const t1 = performance.now();
      await db.transaction().execute((trx) => reindexPages(trx, spaceId, one, []));
      reindexes.push(performance.now() - t1);
    }
    const editWith = median(edits);
    return { database, indexPagesPerSecond, searchP50: median(latencies), searchP99: quantile(latencies, 0.99), serviceP50: median(own), serviceP99: quantile(own, 0.99), editWith, editWithout: Math.max(0.01, editWith - median(reindexes)) };
  } finally {
    await s.close();
  }
}

export async function runSearchBench(): Promise<SearchBenchResult[]> {
  const results = [await runOn('SQLite', undefined)];
  const pgUrl = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  try {
    results.push(await runOn('PostgreSQL', pgUrl));
  } catch (error) {
    console.log(`  PostgreSQL search bench skipped: ${error instanceof Error ? error.message : String(error)}`);
  }
  return results;
}

export function searchTable(results: SearchBenchResult[]): string {
  const lines = [
    '| database | indexing 10,000 pages (pages/s) | search p50 (ms) | search p99 (ms) | p50 <= 15 ms (goal on SQLite) | in-process p50 (ms) | in-process p99 (ms) | one-page edit (ms) | same edit without re-indexing (ms) | ratio | <= 2 |',
    '| --- | ---: | ---: | ---: | :---: | ---: | ---: | ---: | ---: | ---: | :---: |',
  ];
  for (const r of results) {
    const ratio = r.editWith / r.editWithout;
    lines.push(
      `| ${r.database} | ${Math.round(r.indexPagesPerSecond).toLocaleString('en-US')} | ${r.searchP50.toFixed(1)} | ${r.searchP99.toFixed(1)} | ${r.searchP50 <= 15 ? 'yes' : r.database === 'SQLite' ? 'NO' : 'no (no goal)'} | ${r.serviceP50.toFixed(1)} | ${r.serviceP99.toFixed(1)} | ${r.editWith.toFixed(1)} | ${r.editWithout.toFixed(1)} | ${ratio.toFixed(2)} | ${ratio <= 2 ? 'yes' : 'NO'} |`,
    );
  }
  return lines.join('\n');
}

export const searchIntro = [
  'A space of 10,000 pages made of the GitBook docs corpus (each page many times, each copy with a paragraph of',
  'its own). Indexing: every page re-indexed from scratch in one transaction. Search: 30 queries x 7 rounds',
  'through the HTTP API, one at a time (`limit=10`), then the same through the search service in-process (the',
  "query's own time). Edit: a one-page main-line revision with its re-indexing, median of 30, against the same",
  'edit less the median time of re-indexing that page alone.',
].join('\n');

if (import.meta.url === `file://${process.argv[1]}`) {
  const results = await runSearchBench();
  console.log(searchTable(results));
}
