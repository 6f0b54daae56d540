import { compareSiblings, type PageRecord } from './pages.ts';
import type { Snapshot } from './snapshot.ts';
import { isReusableContent, reusableContentOfPage, type ReusableContentRecord } from './reusable-contents.ts';

/**
 * Pending page changes over a snapshot, for one batch of edits. It reads only the pages the batch asks about
 * (a page, its ancestors, one parent's children), so a small edit of a large space stays small.
 */
export class Workspace {
  private readonly pending = new Map<string, PageRecord | null>();
  private readonly cache = new Map<string, PageRecord | undefined>();

  constructor(readonly snapshot: Snapshot) {}

  async page(id: string): Promise<PageRecord | undefined> {
    const entry = await this.entry(id);
    return entry && !isReusableContent(entry) ? entry : undefined;
  }

  /** A reusable content as it is now (pending reusable contents are kept as the page versions they are stored as). */
  async reusableContent(id: string): Promise<ReusableContentRecord | undefined> {
    const entry = await this.entry(id);
    return entry && isReusableContent(entry) ? reusableContentOfPage(entry) : undefined;
  }

  private async entry(id: string): Promise<PageRecord | undefined> {
    if (this.pending.has(id)) return this.pending.get(id) ?? undefined;
    if (!this.cache.has(id)) this.cache.set(id, await this.snapshot.entry(id));
    return this.cache.get(id);
  }

  /** The page as the revision had it before this batch. */
  async original(id: string): Promise<PageRecord | undefined> {
    if (!this.cache.has(id)) this.cache.set(id, await this.snapshot.entry(id));
    const page = this.cache.get(id);
    return page && !isReusableContent(page) ? page : undefined;
  }

  /** Children of a page (null: root pages) with the batch's changes applied, in order. */
  async children(parentId: string | null): Promise<PageRecord[]> {
    const stored = await this.snapshot.children(parentId);
    for (const page of stored) if (!this.cache.has(page.id)) this.cache.set(page.id, page);
    const result = new Map<string, PageRecord>();
    for (const page of stored) {
      const now = this.pending.has(page.id) ? this.pending.get(page.id) : page;
      if (now && now.parentId === parentId) result.set(now.id, now);
    }
    for (const [id, page] of this.pending) if (page && page.parentId === parentId && !isReusableContent(page)) result.set(id, page);
    return [...result.values()].sort(compareSiblings);
  }

  set(page: PageRecord): void {
    this.pending.set(page.id, page);
  }

  delete(id: string): void {
    this.pending.set(id, null);
  }

  /** The page and every page below it, as they are now. */
  async subtree(id: string): Promise<PageRecord[]> {
    const root = await this.page(id);
    if (!root) return [];
    const out: PageRecord[] = [root];
    for (let i = 0; i < out.length && out.length < 100_000; i++) out.push(...(await this.children(out[i]!.id)));
    return out;
  }

  /** True when `ancestorId` is `id` or one of its ancestors. */
  async isWithin(id: string, ancestorId: string): Promise<boolean> {
    let current: string | null = id;
    for (let depth = 0; current !== null && depth < 1000; depth++) {
      if (current === ancestorId) return true;
      current = (await this.page(current))?.parentId ?? null;
    }
    return false;
  }

  /** Slash-separated slugs from the root to the page (links add no segment). */
  async pathOf(id: string): Promise<string> {
    const segments: string[] = [];
    let current = await this.page(id);
    for (let depth = 0; current && depth < 1000; depth++) {
      if (current.kind !== 'link') segments.unshift(current.slug);
      current = current.parentId ? await this.page(current.parentId) : undefined;
    }
    return segments.join('/');
  }

  changes(): Map<string, PageRecord | null> {
    return this.pending;
  }
}

/** Follows slugs from the root through the workspace (links have no path segment of their own). */
export async function findByPath(ws: Workspace, path: string): Promise<PageRecord | undefined> {
  const segments = path.split('/').filter((s) => s.length > 0);
  let parentId: string | null = null;
  let found: PageRecord | undefined;
  for (const segment of segments) {
    found = (await ws.children(parentId)).find((p) => p.slug === segment && p.kind !== 'link');
    if (!found) return undefined;
    parentId = found.id;
  }
  return found;
}
