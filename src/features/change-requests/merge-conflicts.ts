// What a page merge reports, shared by merge.ts and the modules it is made of (merge-tree.ts,
// merge-page-fields.ts), so that they depend on these types and not on each other.

/** The markdown of a page's document on each side; absent (or a null document) reads as an empty text. */
export interface DocumentTexts {
  base?: string;
  ours?: string;
  theirs?: string;
}

/**
 * - `delete-modify`: deleted on ours, changed on theirs; `modify-delete`: changed on ours, deleted on theirs
 *   (also when the deletion is of an ancestor of the changed page);
 * - `title`, `slug`, `kind`, `attribute`: both sides set that field to different values;
 * - `move`: both sides moved the page to different places (parent and position are one field);
 * - `content`: both sides edited the same part of the document (see `markedText`);
 * - `orphan`: a side moved or added the page under a page that the other side deleted;
 * - `cycle`: two moves that would put pages inside each other.
 */
export type PageConflictKind = 'delete-modify' | 'modify-delete' | 'title' | 'slug' | 'kind' | 'attribute' | 'move' | 'content' | 'orphan' | 'cycle';

export interface MergeConflict {
  pageId: string;
  kind: PageConflictKind;
  /** For people: names the page by its title and says what each side did. */
  message: string;
  /** The field in conflict: `title`, `slug`, `kind`, `placement`, `document` or `attributes.<name>`. */
  field?: string;
  /** Each side's value: of the field, the page version (null when deleted), or the document's markdown. */
  base?: unknown;
  ours?: unknown;
  theirs?: unknown;
  /** `content` conflicts: the merged markdown with each conflicting region between git-style markers. */
  markedText?: string;
  /** `cycle` conflicts: the pages of the loop. */
  pageIds?: string[];
}

export interface SlugRename {
  pageId: string;
  from: string;
  to: string;
}
