import { getSchema } from '@tiptap/core';
import type { Schema } from '@tiptap/pm/model';
import { Node as PMNodeObject } from '@tiptap/pm/model';
import { prosemirrorToYXmlFragment, yXmlFragmentToProseMirrorRootNode } from '@tiptap/y-tiptap';
import * as Y from 'yjs';
import { flowToNode, fromEditor, toEditor } from '../content/document/editor/blocks.ts';
import type { PMNode } from '../content/document/editor/editor-json.ts';
import { withUniqueKeys } from '../content/document/keys.ts';
import { schemaExtensions } from '../content/document/editor/schema.ts';
import { mergeDocumentBlocks, type MergeableDocument } from '../content/document/merge-blocks.ts';
import type { Document } from '../content/document/types.ts';

/*
 * A page's Y.Doc <-> our document, through the editor's own lossless model (content/document/editor/) and the
 * ProseMirror binding's conversions, so the server reads and writes exactly what TipTap's Collaboration extension
 * in the browser does. The ProseMirror schema is built from the editor's schema extensions (they need no DOM).
 */

/** The Y.Doc field TipTap's Collaboration extension binds the editor to (its default `field`). */
export const EDITOR_FIELD = 'default';

let schema: Schema | undefined;
const editorSchema = () => (schema ??= getSchema(schemaExtensions));

const fragmentOf = (ydoc: Y.Doc) => ydoc.getXmlFragment(EDITOR_FIELD);

/** Whether the Y.Doc holds no content yet (a page opened for the first time, to seed from its document). */
export function isEmptyYDoc(ydoc: Y.Doc): boolean {
  return fragmentOf(ydoc).length === 0;
}

/**
 * The Y.Doc's content as our document. The document's own fields (`data`) are not in the Y.Doc (the editor binds
 * only the content): they are taken from `shell`, the document last read or written. A Y.Doc edited by an old
 * client may hold a key twice (copied to the new half of a split): the later copies get new keys, the same ones
 * at every store, so the page's document never holds a key twice and does not change when nothing was edited.
 */
export function documentOfYDoc(ydoc: Y.Doc, shell: Document): Document {
  const json = yXmlFragmentToProseMirrorRootNode(fragmentOf(ydoc), editorSchema()).toJSON() as PMNode;
  return withUniqueKeys(fromEditor({ ...json, attrs: { document: { ...shell, nodes: [] } } }));
}

/**
 * Runs `write` on a copy of the Y.Doc whose Yjs client id comes from `seed`, and applies what it wrote to the
 * Y.Doc. Servers seed a page's Y.Doc themselves (never a client), and with REDIS_URL two processes may each open
 * the page and seed it: made this way from the same state, their writes are the very same Yjs items, which Yjs
 * merges as one, where two random client ids made the page's content twice.
 */
export function writeAsOne(ydoc: Y.Doc, seed: string, write: (copy: Y.Doc) => void, origin?: unknown): void {
  const copy = new Y.Doc();
  copy.clientID = clientIdOf(seed);
  Y.applyUpdate(copy, Y.encodeStateAsUpdate(ydoc));
  const before = Y.encodeStateVector(copy);
  write(copy);
  Y.applyUpdate(ydoc, Y.encodeStateAsUpdate(copy, before), origin);
  copy.destroy();
}

/** A Yjs client id (an unsigned 32-bit number, as Yjs draws them) from a text: FNV-1a. */
function clientIdOf(seed: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < seed.length; i += 1) hash = Math.imul(hash ^ seed.charCodeAt(i), 0x01000193) >>> 0;
  return hash;
}

/**
 * Makes the Y.Doc's content `document`, changing only what differs (the binding diffs node by node), in one Yjs
 * transaction whose `origin` tells observers (the Redis extension, the store's debounce) where it came from.
 */
export function writeDocumentToYDoc(ydoc: Y.Doc, document: Document, origin?: unknown): void {
  const node = PMNodeObject.fromJSON(editorSchema(), toEditor(document));
  ydoc.transact(() => prosemirrorToYXmlFragment(node, fragmentOf(ydoc)), origin);
}

/**
 * Brings a write made outside the editors (the API, a merge) into the Y.Doc: what changed between `base` (the
 * document the Y.Doc was last in step with) and `written` is applied over the Y.Doc's current content, block by
 * block (content/document/merge-blocks.ts), so edits typed meanwhile in other blocks stay. Where both changed one
 * block, the written version wins: it is already the document of record. Returns whether the Y.Doc changed.
 */
export function applyWrittenDocument(ydoc: Y.Doc, base: Document, written: Document, origin?: unknown): boolean {
  const current = documentOfYDoc(ydoc, written);
  const merged = mergeDocumentBlocks(base as unknown as MergeableDocument, written as unknown as MergeableDocument, current as unknown as MergeableDocument);
  const next = merged.document as unknown as Document;
  if (sameBlocks(next, current)) return false;
  writeDocumentToYDoc(ydoc, next, origin);
  return true;
}

const sameBlocks = (a: Document, b: Document) => JSON.stringify(a.nodes) === JSON.stringify(b.nodes);

/**
 * After a write, gives the top-level blocks the server keyed (blocks made in an editor carry no key) their keys in
 * the Y.Doc, so the next write, and a merge with an API write, match them by key. Only the `block` attribute of
 * elements still present is set: text typed in them meanwhile stays.
 */
export function adoptKeys(elements: readonly Y.XmlElement[], sent: Document, stored: Document, origin?: unknown): void {
  if (elements.length !== stored.nodes.length || sent.nodes.length !== stored.nodes.length) return;
  const doc = elements[0]?.doc;
  if (!doc) return;
  doc.transact(() => {
    elements.forEach((element, i) => {
      const block = stored.nodes[i]!;
      if (sent.nodes[i]!.key !== undefined || block.key === undefined || element.parent === null) return;
      if (withoutKeys(sent.nodes[i]) !== withoutKeys(block)) return;
      if ((element as unknown as { _item?: { deleted: boolean } })._item?.deleted) return;
      const shell = flowToNode(block).attrs?.block;
      if (shell && typeof shell === 'object') element.setAttribute('block', shell as never);
    });
  }, origin);
}

const withoutKeys = (value: unknown) => JSON.stringify(value, (name, field: unknown) => (name === 'key' ? undefined : field));

/** The top-level elements of the Y.Doc now, in order (to pair them with the blocks a write keys). */
export function topLevelElements(ydoc: Y.Doc): Y.XmlElement[] {
  return fragmentOf(ydoc).toArray().filter((item): item is Y.XmlElement => (item as { nodeName?: unknown }).nodeName !== undefined);
}
