/**
 * From the links a revision's pages make to the list the API shows (pure): one item per target, with the pages
 * where it appears, and its status. An internal target missing from the revision is `broken` at once; an
 * external URL is `broken` when its last check by the job worker failed, `in-app` when it points into this
 * server's own app.
 */

export interface LinkRow {
  /** The page whose document holds the link. */
  page_id: string;
  kind: 'page' | 'file' | 'anchor' | 'url';
  target: string;
  anchor: string | null;
  space_id: string | null;
  relation: 'reference' | 'dependsOn';
}

export type LinkStatus = 'ok' | 'broken' | 'in-app';

export type LinkTarget = { kind: 'page'; page: string; anchor?: string } | { kind: 'file'; file: string } | { kind: 'url'; url: string };

export interface LinkItem {
  /** The item's place in the list's order (and its cursor). */
  key: string;
  status: LinkStatus;
  relation: 'reference' | 'dependsOn';
  target: LinkTarget;
  /** Pages where the link appears, sorted by id. */
  locations: string[];
}

export interface Resolution {
  spaceId: string;
  livePages: ReadonlySet<string>;
  liveFiles: ReadonlySet<string>;
  /** Failed external checks (URLs not in it are ok: unchecked yet, or fine at the last check). */
  brokenUrls: ReadonlySet<string>;
  /** The app's own base URL: a link there is `in-app`. */
  appUrl: string;
}

/** The target of a row, or undefined for a link into another space (not resolved here). */
export function targetOf(row: LinkRow, spaceId: string): LinkTarget | undefined {
  if (row.space_id !== null && row.space_id !== spaceId) return undefined;
  switch (row.kind) {
    case 'page':
      return { kind: 'page', page: row.target };
    case 'anchor':
      // An anchor without a page is on the page that holds it.
      return { kind: 'page', page: row.target || row.page_id, anchor: row.anchor ?? '' };
    case 'file':
      return { kind: 'file', file: row.target };
    case 'url':
      return { kind: 'url', url: row.target };
  }
}

export function keyOf(target: LinkTarget): string {
  if (target.kind === 'page') return target.anchor !== undefined ? `page:${target.page}#${target.anchor}` : `page:${target.page}`;
  if (target.kind === 'file') return `file:${target.file}`;
  return `url:${target.url}`;
}

export function statusOf(target: LinkTarget, r: Resolution): LinkStatus {
  if (target.kind === 'page') return r.livePages.has(target.page) ? 'ok' : 'broken';
  if (target.kind === 'file') return r.liveFiles.has(target.file) ? 'ok' : 'broken';
  if (isInApp(target.url, r.appUrl)) return 'in-app';
  return r.brokenUrls.has(target.url) ? 'broken' : 'ok';
}

function isInApp(url: string, appUrl: string): boolean {
  const base = appUrl.replace(/\/+$/, '');
  return url === base || url.startsWith(`${base}/`);
}

/** Groups rows by target, sorted by key; a target both shown and pointed at is `dependsOn` (the stronger tie). */
export function analyzeLinks(rows: readonly LinkRow[], r: Resolution): LinkItem[] {
  const items = new Map<string, { target: LinkTarget; relation: LinkItem['relation']; locations: Set<string> }>();
  for (const row of rows) {
    const target = targetOf(row, r.spaceId);
    if (!target) continue;
    const key = keyOf(target);
    const item = items.get(key) ?? { target, relation: row.relation, locations: new Set<string>() };
    if (row.relation === 'dependsOn') item.relation = 'dependsOn';
    item.locations.add(row.page_id);
    items.set(key, item);
  }
  return [...items.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, item]) => ({ key, status: statusOf(item.target, r), relation: item.relation, target: item.target, locations: [...item.locations].sort() }));
}

/** The internal ids a set of rows points at, to look up in the revision in one batch each. */
export function internalTargets(rows: readonly LinkRow[], spaceId: string): { pages: string[]; files: string[]; urls: string[] } {
  const pages = new Set<string>();
  const files = new Set<string>();
  const urls = new Set<string>();
  for (const row of rows) {
    const target = targetOf(row, spaceId);
    if (target?.kind === 'page') pages.add(target.page);
    else if (target?.kind === 'file') files.add(target.file);
    else if (target?.kind === 'url') urls.add(target.url);
  }
  return { pages: [...pages], files: [...files], urls: [...urls] };
}

export interface LinkStats {
  total: number;
  broken: { total: number; changeRequest?: number };
}

/**
 * `changeRequest`: broken links of a change request that are not broken on the main revision it is based on,
 * i.e. the ones the change request broke.
 */
export function statsOf(items: readonly LinkItem[], baseItems?: readonly LinkItem[]): LinkStats {
  const broken = items.filter((i) => i.status === 'broken');
  if (!baseItems) return { total: items.length, broken: { total: broken.length } };
  const brokenInBase = new Set(baseItems.filter((i) => i.status === 'broken').map((i) => i.key));
  return { total: items.length, broken: { total: broken.length, changeRequest: broken.filter((i) => !brokenInBase.has(i.key)).length } };
}
