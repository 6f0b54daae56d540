import type { Editor } from '@tiptap/core';
import type { Transaction } from '@tiptap/pm/state';
import { Mapping } from '@tiptap/pm/transform';
import type { PMNode } from '../../../../src/features/content/document/editor/editor-json.ts';

/**
 * Puts blocks made after a paste (their reader loads a moment later, the first time; images upload) where the
 * paste was: the person may have clicked or typed meanwhile, so the place is followed through every change until
 * then. The caret follows the blocks only if it is still where the paste was; else it stays where the person put it.
 * One paragraph goes into the text at the caret rather than splitting its block.
 */
export function insertWhenReady(editor: Editor, produce: () => Promise<PMNode[] | null>, failed: (error: unknown) => void): void {
  const place = editor.state.selection.getBookmark();
  const changes = new Mapping();
  const follow = ({ transaction }: { transaction: Transaction }) => changes.appendMapping(transaction.mapping);
  editor.on('transaction', follow);
  void produce()
    .then((nodes) => {
      if (editor.isDestroyed || !nodes || nodes.length === 0) return;
      const pasted = place.map(changes).resolve(editor.state.doc);
      const stayed = editor.state.selection.eq(pasted);
      const chain = editor.chain();
      const content = nodes.length === 1 && nodes[0]!.type === 'paragraph' && pasted.$from.parent.isTextblock ? (nodes[0]!.content ?? []) : nodes;
      (stayed ? chain.focus() : chain).insertContentAt({ from: pasted.from, to: pasted.to }, content, { updateSelection: stayed }).run();
    })
    .catch(failed)
    .finally(() => editor.off('transaction', follow));
}
