import { type AppContext, type Caller, authorOf } from '../../platform/context.ts';
import { ApiError, badRequest, notFound } from '../../platform/errors.ts';
import { safeFetch } from '../../platform/safe-fetch.ts';
import { loadChangeRequest } from '../change-requests/service.ts';
import { assertCanEditContent } from '../spaces/policy.ts';
import { findRevision } from '../content/revisions.ts';
import { validateChanges } from '../content/apply-changes.ts';
import { commitLiveChanges } from '../content/main-branch-writes.ts';
import { Snapshot } from '../content/snapshot.ts';
import { assertCanWriteChangeRequest, commitChangeRequestChanges } from '../content/change-request-writes.ts';
import { storeFileBytes, type StoredFile } from '../files/service.ts';
import { loadSpace } from '../spaces/service.ts';
import { importChanges, type ImportPlacement } from './changes.ts';
import { importFiles } from '../git-sync/service.ts';
import type { ContentChange } from '../content/change-schemas.ts';
import { docxDocument, htmlDocument, markdownDocument, unzipArchive, type ImportedDocument } from './documents.ts';
import { crawlSite, MAX_CONVERTED_HTML, type CrawledImage, type CrawlResult, type Fetcher } from './crawl.ts';

/** Where imported content goes: the space's content (live), one of its pages, or a change request (or a page of it). */
export type ImportTarget = { spaceId: string; pageId?: string | undefined } & ({ kind: 'space' } | { kind: 'change-request'; changeRequestId: string });

export interface ImportBody {
  url: string;
  source: string;
}

export interface ImportResult {
  revision: string;
  importedResources: number;
  totalResources: number;
}

/** The sources of the official ImportContentSource. */
export const IMPORT_SOURCES = ['website', 'docx', 'markdown', 'html', 'zip', 'confluence', 'github-wiki', 'notion', 'google-docs'] as const;
/** Those this server imports: a website crawl, a single document, or an archive of a Git Sync layout or markdown files. */
export const SUPPORTED_SOURCES = ['website', 'markdown', 'html', 'docx', 'zip'] as const;
/** Most files read from one zip archive. */
const MAX_ARCHIVE_FILES = 20_000;

/**
 * importContent and its variants, by source: `website` crawls; `markdown`, `html` and `docx` import the document
 * at the URL as one page (into the page, for the page variants: it replaces that page's content); `zip` imports
 * an archive of a Git Sync layout (SUMMARY.md, .gitbook.yaml) or of markdown folders as pages added at the top
 * level (or under the page). All of it as ONE revision, in one transaction, after the rights are checked.
 */
export async function importContent(ctx: AppContext, caller: Caller, target: ImportTarget, body: ImportBody): Promise<ImportResult> {
  if (body.source === 'website') return importWebsite(ctx, caller, target, body);
  if (!(SUPPORTED_SOURCES as readonly string[]).includes(body.source)) {
    throw badRequest(`body/source: importing from "${body.source}" is not supported; this server imports from ${SUPPORTED_SOURCES.join(', ')}`);
  }
  const place = await authorizeImport(ctx, caller, target);
  const fetched = await fetchSource(ctx, body.url);
  if (body.source === 'zip') {
    const files = unzipArchive(fetched.body, body.url, { maxBytes: ctx.config.importMaxBytes, maxFiles: MAX_ARCHIVE_FILES });
    const written = await importFiles(ctx, target.spaceId, authorOf(caller), files, {
      into: { changeRequestId: place.cr?.id, under: target.pageId ?? null },
      event: { import: { source: body.source, url: body.url } },
    });
    return { revision: written.revisionId, importedResources: written.pages + written.files, totalResources: written.pages + written.files };
  }
  const document =
    body.source === 'markdown'
      ? markdownDocument(fetched.body, body.url)
      : body.source === 'html'
        ? htmlDocument(fetched.body, fetched.contentType, body.url)
        : await docxDocument(fetched.body, body.url, ctx.config.fileSizeLimit);
  const { changes, files } = await documentChanges(ctx, document, target.pageId);
  const revision =
    place.kind === 'space'
      ? (await commitLiveChanges(ctx, caller, place.space, changes, files, { import: { source: body.source, url: body.url } })).revision
      : (await commitChangeRequestChanges(ctx, caller, place.space, place.cr, changes, files)).revision;
  return { revision: revision.id, importedResources: 1 + files.size, totalResources: 1 + document.images.length };
}

/** Rights first (so nobody makes the server fetch for a write they may not do), then the page imported into. */
async function authorizeImport(ctx: AppContext, caller: Caller, target: ImportTarget) {
  if (target.kind === 'space') {
    const { space, role } = await loadSpace(ctx, caller, target.spaceId);
    assertCanEditContent(role, space.edit_mode);
    if (target.pageId) await assertImportablePage(ctx, space.revision_id, target.pageId);
    return { kind: 'space' as const, space, cr: undefined };
  }
  const { space, role, cr } = await loadChangeRequest(ctx, caller, target.spaceId, target.changeRequestId);
  assertCanWriteChangeRequest(role, space, cr);
  if (target.pageId) await assertImportablePage(ctx, cr.head_revision_id ?? cr.revision_initial, target.pageId);
  return { kind: 'change-request' as const, space, cr };
}

async function fetchSource(ctx: AppContext, url: string) {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw badRequest(`body/url: "${url}" is not an absolute URL`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw badRequest(`body/url: only http and https URLs can be imported, not ${parsed.protocol.replace(/:$/, '')}`);
  const response = await safeFetch(ctx.config, url, { maxBytes: ctx.config.importMaxBytes, signal: AbortSignal.timeout(ctx.config.importTimeoutMs) });
  if (response.status < 200 || response.status > 299) throw new ApiError(422, `Cannot import ${url}: the server answered HTTP ${response.status}`);
  return response;
}

/** One page (or the page imported into) and the document's images as files of the batch. */
async function documentChanges(ctx: AppContext, document: ImportedDocument, pageId: string | undefined) {
  const changes: ContentChange[] = [];
  const files = new Map<string, StoredFile & { name: string }>();
  const kept = [];
  for (const image of document.images) {
    try {
      kept.push({ image, stored: await storeFileBytes(ctx, ctx.db, { name: image.name, contentType: image.contentType, bytes: image.bytes }) });
    } catch {
      // An image the file store refuses is left out; the page still imports.
    }
  }
  for (let i = 0; i < kept.length; i += 20) {
    const chunk = kept.slice(i, i + 20);
    changes.push({ operation: 'insert_files', files: chunk.map(({ image }) => ({ ref: image.ref, name: image.name, url: `https://docx.invalid/${image.ref}` })) });
    chunk.forEach(({ image, stored }, f) => files.set(`${changes.length - 1}/${f}`, { ...stored, name: image.name }));
  }
  changes.push(pageId ? { operation: 'update_page', page: pageId, document: { markdown: document.markdown } } : { operation: 'insert_page', document: { markdown: document.markdown } });
  return { changes: validateChanges(changes), files };
}

/**
 * importContent and its variants: crawls the website at `url` and writes its pages and images as ONE revision.
 * Rights are checked first, so nobody makes the server crawl for a write they may not do; the crawl then runs
 * outside any transaction (it waits on the network for up to IMPORT_TIMEOUT_MS) and the write is one
 * transaction. A start URL that cannot be imported answers 4xx and writes nothing.
 */
async function importWebsite(ctx: AppContext, caller: Caller, target: ImportTarget, body: ImportBody): Promise<ImportResult> {  const placement: ImportPlacement = target.pageId ? { into: 'page', pageId: target.pageId } : { into: 'root' };

  if (target.kind === 'space') {
    const { space, role } = await loadSpace(ctx, caller, target.spaceId);
    assertCanEditContent(role, space.edit_mode);
    if (target.pageId) await assertImportablePage(ctx, space.revision_id, target.pageId);
    const site = await crawlWebsite(ctx, body.url);
    const { changes, files } = await prepare(ctx, site, placement);
    const { revision } = await commitLiveChanges(ctx, caller, space, changes, files, { import: { source: body.source, url: body.url } });
    return result(revision.id, site, files);
  }

  const { space, role, cr } = await loadChangeRequest(ctx, caller, target.spaceId, target.changeRequestId);
  assertCanWriteChangeRequest(role, space, cr);
  if (target.pageId) await assertImportablePage(ctx, cr.head_revision_id ?? cr.revision_initial, target.pageId);
  const site = await crawlWebsite(ctx, body.url);
  const { changes, files } = await prepare(ctx, site, placement);
  const { revision } = await commitChangeRequestChanges(ctx, caller, space, cr, changes, files);
  return result(revision.id, site, files);
}

function crawlWebsite(ctx: AppContext, url: string): Promise<CrawlResult> {
  const fetch: Fetcher = (target, options) => safeFetch(ctx.config, target, options);
  const { importMaxPages, importMaxDepth, importMaxBytes, importTimeoutMs, fileSizeLimit } = ctx.config;
  return crawlSite(
    url,
    { maxPages: importMaxPages, maxDepth: importMaxDepth, maxBytes: importMaxBytes, maxFileBytes: fileSizeLimit, timeoutMs: importTimeoutMs, maxConvertedHtml: MAX_CONVERTED_HTML },
    fetch,
  );
}

/** The page imported into must exist (404 otherwise, before any crawl) and be able to hold content and sub-pages. */
async function assertImportablePage(ctx: AppContext, revisionId: string, pageId: string): Promise<void> {
  const revision = await findRevision(ctx.db, revisionId);
  const page = revision && (await (await Snapshot.of(ctx.db, revision)).page(pageId));
  if (!page) throw notFound(`No page ${pageId} in the content`);
  if (page.kind === 'link') throw badRequest(`Page ${pageId} is a link: content cannot be imported into it`);
}

/**
 * Stores the images' bytes (before the write transaction, like any batch's files) and builds the batch. An image
 * the file store refuses is left out, its markdown keeping the link to the site.
 */
async function prepare(ctx: AppContext, crawl: CrawlResult, placement: ImportPlacement) {
  const stored = new Map<CrawledImage, StoredFile>();
  for (const image of crawl.images) {
    try {
      stored.set(image, await storeFileBytes(ctx, ctx.db, { name: image.name, contentType: image.contentType, bytes: image.bytes }));
    } catch {
      // Not a file the server accepts (its declared type is malformed, say): the page still imports.
    }
  }
  const batch = importChanges(crawl.pages, [...stored.keys()], placement);
  const files = new Map<string, StoredFile & { name: string }>();
  for (const [image, key] of batch.fileKeys) files.set(key, { ...stored.get(image)!, name: image.name });
  return { changes: validateChanges(batch.changes), files };
}

function result(revisionId: string, crawl: CrawlResult, files: ReadonlyMap<string, unknown>): ImportResult {
  return { revision: revisionId, importedResources: crawl.pages.length + files.size, totalResources: crawl.discovered };
}
