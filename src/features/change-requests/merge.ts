import type { PageRecord } from '../content/pages.ts';
import { mergePageFields, samePageContent } from './merge-page-fields.ts';
import { checkTree, type PageSides, type Side } from './merge-tree.ts';
import { DEFAULT_LABELS, quoted, sameValue, sentence, type SideLabels } from './merge-values.ts';
import type { DocumentTexts, MergeConflict, SlugRename } from './merge-conflicts.ts';

export { mergeText, type TextConflictRegion, type TextMerge, type TextMergeLabels } from './merge-text.ts';
export { mergeVariables, type VariableMergeConflict, type VariableMergeResult } from './merge-variables.ts';
export { mergeFiles, type FileMergeConflict, type FileMergeInput, type FileMergeResult, type MergeableFile } from './merge-files.ts';
export { DEFAULT_LABELS, type SideLabels } from './merge-values.ts';
export type { Side } from './merge-tree.ts';
export type { DocumentTexts, MergeConflict, PageConflictKind, SlugRename } from './merge-conflicts.ts';

/**
 * Three-way merge of page trees, as pure functions: the caller reads what changed on each side since the common
 * ancestor (and nothing else), this module decides, the caller writes the result.
 *
 * `ours` is the side merged into (main, when a change request is merged) and the side `lookup` and `childrenOf`
 * describe; `theirs` is the side merged in. To bring main into a change request ("update"), pass the change
 * request's changes as `ours`, main's as `theirs`, lookups of the change request, and `renameSide: 'ours'` so
 * that slug clashes rename the change request's page there too.
 */
export interface PageMergeInput {
  /** Versions in the common ancestor of every page changed on either side (absent: the page did not exist). */
  base: ReadonlyMap<string, PageRecord>;
  /** Ours' current version of each page changed on ours since the ancestor (null: deleted on ours). */
  ours: ReadonlyMap<string, PageRecord | null>;
  /** Theirs' version of each page it changed (null: deleted on theirs). */
  theirs: ReadonlyMap<string, PageRecord | null>;
  /** Ours' current version of any page (parents, ancestors and children that are not in the maps). */
  lookup: (id: string) => PageRecord | undefined;
  /** Ours' current children of a page (null: the top level), for slug uniqueness and deleted subtrees. */
  childrenOf: (parentId: string | null) => PageRecord[];
}

export interface MergeOptions {
  /** How conflict messages and conflict markers name the two sides. */
  labels?: Partial<SideLabels>;
  /** The side whose page gets a suffixed slug (`slug-2`) when two siblings end with the same slug. */
  renameSide?: Side;
}

/** When `conflicts` is not empty, nothing is to be written: `pages` and `mergedMarkdown` are empty. */
export interface MergeResult {
  /** What to write on ours: new or updated versions, null to delete. Pages ours already has as merged are absent. */
  pages: Map<string, PageRecord | null>;
  /**
   * Pages whose document was merged as text into something neither side has: the caller stores the markdown as
   * a document and sets the page's `documentId` (which holds ours' document id until then).
   */
  mergedMarkdown: Map<string, string>;
  conflicts: MergeConflict[];
  /** Slug clashes resolved automatically (already applied to `pages`). */
  renamedSlugs: SlugRename[];
}

export function mergePages(
  input: PageMergeInput,
  documentsOf: (pageId: string) => DocumentTexts,
  options: MergeOptions = {},
): MergeResult {
  const labels: SideLabels = { ...DEFAULT_LABELS, ...options.labels };
  const sides = pageSides(input);
  const merged = new Map<string, PageRecord | null>();
  const mergedMarkdown = new Map<string, string>();
  const conflicts: MergeConflict[] = [];
  const conflicted = new Set<string>();
  const fail = (conflict: MergeConflict) => {
    conflicts.push(conflict);
    conflicted.add(conflict.pageId);
  };

  for (const id of new Set([...input.ours.keys(), ...input.theirs.keys()])) {
    const ours = sides.state('ours', id);
    const theirs = sides.state('theirs', id);
    const base = input.base.get(id);
    if (!sides.changed('theirs', id)) merged.set(id, ours);
    else if (!sides.changed('ours', id)) merged.set(id, theirs);
    else if (sameValue(ours, theirs)) merged.set(id, ours);
    else if (ours === null || theirs === null) {
      const kept = (ours ?? theirs)!;
      // A version that differs from the ancestor only by its timestamps was not really edited.
      if (base && samePageContent(kept, base)) merged.set(id, null);
      else {
        merged.set(id, ours);
        const [deleter, editor] = ours === null ? [labels.ours, labels.theirs] : [labels.theirs, labels.ours];
        fail({
          pageId: id,
          kind: ours === null ? 'delete-modify' : 'modify-delete',
          message: sentence(`${deleter} deleted ${quoted(kept.title)} and ${editor} changed it.`),
          base: base ?? null,
          ours,
          theirs,
        });
      }
    } else {
      const result = mergePageFields(base, ours, theirs, () => documentsOf(id), { labels, titleOf: sides.titleOf });
      merged.set(id, result.page);
      if (result.markdown !== undefined) mergedMarkdown.set(id, result.markdown);
      for (const conflict of result.conflicts) fail(conflict);
    }
  }

  const tree = checkTree({ merged, sides, conflicted, labels, renameSide: options.renameSide ?? 'theirs', childrenOf: input.childrenOf, lookup: input.lookup });
  for (const conflict of tree.conflicts) fail(conflict);

  if (conflicts.length > 0) return { pages: new Map(), mergedMarkdown: new Map(), conflicts, renamedSlugs: [] };
  const pages = new Map<string, PageRecord | null>();
  // A page whose document is to be replaced is written even when its record looks like ours'.
  for (const [id, page] of merged) if (mergedMarkdown.has(id) || !sameValue(page, sides.state('ours', id))) pages.set(id, page);
  return { pages, mergedMarkdown, conflicts, renamedSlugs: tree.renamedSlugs };
}

/** Each side's version of any page, read from the maps of changes and, for unchanged pages, from ours. */
function pageSides(input: PageMergeInput): PageSides {
  const maps = { ours: input.ours, theirs: input.theirs };
  const state = (side: Side, id: string): PageRecord | null => {
    const own = maps[side];
    if (own.has(id)) return own.get(id)!;
    const base = input.base.get(id);
    if (base) return base;
    // Unchanged on this side and absent from the ancestor: only the other side created it.
    if (maps[side === 'ours' ? 'theirs' : 'ours'].has(id)) return null;
    return input.lookup(id) ?? null;
  };
  const changed = (side: Side, id: string): boolean => maps[side].has(id) && !sameValue(maps[side].get(id), input.base.get(id) ?? null);
  return {
    state,
    changed,
    base: (id) => input.base.get(id),
    titleOf: (id) => (state('ours', id) ?? state('theirs', id) ?? input.base.get(id))?.title ?? id,
  };
}
