import { compareSiblings, type PageRecord } from '../content/pages.ts';
import { uniqueSlug } from '../content/tree.ts';
import type { MergeConflict, SlugRename } from './merge-conflicts.ts';
import { quoted, sentence, type SideLabels } from './merge-values.ts';

export type Side = 'ours' | 'theirs';
const SIDES: readonly Side[] = ['ours', 'theirs'];

/** Each side's view of the pages, whether or not it changed them. */
export interface PageSides {
  /** The side's version of a page (null: absent on that side). */
  state(side: Side, id: string): PageRecord | null;
  /** Whether the side changed the page since the ancestor (created, edited, moved or deleted it). */
  changed(side: Side, id: string): boolean;
  base(id: string): PageRecord | undefined;
  titleOf(id: string): string;
}

export interface TreeCheckInput {
  /** The merged version of every page changed on either side; deleted descendants and slug fixes are added to it. */
  merged: Map<string, PageRecord | null>;
  sides: PageSides;
  /** Pages already in conflict (merged with ours' value of each field in conflict): not checked again. */
  conflicted: ReadonlySet<string>;
  labels: SideLabels;
  renameSide: Side;
  lookup: (id: string) => PageRecord | undefined;
  childrenOf: (parentId: string | null) => PageRecord[];
}

/** A deleted subtree, a cycle or a clash of slugs appears only once both sides are combined: checked here. */
export function checkTree(input: TreeCheckInput): { conflicts: MergeConflict[]; renamedSlugs: SlugRename[] } {
  const tree = new MergedTree(input);
  const conflicts: MergeConflict[] = [];
  // Each check skips the pages an earlier one found in conflict: one conflict per page is enough to act on.
  for (const check of [deleteSubtrees, missingParents, cycles]) {
    for (const conflict of check(tree)) {
      conflicts.push(conflict);
      tree.flagged.add(conflict.pageId);
    }
  }
  return { conflicts, renamedSlugs: conflicts.length > 0 ? [] : uniqueSlugs(tree) };
}

/** The merged tree: merged versions of changed pages over ours' current pages. */
class MergedTree {
  private readonly changedByParent = new Map<string | null, Set<string>>();
  /** Pages in conflict, from the field merge or an earlier check. */
  readonly flagged: Set<string>;

  constructor(readonly input: TreeCheckInput) {
    this.flagged = new Set(input.conflicted);
    for (const [id, page] of input.merged) {
      if (!page) continue;
      const set = this.changedByParent.get(page.parentId);
      if (set) set.add(id);
      else this.changedByParent.set(page.parentId, new Set([id]));
    }
  }

  page(id: string): PageRecord | null {
    const { merged, lookup } = this.input;
    return merged.has(id) ? merged.get(id)! : (lookup(id) ?? null);
  }

  children(parentId: string | null): PageRecord[] {
    const ids = new Set([...this.input.childrenOf(parentId).map((p) => p.id), ...(this.changedByParent.get(parentId) ?? [])]);
    const out: PageRecord[] = [];
    for (const id of ids) {
      const page = this.page(id);
      if (page && page.parentId === parentId) out.push(page);
    }
    return out.sort(compareSiblings);
  }

  /** The side brought the page under this parent (moved or created it there). */
  placedBy(side: Side, id: string, parentId: string | null): boolean {
    const { sides } = this.input;
    return sides.changed(side, id) && sides.state(side, id)?.parentId === parentId && sides.base(id)?.parentId !== parentId;
  }

  label(side: Side): string {
    return this.input.labels[side];
  }
}

/**
 * Deleting a page deletes what is inside it, unless the other side changed one of those pages: then nobody's
 * work is dropped silently, it is a conflict.
 */
function deleteSubtrees(tree: MergedTree): MergeConflict[] {
  const { merged, sides } = tree.input;
  const conflicts: MergeConflict[] = [];
  /** Who deleted each deleted page, and the page they deleted (its top page, for a page deleted with it). */
  const deletions = new Map<string, { by: Side[]; root: string }>();
  const queue: string[] = [];
  for (const [id, page] of merged) {
    // A page in conflict is deleted on one side only; what is inside it is looked at once it is resolved.
    if (page !== null || tree.flagged.has(id)) continue;
    deletions.set(id, { by: SIDES.filter((side) => sides.state(side, id) === null), root: id });
    queue.push(id);
  }
  while (queue.length > 0) {
    const parentId = queue.pop()!;
    const deletion = deletions.get(parentId)!;
    for (const child of tree.children(parentId)) {
      if (tree.flagged.has(child.id)) continue;
      const keepers = SIDES.filter((side) => !deletion.by.includes(side) && sides.changed(side, child.id) && sides.state(side, child.id) !== null);
      if (keepers.length === 0) {
        merged.set(child.id, null);
        deletions.set(child.id, deletion);
        queue.push(child.id);
        continue;
      }
      const keeper = keepers[0]!;
      const deleter = tree.label(keeper === 'ours' ? 'theirs' : 'ours');
      const parent = quoted(sides.titleOf(parentId));
      const root = quoted(sides.titleOf(deletion.root));
      const page = quoted(child.title);
      const base = sides.base(child.id) ?? null;
      if (tree.placedBy(keeper, child.id, parentId)) {
        const verb = base ? 'moved' : 'added';
        conflicts.push({
          pageId: child.id,
          kind: 'orphan',
          message: sentence(`${tree.label(keeper)} ${verb} ${page} under ${parent}, which ${deleter} deleted.`),
          base,
          ours: sides.state('ours', child.id),
          theirs: sides.state('theirs', child.id),
        });
      } else {
        conflicts.push({
          pageId: child.id,
          kind: keeper === 'theirs' ? 'delete-modify' : 'modify-delete',
          message: sentence(`${deleter} deleted ${root} with the pages inside it, and ${tree.label(keeper)} changed ${page}, which is inside it.`),
          base,
          ours: sides.state('ours', child.id),
          theirs: sides.state('theirs', child.id),
        });
      }
    }
  }
  return conflicts;
}

/** A page placed under a parent that exists on neither side any more (not one deleted by this merge). */
function missingParents(tree: MergedTree): MergeConflict[] {
  const { merged, sides } = tree.input;
  const conflicts: MergeConflict[] = [];
  for (const [id, page] of merged) {
    if (!page || page.parentId === null || tree.flagged.has(id) || tree.flagged.has(page.parentId) || tree.page(page.parentId)) continue;
    // Ours' tree already had it so: not this merge's doing.
    if (sides.state('ours', id)?.parentId === page.parentId) continue;
    conflicts.push({
      pageId: id,
      kind: 'orphan',
      message: sentence(`${quoted(page.title)} would be placed under a page that no longer exists.`),
      base: sides.base(id) ?? null,
      ours: sides.state('ours', id),
      theirs: sides.state('theirs', id),
    });
  }
  return conflicts;
}

/** Two moves that are fine alone can put pages inside each other (A into B on one side, B into A on the other). */
function cycles(tree: MergedTree): MergeConflict[] {
  const { merged, sides } = tree.input;
  const conflicts: MergeConflict[] = [];
  const reported = new Set<string>();
  for (const [id, page] of merged) {
    if (!page || tree.flagged.has(id) || page.parentId === sides.state('ours', id)?.parentId) continue;
    const path = [id];
    const seen = new Set(path);
    let parentId = page.parentId;
    while (parentId !== null && parentId !== id && !seen.has(parentId)) {
      // Whether a loop through a page in conflict exists depends on how that conflict is resolved.
      if (tree.flagged.has(parentId)) break;
      const parent = tree.page(parentId);
      if (!parent) break;
      path.push(parentId);
      seen.add(parentId);
      parentId = parent.parentId;
    }
    // A loop above the page that does not go through it is reported from one of its own pages.
    if (parentId !== id) continue;
    const key = [...path].sort().join(' ');
    if (reported.has(key)) continue;
    reported.add(key);
    const moves = path.flatMap((pageId) => {
      const into = tree.page(pageId)!.parentId!;
      const side = SIDES.find((s) => tree.placedBy(s, pageId, into));
      return side ? [`${tree.label(side)} moved ${quoted(sides.titleOf(pageId))} under ${quoted(sides.titleOf(into))}`] : [];
    });
    conflicts.push({
      pageId: id,
      kind: 'cycle',
      message: sentence(`${moves.join(' and ')}: the pages would be inside each other.`),
      pageIds: path,
    });
  }
  return conflicts;
}

/**
 * Siblings must have different slugs. When the merge makes two of them equal, the page that `renameSide`
 * brought there (moved, created or renamed) takes the next free `slug-N`, so the other side's links keep working.
 */
function uniqueSlugs(tree: MergedTree): SlugRename[] {
  const { merged, sides, renameSide } = tree.input;
  const parents = new Set<string | null>();
  for (const [id, page] of merged) {
    const before = sides.state('ours', id);
    if (page && (!before || before.parentId !== page.parentId || before.slug !== page.slug)) parents.add(page.parentId);
  }
  const brought = (page: PageRecord) => {
    const base = sides.base(page.id);
    const version = sides.state(renameSide, page.id);
    return sides.changed(renameSide, page.id) && version !== null && (!base || base.slug !== version.slug || base.parentId !== version.parentId);
  };
  const renames: SlugRename[] = [];
  for (const parentId of parents) {
    const siblings = tree.children(parentId);
    const taken = new Set(siblings.map((p) => p.slug));
    const bySlug = new Map<string, PageRecord[]>();
    for (const page of siblings) bySlug.set(page.slug, [...(bySlug.get(page.slug) ?? []), page]);
    for (const group of bySlug.values()) {
      if (group.length < 2) continue;
      const movable = group.filter(brought);
      // Every page of the clash came from `renameSide` (each with a field from the other side): one keeps its slug.
      if (movable.length === group.length) movable.shift();
      for (const page of movable) {
        const slug = uniqueSlug(page.slug, taken);
        taken.add(slug);
        merged.set(page.id, { ...page, slug });
        renames.push({ pageId: page.id, from: page.slug, to: slug });
      }
    }
  }
  return renames;
}
