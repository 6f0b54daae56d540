import type { PageNode } from '../content/tree.ts';

/*
 * Pure rules of a published site as one visitor sees it: which sections, variants and pages are theirs
 * (adaptive conditions decide), which of them a URL names, and each page's URL. No I/O: service.ts loads the
 * site's structure and its spaces' page trees and asks here.
 */

/** A variant (site-space) with the URL it answers at and the revision it shows. */
export interface VisibleVariant {
  id: string;
  title: string;
  path: string;
  isDefault: boolean;
  /** Root-relative URL of the variant, ending in `/`. */
  url: string;
  spaceId: string;
  revisionId: string;
}

export interface VisibleSection {
  /** null: the stand-in section of a site without sections. */
  id: string | null;
  title: string;
  path: string;
  isDefault: boolean;
  icon?: string;
  url: string;
  variants: VisibleVariant[];
}

/** An entry of the site's navigation: one of its visible sections, or an external link of its structure. */
export type VisibleTab = { kind: 'section'; id: string } | { kind: 'link'; title: string; url: string; icon?: string };

/** The visible structure of a site: sections (a site without sections has one stand-in, `id` null). */
export interface VisibleSite {
  sections: VisibleSection[];
  /** Its navigation in order, external links among the sections; absent: the sections alone. */
  tabs?: VisibleTab[];
}

export type Condition = (expression: string) => boolean;

/** The item marked default, else the first: a hidden default hands over to the first visible sibling. */
export function defaultOf<T extends { isDefault: boolean }>(items: readonly T[]): T | undefined {
  return items.find((item) => item.isDefault) ?? items[0];
}

/** Where a URL's segments (after the site's) lead: a section, a variant of it, and the rest as a page path. */
export function locate(site: VisibleSite, segments: readonly string[]): { section: VisibleSection; variant: VisibleVariant; pagePath: string } | undefined {
  let rest = segments.filter((s) => s.length > 0);
  let section = defaultOf(site.sections);
  const named = site.sections.find((s) => !s.isDefault && s.id !== null && s.path === rest[0]);
  if (named) {
    section = named;
    rest = rest.slice(1);
  }
  if (!section) return undefined;
  let variant = defaultOf(section.variants);
  const namedVariant = section.variants.find((v) => !v.isDefault && v.path === rest[0]);
  if (namedVariant) {
    variant = namedVariant;
    rest = rest.slice(1);
  }
  if (!variant) return undefined;
  return { section, variant, pagePath: rest.join('/') };
}

/** A page tree as a visitor sees it: pages whose condition does not hold are gone, with their subtrees. */
export function visibleTree(nodes: readonly PageNode[], holds: Condition): PageNode[] {
  return nodes
    .filter((node) => !node.page.attributes.condition || holds(node.page.attributes.condition))
    .map((node) => ({ ...node, children: visibleTree(node.children, holds) }));
}

/** Pages listed in the sidebar: not hidden (a hidden page is reachable by its URL, not listed). */
export function listedTree(nodes: readonly PageNode[]): PageNode[] {
  return nodes.filter((node) => !node.page.attributes.hidden).map((node) => ({ ...node, children: listedTree(node.children) }));
}

/** Document pages in reading order (depth first), the order of previous/next. */
export function readingOrder(nodes: readonly PageNode[]): PageNode[] {
  const out: PageNode[] = [];
  const walk = (list: readonly PageNode[]) => {
    for (const node of list) {
      if (node.page.kind === 'document') out.push(node);
      walk(node.children);
    }
  };
  walk(nodes);
  return out;
}

/** Every document page of a (visible) tree by its path, hidden ones included. */
export function pagesByPath(nodes: readonly PageNode[]): Map<string, PageNode> {
  const byPath = new Map<string, PageNode>();
  const walk = (list: readonly PageNode[]) => {
    for (const node of list) {
      if (node.page.kind === 'document' && !byPath.has(node.path)) byPath.set(node.path, node);
      walk(node.children);
    }
  };
  walk(nodes);
  return byPath;
}

/** The first page a variant shows at its own URL: the first listed document page. */
export function firstPage(visible: readonly PageNode[]): PageNode | undefined {
  return readingOrder(listedTree(visible))[0];
}

/** A page's URL: the variant's root for its first page, else the variant's URL and the page's path. */
export function pageUrl(variant: Pick<VisibleVariant, 'url'>, node: PageNode, first: PageNode | undefined): string {
  if (first && node.page.id === first.page.id) return variant.url;
  return `${variant.url}${node.path.split('/').map(encodeURIComponent).join('/')}`;
}

/** The chain from the root down to a page (the page itself last). */
export function ancestry(nodes: readonly PageNode[], pageId: string): PageNode[] {
  for (const node of nodes) {
    if (node.page.id === pageId) return [node];
    const below = ancestry(node.children, pageId);
    if (below.length > 0) return [node, ...below];
  }
  return [];
}
