import type { Editor } from '@tiptap/core';
import type { Node as PMNodeObject } from '@tiptap/pm/model';
import { NodeSelection, Selection, TextSelection } from '@tiptap/pm/state';
import type * as Y from 'yjs';
import { applyWrittenDocument } from '../../../src/features/collaboration/ydoc-document.ts';
import type { Document } from '../../../src/features/content/document/types.ts';

/*
 * A page opens for editing on the document the app already holds, editable at once, while its shared document
 * (editing together) syncs behind it: waiting for the socket made every opening a round trip longer. Once the
 * shared document is synced the editor is bound to it (shared-binding.ts), and what the person typed meanwhile is
 * first merged into it block by block, as the server merges a write made outside the editors (ydoc-document.ts):
 * the blocks others changed come from the shared document, the blocks the person changed are theirs, and where
 * both changed one the person's version wins. What was typed is never replaced by what the sync brought.
 */

/** The editor opened on the page's document, not bound to the shared one yet. */
export interface OpenedAlone {
  editor: Editor;
  /** The host's document generation it showed (a new one replaces the document: nothing is carried across). */
  generation: number;
  /** The person changed its document. */
  edited: boolean;
}

/** What `Selection.toJSON` writes: its kind and positions. */
export type SelectionJSON = { type: string; anchor: number; head?: number } & Record<string, unknown>;

/**
 * Writes into `shared` what the person changed in `alone` since it opened on `opened` (`read` gives a ProseMirror
 * document as ours), and returns its selection, to be put back once the editor shows `shared`. It is carried by
 * position: the person's block keeps its place unless others inserted or removed blocks above it meanwhile. It
 * keeps its kind too: an image clicked before the sync stays selected, with its settings toolbar (CI saw the
 * toolbar vanish under the pointer when the selection came back as text).
 */
export function joinSharedDocument(shared: Y.Doc, opened: Document, alone: OpenedAlone, read: (doc: PMNodeObject) => Document): SelectionJSON {
  const { doc, selection } = alone.editor.state;
  if (alone.edited) applyWrittenDocument(shared, opened, read(doc));
  return selection.toJSON() as SelectionJSON;
}

/** The carried selection in `doc`: of its kind where it still fits there, else text between the same positions. */
export function carriedSelection(doc: PMNodeObject, carried: SelectionJSON): Selection {
  const size = doc.content.size;
  const inside = (pos: unknown) => typeof pos === 'number' && pos >= 0 && pos <= size;
  if (inside(carried.anchor) && (carried.head === undefined || inside(carried.head))) {
    try {
      const selection = Selection.fromJSON(doc, carried);
      // A node selection restored where no selectable node starts any more would select nothing.
      if (!(selection instanceof NodeSelection) || (doc.nodeAt(selection.from)?.type.spec.selectable ?? true) !== false) return selection;
    } catch {
      // Its kind no longer fits here (a cell selection outside a table): text between the same positions.
    }
  }
  const at = (pos: unknown) => doc.resolve(Math.max(0, Math.min(typeof pos === 'number' ? pos : 0, size)));
  return TextSelection.between(at(carried.anchor), at(carried.head ?? carried.anchor));
}
