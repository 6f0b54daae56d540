import TurndownService from 'turndown';
import { gfm } from 'turndown-plugin-gfm';
import { markdownToDocument } from '../../../../src/features/content/document/to-document.ts';
import type { ContentRef, FlowBlock } from '../../../../src/features/content/document/types.ts';
import { flowToNode } from '../../../../src/features/content/document/editor/blocks.ts';
import type { PMNode } from '../../../../src/features/content/document/editor/editor-json.ts';
import { cleanClipboardHtml } from './clipboard-html.ts';
import { withoutKeys } from './markdown-blocks.ts';

/*
 * Pasted HTML as the editor's blocks: cleaned (clipboard-html.ts), written as markdown by Turndown with its GFM
 * plugin (the import of web pages does the same on the server, imports/html-to-markdown.ts), then read by the
 * server's own markdown reader, so that a pasted page gives the blocks importing it would. Its own chunk, with
 * the markdown reader, loaded on the first such paste.
 */

/** An image of the pasted HTML to store: its bytes on the clipboard (a `data:` URL), or a web address to fetch. */
export type PastedImage = { kind: 'bytes'; dataUrl: string } | { kind: 'url'; url: string };

export interface PastedBlocks {
  /** The images to store as files of the space: `place` puts each one's stored file in the blocks. */
  images: PastedImage[];
  /** Images of files on the person's computer (Word's `file://`), which a web page cannot read. */
  unreadable: number;
  /**
   * The blocks, each image pointing at its stored file (by index); one not stored (null) keeps its web address, or is
   * left out when its bytes were all there was.
   */
  place(files: (string | null)[]): PMNode[];
}

const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-', emDelimiter: '*' })
  .use(gfm)
  .addRule('strikethrough', { filter: ['del', 's'], replacement: (content) => `~~${content}~~` });

// Stands for an image whose bytes are uploaded: the markdown reader keeps only URLs it can show.
const PLACEHOLDER = 'https://pasted-image.invalid/';

export function htmlBlocks(html: string, parse: (html: string) => Document = (text) => new DOMParser().parseFromString(text, 'text/html')): PastedBlocks {
  const root = cleanClipboardHtml(parse(html));
  const images: PastedImage[] = [];
  let unreadable = 0;
  for (const img of [...root.querySelectorAll('img')]) {
    const src = img.getAttribute('src') ?? '';
    img.removeAttribute('srcset');
    const image: PastedImage | null = /^data:image\//i.test(src) ? { kind: 'bytes', dataUrl: src } : /^https?:\/\//i.test(src) ? { kind: 'url', url: src } : null;
    if (!image) {
      unreadable += 1;
      img.remove();
      continue;
    }
    img.setAttribute('src', `${PLACEHOLDER}${images.length}`);
    images.push(image);
  }
  const markdown = turndown.turndown(root).trim();
  const document = markdownToDocument(markdown, (href): ContentRef => ({ kind: 'url', url: href }));
  const blocks = withoutKeys(document.nodes) as FlowBlock[];
  const place = (files: (string | null)[]) => (withFiles(blocks, images, files) as FlowBlock[]).map((block) => flowToNode(block));
  return { images, unreadable, place };
}

/** The blocks with each placeholder's image pointing at its stored file, at its address, or left out. */
function withFiles(value: unknown, images: PastedImage[], files: (string | null)[]): unknown {
  if (Array.isArray(value)) {
    return value.map((v) => withFiles(v, images, files)).filter((v) => v !== undefined);
  }
  if (!value || typeof value !== 'object') return value;
  const ref = (value as { data?: { ref?: { kind?: string; url?: string } } }).data?.ref;
  if (ref?.kind === 'url' && ref.url?.startsWith(PLACEHOLDER)) {
    const index = Number(ref.url.slice(PLACEHOLDER.length));
    const file = files[index];
    const image = images[index];
    const stored = file ? { kind: 'file', file } : image?.kind === 'url' ? { kind: 'url', url: image.url } : null;
    if (!stored) return undefined;
    return { ...value, data: { ...(value as { data: object }).data, ref: stored } };
  }
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(value)) out[name] = withFiles(field, images, files);
  // A group of images none of which was stored is no block.
  if (out.type === 'images' && Array.isArray(out.nodes) && out.nodes.length === 0) return undefined;
  return out;
}
