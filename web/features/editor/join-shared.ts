import type { Editor } from '@tiptap/core';
import type { Node as PMNodeObject } from '@tiptap/pm/model';
import type * as Y from 'yjs';
import { applyWrittenDocument } from '../../../src/features/collaboration/ydoc-document.ts';
import type { Document } from '../../../src/features/content/document/types.ts';

/*
 * A page opens for editing on the document the app already holds, editable at once, while its shared document
 * (editing together) syncs behind it: waiting for the socket made every opening a round trip longer. Once the
 * shared document is synced the editor is built again on it, and what the person typed meanwhile is merged into
 * it block by block, as the server merges a write made outside the editors (ydoc-document.ts): the blocks others
 * changed come from the shared document, the blocks the person changed are theirs, and where both changed one
 * the person's version wins. What was typed is never replaced by what the sync brought.
 */

/** The editor opened on the page's document, before the shared one: what it did until it is replaced. */
export interface OpenedAlone {
  editor: Editor;
  /** The host's document generation it showed (a new one replaces the document: nothing is carried across). */
  generation: number;
  /** The person changed its document. */
  edited: boolean;
  /** It had the focus last (its view is already destroyed when it is replaced, with its DOM). */
  focused: boolean;
}

export interface CarriedCaret {
  anchor: number;
  head: number;
  focused: boolean;
}

/**
 * Writes into `shared` what the person changed in `alone` since it opened on `opened` (`read` gives a ProseMirror
 * document as ours), and returns its caret, to be put in the editor bound to `shared`. The caret is carried by
 * position: the person's block keeps its place unless others inserted or removed blocks above it meanwhile.
 */
export function joinSharedDocument(shared: Y.Doc, opened: Document, alone: OpenedAlone, read: (doc: PMNodeObject) => Document): CarriedCaret {
  const { doc, selection } = alone.editor.state;
  if (alone.edited) applyWrittenDocument(shared, opened, read(doc));
  return { anchor: selection.anchor, head: selection.head, focused: alone.focused };
}
