import type { AnyExtension, Editor } from '@tiptap/core';
import { BubbleMenu } from '@tiptap/extension-bubble-menu';
import { DragHandle } from '@tiptap/extension-drag-handle';
import type { Node as PMNode } from '@tiptap/pm/model';
import { NodeSelection } from '@tiptap/pm/state';

/*
 * The block handle and the selection's toolbar are ProseMirror plugins given to the editor when it is built, with
 * elements React renders into (createPortal), not registered by their React components once mounted: registering a
 * plugin reconfigures the editor, and once it is bound to the shared document (shared-binding.ts) its binding
 * (y-prosemirror) then renders the whole page again from the shared document and puts back its selection as text;
 * a selected image lost its selection, and its settings toolbar, under the pointer (CI).
 */

/** The elements the handle's menu and the selection's toolbar are drawn in, kept for the editors of one page. */
export interface MenuHosts {
  blockHandle: HTMLElement;
  selectionToolbar: HTMLElement;
}

export function createMenuHosts(): MenuHosts {
  const host = (className: string) => {
    const element = document.createElement('div');
    element.className = className;
    // Hidden until its plugin places it (as TipTap's React components do).
    element.style.visibility = 'hidden';
    element.style.position = 'absolute';
    return element;
  };
  return { blockHandle: host('drag-handle'), selectionToolbar: host('qe-selection-toolbar') };
}

/**
 * The toolbar over selected text shows for a text selection in an editable page, not in code (whose text takes no
 * marks) nor for a selected block, and only while the page (or the toolbar) has the focus.
 */
export function showsSelectionToolbar({ editor, view, element, state, from, to }: { editor: Editor; view: Editor['view']; element: HTMLElement; state: Editor['state']; from: number; to: number }): boolean {
  if (!editor.isEditable || from === to || state.selection instanceof NodeSelection) return false;
  // Not for a selection made from elsewhere (find and replace selects its match while its field has the keys).
  if (!view.hasFocus() && !element.contains(document.activeElement)) return false;
  if (editor.isActive('codeBlock')) return false;
  return state.doc.textBetween(from, to, ' ').trim() !== '';
}

export function menuHostExtensions(hosts: MenuHosts, onHandleNode: (node: PMNode | null, pos: number) => void): AnyExtension[] {
  return [
    // The plugin passes the block's position too; the extension's option type omits it.
    DragHandle.configure({ render: () => hosts.blockHandle, onNodeChange: (data) => onHandleNode(data.node, (data as { pos?: number }).pos ?? -1) }),
    BubbleMenu.configure({
      element: hosts.selectionToolbar,
      pluginKey: 'selectionToolbar',
      options: { placement: 'top', offset: 8, flip: true, shift: { padding: 8 } },
      shouldShow: showsSelectionToolbar,
    }),
  ];
}
