import { markdownToDocument } from '../../../../src/features/content/document/to-document.ts';
import type { ContentRef, FlowBlock } from '../../../../src/features/content/document/types.ts';
import { flowToNode } from '../../../../src/features/content/document/editor/blocks.ts';
import type { PMNode } from '../../../../src/features/content/document/editor/editor-json.ts';

/*
 * Pasted markdown as the editor's blocks, read by the server's own reader (content/document/to-document.ts):
 * the blocks a GitBook page's markdown describes, as importing it would give them. This module is its own
 * chunk, loaded on the first markdown paste: the reader (markdown-it, htmlparser2) is not in the editor's.
 */

// A pasted link or image has no page of this space to resolve against: it stays the address it was written as.
const asUrl = (href: string): ContentRef => ({ kind: 'url', url: href });

/**
 * The reader keys blocks from their content, so pasting the same text twice would give two blocks one key:
 * pasted blocks go without keys, as new blocks do, and the server keys them when the page is saved.
 */
export function withoutKeys<T>(value: T): T {
  if (Array.isArray(value)) return value.map(withoutKeys) as T;
  if (!value || typeof value !== 'object') return value;
  const node = 'object' in value; // a block, text or inline; not a `data` object, where `key` may be anything
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(value)) if (!(node && name === 'key')) out[name] = withoutKeys(field);
  return out as T;
}

export function markdownBlocks(markdown: string): PMNode[] {
  const document = markdownToDocument(markdown.replace(/\r\n?/g, '\n'), asUrl);
  return document.nodes.map((block) => flowToNode(withoutKeys(block) as FlowBlock));
}
