import type { Editor } from '@tiptap/core';
import type { Node as PMNode } from '@tiptap/pm/model';
import { TextSelection, type Transaction } from '@tiptap/pm/state';

/*
 * A control that makes a place to type (a caption, a tab, a row) puts the caret there in the same event, so that
 * the keys that follow land in it: not a frame later, as TipTap's `focus` command does, by which time a fast
 * typist's first keys have gone to the button that was clicked.
 */

/** In a transaction: the caret at the first place to type inside the node at `pos` (an expandable's title). */
export function caretInto(tr: Transaction, pos: number): void {
  tr.setSelection(TextSelection.near(tr.doc.resolve(pos + 1)));
}

/**
 * Puts the caret in a field of the node view at `pos`, selecting its text so that typing replaces a default name.
 * React draws the node view of a new node in a microtask after the transaction that made it: still before the
 * next key event, which is a task of its own.
 */
export function focusField(editor: Editor, pos: number, selector = 'input'): void {
  const attempt = () => {
    const dom = editor.isDestroyed ? null : editor.view.nodeDOM(pos);
    const field = dom instanceof HTMLElement ? dom.querySelector<HTMLInputElement>(selector) : null;
    if (!field) return false;
    field.focus();
    field.select();
    return true;
  };
  if (!attempt()) queueMicrotask(() => void (attempt() || requestAnimationFrame(attempt)));
}

/** Where the node made from a given `block` attribute is (the very object inserted), or undefined. */
export function positionOfBlock(doc: PMNode, block: unknown): number | undefined {
  let found: number | undefined;
  doc.descendants((node, pos) => {
    if (found !== undefined) return false;
    if (node.attrs.block === block) found = pos;
    return found === undefined;
  });
  return found;
}
