import { documentToMarkdown } from './document/to-markdown.ts';
import { markdownToDocument } from './document/to-document.ts';
import type { ContentRef, Document } from './document/types.ts';
import { parseStoredDocument, prepareDocument, type PreparedDocument } from './document-store.ts';
import { refToHref, resolveFixedHref } from './markdown.ts';

/*
 * The conversions that run on the pool's threads (conversion-pool.ts): the same functions the request thread
 * calls for small inputs, so both give the same result. Inputs and results cross as plain data (structured
 * clone); a stored document crosses as its JSON text, which copies faster than the object.
 */

/**
 * Markdown to a document, prepared for storing (canonical JSON, id, links, validity). Without `refs`, links
 * are resolved in their fixed forms (resolveFixedHref) or kept as URLs, and every href met is returned with
 * what it was taken for: the caller resolves them its own way and, where that differs, asks again with `refs`.
 */
export function toDocument(task: { markdown: string; refs?: Record<string, ContentRef> }): { prepared: PreparedDocument; assumed: Record<string, ContentRef> } {
  const assumed: Record<string, ContentRef> = {};
  const refs = task.refs;
  const document = markdownToDocument(task.markdown, (href) => {
    const ref = (refs && Object.hasOwn(refs, href) ? refs[href] : undefined) ?? resolveFixedHref(href) ?? { kind: 'url', url: href };
    Object.defineProperty(assumed, href, { value: ref, enumerable: true, configurable: true, writable: true });
    return ref;
  });
  return { prepared: prepareDocument(document), assumed };
}

/** A document (or a stored document's JSON text) as markdown, references in their fixed forms. */
export function toMarkdown(task: { document?: unknown; text?: string }): string {
  const document = task.text !== undefined ? parseStoredDocument(task.text) : task.document;
  return documentToMarkdown(document as Document, refToHref);
}
