import { Compile } from 'typebox/compile';
import type { Executor } from '../../db/types.ts';
import type { AppContext } from '../../platform/context.ts';
import { ApiError } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { positionAfter, positionAtEnd, positionBefore } from '../placement/positions.ts';
import { findUploadedFile, storeFileBytes, storeRemoteFile, type StoredFile } from '../files/service.ts';
import { findBranch, findRevision, type RevisionRow } from './branch-store.ts';
import type { FileChange } from './commit-revision.ts';
import { documentIdFor, getDocument, problemOfDocument, putDocument } from './document-store.ts';
import { CHANGE_SCHEMAS, type ContentChange, type DocumentInputValue } from './change-schemas.ts';
import { parseMarkdownDocument, relativeLinkCandidates, sameRef, resolveFixedHref, splitAnchor, splitPageMarkdown, type HrefResolver } from './markdown.ts';
import type { ContentRef, Document } from './document/types.ts';
import { documentProblem } from './document/validate.ts';
import { withUniqueKeys } from './document/keys.ts';
import type { PageAttributes, PageRecord } from './pages.ts';
import { reusableContentToPage, type ReusableContentRecord } from './reusable-contents.ts';
import { Snapshot } from './snapshot.ts';
import { slugify, uniqueSlug } from './tree.ts';
import { findByPath, Workspace } from './page-workspace.ts';
import { mergeDocumentBlocks, sameJson, type MergeableDocument } from './document/merge-blocks.ts';

const compiled = Object.fromEntries(Object.entries(CHANGE_SCHEMAS).map(([op, schema]) => [op, Compile(schema)])) as Record<string, ReturnType<typeof Compile>>;

/** Base64 file bodies are capped as the official spec says; larger files are uploaded, or come by URL. */
const MAX_BASE64_BYTES = 1024 * 1024;

/** What a batch did to each page it touched, in the order the pages were first touched. */
export type PageOutcome = { object: 'created_page'; id: string; ref?: string } | { object: 'updated_page'; id: string } | { object: 'deleted_page'; id: string };

/** What a batch did to each reusable content it touched, in the order they were first touched. */
export interface ReusableContentOutcome {
  object: 'created_reusable_content' | 'updated_reusable_content' | 'deleted_reusable_content';
  id: string;
}

export interface InsertedFile {
  id: string;
  ref?: string;
  version: NonNullable<FileChange['file']>;
}

export interface BatchResult {
  pages: Map<string, PageRecord | null>;
  files: FileChange[];
  outcomes: PageOutcome[];
  reusableContents: ReusableContentOutcome[];
  insertedFiles: InsertedFile[];
  /** Documents of saves based on an older revision, merged with what changed since, where they differ from what was sent. */
  merged: { page: string; document: unknown }[];
}

/** A conflict of a save based on an older revision (see SaveConflictBody). */
export interface SaveConflict {
  page: string;
  field: string;
  block?: string;
  kind: string;
  base: unknown;
  ours: unknown;
  theirs: unknown;
}

function fail(index: number, change: { operation?: unknown }, message: string, status = 400): never {
  throw new ApiError(status, `changes[${index}] (${String(change.operation)}): ${message}`);
}

/** A file that could not be fetched or stored; one over the size limit stays a 413, as the route declares. */
function failFile(index: number, change: { operation?: unknown }, where: string, error: unknown): never {
  const status = error instanceof ApiError && error.statusCode === 413 ? 413 : 400;
  fail(index, change, `${where}: ${error instanceof Error ? error.message : String(error)}`, status);
}

/** The operations whose `document` may be a JSON document, checked as stored documents are. */
const DOCUMENT_OPERATIONS = new Set<string>(['insert_page', 'update_page', 'insert_reusable_content', 'update_reusable_content']);

/** Checks every change against its operation's schema before anything is read or written. */
export function validateChanges(changes: readonly unknown[]): ContentChange[] {
  return changes.map((change, index) => {
    const op = (change as { operation?: unknown }).operation;
    const validator = typeof op === 'string' ? compiled[op] : undefined;
    // Named once, with the list to choose from (a union schema would say "must be equal to constant" per member).
    if (!validator) fail(index, { operation: op }, `unknown operation; "operation" must be one of ${Object.keys(compiled).join(', ')}`);
    if (!validator.Check(change)) {
      const first = [...validator.Errors(change)][0];
      fail(index, { operation: op }, `${first?.instancePath || '/'} ${first?.message ?? 'is invalid'}`.trim());
    }
    const c = change as ContentChange;
    if (DOCUMENT_OPERATIONS.has(c.operation) && 'document' in c && c.document && 'document' in c.document) {
      const problem = documentProblem(c.document.document);
      if (problem !== null) fail(index, c, `/document/document${problem.path} ${problem.message}`);
    }
    if (c.operation === 'insert_files') {
      c.files.forEach((file, f) => {
        if ([file.url, file.base64, file.upload].filter((source) => source !== undefined).length !== 1) fail(index, c, `/files/${f} needs exactly one of url, base64 or upload`);
        if (file.base64 !== undefined && !file.contentType) fail(index, c, `/files/${f} needs contentType with base64`);
      });
    }
    return c;
  });
}

/**
 * Downloads and stores the bytes of every file of the batch. It runs before the write transaction (it waits on the
 * network); stored bytes that end up unused are harmless, content-addressed blobs.
 */
export async function storeBatchFiles(ctx: AppContext, changes: readonly ContentChange[]): Promise<Map<string, StoredFile & { name: string }>> {
  const stored = new Map<string, StoredFile & { name: string }>();
  for (const [index, change] of changes.entries()) {
    if (change.operation !== 'insert_files') continue;
    for (const [f, file] of change.files.entries()) {
      let bytes: Buffer;
      const contentType = file.contentType;
      if (file.upload !== undefined) {
        const uploaded = await findUploadedFile(ctx, file.upload);
        if (!uploaded) fail(index, change, `/files/${f}/upload: no upload ${file.upload}; upload the file first (POST /spaces/{spaceId}/files/uploads)`);
        stored.set(`${index}/${f}`, { ...uploaded, name: file.name });
        continue;
      }
      if (file.base64 !== undefined) {
        if (!/^[A-Za-z0-9+/=\s_-]*$/.test(file.base64)) fail(index, change, `/files/${f}/base64 is not base64`);
        bytes = Buffer.from(file.base64, 'base64');
        if (bytes.length > MAX_BASE64_BYTES) fail(index, change, `/files/${f}: base64 files are limited to 1 MB; upload larger ones (POST /spaces/{spaceId}/files/uploads) or give a url`);
      } else {
        // Streamed to disk, never held in memory (a file may be up to FILE_SIZE_LIMIT).
        try {
          stored.set(`${index}/${f}`, { ...(await storeRemoteFile(ctx, ctx.db, { name: file.name, contentType, url: file.url! })), name: file.name });
        } catch (error) {
          failFile(index, change, `/files/${f}/url`, error);
        }
        continue;
      }
      try {
        stored.set(`${index}/${f}`, { ...(await storeFileBytes(ctx, ctx.db, { name: file.name, contentType, bytes })), name: file.name });
      } catch (error) {
        failFile(index, change, `/files/${f}`, error);
      }
    }
  }
  return stored;
}

/**
 * What a dry run of a batch computed before its write transaction opened: the documents converted from its
 * markdown, by markdown, with what each of their links resolved to then, and the ids it gave out, in order.
 * Converting a 1 MB page takes seconds; inside the transaction it would hold the branch lock (and, on SQLite,
 * the one connection every request shares) all that time. The real run gives out the same ids, so a link to a
 * page the batch creates resolves alike in both.
 */
export interface ConvertedAhead {
  documents: Map<string, { document: Document; links: ReadonlyMap<string, ContentRef> }>;
  ids: string[];
}

/** Below this much markdown in a batch, converting in the transaction is quicker than a dry run beforehand. */
const CONVERT_AHEAD_MIN_CHARS = 32_768;

/**
 * Converts the markdown of a large batch outside any transaction: a dry run of applyBatch over the branch's head
 * as it is now, which writes nothing, so every link resolves in the context it will have. applyBatch, in the
 * transaction, then takes a converted document when its links still resolve alike (the head may have moved
 * meanwhile) and converts again otherwise. Nothing here fails a write: a batch the dry run rejects is rejected
 * again, in order, by the real one.
 */
export async function convertAhead(
  ctx: AppContext,
  branchId: string,
  baseRevisionId: (head: RevisionRow) => Promise<string | undefined>,
  changes: readonly ContentChange[],
  files: Map<string, StoredFile & { name: string }>,
  now: string,
): Promise<ConvertedAhead> {
  const conversions: ConvertedAhead = { documents: new Map(), ids: [] };
  const chars = changes.reduce((sum, c) => sum + ((c.operation === 'insert_page' || c.operation === 'update_page') && c.document && 'markdown' in c.document ? c.document.markdown.length : 0), 0);
  if (chars < CONVERT_AHEAD_MIN_CHARS) return conversions;
  const branch = await findBranch(ctx.db, branchId);
  const head = branch && (await findRevision(ctx.db, branch.head_revision_id));
  const base = head && (await baseRevisionId(head));
  if (!head || !base) return conversions;
  try {
    await applyBatch(ctx, ctx.db, head, base, changes, files, now, { conversions, dryRun: true });
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
  }
  return conversions;
}

interface BatchScope {
  ctx: AppContext;
  db: Executor;
  /** Conversions made ahead (used) or, in a dry run, being made (filled). */
  conversions: ConvertedAhead;
  newId: () => string;
  /** A dry run stores no document: it keeps the ones it would store here, by id. */
  unsaved?: Map<string, unknown>;
  ws: Workspace;
  /** The revision the change request is based on: the default target of revert_page. */
  baseRevisionId: string;
  spaceId: string;
  now: string;
  pageRefs: Map<string, string>;
  fileRefs: Map<string, string>;
  outcomes: Map<string, PageOutcome>;
  reusableContents: Map<string, ReusableContentOutcome>;
  /** Saves based on an older revision: what merged (page -> document sent or merged) and what conflicts. */
  saves: { merged: Map<string, unknown>; documents: Map<string, unknown>; conflicts: SaveConflict[] };
}

/**
 * Applies a validated batch to a workspace over the branch's head, in order, inside the caller's transaction.
 * Any invalid change throws a 400 naming its index; the caller's transaction then writes nothing.
 */
export async function applyBatch(
  ctx: AppContext,
  db: Executor,
  head: RevisionRow,
  baseRevisionId: string,
  changes: readonly ContentChange[],
  files: Map<string, StoredFile & { name: string }>,
  now: string,
  ahead: { conversions?: ConvertedAhead; dryRun?: boolean } = {},
): Promise<BatchResult> {
  const ws = new Workspace(await Snapshot.of(db, head));
  const conversions: ConvertedAhead = ahead.conversions ?? { documents: new Map(), ids: [] };
  let given = 0;
  const scope: BatchScope = {
    ctx,
    db,
    conversions,
    newId: ahead.dryRun
      ? () => {
          const id = newId();
          conversions.ids.push(id);
          return id;
        }
      : () => conversions.ids[given++] ?? newId(),
    ...(ahead.dryRun ? { unsaved: new Map() } : {}),
    ws,
    baseRevisionId,
    spaceId: head.space_id,
    now,
    pageRefs: new Map(),
    fileRefs: new Map(),
    outcomes: new Map(),
    reusableContents: new Map(),
    saves: { merged: new Map(), documents: new Map(), conflicts: [] },
  };
  const insertedFiles: InsertedFile[] = [];

  // Refs resolve regardless of the order of operations, so every id is given out first.
  for (const [index, change] of changes.entries()) {
    if (change.operation === 'insert_page' && change.ref !== undefined) {
      if (scope.pageRefs.has(change.ref) || scope.fileRefs.has(change.ref)) fail(index, change, `ref "${change.ref}" is used twice in the batch`);
      scope.pageRefs.set(change.ref, scope.newId());
    }
    if (change.operation === 'insert_files') {
      for (const file of change.files) {
        if (file.ref === undefined) continue;
        if (scope.pageRefs.has(file.ref) || scope.fileRefs.has(file.ref)) fail(index, change, `ref "${file.ref}" is used twice in the batch`);
        scope.fileRefs.set(file.ref, scope.newId());
      }
    }
  }

  for (const [index, change] of changes.entries()) {
    switch (change.operation) {
      case 'insert_page':
        await insertPage(scope, index, change);
        break;
      case 'update_page':
        await updatePage(scope, index, change);
        break;
      case 'delete_page':
        await deletePage(scope, index, change);
        break;
      case 'revert_page':
        await revertPage(scope, index, change);
        break;
      case 'insert_reusable_content':
        await insertReusableContent(scope, index, change);
        break;
      case 'update_reusable_content':
        await updateReusableContent(scope, index, change);
        break;
      case 'delete_reusable_content':
        await deleteReusableContent(scope, index, change);
        break;
      case 'insert_files':
        change.files.forEach((file, f) => {
          const bytes = files.get(`${index}/${f}`)!;
          const id = (file.ref && scope.fileRefs.get(file.ref)) || scope.newId();
          insertedFiles.push({
            id,
            ...(file.ref ? { ref: file.ref } : {}),
            version: {
              name: file.name,
              content_type: bytes.contentType,
              size: bytes.size,
              blob_hash: bytes.hash,
              width: bytes.width ?? null,
              height: bytes.height ?? null,
              created_at: now,
            },
          });
        });
        break;
    }
  }
  const { saves } = scope;
  if (saves.conflicts.length > 0) {
    const titles = new Map<string, string>();
    for (const c of saves.conflicts) if (!titles.has(c.page)) titles.set(c.page, (await ws.page(c.page))?.title ?? c.page);
    // A key held by several blocks (documents of old clients) is one conflict per block, named once.
    const names = new Set(saves.conflicts.map((c) => `${c.block ? `block "${c.block}"` : `the ${c.field}`} of "${titles.get(c.page)}"`));
    throw new ApiError(409, `Since the save's baseRevision, someone else changed ${[...names].join(', ')} too: choose a version of each and save again, based on revision ${head.id}`, {
      revision: head.id,
      conflicts: saves.conflicts,
      documents: [...saves.documents].map(([page, document]) => ({ page, document })),
    });
  }
  return {
    merged: [...saves.merged].map(([page, document]) => ({ page, document })),
    pages: ws.changes(),
    files: insertedFiles.map((f) => ({ id: f.id, file: f.version })),
    outcomes: [...scope.outcomes.values()],
    reusableContents: [...scope.reusableContents.values()],
    insertedFiles,
  };
}

function touch(scope: BatchScope, outcome: PageOutcome): void {
  const previous = scope.outcomes.get(outcome.id);
  if (previous?.object === 'created_page' && outcome.object === 'updated_page') return;
  if (previous?.object === 'created_page' && outcome.object === 'deleted_page') {
    scope.outcomes.delete(outcome.id);
    return;
  }
  scope.outcomes.set(outcome.id, outcome);
}

async function existingPage(scope: BatchScope, index: number, change: ContentChange, idOrRef: string): Promise<PageRecord> {
  const page = await scope.ws.page(scope.pageRefs.get(idOrRef) ?? idOrRef);
  if (!page) fail(index, change, `no page "${idOrRef}" in the change request`);
  return page;
}

async function parentFor(scope: BatchScope, index: number, change: ContentChange, into: string | null): Promise<string | null> {
  if (into === null) return null;
  const parent = await existingPage(scope, index, change, into);
  if (parent.kind === 'link') fail(index, change, `page "${into}" is a link and cannot have sub-pages`);
  if (parent.kind === 'computed') fail(index, change, `page "${into}" is a computed page: its sub-pages are generated`);
  return parent.id;
}

function positionAt(siblings: readonly PageRecord[], at: number | undefined): string {
  const keys = siblings.map((s) => s.position);
  if (at === undefined || at >= keys.length) return positionAtEnd(keys);
  return at === 0 ? positionBefore(keys, 0) : positionAfter(keys, at - 1);
}

interface ParsedDocument {
  /** undefined: the input had no document; null: an empty page. */
  document: unknown | null | undefined;
  title?: string;
  attributes: PageAttributes;
}

/** Reads a document input: markdown (with its front matter and leading title), the JSON document, or empty. */
async function parseDocument(scope: BatchScope, index: number, change: ContentChange, input: DocumentInputValue | undefined, resolve: HrefResolver): Promise<ParsedDocument> {
  if (input === undefined) return { document: undefined, attributes: {} };
  if ('markdown' in input) {
    const { body, front } = splitPageMarkdown(input.markdown, `changes[${index}] (${change.operation}) /document/markdown`);
    const document = body.trim() === '' ? null : await convertMarkdown(scope, body, resolve);
    // Markdown nests as deep as markdown-it allows; the stored document keeps to the document limits.
    const problem = document && problemOfDocument(document);
    if (problem) fail(index, change, `/document/markdown gives a document that ${problem.message}`);
    return { document, ...(front.title ? { title: front.title } : {}), attributes: front.attributes };
  }
  if ('document' in input) return { document: input.document.nodes.length === 0 ? null : input.document, attributes: {} };
  return { document: null, attributes: {} };
}

/** The markdown's document: the one converted ahead when its links resolve alike now, else a new conversion. */
async function convertMarkdown(scope: BatchScope, markdown: string, resolve: HrefResolver): Promise<Document> {
  const ahead = scope.conversions.documents.get(markdown);
  if (ahead && !scope.unsaved) {
    let alike = true;
    for (const [href, ref] of ahead.links) if (!sameRef(await resolve(href), ref)) alike = false;
    if (alike) return ahead.document;
  }
  const links = new Map<string, ContentRef>();
  const document = await parseMarkdownDocument(markdown, async (href) => {
    const ref = await resolve(href);
    links.set(href, ref);
    return ref;
  });
  if (scope.unsaved) scope.conversions.documents.set(markdown, { document, links });
  return document;
}

/** Stores a document, or in a dry run only names it. */
async function storeDocument(scope: BatchScope, document: unknown): Promise<string> {
  if (!scope.unsaved) return putDocument(scope.db, document, scope.now);
  const id = documentIdFor(document);
  scope.unsaved.set(id, document);
  return id;
}

function metadataOf(change: { emoji?: string; icon?: string; description?: string; hidden?: boolean; noIndex?: boolean; noRobotsIndex?: boolean; condition?: string }, into: PageAttributes): PageAttributes {
  const out: PageAttributes = { ...into };
  // Empty strings remove emoji, icon and condition, as the spec says.
  for (const key of ['emoji', 'icon', 'condition'] as const) {
    const value = change[key];
    if (value === undefined) continue;
    if (value === '') delete out[key];
    else out[key] = value;
  }
  if (change.description !== undefined) out.description = change.description;
  for (const key of ['hidden', 'noIndex', 'noRobotsIndex'] as const) if (change[key] !== undefined) out[key] = change[key];
  return out;
}

/** Resolves links of a page's markdown: fixed forms, refs of the batch, then paths relative to the page. */
function hrefResolver(scope: BatchScope, pagePath: () => Promise<string>): HrefResolver {
  return async (href: string): Promise<ContentRef> => {
    const fixed = resolveFixedHref(href);
    if (fixed) return fixed;
    const [path, anchor] = splitAnchor(href);
    const refName = path.replace(/^\.\//, '').replace(/\.md$/i, '');
    const pageRef = scope.pageRefs.get(refName) ?? scope.pageRefs.get(path.replace(/^\.\//, ''));
    if (pageRef) return anchor ? { kind: 'anchor', anchor, page: pageRef } : { kind: 'page', page: pageRef };
    const fileRef = scope.fileRefs.get(path.replace(/^\.\//, ''));
    if (fileRef) return { kind: 'file', file: fileRef };
    for (const candidate of relativeLinkCandidates(await pagePath(), href)) {
      const target = candidate ? await findByPath(scope.ws, candidate) : undefined;
      if (target) return anchor ? { kind: 'anchor', anchor, page: target.id } : { kind: 'page', page: target.id };
    }
    return { kind: 'url', url: href };
  };
}

async function childPath(scope: BatchScope, parentId: string | null, slug: string): Promise<string> {
  const parentPath = parentId ? await scope.ws.pathOf(parentId) : '';
  return parentPath ? `${parentPath}/${slug}` : slug;
}

function takenSlugs(siblings: readonly PageRecord[], except?: string): Set<string> {
  return new Set(siblings.filter((s) => s.id !== except && s.kind !== 'link').map((s) => s.slug));
}

async function insertPage(scope: BatchScope, index: number, change: Extract<ContentChange, { operation: 'insert_page' }>) {
  const parentId = await parentFor(scope, index, change, change.into ?? null);
  const siblings = await scope.ws.children(parentId);
  // The title may come from the markdown; the slug (and so the path links resolve from) follows it.
  let slug = '';
  const parsed = await parseDocument(scope, index, change, change.document, hrefResolver(scope, () => childPath(scope, parentId, slug)));
  const title = parsed.title ?? change.title ?? 'Untitled';
  slug = pickSlug(scope, index, change, siblings, change.slug, title);
  const id = (change.ref && scope.pageRefs.get(change.ref)) || scope.newId();
  if (change.computed && parsed.document) fail(index, change, 'a computed page has no document of its own: send document as {}');
  const group = change.type === 'group';
  // GitBook's groups title the top level of the tree; they hold pages, not a document.
  if (group && parentId !== null) fail(index, change, '/into: a group is inserted at the top level of the tree');
  if (group && parsed.document) fail(index, change, '/document: a group has no document: send document as {}');
  const page: PageRecord = {
    id,
    parentId,
    position: positionAt(siblings, change.at),
    kind: change.computed ? 'computed' : group ? 'group' : 'document',
    title,
    slug,
    documentId: parsed.document ? await storeDocument(scope, parsed.document) : null,
    attributes: { ...metadataOf(change, {}), ...parsed.attributes, ...(change.computed ? { computed: change.computed } : {}) },
    createdAt: scope.now,
    updatedAt: scope.now,
  };
  scope.ws.set(page);
  touch(scope, { object: 'created_page', id, ...(change.ref ? { ref: change.ref } : {}) });
}

function pickSlug(scope: BatchScope, index: number, change: ContentChange, siblings: readonly PageRecord[], given: string | undefined, title: string, self?: string): string {
  const taken = takenSlugs(siblings, self);
  if (given !== undefined && given !== '') {
    if (taken.has(given)) fail(index, change, `slug "${given}" is already used by a sibling page`);
    return given;
  }
  void scope;
  return uniqueSlug(slugify(title), taken);
}

async function updatePage(scope: BatchScope, index: number, change: Extract<ContentChange, { operation: 'update_page' }>) {
  const page = await existingPage(scope, index, change, change.page);
  if (change.baseRevision !== undefined) change = await mergeWithSince(scope, index, change, page);
  let parentId = page.parentId;
  if (change.into !== undefined) {
    parentId = await parentFor(scope, index, change, change.into);
    if (parentId !== null && (await scope.ws.isWithin(parentId, page.id))) fail(index, change, 'a page cannot be moved into itself or one of its sub-pages');
  }
  const moved = parentId !== page.parentId;
  const siblings = (await scope.ws.children(parentId)).filter((s) => s.id !== page.id);
  let slug = page.slug;
  const parsed = await parseDocument(scope, index, change, change.document, hrefResolver(scope, () => childPath(scope, parentId, slug)));
  const title = parsed.title ?? change.title ?? page.title;
  const taken = takenSlugs(siblings);
  if (change.slug !== undefined && change.slug !== '') slug = pickSlug(scope, index, change, siblings, change.slug, title, page.id);
  else if (title !== page.title) slug = uniqueSlug(slugify(title), taken);
  else if (taken.has(slug)) slug = uniqueSlug(slug, taken);
  const position = moved || change.at !== undefined ? positionAt(siblings, change.at) : page.position;
  let documentId = page.documentId;
  if (parsed.document !== undefined) documentId = parsed.document ? await storeDocument(scope, parsed.document) : null;
  scope.ws.set({
    ...page,
    parentId,
    position,
    title,
    slug,
    documentId,
    attributes: { ...withCover(metadataOf(change, page.attributes), change.cover), ...parsed.attributes },
    updatedAt: scope.now,
  });
  touch(scope, { object: 'updated_page', id: page.id });
}

/**
 * A save based on an older revision: when the page changed since, its JSON document is merged block by block
 * with the current one, and title, description, emoji and icon field by field; the change then carries the
 * merged values. Conflicts are collected for the whole batch (a 409 after it), so that every one is named at once.
 */
async function mergeWithSince(
  scope: BatchScope,
  index: number,
  change: Extract<ContentChange, { operation: 'update_page' }>,
  current: PageRecord,
): Promise<Extract<ContentChange, { operation: 'update_page' }>> {
  const revision = await findRevision(scope.db, change.baseRevision!);
  if (!revision || revision.space_id !== scope.spaceId) fail(index, change, `/baseRevision: no revision "${change.baseRevision}" in this space`);
  const base = await (await Snapshot.of(scope.db, revision)).page(current.id);
  const merged = { ...change };
  const conflict = (c: Omit<SaveConflict, 'page'>) => scope.saves.conflicts.push({ page: current.id, ...c });

  for (const field of ['title', 'description', 'emoji', 'icon'] as const) {
    const ours = change[field];
    if (ours === undefined) continue;
    const was = field === 'title' ? base?.title : base?.attributes[field];
    const theirs = field === 'title' ? current.title : current.attributes[field];
    if (was !== theirs && ours !== theirs && ours !== was) conflict({ field, kind: 'edited', base: was ?? null, ours, theirs: theirs ?? null });
  }

  const input = change.document;
  if (!input || !('document' in input) || (base?.documentId ?? null) === current.documentId) return merged;
  const load = async (id: string | null | undefined) => (id ? ((scope.unsaved?.get(id) ?? (await getDocument(scope.db, id))) as MergeableDocument) : null);
  const ours = input.document as MergeableDocument;
  const result = mergeDocumentBlocks(await load(base?.documentId), ours, await load(current.documentId));
  if (result.conflict) {
    for (const c of result.conflicts) conflict({ field: 'document', block: c.key, kind: c.kind, base: c.base, ours: c.ours, theirs: c.theirs });
    scope.saves.documents.set(current.id, result.document);
    return merged;
  }
  if (!sameJson(result.document, ours)) scope.saves.merged.set(current.id, result.document);
  return { ...merged, document: { document: result.document as { object: 'document'; nodes: unknown[] } } };
}

function withCover(attributes: PageAttributes, cover: Record<string, unknown> | null | undefined): PageAttributes {
  if (cover === undefined) return attributes;
  const { cover: _old, ...rest } = attributes;
  return cover === null ? rest : { ...rest, cover };
}

async function deletePage(scope: BatchScope, index: number, change: Extract<ContentChange, { operation: 'delete_page' }>) {
  const page = await existingPage(scope, index, change, change.page);
  for (const p of await scope.ws.subtree(page.id)) {
    scope.ws.delete(p.id);
    touch(scope, { object: 'deleted_page', id: p.id });
  }
}

async function revertPage(scope: BatchScope, index: number, change: Extract<ContentChange, { operation: 'revert_page' }>) {
  const pageId = scope.pageRefs.get(change.page) ?? change.page;
  const revisionId = change.revision ?? scope.baseRevisionId;
  const revision = await findRevision(scope.db, revisionId);
  if (!revision || revision.space_id !== scope.spaceId) fail(index, change, `no revision "${revisionId}" in this space`);
  const old = await (await Snapshot.of(scope.db, revision)).page(pageId);
  const current = await scope.ws.page(pageId);
  if (!old && !current) fail(index, change, `no page "${change.page}" in the change request nor in revision ${revisionId}`);

  if (change.block) {
    if (!old || !current) fail(index, change, 'blocks can only be reverted on a page that exists in both revisions');
    const reverted = await revertBlocks(scope, index, change, current.documentId, old.documentId, change.block);
    scope.ws.set({ ...current, documentId: reverted, updatedAt: scope.now });
    touch(scope, { object: 'updated_page', id: current.id });
    return;
  }
  if (!old) {
    // Added since that revision: reverting removes it.
    for (const p of await scope.ws.subtree(pageId)) {
      scope.ws.delete(p.id);
      touch(scope, { object: 'deleted_page', id: p.id });
    }
    return;
  }
  // Back to its old state; if its old parent is gone, it returns at the root.
  const parentId = old.parentId && (await scope.ws.page(old.parentId)) ? old.parentId : null;
  const siblings = (await scope.ws.children(parentId)).filter((s) => s.id !== pageId);
  const taken = takenSlugs(siblings);
  scope.ws.set({ ...old, parentId, slug: taken.has(old.slug) ? uniqueSlug(old.slug, taken) : old.slug, updatedAt: scope.now });
  touch(scope, { object: current ? 'updated_page' : 'created_page', id: pageId });
}

function touchReusableContent(scope: BatchScope, outcome: ReusableContentOutcome): void {
  const previous = scope.reusableContents.get(outcome.id);
  if (previous?.object === 'created_reusable_content' && outcome.object === 'updated_reusable_content') return;
  if (previous?.object === 'created_reusable_content' && outcome.object === 'deleted_reusable_content') {
    scope.reusableContents.delete(outcome.id);
    return;
  }
  scope.reusableContents.set(outcome.id, outcome);
}

async function existingReusableContent(scope: BatchScope, index: number, change: ContentChange, id: string): Promise<ReusableContentRecord> {
  const content = await scope.ws.reusableContent(id);
  if (!content) fail(index, change, `/reusableContent: no reusable content "${id}" in this revision`, 404);
  return content;
}

/** A reusable content's document: its markdown's links are resolved as a top-level page's would be. */
async function reusableContentDocument(scope: BatchScope, index: number, change: ContentChange, input: DocumentInputValue | undefined) {
  const parsed = await parseDocument(scope, index, change, input, hrefResolver(scope, async () => ''));
  return { ...parsed, documentId: parsed.document === undefined ? undefined : parsed.document ? await storeDocument(scope, parsed.document) : null };
}

async function insertReusableContent(scope: BatchScope, index: number, change: Extract<ContentChange, { operation: 'insert_reusable_content' }>) {
  const id = change.reusableContent ?? scope.newId();
  const taken = change.reusableContent !== undefined && ((await scope.ws.reusableContent(id)) || (await scope.ws.page(id)));
  if (taken) fail(index, change, `/reusableContent: "${id}" is already the id of content of this revision`);
  const parsed = await reusableContentDocument(scope, index, change, change.document);
  const title = parsed.title ?? change.title ?? 'Untitled';
  const content: ReusableContentRecord = { id, title, documentId: parsed.documentId ?? null, createdAt: scope.now, updatedAt: scope.now };
  scope.ws.set(reusableContentToPage(content));
  touchReusableContent(scope, { object: 'created_reusable_content', id });
}

async function updateReusableContent(scope: BatchScope, index: number, change: Extract<ContentChange, { operation: 'update_reusable_content' }>) {
  const content = await existingReusableContent(scope, index, change, change.reusableContent);
  const parsed = await reusableContentDocument(scope, index, change, change.document);
  const documentId = parsed.documentId === undefined ? content.documentId : parsed.documentId;
  scope.ws.set(reusableContentToPage({ ...content, title: parsed.title ?? change.title ?? content.title, documentId, updatedAt: scope.now }));
  touchReusableContent(scope, { object: 'updated_reusable_content', id: content.id });
}

async function deleteReusableContent(scope: BatchScope, index: number, change: Extract<ContentChange, { operation: 'delete_reusable_content' }>) {
  const content = await existingReusableContent(scope, index, change, change.reusableContent);
  scope.ws.delete(content.id);
  touchReusableContent(scope, { object: 'deleted_reusable_content', id: content.id });
}

interface KeyedNode {
  key?: string;
  [field: string]: unknown;
}

/**
 * Reverts the listed top-level blocks (by key): re-added, removed or reset to their old content. A block brought
 * back may hold a node that has moved to another block since: the copy after the first gets a new key, as the
 * caller sent no duplicate to be told of (keys.ts).
 */
async function revertBlocks(
  scope: BatchScope,
  index: number,
  change: ContentChange,
  currentId: string | null,
  oldId: string | null,
  keys: readonly string[],
): Promise<string | null> {
  const load = async (id: string | null) =>
    ((id ? (scope.unsaved?.get(id) ?? (await getDocument(scope.db, id))) : undefined) as { nodes?: KeyedNode[] } | undefined) ?? { object: 'document', data: {}, nodes: [] };
  const current = (await load(currentId)) as { nodes: KeyedNode[] };
  const old = (await load(oldId)) as { nodes: KeyedNode[] };
  const nodes = [...(current.nodes ?? [])];
  for (const key of keys) {
    const at = nodes.findIndex((n) => n.key === key);
    const oldAt = (old.nodes ?? []).findIndex((n) => n.key === key);
    if (at < 0 && oldAt < 0) fail(index, change, `no block "${key}" in the page`);
    if (oldAt < 0) nodes.splice(at, 1);
    else if (at < 0) nodes.splice(Math.min(oldAt, nodes.length), 0, old.nodes[oldAt]!);
    else nodes[at] = old.nodes[oldAt]!;
  }
  return nodes.length === 0 ? null : storeDocument(scope, withUniqueKeys({ ...current, nodes } as unknown as Document));
}
