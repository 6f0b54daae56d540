import type { Editor } from '@tiptap/core';
import { NodeSelection } from '@tiptap/pm/state';
import type { Node as PMNode } from '@tiptap/pm/model';

/*
 * Who opens a formula's editor: a click on the formula (its node view), Enter on the selected formula, and the
 * `/` menu right after it inserts one. The last two know a position, not a node view (React draws the view of a
 * new node a moment after the transaction that made it), so they leave a request here that the view at that
 * position takes when it is drawn, or at once if it already is.
 */

const requests = new WeakMap<Editor, number>();
const listeners = new WeakMap<Editor, Set<() => void>>();

/** A math block or an inline formula: the nodes whose formula the popover edits. */
export function isFormula(node: PMNode | null | undefined): boolean {
  if (!node) return false;
  if (node.type.name === 'opaqueBlock') return (node.attrs.block as { type?: string } | null)?.type === 'math';
  return node.type.name === 'inlineAtom' && (node.attrs.inline as { type?: string } | null)?.type === 'inline-math';
}

/** Asks the formula at `pos` to open its editor. */
export function requestFormulaEditor(editor: Editor, pos: number): void {
  requests.set(editor, pos);
  for (const listener of listeners.get(editor) ?? []) listener();
}

/** Takes the request meant for the formula at `pos`, if there is one. */
export function takeFormulaRequest(editor: Editor, pos: number | undefined): boolean {
  if (pos === undefined || requests.get(editor) !== pos) return false;
  requests.delete(editor);
  return true;
}

export function onFormulaRequest(editor: Editor, listener: () => void): () => void {
  const set = listeners.get(editor) ?? new Set();
  listeners.set(editor, set);
  set.add(listener);
  return () => set.delete(listener);
}

/** The inlines whose popover the same requests open (nodes/inline-views.tsx): what a person writes into a sentence. */
const AUTHORED_INLINES = new Set(['annotation', 'button', 'icon', 'expression']);

/** Enter on a selected formula, annotation, button, icon or expression opens its editor (ProseMirror would otherwise replace it with a new line). */
export function openSelectedFormula(editor: Editor): boolean {
  const { selection } = editor.state;
  if (!editor.isEditable || !(selection instanceof NodeSelection)) return false;
  const authored = selection.node.type.name === 'inlineAtom' && AUTHORED_INLINES.has((selection.node.attrs.inline as { type?: string } | null)?.type ?? '');
  if (!isFormula(selection.node) && !authored) return false;
  requestFormulaEditor(editor, selection.from);
  return true;
}
