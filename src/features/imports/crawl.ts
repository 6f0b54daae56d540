import { ApiError } from '../../platform/errors.ts';
import type { FetchedResponse } from '../../platform/safe-fetch.ts';
import { parseImportUrl } from './source-url.ts';
import { decodeHtml, isHtmlResponse, readHtmlPage, type HtmlPage } from './html-to-markdown.ts';

/*
 * The crawl of a website import: from the start URL, the pages of the same site (same origin) breadth-first,
 * one request at a time, then the images of the pages found. It is bounded in pages, link depth, bytes
 * downloaded (pages and images together) and time; reaching a bound stops the crawl and what was fetched by then
 * is imported. Only the start page must answer: any other page or image that fails is left out. The network is
 * reached through `fetch`, so the crawl is tested against a fake site.
 */

export interface CrawlLimits {
  /** Most pages imported (at least the start page). */
  maxPages: number;
  /** Most links followed from the start page. */
  maxDepth: number;
  /** Most bytes downloaded in all. */
  maxBytes: number;
  /** Largest single image (FILE_SIZE_LIMIT). */
  maxFileBytes: number;
  /** Time limit of the whole crawl, in milliseconds. */
  timeoutMs: number;
  /** Most characters of main-content HTML converted in all (conversion is bounded like downloading). */
  maxConvertedHtml: number;
}

/** Fetches a URL (GET) with a body of at most `maxBytes`; throws ApiError, as safeFetch does, when it cannot. */
export type Fetcher = (url: string, options: { maxBytes: number; accept: string; signal: AbortSignal }) => Promise<FetchedResponse>;

export interface CrawledPage {
  /** The page's URL after redirects, without its anchor. */
  url: string;
  /** Other URLs that led to it (redirects). */
  aliases: string[];
  /** Links followed from the start page to reach it. */
  depth: number;
  html: HtmlPage;
}

export interface CrawledImage {
  /** The URL the page gives (before redirects): the one its markdown names. */
  url: string;
  name: string;
  contentType: string | undefined;
  bytes: Buffer;
}

export interface CrawlResult {
  /** In the order they were found, the start page first. */
  pages: CrawledPage[];
  images: CrawledImage[];
  /** Distinct pages and images found, whether or not the bounds let them be imported. */
  discovered: number;
  /** Bytes downloaded. */
  bytes: number;
}

const HTML_ACCEPT = 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1';
const IMAGE_ACCEPT = 'image/*,*/*;q=0.1';

/** Characters of main-content HTML a website import converts in all: a few seconds of Turndown. */
export const MAX_CONVERTED_HTML = 5_000_000;

export async function crawlSite(start: string, limits: CrawlLimits, fetch: Fetcher): Promise<CrawlResult> {
  // Named as importContent's field: an import run's URL was checked, under its own field, when the run started.
  const startUrl = parseImportUrl(start, 'body/url');
  const signal = AbortSignal.timeout(limits.timeoutMs);
  let bytes = 0;
  const remaining = () => limits.maxBytes - bytes;
  const stopped = () => signal.aborted || remaining() <= 0;

  const queue = [{ url: pageKey(startUrl), depth: 0 }];
  const seen = new Set([queue[0]!.url]);
  // Two URLs of `seen` that turned out to be one page (a redirect) count once.
  let sameAsAnother = 0;
  const byUrl = new Map<string, CrawledPage>();
  const pages: CrawledPage[] = [];
  let origin = startUrl.origin;
  let converting = 0;

  while (queue.length > 0 && pages.length < Math.max(1, limits.maxPages)) {
    const item = queue.shift()!;
    const isStart = pages.length === 0;
    if (!isStart && stopped()) break;
    if (byUrl.has(item.url)) continue;
    let response: FetchedResponse;
    try {
      response = await fetch(item.url, { maxBytes: remaining(), accept: HTML_ACCEPT, signal });
    } catch (error) {
      if (isStart) throw startFailure(start, error, signal, limits);
      if (isTooLarge(error)) break;
      continue;
    }
    bytes += response.body.length;
    const ok = response.status >= 200 && response.status <= 299;
    const html = ok && isHtmlResponse(response.contentType, response.body);
    if (isStart && !ok) throw new ApiError(422, `Cannot import ${start}: the server answered HTTP ${response.status}`);
    if (isStart && !html) throw new ApiError(422, `Cannot import ${start}: it is not an HTML page (Content-Type: ${response.contentType ?? 'none'})`);
    if (!html) continue;

    const final = new URL(response.url);
    // The site is where the start page really is, after its redirects (http to https, a www. host…).
    if (isStart) origin = final.origin;
    else if (final.origin !== origin) continue;
    const key = pageKey(final);
    if (key !== item.url) {
      sameAsAnother += 1;
      seen.add(key);
      const known = byUrl.get(key);
      if (known) {
        known.aliases.push(item.url);
        byUrl.set(item.url, known);
        continue;
      }
    }
    let read: HtmlPage;
    try {
      read = readHtmlPage(decodeHtml(response.body, response.contentType), final.href);
    } catch (error) {
      // Too deep or too large to convert: the start page fails the import, naming the limit; another is left out.
      if (isStart) throw error;
      continue;
    }
    // Conversion takes time in proportion to the HTML: past the import's budget, further pages are left out.
    converting += read.contentSize;
    if (!isStart && converting > limits.maxConvertedHtml) break;
    const page: CrawledPage = { url: key, aliases: key === item.url ? [] : [item.url], depth: item.depth, html: read };
    pages.push(page);
    byUrl.set(key, page);
    byUrl.set(item.url, page);

    for (const link of page.html.links) {
      const url = new URL(link);
      if (url.origin !== origin || !mayBePage(url)) continue;
      const linkKey = pageKey(url);
      if (seen.has(linkKey)) continue;
      seen.add(linkKey);
      // Pages past the depth bound are found (and counted) but not fetched.
      if (item.depth < limits.maxDepth) queue.push({ url: linkKey, depth: item.depth + 1 });
    }
  }

  const imageUrls = [...new Set(pages.flatMap((p) => p.html.images))];
  const images: CrawledImage[] = [];
  for (const url of imageUrls) {
    if (stopped()) break;
    // Longer URLs are not accepted for files of a batch; such an image stays a link to the site.
    if (url.length > 2048) continue;
    const maxBytes = Math.min(remaining(), limits.maxFileBytes);
    let response: FetchedResponse;
    try {
      response = await fetch(url, { maxBytes, accept: IMAGE_ACCEPT, signal });
    } catch (error) {
      if (isTooLarge(error) && maxBytes < limits.maxFileBytes) break;
      continue;
    }
    bytes += response.body.length;
    if (response.status < 200 || response.status > 299 || !isImageType(response.contentType)) continue;
    images.push({ url, name: fileName(new URL(response.url)), contentType: response.contentType, bytes: response.body });
  }

  return { pages, images, discovered: seen.size - sameAsAnother + imageUrls.length, bytes };
}

/** A page's identity in the crawl: its absolute URL without the anchor. */
export function pageKey(url: URL | string): string {
  const copy = new URL(url);
  copy.hash = '';
  return copy.href;
}

/** Files a link may point to that are surely not pages; fetching them would only spend the byte budget. */
const NOT_PAGES = new Set(
  (
    'pdf zip gz tgz tar bz2 xz 7z rar dmg exe msi deb rpm apk iso bin wasm jar ' +
    'png jpg jpeg gif webp avif svg ico bmp tif tiff heic mp3 mp4 m4a ogg oga ogv webm wav mov avi mkv flac ' +
    'css js mjs map json xml rss atom txt csv tsv woff woff2 ttf otf eot doc docx xls xlsx ppt pptx odt ods odp epub'
  ).split(' '),
);

/** Whether a same-site link may lead to a page: anything but a URL whose name ends with a known file extension. */
export function mayBePage(url: URL): boolean {
  const name = url.pathname.slice(url.pathname.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot < 0 || !NOT_PAGES.has(name.slice(dot + 1).toLowerCase());
}

/** The name an image is stored under: the last segment of its URL's path. */
export function fileName(url: URL): string {
  const last = url.pathname.split('/').filter(Boolean).pop();
  let name = last ?? '';
  try {
    name = decodeURIComponent(name);
  } catch {
    // Kept encoded: a name is only what a download is saved as.
  }
  name = name.replace(/\p{Cc}/gu, '').trim();
  return name ? name.slice(0, 200) : 'image';
}

function isTooLarge(error: unknown): boolean {
  return error instanceof ApiError && error.statusCode === 413;
}

/** Images have image types; servers that do not say are given the benefit of the doubt. HTML (an error page) is not an image. */
function isImageType(contentType: string | undefined): boolean {
  const type = contentType?.split(';')[0]?.trim().toLowerCase();
  return !type || type.startsWith('image/') || type === 'application/octet-stream';
}

function startFailure(start: string, error: unknown, signal: AbortSignal, limits: CrawlLimits): ApiError {
  if (signal.aborted) return new ApiError(422, `Cannot import ${start}: no answer within the import's time limit of ${limits.timeoutMs} ms (IMPORT_TIMEOUT_MS)`);
  if (isTooLarge(error)) return new ApiError(413, `Cannot import ${start}: the page is larger than the ${limits.maxBytes} bytes an import may download (IMPORT_MAX_BYTES)`);
  if (error instanceof ApiError) return error;
  return new ApiError(422, `Cannot import ${start}: ${error instanceof Error ? error.message : String(error)}`);
}
