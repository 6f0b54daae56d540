import type { Editor } from '@tiptap/core';
import type { EditorFile } from '../contract.ts';
import { insertWhenReady } from './insert-later.ts';

/** Where pasted images are stored: the host's (contract.ts). */
export interface ImageStore {
  uploadFile(file: File): Promise<EditorFile>;
  importFile?(url: string): Promise<EditorFile>;
}

/**
 * HTML the editor's own parsing would lose parts of: tables and images (our table and image blocks hold GitBook's
 * JSON, which no tag describes), Word's lists (paragraphs with typed bullets) and Google Docs' (lists nested
 * directly in lists, checklists). Simpler HTML (a paragraph with a link, bold spans) is TipTap's, at once.
 */
const NEEDS_READER = /<(?:table|img)[\s>]|mso-list|docs-internal-guid/i;

/**
 * Handles a paste of such HTML (from Google Docs, Word, a web page): read as blocks with their
 * tables, lists and images (html-blocks.ts, loaded on the first such paste); its images are stored as files of
 * the space (their bytes when they came with it; else fetched by the server from their address), one at a time,
 * before the blocks go in; one the server cannot fetch stays a link to it; those the page cannot read (files on the
 * person's computer) and those that could not be stored are said, never dropped silently. Returns false for any
 * other paste, which TipTap handles: the editor's own copies (ProseMirror marks them), text, text in code.
 */
export function pasteHtml(editor: Editor, event: ClipboardEvent, store: ImageStore, failed: (message: string) => void): boolean {
  const html = event.clipboardData?.getData('text/html') ?? '';
  if (!html || editor.isActive('codeBlock') || /data-pm-slice/.test(html) || !NEEDS_READER.test(html)) return false;
  insertWhenReady(
    editor,
    async () => {
      const { htmlBlocks } = await import('./html-blocks.ts');
      const pasted = htmlBlocks(html);
      const files: (string | null)[] = [];
      let notStored = 0;
      for (const [i, image] of pasted.images.entries()) {
        try {
          if (image.kind === 'url') {
            // Fetched by the server (its guard refuses private addresses); one it cannot fetch stays a link to it.
            files.push(store.importFile ? (await store.importFile(image.url)).id : null);
            continue;
          }
          const blob = dataUrlBlob(image.dataUrl);
          const name = `pasted-image-${i + 1}.${blob.type.split('/')[1]?.replace(/\W.*$/, '') || 'png'}`;
          files.push((await store.uploadFile(new File([blob], name, { type: blob.type }))).id);
        } catch {
          files.push(null);
          if (image.kind === 'bytes') notStored += 1;
        }
      }
      const lost = [
        pasted.unreadable > 0 ? `${pasted.unreadable} image${pasted.unreadable > 1 ? 's are' : ' is'} only on your computer (the copied text points to local files): paste or drop ${pasted.unreadable > 1 ? 'them' : 'it'} on its own` : '',
        notStored > 0 ? `${notStored} pasted image${notStored > 1 ? 's' : ''} could not be stored` : '',
      ].filter(Boolean);
      if (lost.length > 0) failed(`${lost.join('; ')}.`);
      return pasted.place(files);
    },
    (error) => failed(`The pasted content could not be read: ${error instanceof Error ? error.message : String(error)}`),
  );
  return true;
}

/** A `data:` URL's bytes, decoded here: the app's content security policy lets no fetch read one. */
function dataUrlBlob(dataUrl: string): Blob {
  const [head = '', body = ''] = dataUrl.split(',', 2);
  const type = /^data:([^;,]+)/i.exec(head)?.[1] ?? 'application/octet-stream';
  if (!/;base64$/i.test(head)) return new Blob([decodeURIComponent(body)], { type });
  const binary = atob(body.replace(/\s+/g, ''));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return new Blob([bytes], { type });
}
