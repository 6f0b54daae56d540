import type { Executor } from '../../db/types.ts';
import { type AppContext, type Caller, authorOf } from '../../platform/context.ts';
import { ApiError, badRequest, notFound } from '../../platform/errors.ts';
import { safeFetch } from '../../platform/safe-fetch.ts';
import { loadChangeRequest } from '../change-requests/service.ts';
import { assertCanEditLive } from '../spaces/policy.ts';
import { findRevision } from '../content/revisions.ts';
import { validateChanges, type BatchResult } from '../content/apply-changes.ts';
import { commitLiveChanges, type AlsoWrite } from '../content/main-branch-writes.ts';
import { Snapshot } from '../content/snapshot.ts';
import { assertCanWriteChangeRequest, commitChangeRequestChanges } from '../content/change-request-writes.ts';
import { storeFileBytes, type StoredFile } from '../files/service.ts';
import { loadSpace } from '../spaces/service.ts';
import { importChanges, type ImportPlacement } from './changes.ts';
import { importFiles } from '../git-sync/service.ts';
import type { ImportReport } from '../git-sync/import-repository.ts';
import type { ContentChange } from '../content/change-schemas.ts';
import { docxDocument, htmlDocument, markdownDocument, unzipArchive, type ImportedDocument } from './documents.ts';
import { parseImportUrl } from './source-url.ts';
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
  /** An archive's import: which layout it was read as, and what could not be carried over exactly. */
  report?: ImportReport;
}

/** The sources of the official ImportContentSource. */
export const IMPORT_SOURCES = ['website', 'docx', 'markdown', 'html', 'zip', 'confluence', 'github-wiki', 'notion', 'google-docs'] as const;
/** Those this server imports: a website crawl, a single document, or an archive of a Git Sync layout or markdown files. */
export const SUPPORTED_SOURCES = ['website', 'markdown', 'html', 'docx', 'zip'] as const;
/** Most files read from one zip archive. */
const MAX_ARCHIVE_FILES = 20_000;

/** The kinds of file an import reads. */
export type SourceFileKind = 'markdown' | 'html' | 'docx' | 'zip';

/** A document or an archive to import, with its bytes. */
export interface SourceFile {
  kind: SourceFileKind;
  /** Where it came from (the URL fetched, or an uploaded file's download URL): the page's title falls back on its name. */
  url: string;
  contentType?: string | undefined;
  bytes: Buffer;
}

/** What an import reads: a website crawled from its URL, or files, read once the rights are checked. */
export type ImportInput = { kind: 'website'; url: string } | { kind: 'files'; load: () => Promise<SourceFile[]> };

/** What an import wrote: the official result, and each page with where it came from (an import run's `pages`). */
export interface ImportOutcome extends ImportResult {
  /** `folder`: a group page of an archive's layout. */
  pages: { id: string; sourceURL?: string; type: 'page' | 'folder' }[];
}

export interface ImportHooks {
  /** Told when the import starts reading its source and when it starts writing. */
  progress?: (step: 'fetching' | 'writing') => Promise<void>;
  /** Writes in the import's own transaction, knowing what it wrote; throwing rolls the whole import back. */
  alsoWrite?: (trx: Executor, outcome: ImportOutcome) => Promise<void>;
  /** Details for the content event. */
  event?: Record<string, unknown>;
}

/**
 * importContent and its variants, by source: `website` crawls; `markdown`, `html` and `docx` import the document
 * at the URL as one page (into the page, for the page variants: it replaces that page's content); `zip` imports
 * an archive of a Git Sync layout (SUMMARY.md, .gitbook.yaml) or of markdown folders as pages added at the top
 * level (or under the page). All of it as ONE revision, in one transaction, after the rights are checked. The
 * request does the import itself (import runs do the same in a job, see runs.ts).
 */
export async function importContent(ctx: AppContext, caller: Caller, target: ImportTarget, body: ImportBody): Promise<ImportResult> {
  if (!(SUPPORTED_SOURCES as readonly string[]).includes(body.source)) {
    throw badRequest(`body/source: importing from "${body.source}" is not supported; this server imports from ${SUPPORTED_SOURCES.join(', ')}`);
  }
  const kind = body.source as (typeof SUPPORTED_SOURCES)[number];
  const input: ImportInput =
    kind === 'website'
      ? { kind: 'website', url: body.url }
      : {
          kind: 'files',
          load: async () => {
            const fetched = await fetchSource(ctx, body.url);
            return [{ kind, url: body.url, contentType: fetched.contentType, bytes: fetched.body }];
          },
        };
  const { revision, importedResources, totalResources, report } = await performImport(ctx, caller, target, input, { event: { import: { source: body.source, url: body.url } } });
  return { revision, importedResources, totalResources, ...(report ? { report } : {}) };
}

/**
 * Any import: the rights first (so nobody makes the server fetch for a write they may not do), then the source
 * read outside any transaction (it waits on the network for up to IMPORT_TIMEOUT_MS, or converts documents), and
 * ONE revision written in one transaction. Several documents become several pages; a zip archive is imported alone.
 */
export async function performImport(ctx: AppContext, caller: Caller, target: ImportTarget, input: ImportInput, hooks: ImportHooks = {}): Promise<ImportOutcome> {
  const place = await authorizeImport(ctx, caller, target);
  await hooks.progress?.('fetching');
  if (input.kind === 'website') return importWebsite(ctx, caller, place, target, input.url, hooks);
  const files = await input.load();
  const archive = files.find((f) => f.kind === 'zip');
  if (archive) {
    if (files.length > 1) throw badRequest('body/source/files: a zip archive is imported on its own, not with other files');
    return importArchive(ctx, caller, place, target, archive, hooks);
  }
  return importDocuments(ctx, caller, place, target, files, hooks);
}

type ImportPlace = Awaited<ReturnType<typeof authorizeImport>>;

/** The caller may write the target's content, and the page imported into exists; 404 when they cannot see it. */
export async function authorizeImport(ctx: AppContext, caller: Caller, target: ImportTarget) {
  if (target.kind === 'space') {
    const { space, role } = await loadSpace(ctx, caller, target.spaceId);
    assertCanEditLive(role, space.edit_mode);
    if (target.pageId) await assertImportablePage(ctx, space.revision_id, target.pageId);
    return { kind: 'space' as const, space, cr: undefined, revisionId: space.revision_id };
  }
  const { space, role, cr } = await loadChangeRequest(ctx, caller, target.spaceId, target.changeRequestId);
  assertCanWriteChangeRequest(role, space, cr);
  const revisionId = cr.head_revision_id ?? cr.revision_initial;
  if (target.pageId) await assertImportablePage(ctx, revisionId, target.pageId);
  return { kind: 'change-request' as const, space, cr, revisionId };
}

async function fetchSource(ctx: AppContext, url: string) {
  parseImportUrl(url, 'body/url');
  const response = await safeFetch(ctx.config, url, { maxBytes: ctx.config.importMaxBytes, signal: AbortSignal.timeout(ctx.config.importTimeoutMs) });
  if (response.status < 200 || response.status > 299) throw new ApiError(422, `Cannot import ${url}: the server answered HTTP ${response.status}`);
  return response;
}

async function importArchive(ctx: AppContext, caller: Caller, place: ImportPlace, target: ImportTarget, archive: SourceFile, hooks: ImportHooks): Promise<ImportOutcome> {
  const files = unzipArchive(archive.bytes, archive.url, { maxBytes: ctx.config.importMaxBytes, maxFiles: MAX_ARCHIVE_FILES });
  await hooks.progress?.('writing');
  let outcome: ImportOutcome | undefined;
  const { report } = await importFiles(ctx, target.spaceId, authorOf(caller), files, {
    into: { changeRequestId: place.cr?.id, under: target.pageId ?? null },
    event: hooks.event ?? {},
    alsoWrite: async (trx, written) => {
      const resources = written.pages.length + written.files;
      const pages = written.pages.map((p) => ({ id: p.id, type: p.kind === 'group' ? ('folder' as const) : ('page' as const) }));
      outcome = { revision: written.revisionId, importedResources: resources, totalResources: resources, pages };
      await hooks.alsoWrite?.(trx, outcome);
    },
  });
  return { ...outcome!, report };
}

/** Markdown, HTML and Word documents, each a page: one into a page replaces it, several become its sub-pages. */
async function importDocuments(ctx: AppContext, caller: Caller, place: ImportPlace, target: ImportTarget, files: readonly SourceFile[], hooks: ImportHooks): Promise<ImportOutcome> {
  const documents: ImportedDocument[] = [];
  for (const [i, file] of files.entries()) {
    documents.push(
      file.kind === 'markdown'
        ? markdownDocument(file.bytes, file.url)
        : file.kind === 'html'
          ? htmlDocument(file.bytes, file.contentType, file.url)
          : await docxDocument(file.bytes, file.url, ctx.config.fileSizeLimit, files.length > 1 ? `document-${i + 1}-image-` : undefined),
    );
  }
  const { changes, files: stored } = await documentChanges(ctx, documents, files.length === 1 ? target.pageId : undefined, target.pageId);
  const sources = new Map(files.map((f, i) => [`document-${i + 1}`, f.url]));
  const images = documents.reduce((n, d) => n + d.images.length, 0);
  return commitBatch(ctx, caller, place, changes, stored, hooks, ({ revision, batch }) => ({
    revision: revision.id,
    importedResources: documents.length + stored.size,
    totalResources: documents.length + images,
    pages: importedPages(batch, sources, files[0]!.url),
  }));
}

/**
 * The documents' pages (or the page imported into, replaced by a single document) and their images as files of
 * the batch, refs `document-<n>` for the pages.
 */
async function documentChanges(ctx: AppContext, documents: readonly ImportedDocument[], replacing: string | undefined, under: string | undefined) {
  const changes: ContentChange[] = [];
  const files = new Map<string, StoredFile & { name: string }>();
  const kept = [];
  for (const image of documents.flatMap((d) => d.images)) {
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
  documents.forEach((document, i) => {
    changes.push(
      replacing
        ? { operation: 'update_page', page: replacing, document: { markdown: document.markdown } }
        : { operation: 'insert_page', ref: `document-${i + 1}`, ...(under ? { into: under } : {}), document: { markdown: document.markdown } },
    );
  });
  return { changes: validateChanges(changes), files };
}

/** Writes a batch as one revision of the place, with the hooks' writes in the same transaction. */
async function commitBatch(
  ctx: AppContext,
  caller: Caller,
  place: ImportPlace,
  changes: readonly ContentChange[],
  files: Map<string, StoredFile & { name: string }>,
  hooks: ImportHooks,
  outcomeOf: (written: { revision: { id: string }; batch: BatchResult }) => ImportOutcome,
): Promise<ImportOutcome> {
  await hooks.progress?.('writing');
  let outcome: ImportOutcome | undefined;
  const alsoWrite: AlsoWrite = async (trx, written) => {
    outcome = outcomeOf(written);
    await hooks.alsoWrite?.(trx, outcome);
  };
  if (place.kind === 'space') await commitLiveChanges(ctx, caller, place.space, changes, files, hooks.event ?? {}, alsoWrite);
  else await commitChangeRequestChanges(ctx, caller, place.space, place.cr, changes, files, alsoWrite);
  return outcome!;
}

/** The pages a batch created or updated, each with the URL it came from (by its ref; the page updated: the first source). */
function importedPages(batch: BatchResult, sourceByRef: ReadonlyMap<string, string>, first: string | undefined): ImportOutcome['pages'] {
  return batch.outcomes.flatMap((o) => {
    if (o.object === 'deleted_page') return [];
    const sourceURL = o.object === 'created_page' && o.ref ? sourceByRef.get(o.ref) : first;
    return [{ id: o.id, ...(sourceURL ? { sourceURL } : {}), type: 'page' as const }];
  });
}

/**
 * A website: crawled from `url` (its pages linked to each other, its images as files), written as ONE revision.
 * A start URL that cannot be imported answers 4xx and writes nothing.
 */
async function importWebsite(ctx: AppContext, caller: Caller, place: ImportPlace, target: ImportTarget, url: string, hooks: ImportHooks): Promise<ImportOutcome> {
  const placement: ImportPlacement = target.pageId ? { into: 'page', pageId: target.pageId } : { into: 'root' };
  const site = await crawlWebsite(ctx, url);
  const { changes, files } = await prepare(ctx, site, placement);
  const sources = new Map(site.pages.map((p, i) => [`page-${i + 1}`, p.url]));
  return commitBatch(ctx, caller, place, changes, files, hooks, ({ revision, batch }) => ({
    revision: revision.id,
    importedResources: site.pages.length + files.size,
    totalResources: site.discovered,
    pages: importedPages(batch, sources, site.pages[0]?.url),
  }));
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
