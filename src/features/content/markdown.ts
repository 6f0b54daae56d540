import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import type { AppContext } from '../../platform/context.ts';
import { badRequest } from '../../platform/errors.ts';
import { documentToMarkdown } from './document/to-markdown.ts';
import { markdownToDocument } from './document/to-document.ts';
import { unescapeMarkdown } from './document/markdown-parser.ts';
import type { ContentRef, Document } from './document/types.ts';
import type { Snapshot } from './snapshot.ts';
import { documentToMarkdownOffThread, INLINE_MAX_CHARS, isLargeDocument, prepareMarkdownOffThread, usePool } from './conversion-pool.ts';
import { adoptPreparedDocument, canonicalJson, parseStoredDocument } from './document-store.ts';
import type { PageAttributes } from './pages.ts';

/**
 * Where markdown meets the page tree. In markdown, references are written `/pages/<id>`, `/files/<id>`,
 * `#anchor` or a URL; on input, links may also be paths relative to the page (Git Sync style, `../guide/setup.md`)
 * or the `ref` of a page or file inserted in the same batch.
 */
export function refToHref(ref: ContentRef): string {
  switch (ref.kind) {
    case 'page':
      return `/pages/${ref.page}`;
    case 'file':
      return `/files/${ref.file}`;
    case 'anchor':
      return ref.page ? `/pages/${ref.page}#${ref.anchor}` : `#${ref.anchor}`;
    case 'url':
      return ref.url;
    default:
      return '';
  }
}

/**
 * Renders stored documents as markdown (references need no lookup in this direction), from their JSON text:
 * a large one is parsed and converted on the conversion pool, off the request's thread.
 */
export function markdownRenderer(_ctx: AppContext, _snapshot: Snapshot) {
  return (documentText: string) => storedDocumentToMarkdown(documentText);
}

/** A stored document's JSON text as markdown, references written in their fixed forms. */
export async function storedDocumentToMarkdown(text: string): Promise<string> {
  if (usePool() && text.length > INLINE_MAX_CHARS) return documentToMarkdownOffThread({ text });
  return documentToMarkdown(parseStoredDocument(text) as Document, refToHref);
}

/** A stored document as markdown, references written in their fixed forms (for text merges). */
export async function documentToMarkdownText(document: unknown): Promise<string> {
  if (usePool() && isLargeDocument(document)) return documentToMarkdownOffThread({ document });
  return documentToMarkdown(document as Document, refToHref);
}

/** Resolves what a markdown link points to; relative paths need the page tree, hence async. */
export type HrefResolver = (href: string) => Promise<ContentRef>;

const ABSOLUTE_URL = /^[a-z][a-z0-9+.-]*:/i;

/** The fixed forms: `/pages/<id>`, `/files/<id>`, anchors and URLs. Others are left to the caller (undefined). */
export function resolveFixedHref(href: string): ContentRef | undefined {
  const [path, anchor] = splitAnchor(href);
  const page = /^\/pages\/([^/?#]+)\/?$/.exec(path);
  if (page) return anchor ? { kind: 'anchor', anchor, page: page[1]! } : { kind: 'page', page: page[1]! };
  const file = /^\/files\/([^/?#]+)\/?$/.exec(path);
  if (file) return { kind: 'file', file: file[1]! };
  if (path === '' && anchor) return { kind: 'anchor', anchor };
  if (ABSOLUTE_URL.test(href) || href.startsWith('//')) return { kind: 'url', url: href };
  return undefined;
}

function fixedHrefOrUrl(href: string): ContentRef {
  return resolveFixedHref(href) ?? { kind: 'url', url: href };
}

/** Takes links as written: only the fixed forms are references, anything else is a URL (where no page tree applies). */
export const resolveFixedHrefOrUrl: HrefResolver = async (href) => fixedHrefOrUrl(href);

/** What a conversion took each link it met for, by href. */
export type AssumedLinks = Map<string, ContentRef>;

/**
 * One conversion of markdown: each link as `refs` gives it, else in its fixed form or as a URL; answers with the
 * document every href met and what it was taken for. The conversion pool's threads run this very function
 * (conversion-worker.ts), so a page converts alike on either side. A Map, not an object, since an href may be
 * any string (`__proto__` included) and a Map crosses to and from the threads as it is.
 */
export function convertMarkdownOnce(markdown: string, refs?: ReadonlyMap<string, ContentRef>): { document: Document; assumed: AssumedLinks } {
  const assumed: AssumedLinks = new Map();
  const document = markdownToDocument(markdown, (href) => {
    const ref = refs?.get(href) ?? fixedHrefOrUrl(href);
    assumed.set(href, ref);
    return ref;
  });
  return { document, assumed };
}

/**
 * Converts with every link resolved by `resolve`, whichever side runs the conversion (`convert`, given the refs
 * to use). The first conversion takes each link in its fixed form or as a URL, which most links are; only when
 * `resolve` answers otherwise for one does a second conversion use its answers. Each href is resolved once, in
 * the order the markdown meets them.
 */
async function convertResolvingLinks<T extends { assumed: ReadonlyMap<string, ContentRef> }>(
  resolve: HrefResolver,
  convert: (refs?: ReadonlyMap<string, ContentRef>) => Promise<T>,
): Promise<T> {
  const first = await convert();
  const refs: AssumedLinks = new Map();
  let differs = false;
  for (const [href, assumed] of first.assumed) {
    const ref = await resolve(href);
    refs.set(href, ref);
    if (!sameRef(ref, assumed)) differs = true;
  }
  return differs ? convert(refs) : first;
}

/** Whether two answers for a link are the same reference. */
export function sameRef(a: ContentRef, b: ContentRef): boolean {
  return canonicalJson(a) === canonicalJson(b);
}

/** Converts markdown to a document, every link and image source resolved by `resolve`; a large one on the pool. */
export function parseMarkdownDocument(markdown: string, resolve: HrefResolver): Promise<Document> {
  return usePool() && markdown.length > INLINE_MAX_CHARS ? parseMarkdownOffThread(markdown, resolve) : parseMarkdownHere(markdown, resolve);
}

/** parseMarkdownDocument on the request's thread. */
export async function parseMarkdownHere(markdown: string, resolve: HrefResolver): Promise<Document> {
  return (await convertResolvingLinks(resolve, async (refs) => convertMarkdownOnce(markdown, refs))).document;
}

/** parseMarkdownDocument on the conversion pool, the document prepared there for storing. */
export async function parseMarkdownOffThread(markdown: string, resolve: HrefResolver): Promise<Document> {
  const { prepared } = await convertResolvingLinks(resolve, (refs) => prepareMarkdownOffThread(markdown, refs));
  return adoptPreparedDocument(prepared) as Document;
}

export function splitAnchor(href: string): [string, string | undefined] {
  const i = href.indexOf('#');
  return i < 0 ? [href, undefined] : [href.slice(0, i), href.slice(i + 1) || undefined];
}

/**
 * Candidate page paths for a relative markdown link from a page at `pagePath`, most likely first. Git Sync
 * stores a page as `<path>.md`, or `<path>/README.md` when it has sub-pages, so the link's base folder is the
 * page's parent folder or the page's own.
 */
export function relativeLinkCandidates(pagePath: string, href: string): string[] {
  const [raw] = splitAnchor(href);
  let target: string;
  try {
    target = decodeURI(raw);
  } catch {
    target = raw;
  }
  const clean = target.replace(/\/+$/, '').replace(/(^|\/)README\.md$/i, '').replace(/\.md$/i, '');
  const parentDir = pagePath.split('/').slice(0, -1).join('/');
  // `./` (and `./#anchor`) is the folder of the file: GitBook writes it in README pages, where the folder is the
  // page itself, so the page comes first.
  const self = clean.split('/').every((segment) => segment === '' || segment === '.');
  const bases = target.startsWith('/') ? [''] : self ? [pagePath, parentDir] : [parentDir, pagePath];
  const out: string[] = [];
  for (const base of bases) {
    const parts = base ? base.split('/') : [];
    for (const segment of clean.split('/')) {
      if (segment === '' || segment === '.') continue;
      if (segment === '..') parts.pop();
      else parts.push(segment);
    }
    const path = parts.join('/');
    if (!out.includes(path)) out.push(path);
  }
  return out;
}

export interface FrontMatter {
  title?: string;
  attributes: PageAttributes;
}

// Front matter keys that are page fields; every other key is kept as written in `attributes.frontMatter`.
const MODELLED_KEYS = new Set(['title', 'description', 'icon', 'emoji', 'hidden', 'noIndex', 'noRobotsIndex', 'layout']);
const FRONT_MATTER = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

/**
 * Splits Git Sync front matter (`---` YAML `---`) and a leading `# Title` from the body, the way Git Sync reads a
 * page file: both set page metadata rather than document content. Keys that are page fields (description, icon,
 * hidden, layout, …) become attributes; the others (cover, metadata, tags, if, vars, …) are kept verbatim in
 * `attributes.frontMatter`, so that joinPageMarkdown writes them back.
 */
export function splitPageMarkdown(markdown: string, where: string): { body: string; front: FrontMatter } {
  let body = markdown.replace(/^\uFEFF/, '');
  const front: FrontMatter = { attributes: {} };
  const fm = FRONT_MATTER.exec(body);
  if (fm) {
    let data: unknown;
    try {
      data = parseYaml(fm[1]!);
    } catch (error) {
      throw badRequest(`${where}: the front matter is not valid YAML (${error instanceof Error ? error.message.split('\n')[0] : 'parse error'})`);
    }
    if (data && typeof data === 'object' && !Array.isArray(data)) {
      const d = data as Record<string, unknown>;
      if (typeof d.title === 'string' && d.title.trim()) front.title = d.title.trim();
      if (typeof d.description === 'string') front.attributes.description = d.description;
      if (typeof d.icon === 'string') front.attributes.icon = d.icon;
      if (typeof d.emoji === 'string') front.attributes.emoji = d.emoji;
      if (typeof d.hidden === 'boolean') front.attributes.hidden = d.hidden;
      if (typeof d.noIndex === 'boolean') front.attributes.noIndex = d.noIndex;
      if (typeof d.noRobotsIndex === 'boolean') front.attributes.noRobotsIndex = d.noRobotsIndex;
      if (d.layout && typeof d.layout === 'object') front.attributes.layout = d.layout as Record<string, unknown>;
      const rest = Object.entries(d).filter(([key, value]) => !MODELLED_KEYS.has(key) || (key === 'layout' && (!value || typeof value !== 'object')));
      if (rest.length > 0) front.attributes.frontMatter = Object.fromEntries(rest);
    }
    body = body.slice(fm[0].length);
  }
  // A closing `#` sequence follows a space (`# C#` is the title "C#"); backslash escapes are the title's text.
  const heading = /^\s*#[ \t]+(.+?)(?:[ \t]+#+)?[ \t]*(?:\r?\n|$)/.exec(body);
  if (heading) {
    // A pinned anchor written on the title (`# Setup <a href="#setup" id="setup"></a>`, MkDocs' `{ #setup }`): the
    // page is that place already, and a title is text.
    const text = unescapeMarkdown(heading[1]!.trim().replace(/[ \t]*<a href="#[^"<>]*" id="[^"<>]*"><\/a>$/, ''));
    front.title ??= text;
    if (front.title === text) body = body.slice(heading[0].length).replace(/^\s*\n/, '');
  }
  return { body, front };
}

/** The reverse of splitPageMarkdown: front matter (page fields, then the keys kept verbatim), `# Title`, body. */
export function joinPageMarkdown(front: FrontMatter, body: string): string {
  const { description, icon, emoji, hidden, noIndex, noRobotsIndex, layout, frontMatter } = front.attributes;
  const data: Record<string, unknown> = { description, icon, emoji, hidden, noIndex, noRobotsIndex, layout, ...frontMatter };
  for (const key of Object.keys(data)) if (data[key] === undefined) delete data[key];
  const parts: string[] = [];
  if (Object.keys(data).length > 0) parts.push(`---\n${stringifyYaml(data, { lineWidth: 0 })}---\n`);
  // Read back with escapes undone: backslashes doubled, and a final `#` escaped (`# C\#`, as GitBook writes it).
  if (front.title) parts.push(`# ${front.title.replace(/\\/g, '\\\\').replace(/#$/, '\\#')}\n`);
  if (body.trim() !== '') parts.push(body.endsWith('\n') ? body : `${body}\n`);
  return parts.join('\n');
}
