import type { Executor } from '../../db/types.ts';
import type { PageRequest } from '../../platform/pagination.ts';
import { cachedRead, readCache } from '../../platform/read-cache.ts';
import { findBranch, type RevisionRow } from './branch-store.ts';
import { pageFromRow, type PageRecord } from './pages.ts';
import { revisionRead } from './revision-cache.ts';
import { childrenAt, countFilesAt, fileAt, filesAt, filesPageAt, pageAt, pagesAt, pagesByIdAt, reusableContentsAt, type FileVersionRow, type Layer, type PageVersionRow } from './version-store.ts';
import { isReusableContent, reusableContentOfPage, type ReusableContentRecord } from './reusable-contents.ts';

interface Layers {
  own: Layer;
  base: Layer | undefined;
}

async function layersOf(db: Executor, revision: RevisionRow): Promise<Layers> {
  const branch = await findBranch(db, revision.branch_id);
  const own: Layer = { branchId: revision.branch_id, seq: revision.seq, head: branch?.head_seq === revision.seq };
  let base: Layer | undefined;
  if (revision.base_branch_id !== null && revision.base_seq !== null) {
    const baseBranch = await findBranch(db, revision.base_branch_id);
    base = { branchId: revision.base_branch_id, seq: revision.base_seq, head: baseBranch?.head_seq === revision.base_seq };
  }
  return { own, base };
}

/**
 * The content of one revision. A main-branch revision is one layer; a change request's revision is its own
 * layer over the main revision it is based on: its versions override the base's, deleted ones hide them.
 * Reads ask only for what they need (one page, one parent's children), so their cost does not grow with the space.
 * The revision's reusable contents are versions of the same kind; page reads never show them (reusable-contents.ts).
 */
export class Snapshot {
  private constructor(
    private readonly db: Executor,
    readonly revision: RevisionRow,
    readonly own: Layer,
    readonly base: Layer | undefined,
  ) {}

  static async of(db: Executor, revision: RevisionRow): Promise<Snapshot> {
    // Whether each layer is its branch's head changes only when a branch moves: kept until then (outside
    // transactions), and for the shared TTL when another process may move it.
    const cache = readCache<Layers>(db, 'content:layers', { max: 10_000, ttlMs: 'shared', dependsOn: ['branches', 'revisions'] });
    const { own, base } = await cachedRead(cache, revision.id, () => layersOf(db, revision));
    return new Snapshot(db, revision, own, base);
  }

  async pages(): Promise<PageRecord[]> {
    const own = await pagesAt(this.db, this.own);
    return overlay(own, this.base ? await pagesAt(this.db, this.base) : [], (r) => r.page_id)
      .map(pageFromRow)
      .filter((p) => !isReusableContent(p));
  }

  /** A page by id. */
  async page(id: string): Promise<PageRecord | undefined> {
    const entry = await this.entry(id);
    return entry && !isReusableContent(entry) ? entry : undefined;
  }

  /** A page or a reusable content by id, as merges read both; kept per revision (revision-cache.ts) outside transactions. */
  entry(id: string): Promise<PageRecord | undefined> {
    return revisionRead(this.db, `${this.revision.id} page ${id}`, () => this.readEntry(id));
  }

  private async readEntry(id: string): Promise<PageRecord | undefined> {
    const own = await pageAt(this.db, this.own, id);
    const row = own ?? (this.base ? await pageAt(this.db, this.base, id) : undefined);
    return row && !row.deleted ? pageFromRow(row) : undefined;
  }

  /** The children of a page (null: the top level), unordered; kept per revision outside transactions. */
  children(parentId: string | null): Promise<PageRecord[]> {
    return revisionRead(this.db, `${this.revision.id} children ${parentId ?? ''}`, () => this.readChildren(parentId));
  }

  private async readChildren(parentId: string | null): Promise<PageRecord[]> {
    const own = (await childrenAt(this.db, this.own, parentId)).filter((r) => !isReusableContent(r));
    if (!this.base) return own.filter((r) => !r.deleted).map(pageFromRow);
    const fromBase = (await childrenAt(this.db, this.base, parentId)).filter((r) => !isReusableContent(r));
    // A base child may have been moved away or deleted in this layer: the layer's own version decides.
    const overridden = new Set((await pagesByIdAt(this.db, this.own, fromBase.map((r) => r.page_id))).map((r) => r.page_id));
    return [...own.filter((r) => !r.deleted), ...fromBase.filter((r) => !r.deleted && !overridden.has(r.page_id))].map(pageFromRow);
  }

  /** A reusable content of the revision by id. */
  async reusableContent(id: string): Promise<ReusableContentRecord | undefined> {
    const entry = await this.entry(id);
    return entry && isReusableContent(entry) ? reusableContentOfPage(entry) : undefined;
  }

  /** The revision's reusable contents, unordered; kept per revision outside transactions. */
  reusableContents(): Promise<ReusableContentRecord[]> {
    return revisionRead(this.db, `${this.revision.id} reusable-contents`, async () => {
      const own = await reusableContentsAt(this.db, this.own, this.base !== undefined);
      const rows = overlay(own, this.base ? await reusableContentsAt(this.db, this.base, false) : [], (r) => r.page_id);
      return rows.filter((r) => isReusableContent(r)).map((r) => reusableContentOfPage(pageFromRow(r)));
    });
  }

  /** The page and its ancestors, nearest first. */
  async ancestry(id: string): Promise<PageRecord[]> {
    const chain: PageRecord[] = [];
    let current = await this.page(id);
    while (current && chain.length < 1000) {
      chain.push(current);
      current = current.parentId ? await this.page(current.parentId) : undefined;
    }
    return chain;
  }

  /** The page's path: the slugs from the root down to it (link pages add no segment). */
  async path(id: string): Promise<string> {
    return pathOfAncestry(await this.ancestry(id));
  }

  async files(): Promise<FileVersionRow[]> {
    const own = await filesAt(this.db, this.own);
    return overlay(own, this.base ? await filesAt(this.db, this.base) : [], (r) => r.file_id);
  }

  /** One page of the revision's files, by id, and how many there are: read by keyset, not by loading them all. */
  async filesPage(page: PageRequest): Promise<{ rows: FileVersionRow[]; count: number }> {
    const [rows, count] = await Promise.all([filesPageAt(this.db, this.own, this.base, page), countFilesAt(this.db, this.own, this.base)]);
    return { rows, count };
  }

  async file(id: string): Promise<FileVersionRow | undefined> {
    const own = await fileAt(this.db, this.own, id);
    const row = own ?? (this.base ? await fileAt(this.db, this.base, id) : undefined);
    return row && !row.deleted ? row : undefined;
  }
}

/** A path from a page's ancestry (nearest first, as `ancestry` gives it). */
export function pathOfAncestry(ancestry: readonly PageRecord[]): string {
  return ancestry
    .slice()
    .reverse()
    .filter((p) => p.kind !== 'link')
    .map((p) => p.slug)
    .join('/');
}

function overlay<R extends PageVersionRow | FileVersionRow>(own: R[], base: R[], idOf: (r: R) => string): R[] {
  const ownIds = new Set(own.map(idOf));
  return [...own, ...base.filter((r) => !ownIds.has(idOf(r)))].filter((r) => !r.deleted);
}
