import { documentToMarkdown } from './document/to-markdown.ts';
import type { ContentRef, Document } from './document/types.ts';
import { parseStoredDocument, prepareDocument, type PreparedDocument } from './document-store.ts';
import { convertMarkdownOnce, refToHref, type AssumedLinks } from './markdown.ts';

/*
 * The conversions that run on the pool's threads (conversion-pool.ts): the same functions the request thread
 * calls for small inputs, so both give the same result. Inputs and results cross as plain data (structured
 * clone); a stored document crosses as its JSON text, which copies faster than the object.
 */

/** One conversion of markdown (convertMarkdownOnce), its document prepared for storing (canonical JSON, id, links, validity). */
export function toDocument(task: { markdown: string; refs?: ReadonlyMap<string, ContentRef> }): { prepared: PreparedDocument; assumed: AssumedLinks } {
  const { document, assumed } = convertMarkdownOnce(task.markdown, task.refs);
  return { prepared: prepareDocument(document), assumed };
}

/** A document (or a stored document's JSON text) as markdown, references in their fixed forms. */
export function toMarkdown(task: { document?: unknown; text?: string }): string {
  const document = task.text !== undefined ? parseStoredDocument(task.text) : task.document;
  return documentToMarkdown(document as Document, refToHref);
}
