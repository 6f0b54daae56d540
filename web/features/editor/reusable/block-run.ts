import type { EditorState } from '@tiptap/pm/state';

/** A run of the page's top-level blocks, from the start of the first to the end of the last. */
export interface BlockRun {
  from: number;
  to: number;
}

/**
 * The top-level blocks to make reusable: those the selection touches (a block inside a list, a hint or a stepper
 * takes the whole of it: only whole blocks of the page are replaced), or the block at `at` (the block menu's)
 * when the selection is elsewhere.
 */
export function blocksToReuse(state: EditorState, at?: number): BlockRun | null {
  const { doc, selection } = state;
  const top = (pos: number, side: 'start' | 'end') => {
    const $pos = doc.resolve(pos);
    return $pos.depth === 0 ? pos : side === 'start' ? $pos.before(1) : $pos.after(1);
  };
  const run = { from: top(selection.from, 'start'), to: top(selection.to, 'end') };
  if (at !== undefined && (at < run.from || at >= run.to)) {
    const from = top(at, 'start');
    const node = doc.nodeAt(from);
    return node ? { from, to: from + node.nodeSize } : null;
  }
  return run.to > run.from ? run : null;
}
