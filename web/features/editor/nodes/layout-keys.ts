import { Extension } from '@tiptap/core';
import type { Node as PMNode, ResolvedPos } from '@tiptap/pm/model';
import { TextSelection, type Command } from '@tiptap/pm/state';
import { dayOf, newStep, newUpdate } from './layout-blocks.ts';

/*
 * Enter and Backspace at the edges of a step, a column or an update. Left to ProseMirror's defaults, Enter on
 * an empty line never leaves a step (a paragraph cannot stand in a stepper, so it only adds lines), and
 * Backspace at the start of a column merges it into the one before, or at the start of a first step lifts text
 * out into the block above. As in GitBook: Enter on an empty last line starts the next step (or update), Enter
 * in an empty last step leaves the stepper, Backspace at the start of a step joins it to the one before.
 */

const PARTS = new Set(['stepperStep', 'column', 'update']);

interface Edge {
  /** The step, column or update, and where it starts. */
  part: PMNode;
  partPos: number;
  /** Its container (the stepper…), where it starts, and the part's index in it. */
  container: PMNode;
  containerPos: number;
  index: number;
}

/** The step, column or update whose direct child holds an empty caret, if it does. */
function edgeAt($cursor: ResolvedPos): Edge | null {
  const depth = $cursor.depth - 1;
  if (depth < 2) return null;
  const part = $cursor.node(depth);
  if (!PARTS.has(part.type.name)) return null;
  return { part, partPos: $cursor.before(depth), container: $cursor.node(depth - 1), containerPos: $cursor.before(depth - 1), index: $cursor.index(depth - 1) };
}

const caret = (selection: unknown) => (selection instanceof TextSelection && selection.$cursor ? selection.$cursor : null);

const enterAtEdge: Command = (state, dispatch) => {
  const $cursor = caret(state.selection);
  if (!$cursor || $cursor.parent.content.size > 0 || $cursor.parent.type.name !== 'paragraph') return false;
  const edge = edgeAt($cursor);
  if (!edge || edge.part.type.name === 'column') return false;
  const { part, partPos, container, containerPos, index } = edge;
  const line = $cursor.before();
  const lastLine = $cursor.index($cursor.depth - 1) === part.childCount - 1;
  if (!lastLine) return false;
  const partEnd = partPos + part.nodeSize;
  if (part.childCount > 1) {
    // The empty last line becomes the next step (update), the caret in it.
    if (dispatch) {
      const next = state.schema.nodeFromJSON(part.type.name === 'update' ? newUpdate(dayOf(new Date())) : newStep());
      const tr = state.tr.insert(partEnd, next).delete(line, line + $cursor.parent.nodeSize);
      dispatch(tr.setSelection(TextSelection.near(tr.doc.resolve(partEnd - $cursor.parent.nodeSize + 1))).scrollIntoView());
    }
    return true;
  }
  // An empty last step (update) of several: it goes, and the caret goes to a new line after the block.
  if (index !== container.childCount - 1 || container.childCount === 1) return false;
  if (dispatch) {
    const after = containerPos + container.nodeSize;
    const tr = state.tr.insert(after, state.schema.nodes.paragraph!.create()).delete(partPos, partEnd);
    dispatch(tr.setSelection(TextSelection.near(tr.doc.resolve(after - part.nodeSize + 1))).scrollIntoView());
  }
  return true;
};

const backspaceAtEdge: Command = (state, dispatch) => {
  const $cursor = caret(state.selection);
  if (!$cursor || $cursor.parentOffset > 0 || $cursor.index($cursor.depth - 1) > 0) return false;
  const edge = edgeAt($cursor);
  if (!edge) return false;
  const { part, partPos, container, containerPos, index } = edge;
  if (index > 0) {
    if (part.type.name !== 'column') return false; // joinBackward joins the step to the one before
    // Columns are not merged: the caret goes to the end of the column before.
    if (dispatch) dispatch(state.tr.setSelection(TextSelection.near(state.doc.resolve(partPos - 1), -1)));
    return true;
  }
  // At the start of the first part: a block left empty goes, leaving a line to write on; otherwise nothing moves.
  const empty = container.childCount === 1 && part.childCount === 1 && part.firstChild!.isTextblock && part.firstChild!.content.size === 0;
  if (empty && dispatch) {
    const tr = state.tr.replaceWith(containerPos, containerPos + container.nodeSize, state.schema.nodes.paragraph!.create());
    dispatch(tr.setSelection(TextSelection.near(tr.doc.resolve(containerPos + 1))));
  }
  return true;
};

export const LayoutKeys = Extension.create({
  name: 'layoutKeys',
  // Before TipTap's own Enter and Backspace (its core keymap, priority 100), which act otherwise at these edges.
  priority: 1000,
  addKeyboardShortcuts() {
    return {
      Enter: () => enterAtEdge(this.editor.state, this.editor.view.dispatch),
      Backspace: () => backspaceAtEdge(this.editor.state, this.editor.view.dispatch),
    };
  },
});

export { backspaceAtEdge, enterAtEdge };
