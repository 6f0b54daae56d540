import { DomHandler, DomUtils, Parser, parseDocument } from 'htmlparser2';
import { ApiError } from '../../platform/errors.ts';
import TurndownService from 'turndown';
import gfmPlugins from 'turndown-plugin-gfm';

/*
 * A fetched HTML page, read for a website import: its links (to find the site's other pages), its title, and
 * its main content turned into markdown. htmlparser2 reads the page (it is forgiving with real-world HTML) and
 * the links and images are rewritten there; Turndown, with its GFM plugin for tables, strikethrough and task
 * lists, writes the markdown.
 */

type HtmlNode = ReturnType<typeof parseDocument>['children'][number];
type HtmlElement = ReturnType<typeof DomUtils.findAll>[number];

export interface HtmlPage {
  /** The first `<h1>` of the main content, else the `<title>`, else the first `<h1>` anywhere. */
  title: string | undefined;
  /** Every link of the page as an absolute URL, navigation included: menus are how a site's pages are found. */
  links: string[];
  /** The images of the main content, as absolute http(s) URLs, each once. */
  images: string[];
  /** The main content, without its title heading; read by htmlPageToMarkdown. */
  content: HtmlElement;
  /** What relative references of the page resolve against (its URL, or its `<base href>`). */
  base: URL;
  /** Characters of HTML in the main content: what converting it costs (htmlPageToMarkdown is linear in it). */
  contentSize: number;
}

/**
 * Deepest nesting of elements read: the tree is walked recursively afterwards (serializing, Turndown), and real
 * pages stay far below (GitBook's deepest are under 40).
 */
export const MAX_HTML_DEPTH = 256;
/** Most characters of main-content HTML converted for one page (about a second of Turndown). */
export const MAX_PAGE_HTML = 1_000_000;

/** Refusals of a page too deep or too large to convert, as 400 and 413 naming the limit. */
export function htmlLimitError(what: string, kind: 'depth' | 'size', size: number): ApiError {
  return kind === 'depth'
    ? new ApiError(400, `${what}: its HTML nests elements more than ${MAX_HTML_DEPTH} deep, the most an import converts`)
    : new ApiError(413, `${what}: its main content is ${size} characters of HTML, more than the ${MAX_PAGE_HTML} an import converts per page`);
}

/** Not content: scripts and styles, forms and embedded frames, which markdown cannot hold anyway. */
const NEVER_CONTENT = new Set(['script', 'style', 'noscript', 'template', 'iframe', 'object', 'embed', 'form', 'button', 'select', 'input', 'textarea', 'svg', 'canvas', 'link', 'meta']);
/** The site's frame around the content, dropped when no <main> or <article> says where the content is. */
const SITE_CHROME = new Set(['nav', 'header', 'footer', 'aside']);

class TooDeep extends Error {}

/**
 * htmlparser2's DOM builder, stopped as soon as elements nest deeper than the limit: the parser's own work per
 * closing tag grows with the depth, so a page 100,000 elements deep must be refused while it is read, not after.
 */
class DepthLimitedHandler extends DomHandler {
  override onopentag(name: string, attribs: Record<string, string>): void {
    super.onopentag(name, attribs);
    if (this.tagStack.length > MAX_HTML_DEPTH + 1) throw new TooDeep();
  }
}

function parseLimited(html: string): ReturnType<typeof parseDocument> | undefined {
  const handler = new DepthLimitedHandler();
  try {
    new Parser(handler).end(html);
  } catch (error) {
    if (error instanceof TooDeep) return undefined;
    throw error;
  }
  return handler.root;
}

export function readHtmlPage(html: string, url: string): HtmlPage {
  const document = parseLimited(html);
  if (!document) throw htmlLimitError(url, 'depth', 0);
  const nodes = document.children;
  const base = baseOf(nodes, url);

  const links: string[] = [];
  for (const a of DomUtils.findAll((e) => e.name === 'a' || e.name === 'area', nodes)) {
    const target = absolute(a.attribs.href, base);
    if (target && isHttp(target)) links.push(target.href);
  }

  const main = findContent(nodes);
  for (const element of DomUtils.findAll((e) => NEVER_CONTENT.has(e.name) || e.attribs.hidden !== undefined, [main.element])) DomUtils.removeElement(element);
  if (main.fallback) for (const element of DomUtils.findAll((e) => SITE_CHROME.has(e.name), [main.element])) DomUtils.removeElement(element);

  let title: string | undefined;
  const heading = DomUtils.findOne((e) => e.name === 'h1', [main.element]);
  if (heading) {
    title = textOf(heading);
    // The title becomes the page's title; kept in the body too, it would show twice.
    if (title) DomUtils.removeElement(heading);
  }
  title ||= textOf(DomUtils.findOne((e) => e.name === 'title', nodes)) || textOf(DomUtils.findOne((e) => e.name === 'h1', nodes)) || undefined;

  const images = new Set<string>();
  for (const img of DomUtils.findAll((e) => e.name === 'img', [main.element])) {
    // Lazy-loading pages keep the real source in data-src and a placeholder in src.
    const target = absolute(img.attribs['data-src'] || img.attribs.src, base);
    if (target && isHttp(target)) {
      img.attribs.src = target.href;
      images.add(target.href);
    } else {
      // data: URIs and the like would put whole files in the markdown.
      DomUtils.removeElement(img);
    }
  }
  const contentSize = DomUtils.getInnerHTML(main.element).length;
  if (contentSize > MAX_PAGE_HTML) throw htmlLimitError(url, 'size', contentSize);
  return { title: title ? title.slice(0, 500) : undefined, links, images: [...images], content: main.element, base, contentSize };
}

/**
 * Where a link or an image of the page should point: `kind` tells which, `url` is its absolute URL (anchor
 * included). Whatever it answers is written in the markdown.
 */
export type ReferenceWriter = (kind: 'link' | 'image', url: URL) => string;

/** The main content as markdown, each link and image source written by `write`; same-page anchors stay as they are. Call it once per page: it rewrites the page's references in place. */
export function htmlPageToMarkdown(page: HtmlPage, write: ReferenceWriter): string {
  for (const element of DomUtils.findAll((e) => e.name === 'a' || e.name === 'img', [page.content])) {
    if (element.name === 'img') {
      const src = absolute(element.attribs.src, page.base);
      if (src) element.attribs.src = write('image', src);
      delete element.attribs.srcset;
      continue;
    }
    const href = element.attribs.href?.trim();
    if (href === undefined || href.startsWith('#')) continue;
    const target = absolute(href, page.base);
    if (!target || target.protocol === 'javascript:') delete element.attribs.href;
    else element.attribs.href = isHttp(target) ? write('link', target) : target.href;
  }
  return turndown.turndown(DomUtils.getInnerHTML(page.content)).trim();
}

/** A fragment of HTML written in a markdown file (a `<details>` body of a README) as markdown; its references as written. */
export function htmlFragmentToMarkdown(html: string): string {
  return turndown.turndown(html).trim();
}

// The GFM plugin writes a strikethrough with one tilde, which CommonMark's readers (ours) take as text.
const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-', emDelimiter: '*' })
  .use(gfmPlugins.gfm)
  .addRule('strikethrough', { filter: ['del', 's'], replacement: (content) => `~~${content}~~` });

/**
 * Decodes a page's bytes: the charset of its Content-Type, else of a <meta> in its first bytes, else UTF-8 (what
 * the HTML standard assumes today). An unknown charset falls back to UTF-8 rather than failing the import.
 */
export function decodeHtml(body: Buffer, contentType: string | undefined): string {
  const declared = /charset\s*=\s*["']?([\w.:-]+)/i.exec(contentType ?? '')?.[1] ?? /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(body.subarray(0, 2048).toString('latin1'))?.[1];
  try {
    return new TextDecoder(declared ?? 'utf-8').decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}

/** Whether a response is an HTML page: by its Content-Type, or by its first bytes when it has none. */
export function isHtmlResponse(contentType: string | undefined, body: Buffer): boolean {
  const type = contentType?.split(';')[0]?.trim().toLowerCase();
  if (type) return type === 'text/html' || type === 'application/xhtml+xml';
  return /^(?:\uFEFF)?\s*(?:<!--[\s\S]*?-->\s*)*<(?:!doctype\s+html|html)[\s>]/i.test(body.subarray(0, 1024).toString('utf8'));
}

function findContent(nodes: HtmlNode[]): { element: HtmlElement; fallback: boolean } {
  const main =
    DomUtils.findOne((e) => e.name === 'main', nodes) ??
    DomUtils.findOne((e) => e.attribs.role === 'main', nodes) ??
    DomUtils.findOne((e) => e.name === 'article', nodes);
  if (main) return { element: main, fallback: false };
  const body = DomUtils.findOne((e) => e.name === 'body', nodes) ?? DomUtils.findOne((e) => e.name === 'html', nodes);
  if (body) return { element: body, fallback: true };
  // A fragment without <html> or <body>: htmlparser2 leaves it as is, so a wrapper holds it.
  const wrapper = parseDocument('<div></div>').children[0] as HtmlElement;
  for (const node of [...nodes]) DomUtils.appendChild(wrapper, node);
  return { element: wrapper, fallback: true };
}

function baseOf(nodes: HtmlNode[], url: string): URL {
  const page = new URL(url);
  const href = DomUtils.findOne((e) => e.name === 'base' && e.attribs.href !== undefined, nodes)?.attribs.href;
  return absolute(href, page) ?? page;
}

function absolute(href: string | undefined, base: URL): URL | undefined {
  if (href === undefined || href.trim() === '') return undefined;
  try {
    return new URL(href.trim(), base);
  } catch {
    return undefined;
  }
}

function isHttp(url: URL): boolean {
  return url.protocol === 'http:' || url.protocol === 'https:';
}

function textOf(element: HtmlElement | null | undefined): string {
  return element ? DomUtils.textContent(element).replace(/\s+/g, ' ').trim() : '';
}
