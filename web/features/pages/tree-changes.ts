import type { PageIndex, TreePage } from './page-tree.ts';

/*
 * The page tree edited beside a page, as change batches of the content API (insert_page, update_page,
 * delete_page, revert_page), computed from the tree as the screen shows it. Pure: the screen sends them to where
 * edits go (the draft change request or the live space).
 */

export type TreeChange = Record<string, unknown> & { operation: string };

export function newPageChange(into: string | null): TreeChange {
  return { operation: 'insert_page', title: 'Untitled', document: {}, ...(into ? { into } : {}) };
}

export function newGroupChange(): TreeChange {
  return { operation: 'insert_page', type: 'group', title: 'New group', document: {} };
}

export function renameChange(page: TreePage, title: string): TreeChange {
  return { operation: 'update_page', page: page.id, title };
}

export function visibilityChange(page: TreePage, hidden: boolean): TreeChange {
  return { operation: 'update_page', page: page.id, hidden };
}

/** A copy right after the page, with its document (read by the caller) and without its sub-pages. */
export function duplicateChange(index: PageIndex, page: TreePage, document: unknown): TreeChange {
  const parent = index.parentOf.get(page.id);
  const siblings = siblingsOf(index, page);
  return {
    operation: 'insert_page',
    title: `${page.title} (copy)`,
    document: document ? { document } : {},
    ...(page.emoji ? { emoji: page.emoji } : {}),
    ...(parent ? { into: parent.id } : {}),
    at: siblings.findIndex((s) => s.id === page.id) + 1,
  };
}

export function deleteChange(page: TreePage): TreeChange {
  return { operation: 'delete_page', page: page.id };
}

/** Undoes a delete: the page and every sub-page back as they were at the revision before it, parents first. */
export function undeleteChanges(page: TreePage, revisionBefore: string): TreeChange[] {
  const out: TreeChange[] = [];
  const stack = [page];
  while (stack.length > 0) {
    const next = stack.shift()!;
    out.push({ operation: 'revert_page', page: next.id, revision: revisionBefore });
    stack.push(...(next.pages ?? []));
  }
  return out;
}

export type Move = 'up' | 'down' | 'in' | 'out';

/**
 * A move by one step, as the keyboard and the page's menu make it: up or down among its siblings, in (under the
 * sibling above, at its end) or out (right after its parent). Null when the page cannot go that way.
 */
export function moveChange(index: PageIndex, page: TreePage, move: Move): TreeChange | null {
  const siblings = siblingsOf(index, page);
  const at = siblings.findIndex((s) => s.id === page.id);
  const parent = index.parentOf.get(page.id);
  switch (move) {
    case 'up':
      return at > 0 ? { operation: 'update_page', page: page.id, into: parent?.id ?? null, at: at - 1 } : null;
    case 'down':
      return at < siblings.length - 1 ? { operation: 'update_page', page: page.id, into: parent?.id ?? null, at: at + 1 } : null;
    case 'in': {
      const above = siblings[at - 1];
      if (!above || (above.type !== 'document' && above.type !== 'group') || page.type === 'group') return null;
      return { operation: 'update_page', page: page.id, into: above.id, at: (above.pages ?? []).length };
    }
    case 'out': {
      if (!parent) return null;
      const grandparent = index.parentOf.get(parent.id);
      if (!grandparent && page.type !== 'document') return null;
      const uncles = grandparent ? (grandparent.pages ?? []) : topLevel(index);
      return { operation: 'update_page', page: page.id, into: grandparent?.id ?? null, at: uncles.findIndex((u) => u.id === parent.id) + 1 };
    }
  }
}

/** A drop of a dragged page: before the page it was dropped on, under the same parent (a group's pages stay in it). */
export function dropChange(index: PageIndex, dragged: TreePage, over: TreePage): TreeChange | null {
  if (dragged.id === over.id) return null;
  // A page cannot be dropped inside itself.
  for (let p = index.parentOf.get(over.id); p; p = index.parentOf.get(p.id)) if (p.id === dragged.id) return null;
  const parent = index.parentOf.get(over.id);
  const siblings = siblingsOf(index, over).filter((s) => s.id !== dragged.id);
  if (!parent && dragged.type !== 'group' && topLevel(index).some((p) => p.type === 'group')) {
    // At the top level of a tree of groups only groups go; a page dropped on a group goes into it.
    return over.type === 'group' ? { operation: 'update_page', page: dragged.id, into: over.id, at: 0 } : null;
  }
  return { operation: 'update_page', page: dragged.id, into: parent?.id ?? null, at: siblings.findIndex((s) => s.id === over.id) };
}

function siblingsOf(index: PageIndex, page: TreePage): TreePage[] {
  const parent = index.parentOf.get(page.id);
  return parent ? (parent.pages ?? []) : topLevel(index);
}

function topLevel(index: PageIndex): TreePage[] {
  return [...index.byId.values()].filter((p) => !index.parentOf.has(p.id));
}
