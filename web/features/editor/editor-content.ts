import type { Document } from '../../../src/features/content/document/types.ts';
import { toEditor } from '../../../src/features/content/document/editor/blocks.ts';
import type { PMNode } from '../../../src/features/content/document/editor/editor-json.ts';

/*
 * A document's editor JSON, kept per document object: the page view converts the shown page ahead of a click on
 * "Edit" (warm-up.ts), and the editor then opens from it (DocumentSync.content). Kept apart from the warm-up, which
 * reaches the editor's extensions: the editor's node views reach DocumentSync.
 */

const converted = new WeakMap<Document, PMNode>();

/** The editor JSON of a document: converted ahead when it could be. */
export function editorContentOf(document: Document): PMNode {
  let content = converted.get(document);
  if (!content) {
    content = toEditor(document);
    converted.set(document, content);
  }
  return content;
}
