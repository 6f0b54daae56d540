import { Extension } from '@tiptap/core';
import type { ResolvedPos } from '@tiptap/pm/model';
import { TextSelection, type Command } from '@tiptap/pm/state';

/*
 * Enter and Backspace at the edges of conditional content and of a prompt, as at the edges of a stepper
 * (layout-keys.ts). Left to ProseMirror's defaults, Enter on an empty line never leaves the block (it only adds
 * lines), and Backspace at its start lifts the first line out of it. Here Enter on an empty last line moves that
 * line out, below the block, and Backspace at the start moves nothing, except in a block left empty, which goes.
 * A prompt's code block is left as a code block is (Enter on a third empty line), to below the prompt rather than
 * to a line inside it: GitBook's prompt holds its code block alone.
 */

const FRAMES = new Set(['conditional', 'prompt']);

/** The conditional or prompt whose direct child holds an empty caret, with where it starts. */
function frameAt($cursor: ResolvedPos) {
  const depth = $cursor.depth - 1;
  if (depth < 1) return null;
  const frame = $cursor.node(depth);
  return FRAMES.has(frame.type.name) ? { frame, pos: $cursor.before(depth), index: $cursor.index(depth) } : null;
}

const caret = (selection: unknown) => (selection instanceof TextSelection && selection.$cursor ? selection.$cursor : null);

export const leaveFrame: Command = (state, dispatch) => {
  const $cursor = caret(state.selection);
  if (!$cursor || $cursor.parent.type.name !== 'paragraph' || $cursor.parent.content.size > 0) return false;
  const at = frameAt($cursor);
  if (!at || at.index !== at.frame.childCount - 1 || at.frame.childCount === 1) return false;
  if (dispatch) {
    const line = $cursor.before();
    const after = at.pos + at.frame.nodeSize;
    const tr = state.tr.insert(after, state.schema.nodes.paragraph!.create()).delete(line, line + $cursor.parent.nodeSize);
    dispatch(tr.setSelection(TextSelection.near(tr.doc.resolve(after - $cursor.parent.nodeSize + 1))).scrollIntoView());
  }
  return true;
};

export const leavePromptCode: Command = (state, dispatch) => {
  const $cursor = caret(state.selection);
  if (!$cursor || $cursor.parent.type.name !== 'codeBlock' || $cursor.parentOffset !== $cursor.parent.content.size) return false;
  if (!$cursor.parent.textContent.endsWith('\n\n')) return false;
  const at = frameAt($cursor);
  if (!at || at.frame.type.name !== 'prompt' || at.index !== at.frame.childCount - 1) return false;
  if (dispatch) {
    const after = at.pos + at.frame.nodeSize;
    const tr = state.tr.insert(after, state.schema.nodes.paragraph!.create()).delete($cursor.pos - 2, $cursor.pos);
    dispatch(tr.setSelection(TextSelection.near(tr.doc.resolve(after - 2 + 1))).scrollIntoView());
  }
  return true;
};

export const backspaceAtFrameStart: Command = (state, dispatch) => {
  const $cursor = caret(state.selection);
  if (!$cursor || $cursor.parentOffset > 0) return false;
  const at = frameAt($cursor);
  if (!at || at.index > 0) return false;
  const only = at.frame.childCount === 1 ? at.frame.firstChild! : null;
  if (only?.isTextblock && only.content.size === 0 && dispatch) {
    const tr = state.tr.replaceWith(at.pos, at.pos + at.frame.nodeSize, state.schema.nodes.paragraph!.create());
    dispatch(tr.setSelection(TextSelection.near(tr.doc.resolve(at.pos + 1))));
  }
  return true;
};

export const ConditionalKeys = Extension.create({
  name: 'conditionalKeys',
  // Before TipTap's own Enter and Backspace (its core keymap, priority 100), as layout-keys.ts.
  priority: 1000,
  addKeyboardShortcuts() {
    return {
      Enter: () => leaveFrame(this.editor.state, this.editor.view.dispatch) || leavePromptCode(this.editor.state, this.editor.view.dispatch),
      Backspace: () => backspaceAtFrameStart(this.editor.state, this.editor.view.dispatch),
    };
  },
});
