import { generateNKeysBetween } from 'fractional-indexing';
import { findRevision, lockBranch } from '../src/features/content/branch-store.ts';
import { commitToBranch } from '../src/features/content/commit-revision.ts';
import { putDocument } from '../src/features/content/document-store.ts';
import { markdownToDocument } from '../src/features/content/document/to-document.ts';
import type { PageRecord } from '../src/features/content/pages.ts';
import { newId } from '../src/platform/ids.ts';
import { urlRefs } from '../test/corpus/pages.ts';
import { updateSpace } from '../src/features/spaces/store.ts';
import type { BenchServer } from './server.ts';

/**
 * The content-scale benchmark of the content and change-request issues: the same operations on a space of
 * 100 pages and on one of 10,000, in the same run. Sections of 100 pages (one section for the small space, 100
 * for the large one), each page with a document of its own.
 */

export interface SeededSpace {
  spaceId: string;
  pages: number;
  /** A page deep in the tree, the one the operations touch. */
  pageId: string;
}

const seeded = new WeakMap<BenchServer, Map<number, Promise<SeededSpace>>>();

/** One seeded space per size and server for the whole run: scenarios and timed operations share it. */
export function seededSpace(server: BenchServer, pages: number): Promise<SeededSpace> {
  let bySize = seeded.get(server);
  if (!bySize) seeded.set(server, (bySize = new Map()));
  let space = bySize.get(pages);
  if (!space) bySize.set(pages, (space = seedSpace(server, pages)));
  return space;
}

export async function seedSpace(server: BenchServer, pages: number): Promise<SeededSpace> {
  const space = await server.api<{ id: string }>('POST', `/orgs/${server.organizationId}/spaces`, { title: `${pages} pages` });
  const ctx = server.app.ctx;
  const now = new Date().toISOString();
  let target = '';
  await ctx.db.transaction().execute(async (trx) => {
    const branch = (await lockBranch(trx, space.id))!;
    const head = (await findRevision(trx, branch.head_revision_id))!;
    const records = new Map<string, PageRecord>();
    const sections = Math.max(1, Math.round(pages / 100));
    const sectionKeys = generateNKeysBetween(null, null, sections);
    for (let s = 0; s < sections; s++) {
      const sectionId = newId();
      const children = Math.round(pages / sections) - 1;
      records.set(sectionId, await page(trx, sectionId, null, sectionKeys[s]!, `Section ${s}`, now));
      const keys = generateNKeysBetween(null, null, children);
      for (let c = 0; c < children; c++) {
        const id = newId();
        records.set(id, await page(trx, id, sectionId, keys[c]!, `Page ${s}.${c}`, now));
        if (s === Math.floor(sections / 2) && c === Math.floor(children / 2)) target = id;
      }
    }
    const revision = await commitToBranch(ctx, trx, branch, head, { pages: records, type: 'edits', createdBy: null });
    await updateSpace(trx, space.id, { revision_id: revision.id });
  });
  return { spaceId: space.id, pages, pageId: target };
}

const template = JSON.stringify(markdownToDocument('Content of TITLE.\n\n- one\n- two\n\nSee the [guide](https://example.com/ID).\n', urlRefs));

async function page(db: Parameters<typeof putDocument>[0], id: string, parentId: string | null, position: string, title: string, now: string): Promise<PageRecord> {
  const document = JSON.parse(template.replace('TITLE', title).replace('/ID', `/${id}`)) as unknown;
  return {
    id,
    parentId,
    position,
    kind: 'document',
    title,
    slug: title.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
    documentId: await putDocument(db, document, now),
    attributes: {},
    createdAt: now,
    updatedAt: now,
  };
}

export interface TimedResult {
  name: string;
  small: number;
  large: number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function timed(run: () => Promise<void>): Promise<number> {
  const start = process.hrtime.bigint();
  await run();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/**
 * Milliseconds (median) of: editing one page in a change request, reading one page, and merging a change
 * request that changed one page — through the HTTP API, small and large space alternating so that any drift of
 * the machine hits both alike.
 */
export async function runContentScale(server: BenchServer, small: SeededSpace, large: SeededSpace, rounds = 20): Promise<TimedResult[]> {
  const call = async (method: string, path: string, body?: unknown) => server.api(method, path, body);
  const edit = { small: [] as number[], large: [] as number[] };
  const read = { small: [] as number[], large: [] as number[] };
  const merge = { small: [] as number[], large: [] as number[] };
  for (let i = 0; i < rounds; i++) {
    for (const [size, space] of [['small', small], ['large', large]] as const) {
      const cr = (await call('POST', `/spaces/${space.spaceId}/change-requests`, {})) as { id: string };
      const body = { changes: [{ operation: 'update_page', page: space.pageId, document: { markdown: `Edited ${i}.\n\n- one\n- two\n` } }] };
      edit[size].push(await timed(async () => void (await call('POST', `/spaces/${space.spaceId}/change-requests/${cr.id}/content`, body))));
      read[size].push(await timed(async () => void (await call('GET', `/spaces/${space.spaceId}/content/page/${space.pageId}`))));
      merge[size].push(await timed(async () => void (await call('POST', `/spaces/${space.spaceId}/change-requests/${cr.id}/merge`))));
    }
  }
  return [
    { name: 'edit one page in a change request', small: median(edit.small), large: median(edit.large) },
    { name: 'read one page', small: median(read.small), large: median(read.large) },
    { name: 'merge a change request that changed one page', small: median(merge.small), large: median(merge.large) },
  ];
}
