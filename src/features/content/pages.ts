import type { PageVersionRow } from './version-store.ts';
import type { ComputedOpenAPISource } from './change-schemas.ts';

/**
 * `reusable-content` is no page: a reusable content of the revision, kept as a top-level page version so that it
 * branches, merges and keeps its history as pages do. Snapshot hides it from every page read (reusable-contents.ts).
 */
export type PageKind = 'document' | 'group' | 'link' | 'computed' | 'reusable-content';

/** Page properties that are not needed to build the tree, kept together as one JSON attribute bag. */
export interface PageAttributes {
  emoji?: string;
  icon?: string;
  description?: string;
  hidden?: boolean;
  noIndex?: boolean;
  noRobotsIndex?: boolean;
  condition?: string;
  layout?: Record<string, unknown>;
  cover?: Record<string, unknown>;
  variables?: Record<string, unknown>;
  /** Git Sync front matter keys that are no page field (cover, metadata, tags, …), kept as written. */
  frontMatter?: Record<string, unknown>;
  /**
   * Computed pages: their source, the official `ComputedContentSourceRevision` (only `builtin:openapi` here:
   * the reader generates their sub-pages from an OpenAPI specification of the organization).
   */
  computed?: ComputedOpenAPISource;
  /** Link pages: where they point. */
  target?: Record<string, unknown>;
  /** Pages imported by Git Sync: their file in the repository (relative to the content root), where an export writes them back. */
  git?: {
    path: string;
    /**
     * The file's own `# heading` where it differs from the page's title (the SUMMARY.md entry's), with the title
     * it went with: an export writes that heading back while the page still has that title. `text` is '' for a
     * file that had no heading of its own (its title came from SUMMARY.md): it is written back without one.
     */
    heading?: { text: string; title: string };
  };
}

/** A page of a revision, as the domain sees it. */
export interface PageRecord {
  id: string;
  parentId: string | null;
  position: string;
  kind: PageKind;
  title: string;
  slug: string;
  documentId: string | null;
  attributes: PageAttributes;
  createdAt: string;
  updatedAt: string;
}

export function pageFromRow(row: PageVersionRow): PageRecord {
  return {
    id: row.page_id,
    parentId: row.parent_id,
    position: row.position,
    kind: row.kind as PageKind,
    title: row.title,
    slug: row.slug,
    documentId: row.document_id,
    attributes: JSON.parse(row.attributes) as PageAttributes,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function pageToRow(page: PageRecord, branchId: string, seq: number): PageVersionRow {
  return {
    branch_id: branchId,
    page_id: page.id,
    from_seq: seq,
    to_seq: null,
    deleted: 0,
    parent_id: page.parentId,
    position: page.position,
    kind: page.kind,
    title: page.title,
    slug: page.slug,
    document_id: page.documentId,
    attributes: JSON.stringify(page.attributes),
    created_at: page.createdAt,
    updated_at: page.updatedAt,
  };
}

/** Byte order of positions, then ids: the order of siblings everywhere. */
export function compareSiblings(a: { position: string; id: string }, b: { position: string; id: string }): number {
  if (a.position !== b.position) return a.position < b.position ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
