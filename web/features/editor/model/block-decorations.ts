import type { Node as PMNode } from '@tiptap/pm/model';
import type { Transaction } from '@tiptap/pm/state';
import { DecorationSet, type Decoration } from '@tiptap/pm/view';

/*
 * Decorations that depend only on the top-level block they are in (a code block's line numbers, a step's place among
 * its siblings), kept up to date without walking the whole document on every key: a 2,000-block page walked it once
 * per plugin per key (issue 42). ProseMirror reuses the top-level nodes a transaction does not touch, so the blocks
 * not in the document before are the ones changed: their decorations are found again, the others only mapped.
 */

/** Decorations of one top-level block at `pos`. */
export type FindInBlock = (block: PMNode, pos: number) => Decoration[];

/** The decorations of a whole document. */
export function decorationsOf(doc: PMNode, find: FindInBlock): DecorationSet {
  const all: Decoration[] = [];
  doc.forEach((block, pos) => {
    all.push(...find(block, pos));
  });
  return DecorationSet.create(doc, all);
}

/** `set` (the decorations of `tr.before`) for `tr.doc`: mapped, and found again in the top-level blocks it changed. */
export function mapDecorations(tr: Transaction, set: DecorationSet, find: FindInBlock): DecorationSet {
  if (!tr.docChanged) return set;
  const before = new Set<PMNode>();
  tr.before.forEach((block) => before.add(block));
  const mapped = set.map(tr.mapping, tr.doc);
  const stale: Decoration[] = [];
  const fresh: Decoration[] = [];
  tr.doc.forEach((block, pos) => {
    if (before.has(block)) return;
    const end = pos + block.nodeSize;
    // Inside the block only: find() also returns a neighbour's node decoration that touches its edge.
    stale.push(...mapped.find(pos, end).filter((decoration) => decoration.from >= pos && decoration.to <= end));
    fresh.push(...find(block, pos));
  });
  if (stale.length === 0 && fresh.length === 0) return mapped;
  return mapped.remove(stale).add(tr.doc, fresh);
}
