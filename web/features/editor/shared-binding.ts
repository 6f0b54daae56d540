import { Extension, type Command, type Editor } from '@tiptap/core';
import { createMappablePosition, getUpdatedPosition } from '@tiptap/extension-collaboration';
import { history, redo as historyRedo, undo as historyUndo } from '@tiptap/pm/history';
import type { Plugin } from '@tiptap/pm/state';
import { defaultSelectionBuilder, redo as sharedRedo, undo as sharedUndo, yCursorPlugin, ySyncPlugin, yUndoPlugin, yUndoPluginKey } from '@tiptap/y-tiptap';
import type { PageEditorProps } from './contract.ts';
import { carriedSelection, type SelectionJSON } from './join-shared.ts';

/*
 * The editor shown at once is the editor bound to the page's shared document once it has synced (issue 42): its
 * plugins for editing together (Yjs's sync, undo and the others' carets, as TipTap's Collaboration and
 * CollaborationCaret extensions build them) are added to it then, instead of an editor being built again on the
 * shared document — a second build of a 2,000-block page held the main thread for most of a second, about when the
 * person starts typing. ProseMirror keeps the DOM of every block the shared document has unchanged; what the person
 * typed before is written into the shared document first (join-shared.ts).
 */

type Shared = NonNullable<PageEditorProps['collaboration']>;

/** A step back (undo) or forward (redo) in one's own edits: the editor's history, or Yjs's once bound. */
function step(direction: 'undo' | 'redo'): () => Command {
  return () =>
    ({ tr, state, dispatch }) => {
      const shared = yUndoPluginKey.getState(state);
      if (!shared) return (direction === 'undo' ? historyUndo : historyRedo)(state, dispatch);
      // Yjs's undo dispatches its own transaction: TipTap's is not sent.
      tr.setMeta('preventDispatch', true);
      if ((direction === 'undo' ? shared.undoManager.undoStack : shared.undoManager.redoStack).length === 0) return false;
      return dispatch ? (direction === 'undo' ? sharedUndo : sharedRedo)(state) : true;
    };
}

/** Undo and redo of one's own edits: the editor's history until it is bound to a shared document, then Yjs's. */
export const SharedUndo = Extension.create({
  name: 'sharedUndo',
  addCommands() {
    return { undo: step('undo'), redo: step('redo') };
  },
  addKeyboardShortcuts() {
    return {
      'Mod-z': () => this.editor.commands.undo(),
      'Shift-Mod-z': () => this.editor.commands.redo(),
      'Mod-y': () => this.editor.commands.redo(),
      'Mod-я': () => this.editor.commands.undo(),
      'Shift-Mod-я': () => this.editor.commands.redo(),
    };
  },
  addProseMirrorPlugins: () => [history()],
});

const validColor = (color: unknown): color is string => typeof color === 'string' && /^#[0-9a-fA-F]{6}$/.test(color);

/** Another person's caret: a coloured bar with their name, as CollaborationCaret draws it. */
function caretOf(user: { name?: string; color?: string }): HTMLElement {
  const color = validColor(user.color) ? user.color : 'transparent';
  const caret = document.createElement('span');
  caret.classList.add('collaboration-carets__caret');
  caret.style.borderColor = color;
  const label = document.createElement('div');
  label.classList.add('collaboration-carets__label');
  label.style.backgroundColor = color;
  label.append(document.createTextNode(user.name ?? ''));
  caret.append(label);
  return caret;
}

/**
 * Binds `editor` to the shared document: the shared document's content replaces the editor's (the blocks it has
 * unchanged keep their DOM), undo becomes Yjs's, and the others' carets show. `selection` (as `Selection.toJSON`
 * writes it) is put back afterwards, of its kind where it still fits (an image clicked stays selected).
 */
export function bindSharedDocument(editor: Editor, shared: Shared, selection: SelectionJSON): void {
  // As the Collaboration extension sets them: positions TipTap keeps (a drag's) follow the others' edits.
  editor.utils.getUpdatedPosition = (position, transaction) => getUpdatedPosition(position, transaction, editor.state);
  editor.utils.createMappablePosition = (position) => createMappablePosition(position, editor.state);
  shared.provider.awareness?.setLocalStateField('user', shared.user);
  const added: Plugin[] = [
    ySyncPlugin(shared.document.getXmlFragment('default')),
    yUndoPlugin(),
    yCursorPlugin(shared.provider.awareness!, {
      cursorBuilder: caretOf,
      selectionBuilder: (user: { color?: string }) => (validColor(user.color) ? defaultSelectionBuilder(user as never) : {}),
    }),
  ];
  // One new configuration (ProseMirror builds the plugins' views again once): the history goes, Yjs's plugins come.
  editor.registerPlugin(added[0]!, (_, plugins) => [...plugins.filter((plugin) => !(plugin as unknown as { key: string }).key.startsWith('history$')), ...added]);
  const { state } = editor;
  const restored = carriedSelection(state.doc, selection);
  if (!restored.eq(state.selection)) editor.view.dispatch(state.tr.setSelection(restored).setMeta('addToHistory', false));
}
