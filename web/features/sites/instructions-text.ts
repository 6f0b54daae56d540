import type { JSONDocument } from '@gitbook/api-latest';

/*
 * A site's custom instructions are a document (the official SiteAgentSettings); the Questions screen edits them
 * as plain text, a paragraph per block of lines.
 */

interface Node {
  object?: string;
  type?: string;
  leaves?: { text: string }[];
  nodes?: Node[];
}

function textOf(node: Node): string {
  if (node.object === 'text') return (node.leaves ?? []).map((l) => l.text).join('');
  return (node.nodes ?? []).map(textOf).join(node.object === 'block' && !node.nodes?.every((n) => n.object !== 'block') ? '\n' : '');
}

/** The document's blocks as text, a blank line between two. */
export function textOfDocument(document: JSONDocument): string {
  return ((document.nodes ?? []) as Node[]).map(textOf).join('\n\n').trim();
}

/** Paragraphs of plain text (blank lines between them) as a document. */
export function documentOfText(text: string): JSONDocument {
  const paragraphs = text.split(/\n\s*\n/).map((p) => p.trim()).filter((p) => p !== '');
  return {
    object: 'document',
    data: {},
    nodes: paragraphs.map((paragraph) => ({ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: paragraph, marks: [] }] }] })),
  } as unknown as JSONDocument;
}
