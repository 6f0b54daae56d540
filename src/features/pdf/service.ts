import { createHmac, timingSafeEqual } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { setImmediate as nextTurn } from 'node:timers/promises';
import PDFDocument from 'pdfkit';
import type { AppContext, Caller } from '../../platform/context.ts';
import { badRequest, forbidden, notFound } from '../../platform/errors.ts';
import { loadServerSecret } from '../../platform/secret-store.ts';
import { openContent, readPublishedContent, readPublishedPageDocument, type PublishedContent } from '../content/service.ts';
import type { PageNode } from '../content/tree.ts';
import { loadChangeRequest } from '../change-requests/service.ts';
import { loadSpace } from '../spaces/service.ts';
import { findSpace } from '../spaces/queries.ts';
import { findRevision } from '../content/revisions.ts';
import { customizationOf, loadSite, readTree } from '../sites/service.ts';
import { PAGE_MARGIN, PdfLayout, STANDARD_FONTS, type LayoutPage, type PdfFonts, type TocEntry } from './layout.ts';

/** A PDF URL works this long (the official spec: "The URL will work for 1h"). */
export const PDF_URL_TTL_MS = 60 * 60 * 1000;
/** Images drawn per page of content, and the largest image file drawn. */
const MAX_IMAGES_PER_PAGE = 30;
const MAX_IMAGE_BYTES = 8 * 1024 * 1024;
/** Bytes the PDF may run ahead of a slow client before laying out waits for it. */
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;

export interface PdfQuery {
  page?: string | undefined;
  only?: boolean | undefined;
}

/** What a download URL stands for: fixed when the URL is made, so the PDF shows what its requester could read then. */
interface PdfTicket {
  /** Revision to print (immutable: a URL prints the same content for its whole life). */
  r: string;
  /** A page to start from; with `o`, that page alone. */
  p?: string;
  o?: 1;
  /** Title and subtitle of the title page. */
  t: string;
  st?: string;
  /** Expiry, in ms since the epoch. */
  e: number;
}

const secrets = new WeakMap<AppContext, Promise<string>>();

function pdfSecret(ctx: AppContext): Promise<string> {
  let secret = secrets.get(ctx);
  if (!secret) {
    secret = loadServerSecret(ctx.db, 'pdf-download-signing', ctx.clock.now().toISOString());
    secrets.set(ctx, secret);
  }
  return secret;
}

function sign(secret: string, body: string): string {
  return createHmac('sha256', secret).update('pdf\0').update(body).digest('base64url').slice(0, 32);
}

/**
 * A title within `bytes` of UTF-8: the token travels in one path segment, which the router caps at 500
 * characters, so titles in any script are cut to fit (with an ellipsis) rather than make a URL that cannot work.
 */
export function fitTitle(text: string, bytes: number): string {
  if (Buffer.byteLength(text) <= bytes) return text;
  let out = '';
  for (const char of text) {
    if (Buffer.byteLength(out + char) > bytes - 3) break;
    out += char;
  }
  return `${out}…`;
}

async function pdfUrl(ctx: AppContext, ticket: Omit<PdfTicket, 'e'>): Promise<{ url: string }> {
  const fitted = { ...ticket, t: fitTitle(ticket.t, 120), ...(ticket.st ? { st: fitTitle(ticket.st, 110) } : {}) };
  const body = Buffer.from(JSON.stringify({ ...fitted, e: ctx.clock.now().getTime() + PDF_URL_TTL_MS })).toString('base64url');
  return { url: `${ctx.config.publicUrl}/pdf/${body}.${sign(await pdfSecret(ctx), body)}` };
}

/** The ticket of a download token; 404 for a token that was not made here or has expired (the URL is the permission). */
async function readTicket(ctx: AppContext, token: string): Promise<PdfTicket> {
  const [body, signature, extra] = token.split('.');
  const gone = () => notFound('No PDF at this URL: it is wrong or has expired (PDF URLs work for 1 hour)');
  if (!body || !signature || extra !== undefined) throw gone();
  const expected = Buffer.from(sign(await pdfSecret(ctx), body));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw gone();
  const ticket = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as PdfTicket;
  if (typeof ticket.e !== 'number' || ticket.e <= ctx.clock.now().getTime()) throw gone();
  return ticket;
}

function pageQuery(query: PdfQuery): Pick<PdfTicket, 'p' | 'o'> {
  if (query.only && !query.page) throw badRequest('querystring/page is required when only is true (only prints the given page)');
  return { ...(query.page ? { p: query.page } : {}), ...(query.only ? { o: 1 as const } : {}) };
}

async function assertPageIn(ctx: AppContext, revisionId: string, pageId: string | undefined): Promise<void> {
  if (pageId === undefined) return;
  const { tree } = await readPublishedContent(ctx, revisionId);
  if (!findNode(tree, pageId)) throw notFound(`No page ${pageId} in this content`);
}

/** getChangeRequestPDF: the change request's content as its author sees it now. */
export async function changeRequestPdfUrl(ctx: AppContext, caller: Caller, spaceId: string, changeRequestId: string, query: PdfQuery) {
  const pages = pageQuery(query);
  const { cr } = await loadChangeRequest(ctx, caller, spaceId, changeRequestId);
  const { space, revision } = await openContent(ctx, caller, { spaceId, kind: 'change-request', changeRequestId: cr.id });
  await assertPageIn(ctx, revision.id, pages.p);
  const subject = cr.subject ? `: ${cr.subject}` : '';
  return pdfUrl(ctx, { r: revision.id, t: space.title, st: `Change request #${cr.number}${subject}`, ...pages });
}

/** getSpacePDF: the space's current content. */
export async function spacePdfUrl(ctx: AppContext, caller: Caller, spaceId: string, query: PdfQuery) {
  const pages = pageQuery(query);
  const { space, revision } = await openContent(ctx, caller, { spaceId, kind: 'space' });
  await assertPageIn(ctx, revision.id, pages.p);
  return pdfUrl(ctx, { r: revision.id, t: space.title, ...pages });
}

/**
 * A published site's PDF (getSitePDF, an extension): one of its site-spaces (the default one unless named),
 * titled after the site, and only when the site's customization has `pdf.enabled`.
 */
export async function sitePdfUrl(ctx: AppContext, caller: Caller, organizationId: string, siteId: string, query: PdfQuery & { siteSpace?: string | undefined }) {
  const pages = pageQuery(query);
  const { site } = await loadSite(ctx, caller, organizationId, siteId, 'view');
  const customization = customizationOf(site) as { title?: string; pdf?: { enabled?: boolean } };
  if (customization.pdf?.enabled !== true) throw forbidden(`PDF export is turned off for site ${siteId} (customization pdf.enabled)`);
  const tree = await readTree(ctx.db, site);
  let siteSpace = query.siteSpace ? tree.siteSpaces.find((ss) => ss.id === query.siteSpace) : undefined;
  if (query.siteSpace && !siteSpace) throw notFound(`No site-space ${query.siteSpace} in site ${siteId}`);
  const defaultSection = tree.sections.find((s) => s.is_default === 1);
  siteSpace ??=
    tree.siteSpaces.find((ss) => ss.is_default === 1 && ss.section_id === (defaultSection?.id ?? null)) ??
    tree.siteSpaces.find((ss) => ss.is_default === 1) ??
    tree.siteSpaces[0];
  if (!siteSpace) throw notFound(`Site ${siteId} publishes no space yet`);
  // The caller must be able to read the space itself: a site's visibility to them is not enough.
  const { space } = await loadSpace(ctx, caller, siteSpace.space_id);
  await assertPageIn(ctx, space.revision_id, pages.p);
  const title = customization.title || site.title;
  return pdfUrl(ctx, { r: space.revision_id, t: title, ...(space.title !== title ? { st: space.title } : {}), ...pages });
}

function findNode(nodes: readonly PageNode[], id: string): PageNode | undefined {
  for (const node of nodes) {
    if (node.page.id === id) return node;
    const inner = findNode(node.children, id);
    if (inner) return inner;
  }
  return undefined;
}

/** The pages of a scope in tree order with their depth (link pages have no content of their own). */
function pagesInOrder(nodes: readonly PageNode[], depth: number, out: { node: PageNode; depth: number }[], limit: number): void {
  for (const node of nodes) {
    if (out.length > limit) return;
    if (node.page.kind === 'link') continue;
    out.push({ node, depth });
    pagesInOrder(node.children, depth + 1, out, limit);
  }
}

/**
 * Fonts for text beyond Latin-1 (Greek, Cyrillic, most other alphabets and symbols): DejaVu, from the machine
 * when Debian's fonts-dejavu-core is there, else the copy bundled from npm (@fontsource/dejavu-sans and
 * dejavu-mono: the whole DejaVu families, under DejaVu's free licence, as WOFF, which pdfkit embeds).
 */
function unicodeFonts(doc: PDFKit.PDFDocument): PdfFonts {
  const dir = '/usr/share/fonts/truetype/dejavu';
  const system = { regular: 'DejaVuSans.ttf', bold: 'DejaVuSans-Bold.ttf', italic: 'DejaVuSans-Oblique.ttf', boldItalic: 'DejaVuSans-BoldOblique.ttf', mono: 'DejaVuSansMono.ttf' };
  const files = Object.values(system).every((f) => existsSync(`${dir}/${f}`))
    ? Object.fromEntries(Object.entries(system).map(([kind, file]) => [kind, `${dir}/${file}`]))
    : BUNDLED_DEJAVU;
  for (const [kind, file] of Object.entries(files)) doc.registerFont(`quire-${kind}`, file);
  return { regular: 'quire-regular', bold: 'quire-bold', italic: 'quire-italic', boldItalic: 'quire-boldItalic', mono: 'quire-mono' };
}

const require = createRequire(import.meta.url);
const bundled = (name: string) => require.resolve(`@fontsource/${name}`);
export const BUNDLED_DEJAVU: Record<keyof PdfFonts, string> = {
  regular: bundled('dejavu-sans/files/dejavu-sans-latin-400-normal.woff'),
  bold: bundled('dejavu-sans/files/dejavu-sans-latin-700-normal.woff'),
  italic: bundled('dejavu-sans/files/dejavu-sans-latin-400-italic.woff'),
  boldItalic: bundled('dejavu-sans/files/dejavu-sans-latin-700-italic.woff'),
  mono: bundled('dejavu-mono/files/dejavu-mono-latin-400-normal.woff'),
};

/**
 * Fonts with Chinese, Japanese and Korean that Debian packages install, by path (TrueType collections with the
 * face to use). None is bundled: a CJK font weighs 5 to 20 MB. Without one, CJK text prints as missing glyphs.
 */
const CJK_FONTS: { path: string; face?: string }[] = [
  { path: '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc', face: 'NotoSansCJKsc-Regular' },
  { path: '/usr/share/fonts/truetype/wqy/wqy-microhei.ttc', face: 'WenQuanYiMicroHei' },
  { path: '/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc', face: 'WenQuanYiZenHei' },
  { path: '/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf' },
];

function cjkFont(doc: PDFKit.PDFDocument): string | undefined {
  const found = CJK_FONTS.find((font) => existsSync(font.path));
  if (!found) return undefined;
  doc.registerFont('quire-cjk', found.path, found.face);
  return 'quire-cjk';
}

/** File ids of the images of a document that the PDF can draw. */
function imageFileIds(document: unknown): string[] {
  const ids: string[] = [];
  const walk = (node: unknown, depth: number) => {
    if (depth > 100 || ids.length >= MAX_IMAGES_PER_PAGE || typeof node !== 'object' || node === null) return;
    if (Array.isArray(node)) return node.forEach((child) => walk(child, depth + 1));
    const n = node as Record<string, unknown>;
    const ref = (n.data as { ref?: { kind?: string; file?: string } } | undefined)?.ref;
    if (n.type === 'image' && ref?.kind === 'file' && typeof ref.file === 'string') ids.push(ref.file);
    walk(n.nodes, depth + 1);
    walk(n.fragments, depth + 1);
  };
  walk(document, 0);
  return ids;
}

async function imagesOf(ctx: AppContext, document: unknown, files: PublishedContent['files']): Promise<Map<string, Buffer>> {
  const images = new Map<string, Buffer>();
  for (const id of imageFileIds(document)) {
    const file = files.get(id);
    if (!file || images.has(id) || file.size > MAX_IMAGE_BYTES || !/^image\/(png|jpeg)$/.test(file.contentType)) continue;
    const bytes = await ctx.blobs.get(file.hash);
    if (bytes) images.set(id, bytes);
  }
  return images;
}

export interface PdfDownload {
  fileName: string;
  expiresAt: Date;
  body: PDFKit.PDFDocument;
}

/**
 * The PDF behind a download URL, as a stream: the title page and contents first, then each page as its document
 * is read, so memory holds one page at a time and the client receives bytes from the start. Laying out yields to
 * other requests between pages and waits while the client is slow. At most PDF_MAX_PAGES pages are laid out; a
 * last page says how many were left out.
 */
export async function openPdfDownload(ctx: AppContext, token: string): Promise<PdfDownload> {
  const ticket = await readTicket(ctx, token);
  // A space deleted since the URL was made is no longer printed, like its files are no longer served.
  const revision = await findRevision(ctx.db, ticket.r);
  const space = revision && (await findSpace(ctx.db, revision.space_id));
  if (!space || space.deleted_at) throw notFound('No PDF at this URL: its space was deleted');
  const content = await readPublishedContent(ctx, ticket.r);
  let roots: PageNode[] = content.tree;
  if (ticket.p) {
    const start = findNode(content.tree, ticket.p);
    if (!start) throw notFound(`No page ${ticket.p} in this content`);
    roots = [ticket.o ? { ...start, children: [] } : start];
  }
  const doc = printPages(ctx, { content, roots, title: ticket.t, subtitle: ticket.st });
  return { fileName: `${ticket.t}.pdf`, expiresAt: new Date(ticket.e), body: doc };
}

export interface PrintScope {
  /** The published content the pages belong to (its files are the images). */
  content: PublishedContent;
  /** The pages to print, with their sub-pages, in tree order. */
  roots: readonly PageNode[];
  title: string;
  subtitle?: string | undefined;
  /** For a site's visitor: content under an `if` block is printed only when its condition holds for them. */
  evaluateCondition?: ((condition: string) => boolean) | undefined;
}

/**
 * These pages as a PDF stream: the title page and contents first, then each page as its document is read.
 * The reader prints a visitor's pages with it (their tree already filtered), the download URLs a ticket's.
 */
export function printPages(ctx: AppContext, scope: PrintScope): PDFKit.PDFDocument {
  const { content, roots } = scope;
  const limit = ctx.config.pdfMaxPages;
  const ordered: { node: PageNode; depth: number }[] = [];
  pagesInOrder(roots, 0, ordered, limit);
  let total = ordered.length;
  if (total > limit) {
    const all: { node: PageNode; depth: number }[] = [];
    pagesInOrder(roots, 0, all, Number.MAX_SAFE_INTEGER);
    total = all.length;
  }
  const included = ordered.slice(0, limit);
  const toc: TocEntry[] = included.map(({ node, depth }) => ({ id: node.page.id, title: node.page.title, depth }));

  const doc = new PDFDocument({
    size: 'A4',
    margins: { top: PAGE_MARGIN, bottom: PAGE_MARGIN, left: PAGE_MARGIN, right: PAGE_MARGIN },
    autoFirstPage: false,
    bufferPages: false,
    info: { Title: scope.subtitle ? `${scope.title} — ${scope.subtitle}` : scope.title, Creator: 'Quire' },
  });
  const layout = new PdfLayout(doc, {
    title: scope.title,
    subtitle: scope.subtitle,
    evaluateCondition: scope.evaluateCondition,
    fonts: STANDARD_FONTS,
    unicode: unicodeFonts(doc),
    cjk: cjkFont(doc),
    pagesInPdf: new Set(toc.map((e) => e.id)),
    fileNames: new Map([...content.files].map(([id, f]) => [id, f.name])),
  });

  void (async () => {
    layout.titlePage(toc);
    for (const { node, depth } of included) {
      if (doc.destroyed) return;
      const document = node.page.kind === 'document' ? await readPublishedPageDocument(ctx, content, node.page.documentId) : undefined;
      const page: LayoutPage = { id: node.page.id, title: node.page.title, depth, description: node.page.attributes.description, document, images: await imagesOf(ctx, document, content.files) };
      layout.page(page);
      await nextTurn();
      while (doc.readableLength > MAX_BUFFERED_BYTES && !doc.destroyed) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    if (total > included.length) layout.note(`${total - included.length} more pages are not included: this server prints at most ${limit} pages per PDF (PDF_MAX_PAGES). Export a part of the content with the page parameter.`);
    doc.end();
  })().catch((error: unknown) => doc.destroy(error instanceof Error ? error : new Error(String(error))));

  return doc;
}

/** `inline` with the name: RFC 6266's ASCII fallback plus the exact UTF-8 name (RFC 8187). */
export function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const wellFormed = name.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
  const exact = encodeURIComponent(wellFormed).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `inline; filename="${ascii}"; filename*=UTF-8''${exact}`;
}
