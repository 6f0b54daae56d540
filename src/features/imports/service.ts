import type { AppContext, Caller } from '../../platform/context.ts';
import { badRequest, notFound } from '../../platform/errors.ts';
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

/** The sources of the official ImportContentSource; only `website` is implemented. */
export const IMPORT_SOURCES = ['website', 'docx', 'markdown', 'html', 'zip', 'confluence', 'github-wiki', 'notion', 'google-docs'] as const;

/**
 * importContent and its variants: crawls the website at `url` and writes its pages and images as ONE revision.
 * Rights are checked first, so nobody makes the server crawl for a write they may not do; the crawl then runs
 * outside any transaction (it waits on the network for up to IMPORT_TIMEOUT_MS) and the write is one
 * transaction. A start URL that cannot be imported answers 4xx and writes nothing.
 */
export async function importWebsite(ctx: AppContext, caller: Caller, target: ImportTarget, body: ImportBody): Promise<ImportResult> {
  if (body.source !== 'website') throw badRequest(`body/source: importing from "${body.source}" is not supported; this server imports from "website" only`);
  const placement: ImportPlacement = target.pageId ? { into: 'page', pageId: target.pageId } : { into: 'root' };

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
