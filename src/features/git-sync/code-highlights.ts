import type { Code, Document } from '../content/document/types.ts';
import type { CodeHighlight } from './source-markdown.ts';

/*
 * Highlighted code lines of MkDocs (`hl_lines`) and Docusaurus (`{1,3-4}`, magic comments) put into the page's
 * document once its GitBook markdown is read. The document model holds them (`code-line`'s `data.highlighted`,
 * as GitBook's API does); the converters keep their fenced code as written and hand the lines beside it, and a
 * document written back to markdown says them in GitBook's HTML spelling (content/document/code-html.ts).
 */

/** The same code whatever the indentation the markdown reader took off its lines. */
const codeKey = (text: string) => text.split('\n').map((line) => line.trim()).join('\n');

/** The code blocks of a document in reading order, inside containers and fragments too. */
function codeBlocks(document: Document): Code[] {
  const found: Code[] = [];
  // Depth first, in order, without recursion: a document read from markdown is bounded, one written through the API need not be.
  const stack: unknown[] = [...document.nodes].reverse();
  while (stack.length > 0) {
    const node = stack.pop() as { type?: string; nodes?: unknown[]; fragments?: unknown[] } | null;
    if (!node || typeof node !== 'object') continue;
    if (node.type === 'code') {
      found.push(node as Code);
      continue;
    }
    const children = [...(Array.isArray(node.nodes) ? node.nodes : []), ...(Array.isArray(node.fragments) ? node.fragments : [])];
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
  return found;
}

const codeText = (block: Code) =>
  block.nodes.map((line) => (line.nodes ?? []).map((n) => (n.object === 'text' ? n.leaves.map((l) => l.text).join('') : '')).join('')).join('\n');

/**
 * The document with the highlights applied, each to the next code block (in reading order) holding its code, and
 * the highlights that found no such block. A new document when any applies: the one given may be a prepared one,
 * whose stored text was computed already (document-store.ts).
 */
export function applyCodeHighlights(document: Document, highlights: readonly CodeHighlight[]): { document: Document; missed: CodeHighlight[] } {
  if (highlights.length === 0) return { document, missed: [] };
  const copy = structuredClone(document);
  const blocks = codeBlocks(copy);
  const keys = blocks.map((block) => codeKey(codeText(block)));
  const missed: CodeHighlight[] = [];
  let from = 0;
  for (const highlight of highlights) {
    const at = keys.indexOf(codeKey(highlight.code), from);
    if (at < 0) {
      missed.push(highlight);
      continue;
    }
    const lines = blocks[at]!.nodes;
    for (const n of highlight.lines) {
      const line = lines[n - 1];
      if (line) line.data = { ...line.data, highlighted: true };
    }
    from = at + 1;
  }
  return { document: copy, missed };
}

/** The highlighted lines a document holds, per code block that has any, in reading order: what a measure compares. */
export function codeHighlightsOf(document: Document): CodeHighlight[] {
  return codeBlocks(document)
    .map((block) => ({ code: codeText(block), lines: block.nodes.flatMap((line, i) => (line.data?.highlighted ? [i + 1] : [])) }))
    .filter((found) => found.lines.length > 0);
}
