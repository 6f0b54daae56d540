import type { Document } from '../../../src/features/content/document/types.ts';
import { blockText } from '../../../src/features/content/document/text.ts';

/*
 * The editor draws each top-level block of the page as one child of its root (`.ProseMirror`), in the document's
 * order; ProseMirror's widgets (the gap cursor, drop cursor) are the only other children. So a block's element is
 * found by its index, without the editor's state: the editing screen places comment threads beside blocks and
 * comments on the block the selection is in from the DOM and the document the editor last reported.
 */

/** The top-level elements of the editor's root, one per block, in order. */
export function blockElements(root: Element): Element[] {
  return [...root.children].filter((child) => !child.classList.contains('ProseMirror-widget') && !child.classList.contains('ProseMirror-gapcursor'));
}

/** The index of the top-level block holding `node` (a selection's anchor), or -1 outside the editor's root. */
export function blockIndexOf(root: Element, node: Node | null): number {
  let element: Node | null = node;
  while (element && element.parentNode !== root) element = element.parentNode;
  return element ? blockElements(root).indexOf(element as Element) : -1;
}

/** A block said in words for a comment's label: its kind and the start of its text. */
export function blockLabel(block: Document['nodes'][number]): string {
  const text = blockText(block);
  const kind = block.type.replace(/-/g, ' ');
  return text ? `the ${kind} “${text.length > 40 ? `${text.slice(0, 40)}…` : text}”` : `the ${kind}`;
}
