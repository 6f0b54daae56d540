import { setImmediate as nextTurn } from 'node:timers/promises';
import * as Y from 'yjs';
import type { AppContext, Caller } from '../../platform/context.ts';
import { ApiError } from '../../platform/errors.ts';
import { isoNow } from '../../platform/clock.ts';
import type { ContentWrite } from '../../platform/content-writes.ts';
import { withoutUnsafeUrls } from '../content/document/document-urls.ts';
import type { Document } from '../content/document/types.ts';
import {
  assertCanWriteChangeRequest,
  commitChangeRequestChanges,
  commitLiveChanges,
  readPageNow,
  readPublishedDocument,
  validateChanges,
  type PageNow,
} from '../content/service.ts';
import { loadChangeRequest } from '../change-requests/service.ts';
import { assertCanEditContent } from '../spaces/policy.ts';
import { loadSpace } from '../spaces/service.ts';
import { sourceOf } from './access.ts';
import { collaborationDocumentName, parseCollaborationDocumentName, type CollaborationDocument } from './document-name.ts';
import { findCollaborationState, saveCollaborationState } from './store.ts';
import { adoptKeys, applyWrittenDocument, documentOfYDoc, isEmptyYDoc, topLevelElements, writeAsOne, writeDocumentToYDoc } from './ydoc-document.ts';

/** The origin of Yjs transactions the server makes (a seed, an API write brought in, keys adopted). */
export const SERVER_ORIGIN = Symbol('quire-server');

interface Tracked {
  name: string;
  page: CollaborationDocument;
  /** The document the Y.Doc was last in step with (read or written), and where it was read. */
  base: Document;
  revisionId: string;
  documentId: string | null;
  /** Whose rights and name a write from the editors goes under: the last person who edited (or opened) the page. */
  author: Caller;
  /** One operation at a time per page: loads, stores and API writes brought in run in order. */
  queue: Promise<unknown>;
}

/**
 * The document of record of each page being edited together (Outline's and Docmost's persistence extensions are
 * the model): the Y.Doc is seeded by the server from the page's document (never by a client: two would duplicate
 * it), its Yjs state is stored beside the document (collaboration_states), and its content is written as the
 * page's document, through the content service as the API's update_page, in the same transaction as the state.
 */
export class PageDocuments {
  private readonly tracked = new Map<string, Tracked>();

  constructor(private readonly ctx: AppContext) {}

  /** Fills a freshly loaded Y.Doc: the stored state, brought up to the page's document if the API changed it since; or the document itself. */
  async load(name: string, ydoc: Y.Doc, caller: Caller, now: PageNow): Promise<void> {
    const page = parseCollaborationDocumentName(name);
    if (!page) throw new Error(`Not a collaboration document: ${name}`);
    const current = now.document as unknown as Document;
    const row = await findCollaborationState(this.ctx.db, name);
    // Each write here is made as one (writeAsOne): another process opening the page at the same moment makes the
    // same one, and the two meet through Redis as a single write.
    if (row) {
      Y.applyUpdate(ydoc, row.state, SERVER_ORIGIN);
      if (row.document_id !== now.documentId) {
        const before = ((await readPublishedDocument(this.ctx, row.document_id)) ?? { object: 'document', data: {}, nodes: [] }) as Document;
        writeAsOne(ydoc, `${name} ${row.document_id} ${now.documentId}`, (copy) => applyWrittenDocument(copy, before, current), SERVER_ORIGIN);
      }
    }
    if (isEmptyYDoc(ydoc)) writeAsOne(ydoc, `${name} ${now.documentId}`, (copy) => writeDocumentToYDoc(copy, current), SERVER_ORIGIN);
    this.tracked.set(name, { name, page, base: current, revisionId: now.revisionId, documentId: now.documentId, author: caller, queue: Promise.resolve() });
  }

  /** The person whose edit the next write carries. */
  noteAuthor(name: string, caller: Caller): void {
    const tracked = this.tracked.get(name);
    if (tracked) tracked.author = caller;
  }

  forget(name: string): void {
    this.tracked.delete(name);
  }

  /** Writes the Y.Doc: its state always, and its content as the page's document when it changed. */
  store(name: string, ydoc: Y.Doc): Promise<void> {
    return this.inOrder(name, (tracked) => this.write(tracked, ydoc, true));
  }

  /** A write through the API (or a merge) to pages open here: brought into their Y.Docs. */
  written(write: ContentWrite, ydocOf: (name: string) => Y.Doc | undefined): void {
    for (const pageId of write.pageIds) {
      const name = collaborationDocumentName({
        spaceId: write.spaceId,
        target: write.changeRequestId === null ? { kind: 'live' } : { kind: 'change-request', changeRequestId: write.changeRequestId },
        pageId,
      });
      const ydoc = ydocOf(name);
      if (!ydoc || !this.tracked.has(name)) continue;
      void this.inOrder(name, (tracked) => this.catchUp(tracked, ydoc)).catch(() => undefined);
    }
  }

  private inOrder(name: string, work: (tracked: Tracked) => Promise<void>): Promise<void> {
    const tracked = this.tracked.get(name);
    if (!tracked) return Promise.resolve();
    const next = tracked.queue.then(() => work(tracked));
    tracked.queue = next.catch(() => undefined);
    return next;
  }

  /** Brings into the Y.Doc what was written to the page since the Y.Doc was last in step with it. */
  private async catchUp(tracked: Tracked, ydoc: Y.Doc): Promise<void> {
    const now = await readPageNow(this.ctx, tracked.author, sourceOf(tracked.page), tracked.page.pageId);
    if (now.documentId === tracked.documentId) return;
    applyWrittenDocument(ydoc, tracked.base, now.document as unknown as Document, SERVER_ORIGIN);
    Object.assign(tracked, { base: now.document, revisionId: now.revisionId, documentId: now.documentId });
  }

  private async write(tracked: Tracked, ydoc: Y.Doc, retry: boolean): Promise<void> {
    const elements = topLevelElements(ydoc);
    const edited = documentOfYDoc(ydoc, tracked.base);
    // A URL a document may not hold (`javascript:`, written by a client of its own or in a page stored before they
    // were refused) is dropped, not refused: nobody waits for the answer, and a refusal would stop every store of
    // the page. The editors then get the document without it.
    const sent = withoutUnsafeUrls(edited);
    const state = Buffer.from(Y.encodeStateAsUpdate(ydoc));
    const row = (documentId: string | null) => ({
      name: tracked.name,
      space_id: tracked.page.spaceId,
      change_request_id: tracked.page.target.kind === 'live' ? null : tracked.page.target.changeRequestId,
      page_id: tracked.page.pageId,
      state,
      document_id: documentId,
      updated_at: isoNow(this.ctx.clock),
    });
    if (sameNodes(sent, tracked.base)) {
      await saveCollaborationState(this.ctx.db, row(tracked.documentId));
      return;
    }
    const [change] = validateChanges([{ operation: 'update_page', page: tracked.page.pageId, document: { document: sent }, baseRevision: tracked.revisionId }]);
    // A store is three pieces of work on this thread (the Y.Doc read as one consistent document and state, the
    // content service's transaction, the stored document read back into the Y.Doc); on SQLite nothing between them
    // gives the loop back, and the editors' updates waited behind all three at once. Each piece gets a turn of its own.
    await nextTurn();
    let written: Awaited<ReturnType<typeof commitLiveChanges>>;
    try {
      written = await this.commit(tracked, [change!], async (trx, { batch }) => {
        await saveCollaborationState(trx, row(batch.pages.get(tracked.page.pageId)?.documentId ?? null));
      });
    } catch (error) {
      // Someone changed the same block through the API meanwhile: their version is the document of record; take it in and write again.
      if (retry && error instanceof ApiError && error.statusCode === 409) {
        await this.catchUp(tracked, ydoc);
        return this.write(tracked, ydoc, false);
      }
      throw error;
    }
    await nextTurn();
    const record = written.batch.pages.get(tracked.page.pageId);
    const stored = ((await readPublishedDocument(this.ctx, record?.documentId ?? null)) ?? sent) as Document;
    if (written.batch.merged.length > 0 || sent !== edited) {
      // Merged with a write made since (another process, a merge of a change request): the editors get it too.
      applyWrittenDocument(ydoc, edited, stored, SERVER_ORIGIN);
    } else {
      adoptKeys(elements, sent, stored, SERVER_ORIGIN);
    }
    Object.assign(tracked, { base: stored, revisionId: written.revision.id, documentId: record?.documentId ?? null });
  }

  private async commit(tracked: Tracked, changes: Parameters<typeof commitLiveChanges>[3], alsoWrite: Parameters<typeof commitLiveChanges>[6]) {
    const { page, author } = tracked;
    if (page.target.kind === 'live') {
      const { space, role } = await loadSpace(this.ctx, author, page.spaceId);
      assertCanEditContent(role, space.edit_mode);
      if (space.edit_mode !== 'live') throw new ApiError(409, `The space's editMode is "${space.edit_mode}": its live content is not edited`);
      return commitLiveChanges(this.ctx, author, space, changes, new Map(), { collaboration: true }, alsoWrite);
    }
    const { space, role, cr } = await loadChangeRequest(this.ctx, author, page.spaceId, page.target.changeRequestId);
    assertCanWriteChangeRequest(role, space, cr);
    return commitChangeRequestChanges(this.ctx, author, space, cr, changes, new Map(), alsoWrite);
  }
}

const sameNodes = (a: Document, b: Document) => JSON.stringify(a.nodes) === JSON.stringify(b.nodes);
