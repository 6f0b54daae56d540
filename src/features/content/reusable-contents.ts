import type { PageRecord } from './pages.ts';

/** The page kind a reusable content's version is stored with (see PageKind). */
export const REUSABLE_CONTENT_KIND = 'reusable-content';

/** A reusable content of a revision: a titled document that pages include with a `reusable-content` block. */
export interface ReusableContentRecord {
  id: string;
  title: string;
  documentId: string | null;
  /** Reusable contents imported by Git Sync: their file (relative to the content root), where an export writes them back. */
  git?: { path: string };
  createdAt: string;
  updatedAt: string;
}

export function isReusableContent(entry: { kind: string }): boolean {
  return entry.kind === REUSABLE_CONTENT_KIND;
}

/**
 * The page version a reusable content is stored as: at the top level, out of every tree (Snapshot hides its
 * kind), its id as slug so that a merge's check of sibling slugs never meets two of them alike.
 */
export function reusableContentToPage(content: ReusableContentRecord): PageRecord {
  return {
    id: content.id,
    parentId: null,
    position: '',
    kind: REUSABLE_CONTENT_KIND,
    title: content.title,
    slug: content.id,
    documentId: content.documentId,
    attributes: content.git ? { git: { path: content.git.path } } : {},
    createdAt: content.createdAt,
    updatedAt: content.updatedAt,
  };
}

export function reusableContentOfPage(page: PageRecord): ReusableContentRecord {
  return {
    id: page.id,
    title: page.title,
    documentId: page.documentId,
    ...(page.attributes.git ? { git: { path: page.attributes.git.path } } : {}),
    createdAt: page.createdAt,
    updatedAt: page.updatedAt,
  };
}

/** The official RevisionReusableContent: `document` is the id of its document, absent while it has none. */
export function presentReusableContent(content: ReusableContentRecord) {
  return { id: content.id, title: content.title, ...(content.documentId ? { document: content.documentId } : {}) };
}

export function compareReusableContents(a: ReusableContentRecord, b: ReusableContentRecord): number {
  return a.title.localeCompare(b.title) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}
