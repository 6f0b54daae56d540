import type { Editor } from '@tiptap/core';
import type { Transaction } from '@tiptap/pm/state';
import { Mapping } from '@tiptap/pm/transform';
import { htmlHasBlocks, looksLikeMarkdown } from './markdown-detect.ts';

/**
 * Handles a paste of markdown text (see markdown-detect.ts): reads it into blocks (markdown-blocks.ts, loaded
 * on the first such paste) and inserts them where the cursor was. Returns false for any other paste, which
 * TipTap handles (HTML, plain text, text inside a code block).
 */
export function pasteMarkdown(editor: Editor, event: ClipboardEvent, failed: (message: string) => void): boolean {
  const text = event.clipboardData?.getData('text/plain') ?? '';
  const html = event.clipboardData?.getData('text/html') ?? '';
  if (editor.isActive('codeBlock') || !looksLikeMarkdown(text) || htmlHasBlocks(html)) return false;
  // The blocks go where the paste was, though the reader loads a moment later (the first time): the person may
  // have clicked or typed meanwhile, so the place is followed through every change until then.
  const place = editor.state.selection.getBookmark();
  const changes = new Mapping();
  const follow = ({ transaction }: { transaction: Transaction }) => changes.appendMapping(transaction.mapping);
  editor.on('transaction', follow);
  void import('./markdown-blocks.ts')
    .then(({ markdownBlocks }) => {
      if (editor.isDestroyed) return;
      const pasted = place.map(changes).resolve(editor.state.doc);
      // The caret follows the blocks only if it is still where the paste was; else it stays where the person put it.
      const stayed = editor.state.selection.eq(pasted);
      const chain = editor.chain();
      (stayed ? chain.focus() : chain).insertContentAt({ from: pasted.from, to: pasted.to }, markdownBlocks(text), { updateSelection: stayed }).run();
    })
    .catch((error: unknown) => failed(`The pasted markdown could not be read: ${error instanceof Error ? error.message : String(error)}`))
    .finally(() => editor.off('transaction', follow));
  return true;
}
