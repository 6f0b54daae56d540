import type { Config } from '../../config.ts';
import { appUrl } from '../../platform/urls.ts';
import { MARK_END, MARK_START, type SectionHit } from './store.ts';

export interface PagePlace {
  title: string;
  path: string;
}

/** Sections shown per page: the best few, as a reader's search dialog lists them. */
const SECTIONS_PER_PAGE = 5;

/**
 * A matching page as the spec's SearchPageResult: the sections whose heading or text matched, best first (or
 * the page's opening when only its title did), each with an excerpt whose matched words are marked. A site's
 * search adds the page's published URL (`urls.published`, as the API's other published objects name it).
 */
export function presentPageResult(config: Config, spaceId: string, pageId: string, place: PagePlace, sections: readonly SectionHit[], publishedUrl?: string) {
  const pageUrl = appUrl(config, `/s/${spaceId}/${place.path}`);
  const matched = sections.filter((s) => s.matched);
  const shown = (matched.length > 0 ? matched : sections.slice().sort((a, b) => a.ordinal - b.ordinal).slice(0, 1)).slice(0, SECTIONS_PER_PAGE);
  return {
    id: pageId,
    title: place.title,
    path: place.path,
    sections: shown.map((s) => ({
      id: s.anchor === '' ? pageId : s.anchor,
      title: s.heading === '' ? place.title : s.heading,
      path: s.anchor === '' ? place.path : `${place.path}#${s.anchor}`,
      body: markedExcerpt(s.excerpt),
      urls: {
        app: s.anchor === '' ? pageUrl : `${pageUrl}#${s.anchor}`,
        ...(publishedUrl !== undefined ? { published: s.anchor === '' ? publishedUrl : `${publishedUrl}#${s.anchor}` } : {}),
      },
    })),
    urls: { app: pageUrl, ...(publishedUrl !== undefined ? { published: publishedUrl } : {}) },
  };
}

/** The excerpt is plain text: escaped for HTML, then the engine's match delimiters become <mark> elements. */
export function markedExcerpt(excerpt: string): string {
  return excerpt
    .replace(/[&<>"]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&quot;'))
    .replaceAll(MARK_START, '<mark>')
    .replaceAll(MARK_END, '</mark>');
}
