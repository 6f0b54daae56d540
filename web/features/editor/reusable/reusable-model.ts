import type { JSONContent } from '@tiptap/core';
import { includedReusableContents } from '../../../../src/features/content/document/reusable-blocks.ts';
import type { Document } from '../../../../src/features/content/document/types.ts';
import { rankMatches } from '../slash/fuzzy-match.ts';

/*
 * Reusable content in the editor (issue 42): a `reusable-content` block names a titled document of the space that
 * every page including it shows. The block stays the model's opaque block (its JSON kept exactly); these are the
 * rules around it, free of the editor and the API.
 */

/** A reusable content of the space, as the revision lists it. */
export interface ReusableEntry {
  id: string;
  title: string;
}

/** The block including a reusable content of this space, as GitBook writes it (DocumentBlockReusableContent). */
export function reusableBlock(id: string): Record<string, unknown> {
  return { object: 'block', type: 'reusable-content', isVoid: true, data: { ref: { kind: 'reusable-content', reusableContent: id } } };
}

/** The editor node of that block: the model's opaque block carrying it. */
export function reusableNode(id: string): JSONContent {
  return { type: 'opaqueBlock', attrs: { block: reusableBlock(id) } };
}

/** The reusable content a block names, and its space when it is another space's (undefined: not such a block). */
export function reusableRefOf(block: { type?: unknown; data?: unknown } | null | undefined): { id: string; space?: string } | undefined {
  if (block?.type !== 'reusable-content') return undefined;
  const ref = (block.data as { ref?: { kind?: unknown; reusableContent?: unknown; space?: unknown } } | undefined)?.ref;
  if (ref?.kind !== 'reusable-content' || typeof ref.reusableContent !== 'string') return undefined;
  return typeof ref.space === 'string' ? { id: ref.reusableContent, space: ref.space } : { id: ref.reusableContent };
}

/** The pages whose documents include the reusable content, in the order given (the tree's). */
export function pagesIncluding<P extends { document?: Pick<Document, 'nodes'> | undefined }>(pages: readonly P[], id: string): P[] {
  return pages.filter((page) => page.document !== undefined && includedReusableContents(page.document.nodes).includes(id));
}

/** The reusable contents a search finds, best first (by title, as the `/` menu finds its items); all for none. */
export function findReusable<E extends ReusableEntry>(entries: readonly E[], query: string): E[] {
  const matchable = entries.map((entry) => ({ entry, title: entry.title, keywords: '', description: '' }));
  return rankMatches(matchable, query).map((m) => m.entry);
}

/** "Used in 1 page", "Used in 3 pages", "Not used in any page yet". */
export function usageLabel(count: number): string {
  if (count === 0) return 'Not used in any page yet';
  return `Used in ${count} ${count === 1 ? 'page' : 'pages'}`;
}

/** A title for new reusable content, from the text of what it is made of: its first line, shortened. */
export function suggestedTitle(text: string): string {
  const line = text.trim().split('\n')[0]?.trim() ?? '';
  return line.length > 60 ? `${line.slice(0, 59).trimEnd()}…` : line;
}
