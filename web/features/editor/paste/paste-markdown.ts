import type { Editor } from '@tiptap/core';
import { htmlHasBlocks, looksLikeMarkdown } from './markdown-detect.ts';
import { insertWhenReady } from './insert-later.ts';

/**
 * Handles a paste of markdown text (see markdown-detect.ts): reads it into blocks (markdown-blocks.ts, loaded
 * on the first such paste) and inserts them where the cursor was. Returns false for any other paste, which
 * TipTap handles (HTML, plain text, text inside a code block).
 */
export function pasteMarkdown(editor: Editor, event: ClipboardEvent, failed: (message: string) => void): boolean {
  const text = event.clipboardData?.getData('text/plain') ?? '';
  const html = event.clipboardData?.getData('text/html') ?? '';
  if (editor.isActive('codeBlock') || !looksLikeMarkdown(text) || htmlHasBlocks(html)) return false;
  insertWhenReady(
    editor,
    async () => (await import('./markdown-blocks.ts')).markdownBlocks(text),
    (error) => failed(`The pasted markdown could not be read: ${error instanceof Error ? error.message : String(error)}`),
  );
  return true;
}
