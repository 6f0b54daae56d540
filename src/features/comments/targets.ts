import type { Executor } from '../../db/types.ts';
import { badRequest } from '../../platform/errors.ts';
import { findRevision } from '../content/revisions.ts';
import { getDocument } from '../content/revisions.ts';
import type { PageRecord } from '../content/pages.ts';
import { Snapshot } from '../content/snapshot.ts';
import { findNode, nodePreview } from './bodies.ts';
import type { PageTarget } from './present.ts';
import type { CommentRow } from './store.ts';

/** What a new comment remembers of its target, to show it later and to tell whether it changed. */
export interface PostedTarget {
  page_id: string | null;
  page_title: string | null;
  page_path: string | null;
  page_document_id: string | null;
  node_id: string | null;
  node_preview: string | null;
}

/**
 * The pages comments point at, read from the thread's current content (the space's revision or the change
 * request's) one page at a time and remembered for the request, so a list costs what its pages cost.
 */
export class PageTargets {
  private snapshot: Promise<Snapshot | undefined> | undefined;
  private readonly pages = new Map<string, Promise<{ page: PageRecord; path: string } | undefined>>();

  constructor(
    private readonly db: Executor,
    readonly revisionId: string,
    /** How messages name the content: "the space's current revision", "change request #3". */
    readonly where: string,
  ) {}

  private open(): Promise<Snapshot | undefined> {
    this.snapshot ??= findRevision(this.db, this.revisionId).then((revision) => (revision ? Snapshot.of(this.db, revision) : undefined));
    return this.snapshot;
  }

  /** The page as it is now, with its path; undefined when it is not in the content (any more). */
  page(id: string) {
    let found = this.pages.get(id);
    if (!found) {
      found = this.open().then(async (snapshot) => {
        const page = snapshot ? await snapshot.page(id) : undefined;
        if (!snapshot || !page) return undefined;
        return { page, path: await snapshot.path(id) };
      });
      this.pages.set(id, found);
    }
    return found;
  }

  /** The target of a new comment: the page must be in the content, and the node in the page. */
  async forPost(pageId: string | undefined, nodeId: string | undefined): Promise<PostedTarget> {
    if (nodeId !== undefined && pageId === undefined) throw badRequest('body/node needs body/page: a node is a block of a page');
    if (pageId === undefined) return { page_id: null, page_title: null, page_path: null, page_document_id: null, node_id: null, node_preview: null };
    const found = await this.page(pageId);
    if (!found) throw badRequest(`body/page: no page ${pageId} in ${this.where}`);
    let preview: string | null = null;
    if (nodeId !== undefined) {
      const document = found.page.documentId ? await getDocument(this.db, found.page.documentId) : undefined;
      const node = document ? findNode(document, nodeId) : undefined;
      if (!node) throw badRequest(`body/node: no node ${nodeId} in page ${pageId}`);
      preview = nodePreview(node);
    }
    return {
      page_id: pageId,
      page_title: found.page.title,
      page_path: found.path,
      page_document_id: found.page.documentId,
      node_id: nodeId ?? null,
      node_preview: preview,
    };
  }

  /**
   * `target.page` of a comment: the page as it is now, `outdated` when its content or title changed since the
   * comment was posted; when the page is gone, what the comment remembers of it, outdated.
   */
  async of(comment: Pick<CommentRow, 'page_id' | 'page_title' | 'page_path' | 'page_document_id'>): Promise<PageTarget | undefined> {
    if (comment.page_id === null) return undefined;
    const found = await this.page(comment.page_id);
    if (!found) return { id: comment.page_id, title: comment.page_title || 'Untitled', path: comment.page_path ?? '', outdated: true };
    const { page, path } = found;
    return {
      id: page.id,
      title: page.title,
      ...(page.attributes.emoji ? { emoji: page.attributes.emoji } : {}),
      ...(page.attributes.icon ? { icon: page.attributes.icon } : {}),
      createdAt: page.createdAt,
      updatedAt: page.updatedAt,
      path,
      outdated: page.documentId !== comment.page_document_id || page.title !== comment.page_title,
    };
  }
}
