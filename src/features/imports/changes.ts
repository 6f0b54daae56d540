import type { ContentChange } from '../content/change-schemas.ts';
import { pageKey, type CrawledImage, type CrawledPage } from './crawl.ts';
import { htmlPageToMarkdown } from './html-to-markdown.ts';

/*
 * The batch of content changes that imports a crawled site, in the shape any content write takes: the images
 * as insert_files, each page as insert_page (or, for the page imported into, update_page), the pages flat, in
 * the order they were found. Links between imported pages are written as the batch's page refs (`./<ref>.md`)
 * and images as their file refs, so the batch turns them into page links and file references; anything else
 * keeps its absolute URL.
 */

/** Where the import goes: a whole new set of pages at the root, or into an existing page (it becomes the start page). */
export type ImportPlacement = { into: 'root' } | { into: 'page'; pageId: string };

/** Files of one insert_files change, as its schema allows. */
const FILES_PER_CHANGE = 20;
/** Longest markdown a page may carry in a batch (see change-schemas.ts). */
const MAX_MARKDOWN = 5_000_000;

export interface ImportBatch {
  changes: ContentChange[];
  /** For each image, its key in the batch (`<change index>/<file index>`, as storeBatchFiles names them). */
  fileKeys: Map<CrawledImage, string>;
}

export function importChanges(pages: readonly CrawledPage[], images: readonly CrawledImage[], placement: ImportPlacement): ImportBatch {
  const changes: ContentChange[] = [];
  const fileKeys = new Map<CrawledImage, string>();
  const imageRefs = new Map<string, string>();
  images.forEach((image, i) => {
    const ref = `image-${i + 1}`;
    imageRefs.set(image.url, ref);
    if (i % FILES_PER_CHANGE === 0) changes.push({ operation: 'insert_files', files: [] });
    const change = changes[changes.length - 1] as Extract<ContentChange, { operation: 'insert_files' }>;
    fileKeys.set(image, `${changes.length - 1}/${change.files.length}`);
    change.files.push({ ref, name: image.name, url: image.url });
  });

  // Where a link to each imported URL (and each URL that redirected to it) points in the markdown.
  const pageHrefs = new Map<string, string>();
  pages.forEach((page, i) => {
    const href = i === 0 && placement.into === 'page' ? `/pages/${placement.pageId}` : `./${pageRef(i)}.md`;
    for (const url of [page.url, ...page.aliases]) pageHrefs.set(url, href);
  });

  pages.forEach((page, i) => {
    const body = htmlPageToMarkdown(page.html, (kind, url) => {
      if (kind === 'image') return imageRefs.has(url.href) ? `./${imageRefs.get(url.href)}` : url.href;
      const href = pageHrefs.get(pageKey(url));
      if (!href) return url.href;
      return url.hash ? `${href}${url.hash}` : href;
    });
    const title = page.html.title || titleFromUrl(page.url);
    // The title goes in front matter, so a heading that opens the body stays in the body.
    const markdown = `---\ntitle: ${JSON.stringify(title)}\n---\n\n${fitted(body)}\n`;
    if (i === 0 && placement.into === 'page') changes.push({ operation: 'update_page', page: placement.pageId, document: { markdown } });
    else changes.push({ operation: 'insert_page', ref: pageRef(i), ...(placement.into === 'page' ? { into: placement.pageId } : {}), document: { markdown } });
  });
  return { changes, fileKeys };
}

function pageRef(index: number): string {
  return `page-${index + 1}`;
}

/** A page without a title is named after the last segment of its URL, or its host for the home page. */
function titleFromUrl(url: string): string {
  const parsed = new URL(url);
  const last = parsed.pathname.split('/').filter(Boolean).pop();
  let name = last ?? parsed.hostname;
  try {
    name = decodeURIComponent(name);
  } catch {
    // kept as written
  }
  return name.replace(/\.(?:html?|php|aspx?|jsp)$/i, '').slice(0, 500) || parsed.hostname;
}

/** A page longer than a batch accepts keeps its beginning, cut at a paragraph break. */
function fitted(markdown: string): string {
  const room = MAX_MARKDOWN - 1000;
  if (markdown.length <= room) return markdown;
  const cut = markdown.lastIndexOf('\n\n', room);
  return markdown.slice(0, cut > 0 ? cut : room);
}
