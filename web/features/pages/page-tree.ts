/*
 * The page tree of a revision, indexed once for a space's screens: a page by id or by path (app URLs name a
 * page by its path), its ancestors (breadcrumbs), and the first readable page (what a space opens on). Pure and
 * linear: a 10,000-page tree is walked once, with a stack, not recursion.
 */

export interface TreePage {
  id: string;
  title: string;
  emoji?: string;
  type: 'document' | 'group' | 'link' | 'computed' | string;
  path?: string;
  hidden?: boolean;
  /** A document's own variables (`page.vars` of its expressions). */
  variables?: Record<string, unknown>;
  pages?: TreePage[];
}

export interface PageIndex {
  byId: Map<string, TreePage>;
  byPath: Map<string, TreePage>;
  parentOf: Map<string, TreePage>;
  /** Readable pages (documents) in reading order, for the first page and previous / next. */
  order: TreePage[];
}

export function indexPages(pages: readonly TreePage[]): PageIndex {
  const index: PageIndex = { byId: new Map(), byPath: new Map(), parentOf: new Map(), order: [] };
  const stack: { page: TreePage; parent?: TreePage }[] = [...pages].reverse().map((page) => ({ page }));
  while (stack.length > 0) {
    const { page, parent } = stack.pop()!;
    index.byId.set(page.id, page);
    if (page.path !== undefined) index.byPath.set(page.path, page);
    if (parent) index.parentOf.set(page.id, parent);
    if (page.type === 'document') index.order.push(page);
    const children = page.pages ?? [];
    for (let i = children.length - 1; i >= 0; i--) stack.push({ page: children[i]!, parent: page });
  }
  return index;
}

/** The pages from the top of the tree down to the page's parent. */
export function ancestorsOf(index: PageIndex, pageId: string): TreePage[] {
  const chain: TreePage[] = [];
  const seen = new Set<string>();
  for (let parent = index.parentOf.get(pageId); parent && !seen.has(parent.id); parent = index.parentOf.get(parent.id)) {
    seen.add(parent.id);
    chain.unshift(parent);
  }
  return chain;
}

/** The page an app path names: its path in the space, or the space's first readable page for an empty path. */
export function pageAtPath(index: PageIndex, path: string): TreePage | undefined {
  const clean = path.replace(/^\/+|\/+$/g, '');
  if (clean === '') return index.order.find((page) => !page.hidden) ?? index.order[0];
  return index.byPath.get(clean) ?? index.byPath.get(safeDecode(clean));
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** The app path of a page of a space (`/s/<space>/<path>`, as the API's urls.app say). */
export function pagePath(spaceId: string, page: TreePage): string {
  return `/s/${spaceId}/${page.path ?? ''}`;
}
