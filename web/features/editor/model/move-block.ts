import type { EditorState, Transaction } from '@tiptap/pm/state';

/*
 * A block moved one place up or down among the blocks beside it (the block menu's Move up and Move down, the way
 * to reorder without dragging). The block keeps its key and everything in it: it is the same block, elsewhere.
 */

export type Direction = 'up' | 'down';

/** The transaction moving the block that starts at `pos`, or null when it is already first (or last) of its parent. */
export function moveBlock(state: EditorState, pos: number, direction: Direction): Transaction | null {
  const node = state.doc.nodeAt(pos);
  if (!node || node.isInline) return null;
  const $pos = state.doc.resolve(pos);
  const index = $pos.index();
  const parent = $pos.parent;
  if (direction === 'up' ? index === 0 : index >= parent.childCount - 1) return null;
  const tr = state.tr.delete(pos, pos + node.nodeSize);
  // After the deletion the block below starts where this one did; the block above still ends there.
  const to = direction === 'up' ? pos - parent.child(index - 1).nodeSize : pos + parent.child(index + 1).nodeSize;
  tr.insert(to, node);
  return tr.scrollIntoView();
}

/** Whether the block at `pos` can move that way. */
export function canMoveBlock(state: EditorState, pos: number, direction: Direction): boolean {
  return moveBlock(state, pos, direction) !== null;
}
