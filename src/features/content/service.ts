import type { AppContext, Caller } from '../../platform/context.ts';
import { notFound } from '../../platform/errors.ts';
import { cachedRead, readCache } from '../../platform/read-cache.ts';
import { loadSpace } from '../spaces/service.ts';
import { loadChangeRequest } from '../change-requests/service.ts';
import { findChangeRequest } from '../change-requests/queries.ts';
import { presentChangeRequest } from '../change-requests/present.ts';
import { openCommentsOfChangeRequest } from '../comments/queries.ts';
import { findRevision, type RevisionRow } from './branch-store.ts';
import type { PageRecord } from './pages.ts';
import { presentFile, presentPage, presentRevision, type PresentedBody } from './present.ts';
import { compareReusableContents, presentReusableContent } from './reusable-contents.ts';
import { Snapshot } from './snapshot.ts';
import { presentedBodyOf, presentedTreeOf, revisionRead, serializedRevisionOf } from './revision-cache.ts';
import { buildTree, type PageNode } from './tree.ts';
import { getDocument, getDocumentText, getDocumentTexts, parseStoredDocument } from './document-store.ts';
import { fileDownloadUrl } from '../files/service.ts';
import type { Document } from './document/types.ts';
import { expandReusableBlocks, loadIncludedDocuments } from './document/reusable-blocks.ts';
import { spaceHeldDocument, type FileVersionRow } from './version-store.ts';
import { publishedUrlsOfSpace } from '../sites/published-urls.ts';
import { pageUrl } from '../reader/site-view.ts';

/** Which content a read is about: the space's current revision, a change request's, or any revision of the space. */
export type ContentSource = { spaceId: string } & ({ kind: 'space' } | { kind: 'change-request'; changeRequestId: string } | { kind: 'revision'; revisionId: string });

export interface ReadOptions {
  format?: 'document' | 'markdown' | undefined;
}

/** Opens the snapshot a read needs, after checking the caller may read the space. */
export async function openContent(ctx: AppContext, caller: Caller, source: ContentSource) {
  const withCr = source.kind === 'change-request' ? await loadChangeRequest(ctx, caller, source.spaceId, source.changeRequestId) : undefined;
  const cr = withCr?.cr;
  const { space, access, role } = withCr ?? (await loadSpace(ctx, caller, source.spaceId));
  const spaceId = space.id;
  const spaceRevision = space.revision_id;
  const revisionId = cr ? (cr.head_revision_id ?? cr.revision_initial) : source.kind === 'revision' ? source.revisionId : space.revision_id;
  // Revision rows never change once written: cached (outside transactions) until one is deleted.
  const revisions = readCache<RevisionRow | undefined>(ctx.db, 'content:revisions', { max: 10_000, ttlMs: 'shared', dependsOn: ['revisions'], keep: (row) => row !== undefined });
  const revision = await cachedRead(revisions, revisionId, () => findRevision(ctx.db, revisionId));
  if (!revision || revision.space_id !== spaceId) throw notFound(`No revision ${revisionId} in space ${source.spaceId}`);
  return { spaceId, space, access, role, revision, spaceRevision, snapshot: await Snapshot.of(ctx.db, revision) };
}

function presentFiles(ctx: AppContext, files: FileVersionRow[]) {
  return files
    .slice()
    .sort((a, b) => (a.file_id < b.file_id ? -1 : a.file_id > b.file_id ? 1 : 0))
    .map((f) => presentFile(f, fileDownloadUrl(ctx.config, f.blob_hash, f.name)));
}

/** The presented tree and files of a revision, built once per revision (tree-cache.ts). */
function treeOf(ctx: AppContext, spaceId: string, snapshot: Snapshot) {
  return presentedTreeOf(ctx, snapshot.revision.id, async () => {
    const [pages, files, reusableContents] = await Promise.all([snapshot.pages(), snapshot.files(), snapshot.reusableContents()]);
    return {
      pages: buildTree(pages).map((node) => presentPage(ctx.config, spaceId, node)),
      files: presentFiles(ctx, files),
      reusableContents: reusableContents.sort(compareReusableContents).map(presentReusableContent),
      size: pages.length + reusableContents.length,
    };
  });
}

async function presentOpened(ctx: AppContext, { spaceId, revision, snapshot, spaceRevision }: Awaited<ReturnType<typeof openContent>>) {
  const tree = await treeOf(ctx, spaceId, snapshot);
  // A merge revision names the change request it came from.
  const mergedFrom = revision.merged_from ? await findChangeRequest(ctx.db, spaceId, revision.merged_from) : undefined;
  return presentRevision(
    ctx.config,
    revision,
    tree.pages,
    tree.files,
    tree.reusableContents,
    mergedFrom ? { mergedFrom: presentChangeRequest(ctx.config, mergedFrom, spaceRevision, await openCommentsOfChangeRequest(ctx.db, mergedFrom.id)) } : {},
  );
}

/**
 * The revision as JSON text, written by `serialize` (the route's response serializer). Everything in the answer
 * about a revision that is not a merge comes from the revision itself, so its text is kept per revision
 * (revision-cache.ts) and a large tree is not written again for every reader; a merge revision names its change
 * request as that is now, so it is written each time.
 */
export async function readRevisionJson(ctx: AppContext, caller: Caller, source: ContentSource, serialize: (body: unknown) => string): Promise<string> {
  const opened = await openContent(ctx, caller, source);
  if (opened.revision.merged_from) return serialize(await presentOpened(ctx, opened));
  return serializedRevisionOf(ctx, opened.revision.id, async () => serialize(await presentOpened(ctx, opened)));
}

export async function readPages(ctx: AppContext, caller: Caller, source: ContentSource) {
  const { spaceId, snapshot } = await openContent(ctx, caller, source);
  return { pages: (await treeOf(ctx, spaceId, snapshot)).pages };
}

/** A page node with its subtree and path, read page by page so the cost follows the page, not the space. */
async function nodeOf(snapshot: Snapshot, page: PageRecord): Promise<PageNode> {
  const path = await snapshot.path(page.id);
  const subtree = async (parent: PageRecord, parentPath: string): Promise<PageNode[]> => {
    const children = buildTree(await snapshot.children(parent.id)).map((n) => n.page);
    return Promise.all(
      children.map(async (child) => {
        const childPath = child.kind === 'link' ? parentPath : `${parentPath}/${child.slug}`;
        return { page: child, path: childPath, children: await subtree(child, childPath) };
      }),
    );
  };
  return { page, path, children: await subtree(page, path) };
}

async function bodyOf(ctx: AppContext, revisionId: string, page: PageRecord, options: ReadOptions, render: DocumentRenderer): Promise<PresentedBody | undefined> {
  if (page.kind !== 'document') return undefined;
  const format = options.format ?? 'document';
  if (!page.documentId) return format === 'markdown' ? { markdown: '' } : undefined;
  const documentId = page.documentId;
  // Readers ask for the same pages over and over: parsing and rendering a document is done once per revision.
  const held = await presentedBodyOf<PresentedBody | undefined>(ctx, revisionId, documentId, format, async () => {
    const text = await getDocumentText(ctx.db, documentId);
    if (format === 'markdown') return { body: { markdown: text === undefined ? '' : await render(text) }, size: text?.length ?? 1 };
    const document = text === undefined ? undefined : parseStoredDocument(text);
    return { body: document ? { document } : undefined, size: text?.length ?? 1 };
  });
  return held.body;
}

/** Turns a stored document (its JSON text) into markdown, resolving references against the revision the page belongs to. */
export type DocumentRenderer = (documentText: string) => Promise<string>;

export async function readPage(
  ctx: AppContext,
  caller: Caller,
  source: ContentSource,
  locate: { pageId: string } | { path: string },
  options: ReadOptions,
  renderer: (snapshot: Snapshot) => DocumentRenderer,
) {
  const { spaceId, snapshot } = await openContent(ctx, caller, source);
  const page = 'pageId' in locate ? await snapshot.page(locate.pageId) : await pageByPath(snapshot, locate.path);
  if (!page) throw notFound('pageId' in locate ? `No page ${locate.pageId} in this revision` : `No page at path "${locate.path}" in this revision`);
  const node = await nodeOf(snapshot, page);
  return presentPage(ctx.config, spaceId, node, await bodyOf(ctx, snapshot.revision.id, page, options, renderer(snapshot)));
}

/** Follows slugs from the root; link pages have no path of their own, so their children hang on the parent's. */
export async function pageByPath(snapshot: Snapshot, path: string): Promise<PageRecord | undefined> {
  const segments = path
    .split('/')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  if (segments.length === 0) {
    const roots = buildTree(await snapshot.children(null)).map((n) => n.page);
    return roots.find((p) => p.kind === 'document') ?? roots.find((p) => p.kind === 'group');
  }
  let parentId: string | null = null;
  let found: PageRecord | undefined;
  for (const segment of segments) {
    const children = await snapshot.children(parentId);
    found = children.find((p) => p.slug === segment && p.kind !== 'link');
    if (!found) return undefined;
    parentId = found.id;
  }
  return found;
}

export async function readFiles(ctx: AppContext, caller: Caller, source: ContentSource, query: { page?: string; limit?: number }) {
  const { revision, snapshot } = await openContent(ctx, caller, source);
  const listKey = `files:${revision.id}`;
  const request = ctx.cursors.open(listKey, query, ctx.config.defaultPageSize);
  const { rows, count } = await snapshot.filesPage(request);
  return ctx.cursors.close(listKey, request, rows, count, (f) => [f.file_id], (f) => presentFile(f, fileDownloadUrl(ctx.config, f.blob_hash, f.name)));
}

/** A stored document as the API shows it (the official JSONDocument). */
type StoredDocument = { object: 'document'; data: Record<string, unknown>; nodes: unknown[] };

/** For reads that never ask for markdown: bodyOf calls its renderer only for that format. */
const noMarkdown: DocumentRenderer = () => Promise.reject(new Error('this read asks for the document, not markdown'));

/** getPageDocumentInRevisionById: the document of a page of the revision (an empty one while the page has none). */
export async function readPageDocument(ctx: AppContext, caller: Caller, source: ContentSource, pageId: string): Promise<StoredDocument> {
  const { revision, page } = await openDocumentPage(ctx, caller, source, pageId);
  // The body getPageInRevisionById keeps per revision and document: a review reads both sides of a 300-block
  // page again each time it is opened, and parsing the stored JSON was most of the answer's time.
  const body = await bodyOf(ctx, revision.id, page, { format: 'document' }, noMarkdown);
  return (body?.document as StoredDocument | undefined) ?? { object: 'document', data: {}, nodes: [] };
}

/**
 * getDocumentById: a document by its id, when a page of the space (its main line or a change request's) holds
 * it or held it. Documents are stored once per distinct content and shared between spaces, so the id must be
 * found in this space's history: an id of another space's document is a 404 here, as an unknown one is. This
 * server keeps one document schema, so `schema` (current or next) answers the same document.
 */
export async function readDocumentById(ctx: AppContext, caller: Caller, spaceId: string, documentId: string): Promise<StoredDocument> {
  const { space } = await loadSpace(ctx, caller, spaceId);
  const text = (await spaceHeldDocument(ctx.db, space.id, documentId)) ? await getDocumentText(ctx.db, documentId) : undefined;
  if (text === undefined) throw notFound(`No document ${documentId} in space ${spaceId}`);
  return parseStoredDocument(text) as StoredDocument;
}

/**
 * The page a site-space shows at its own URL: the first document of the reading order, hidden pages and what
 * is under them left out (as the reader's firstPage), found by walking down from the top, not by reading the tree.
 */
async function firstListedDocument(snapshot: Snapshot, parentId: string | null, depth: number): Promise<PageRecord | undefined> {
  if (depth > 100) return undefined;
  for (const { page } of buildTree(await snapshot.children(parentId))) {
    if (page.attributes.hidden) continue;
    if (page.kind === 'document') return page;
    const below = await firstListedDocument(snapshot, page.id, depth + 1);
    if (below) return below;
  }
  return undefined;
}

/** One target of a page's meta links (the official RevisionPageMetaLinkTarget): here, always a URL. */
type MetaLinkTarget = { kind: 'url'; url: string };

/**
 * list*PageMetaLinks: the URLs a document page of the revision is read at, as the reader addresses it (the
 * site-space's URL and the page's path; the first page of the tree at the site-space's own URL). `canonical`
 * is its URL where the space is published first (the space's `urls.published`), `alternates` the same page in
 * every other published site-space of the space. A page of a space that no published site shows, and a page
 * that is not a document (a group, a link), has none: the object is empty.
 */
export async function readPageMetaLinks(ctx: AppContext, caller: Caller, source: ContentSource, pageId: string): Promise<{ canonical?: MetaLinkTarget; alternates?: MetaLinkTarget[] }> {
  const { spaceId, snapshot } = await openContent(ctx, caller, source);
  const page = await snapshot.page(pageId);
  if (!page) throw notFound(`No page ${pageId} in this revision`);
  if (page.kind !== 'document') return {};
  const places = await publishedUrlsOfSpace(ctx.db, ctx.config, spaceId);
  if (places.length === 0) return {};
  const [first, path] = await Promise.all([firstListedDocument(snapshot, null, 0), snapshot.path(page.id)]);
  const node: PageNode = { page, path, children: [] };
  const firstNode = first ? { page: first, path: '', children: [] } : undefined;
  const [canonical, ...alternates] = places.map((url): MetaLinkTarget => ({ kind: 'url', url: pageUrl({ url }, node, firstNode) }));
  return { canonical: canonical!, ...(alternates.length > 0 ? { alternates } : {}) };
}

/** getReusableContent*ById: a reusable content of the revision, as the official RevisionReusableContent. */
export async function readReusableContent(ctx: AppContext, caller: Caller, source: ContentSource, reusableContentId: string) {
  const { content } = await openReusableContent(ctx, caller, source, reusableContentId);
  return presentReusableContent(content);
}

/** getReusableContentDocumentInRevisionById: its document (an empty one while it has none). */
export async function readReusableContentDocument(ctx: AppContext, caller: Caller, source: ContentSource, reusableContentId: string): Promise<StoredDocument> {
  const { content } = await openReusableContent(ctx, caller, source, reusableContentId);
  const text = content.documentId ? await getDocumentText(ctx.db, content.documentId) : undefined;
  return text === undefined ? { object: 'document', data: {}, nodes: [] } : (parseStoredDocument(text) as StoredDocument);
}

async function openReusableContent(ctx: AppContext, caller: Caller, source: ContentSource, reusableContentId: string) {
  const { snapshot } = await openContent(ctx, caller, source);
  const content = await snapshot.reusableContent(reusableContentId);
  if (!content) throw notFound(`No reusable content ${reusableContentId} in this revision`);
  return { snapshot, content };
}

export async function readFile(ctx: AppContext, caller: Caller, source: ContentSource, fileId: string) {
  const { snapshot } = await openContent(ctx, caller, source);
  const file = await snapshot.file(fileId);
  if (!file) throw notFound(`No file ${fileId} in this revision`);
  return presentFile(file, fileDownloadUrl(ctx.config, file.blob_hash, file.name));
}

export type { RevisionRow };

/** Writes to a space's main branch as one revision, for features that edit content for their own reasons (translations). */
export { commitLiveChanges } from './main-branch-writes.ts';

/**
 * What the reader shows of a published space: no caller, because a site's visibility rules (checked by the
 * reader before it asks) decide who reads a published space, not the organization's roles. Kept per revision
 * (revision-cache.ts): a published revision's pages and files never change.
 */
export interface PublishedContent {
  tree: PageNode[];
  files: Map<string, { href: string; name: string; contentType: string; size: number; hash: string }>;
  /** The revision's reusable contents: the id of each one's document (null: it has none). */
  reusableContents: Map<string, string | null>;
  /** The revision's variables (`space.vars` of expression inlines). */
  variables: Record<string, string>;
}

export function readPublishedContent(ctx: AppContext, revisionId: string): Promise<PublishedContent> {
  return revisionRead(ctx.db, `${ctx.config.publicUrl} ${revisionId} published`, async () => {
    const revision = await findRevision(ctx.db, revisionId);
    if (!revision) return { tree: [], files: new Map(), reusableContents: new Map(), variables: {} };
    const snapshot = await Snapshot.of(ctx.db, revision);
    const [pages, files, reusableContents] = await Promise.all([snapshot.pages(), snapshot.files(), snapshot.reusableContents()]);
    return {
      tree: buildTree(pages),
      files: new Map(files.map((f) => [f.file_id, { href: fileDownloadUrl(ctx.config, f.blob_hash, f.name), name: f.name, contentType: f.content_type, size: f.size, hash: f.blob_hash }])),
      reusableContents: new Map(reusableContents.map((r) => [r.id, r.documentId])),
      variables: JSON.parse(revision.variables) as Record<string, string>,
    };
  });
}

/** A published page's document (stored documents never change: a page edit writes a new one). */
export async function readPublishedDocument(ctx: AppContext, documentId: string | null): Promise<unknown> {
  return documentId ? getDocument(ctx.db, documentId) : undefined;
}

/**
 * Which of these published documents may hold adaptive content (an `if` block, or a reusable-content block that
 * may bring one), told from their stored text in one read: a text that names neither holds none. Conservative — a
 * text that merely contains the word is named too, and is then read whole.
 */
export async function documentsMaybeAdaptive(ctx: AppContext, documentIds: readonly string[]): Promise<Set<string>> {
  const texts = await getDocumentTexts(ctx.db, documentIds);
  return new Set(documentIds.filter((id) => {
    const text = texts.get(id);
    return text === undefined || text.includes('"if"') || text.includes('"reusable-content"');
  }));
}

/** A published page's document as readers see it: its reusable-content blocks hold what they include (reusable-blocks.ts). */
export async function readPublishedPageDocument(ctx: AppContext, content: PublishedContent, documentId: string | null): Promise<Document | undefined> {
  const document = (await readPublishedDocument(ctx, documentId)) as Document | undefined;
  return document && expandIncludes(ctx, document, (id) => content.reusableContents.get(id));
}

/** The document with what its reusable-content blocks include, read from a revision's reusable contents. */
async function expandIncludes(ctx: AppContext, document: Document, documentIdOf: (reusableContentId: string) => string | null | undefined): Promise<Document> {
  const included = await loadIncludedDocuments(document, async (id) => {
    const documentId = documentIdOf(id);
    return documentId ? ((await getDocument(ctx.db, documentId)) as Document | undefined) : undefined;
  });
  return expandReusableBlocks(document, included);
}

// Editing together (features/collaboration) writes an editor's document as the API's update_page does.
export { assertCanWriteChangeRequest, commitChangeRequestChanges } from './change-request-writes.ts';
export { validateChanges } from './apply-changes.ts';

/** A page's document where edits go, as it is now, with the revision it was read at and its stored document's id. */
export interface PageNow {
  revisionId: string;
  documentId: string | null;
  document: { object: 'document'; data: Record<string, unknown>; nodes: unknown[] };
}

/**
 * The page's document now, in a space's live content or a change request's, after checking the caller may read
 * it; 404 for a page that is not there or holds no document (a group, a link).
 */
export async function readPageNow(ctx: AppContext, caller: Caller, source: ContentSource, pageId: string): Promise<PageNow> {
  const { revision, page } = await openDocumentPage(ctx, caller, source, pageId);
  const text = page.documentId ? await getDocumentText(ctx.db, page.documentId) : undefined;
  const document = text === undefined ? { object: 'document' as const, data: {}, nodes: [] } : (parseStoredDocument(text) as PageNow['document']);
  return { revisionId: revision.id, documentId: page.documentId, document };
}

/** Checks, as readPageNow does, that the caller can read the document page, without reading its document. */
export async function assertCanReadDocumentPage(ctx: AppContext, caller: Caller, source: ContentSource, pageId: string): Promise<void> {
  await openDocumentPage(ctx, caller, source, pageId);
}

async function openDocumentPage(ctx: AppContext, caller: Caller, source: ContentSource, pageId: string) {
  const { snapshot, revision } = await openContent(ctx, caller, source);
  const page = await snapshot.page(pageId);
  if (!page) throw notFound(`No page ${pageId} in this revision`);
  if (page.kind !== 'document') throw notFound(`Page ${pageId} is a ${page.kind} page; only document pages have a document`);
  return { snapshot, revision, page };
}
