import { blockText } from '../../../src/features/content/document/text.ts';
import type { Document } from '../../../src/features/content/document/types.ts';

/*
 * A change request's description is a JSON document (the official ChangeRequest `description`). The screen edits
 * it as plain text: paragraphs parted by a blank line. The markdown reader cannot run in the browser (it reaches
 * node:crypto through block keys), so marks and other blocks come only from the API; the screen says when saving
 * the text would drop them.
 */

export function descriptionFromText(text: string): Document {
  const paragraphs = text
    .replace(/\r\n?/g, '\n')
    .split(/\n[ \t]*\n/)
    .map((part) => part.trim())
    .filter((part) => part !== '');
  return {
    object: 'document',
    data: {},
    nodes: paragraphs.map((part) => ({ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: part, marks: [] }] }] })),
  } as Document;
}

/** The description's text, a paragraph per top-level block, as the text area shows it. */
export function descriptionToText(document: Document | undefined): string {
  return (document?.nodes ?? []).map((block) => blockText(block)).filter((text) => text !== '').join('\n\n');
}

/** Whether the text says all the description holds: only paragraphs of unmarked text. */
export function isPlainDescription(document: Document | undefined): boolean {
  return (document?.nodes ?? []).every(
    (block) =>
      block.type === 'paragraph' &&
      (block.nodes as { object: string; leaves?: { marks?: unknown[] }[] }[]).every((node) => node.object === 'text' && (node.leaves ?? []).every((leaf) => (leaf.marks ?? []).length === 0)),
  );
}

/** Whether the description says something (the merge rule `require_change_request_description`). */
export function hasDescription(document: Document | undefined): boolean {
  return (document?.nodes ?? []).some((block) => (block as { isVoid?: boolean }).isVoid === true || blockText(block).trim() !== '');
}
