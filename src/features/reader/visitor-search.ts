import { searchPublishedSite } from '../search/site-search.ts';
import type { PageNode } from '../content/tree.ts';
import type { AppContext } from '../../platform/context.ts';
import { pagesOfVariant, type SiteView, type VariantPages } from './service.ts';
import { listedTree } from './site-view.ts';

/**
 * The site's search as a visitor sees it: the search engine's full-text results over the site's spaces
 * (search/site-search.ts, which leaves out the sections and site-spaces the visitor's claims do not open),
 * narrowed to the pages this visitor may see and that are listed (a page whose condition fails, or a hidden
 * page, is not found), each with its published URL and an excerpt. The reader's search dialog and the MCP
 * endpoint's `search` tool answer with these.
 */

export interface SearchHit {
  title: string;
  /** Root-relative URL of the page, with the anchor of the best matching section. */
  href: string;
  /** Heading of the matching section, when it is not the page's opening. */
  section?: string;
  /** Plain text around the match. */
  excerpt?: string;
  /** The matched words of `excerpt`, as [start, end) offsets into it (UTF-16 code units, as JavaScript counts). */
  marks?: [number, number][];
}

/** Spaces asked of the engine per search; each brings its best pages. */
const SPACES_PER_SEARCH = 10;

export async function searchVisibleSite(ctx: AppContext, view: SiteView, text: string, limit: number): Promise<SearchHit[]> {
  const query = text.trim().slice(0, 512);
  if (query === '') return [];
  const result = await searchPublishedSite(ctx, view.site, view.visitor, { query, scope: { mode: 'all' } }, { limit: SPACES_PER_SEARCH });
  // A space may be published by several variants: its pages answer from the first this visitor sees.
  const variantOf = new Map<string, { pages: VariantPages; listed: Set<string> }>();
  for (const variant of view.visible.sections.flatMap((s) => s.variants)) {
    if (variantOf.has(variant.spaceId)) continue;
    const pages = await pagesOfVariant(ctx, view, variant);
    variantOf.set(variant.spaceId, { pages, listed: listedIds(pages.visible) });
  }
  const hits: SearchHit[] = [];
  for (const space of result.items) {
    const found = variantOf.get(space.id);
    if (!found) continue;
    for (const page of space.pages) {
      const node = found.pages.byId.get(page.id);
      if (!node || !found.listed.has(page.id)) continue;
      const best = page.sections?.[0];
      const anchor = best?.path.includes('#') ? best.path.slice(best.path.indexOf('#') + 1) : '';
      const { excerpt, marks } = best ? plainExcerpt(best.body) : { excerpt: '', marks: [] };
      hits.push({
        title: node.page.title,
        href: `${found.pages.url(node)}${anchor ? `#${encodeURIComponent(anchor)}` : ''}`,
        ...(best && anchor && best.title !== node.page.title ? { section: best.title } : {}),
        ...(excerpt ? { excerpt, ...(marks.length > 0 ? { marks } : {}) } : node.page.attributes.description ? { excerpt: node.page.attributes.description } : {}),
      });
      if (hits.length >= limit) return hits;
    }
  }
  return hits;
}

function listedIds(visible: readonly PageNode[]): Set<string> {
  const ids = new Set<string>();
  const walk = (nodes: readonly PageNode[]) => {
    for (const node of nodes) {
      ids.add(node.page.id);
      walk(node.children);
    }
  };
  walk(listedTree(visible));
  return ids;
}

/**
 * The engine's excerpt (HTML-escaped, matches in <mark>) as plain text and the offsets of its matches: the
 * dialog builds text nodes and <mark> elements from them, never HTML, and the MCP tool shows the text.
 */
export function plainExcerpt(body: string): { excerpt: string; marks: [number, number][] } {
  let excerpt = '';
  const marks: [number, number][] = [];
  let open: number | undefined;
  for (const part of body.split(/(<\/?mark>)/)) {
    if (part === '<mark>') open ??= excerpt.length;
    else if (part === '</mark>') {
      if (open !== undefined && excerpt.length > open) marks.push([open, excerpt.length]);
      open = undefined;
    } else excerpt += part.replace(/&(lt|gt|quot|amp|#39);/g, (_, name: string) => ({ lt: '<', gt: '>', quot: '"', amp: '&', '#39': "'" })[name]!);
  }
  // Trimming the start moves every offset; trimming the end may cut a mark short.
  const lead = excerpt.length - excerpt.trimStart().length;
  const text = excerpt.trim();
  return {
    excerpt: text,
    marks: marks.map(([start, end]): [number, number] => [Math.max(0, start - lead), Math.min(text.length, end - lead)]).filter(([start, end]) => end > start),
  };
}
