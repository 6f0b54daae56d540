import { compareSiblings, type PageRecord } from './pages.ts';

export interface PageNode {
  page: PageRecord;
  path: string;
  children: PageNode[];
}

/** The nested page tree of a revision from its flat pages, siblings in order, with each page's path. */
export function buildTree(pages: readonly PageRecord[]): PageNode[] {
  const byParent = new Map<string | null, PageRecord[]>();
  const ids = new Set(pages.map((p) => p.id));
  for (const page of pages) {
    // A parent missing from the revision would hide its subtree; show such pages at the root instead.
    const parent = page.parentId !== null && ids.has(page.parentId) ? page.parentId : null;
    const list = byParent.get(parent);
    if (list) list.push(page);
    else byParent.set(parent, [page]);
  }
  const visited = new Set<string>();
  const build = (parentId: string | null, prefix: string): PageNode[] =>
    (byParent.get(parentId) ?? [])
      .slice()
      .sort(compareSiblings)
      .filter((page) => !visited.has(page.id) && visited.add(page.id))
      .map((page) => {
        const path = page.kind === 'link' ? prefix : prefix ? `${prefix}/${page.slug}` : page.slug;
        return { page, path, children: build(page.id, path) };
      });
  return build(null, '');
}

/** Depth-first list of the nodes of a tree. */
export function flattenTree(nodes: readonly PageNode[]): PageNode[] {
  const out: PageNode[] = [];
  const walk = (list: readonly PageNode[]) => {
    for (const node of list) {
      out.push(node);
      walk(node.children);
    }
  };
  walk(nodes);
  return out;
}

/** The ids of a page and all pages below it. */
export function subtreeIds(pages: readonly PageRecord[], rootId: string): Set<string> {
  const children = new Map<string, string[]>();
  for (const p of pages) if (p.parentId) children.set(p.parentId, [...(children.get(p.parentId) ?? []), p.id]);
  const out = new Set<string>();
  const stack = [rootId];
  while (stack.length > 0) {
    const id = stack.pop()!;
    if (out.has(id)) continue;
    out.add(id);
    stack.push(...(children.get(id) ?? []));
  }
  return out;
}

/**
 * A page slug: lower-case words joined by dashes, as Git Sync names files. Non-Latin titles keep their letters:
 * only Latin accents are dropped, the rest is recomposed (NFKD splits ガ into カ and a combining mark), and
 * combining marks stay (Devanagari vowel signs are marks, not letters).
 */
export function slugify(title: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .normalize('NFC')
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 100)
    .replace(/-+$/g, '');
  return slug || 'page';
}

/** `base`, or `base-2`, `base-3`… : the first that no sibling uses. */
export function uniqueSlug(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let i = 2; ; i++) if (!taken.has(`${base}-${i}`)) return `${base}-${i}`;
}
