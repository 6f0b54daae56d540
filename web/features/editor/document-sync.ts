import type { Node as PMNodeObject } from '@tiptap/pm/model';
import type { Document, FlowBlock } from '../../../src/features/content/document/types.ts';
import { fromEditor } from '../../../src/features/content/document/editor/blocks.ts';
import type { PMNode } from '../../../src/features/content/document/editor/editor-json.ts';
import { editorContentOf } from './editor-content.ts';

/**
 * Our document for the editor's current state, converting only the top-level blocks that changed. ProseMirror
 * nodes are immutable and a transaction reuses the ones it does not touch, so a node seen before maps to the
 * block it gave (or was read from): a block not edited comes back as the very object the editor was given.
 */
export class DocumentSync {
  private blocks = new WeakMap<PMNodeObject, FlowBlock>();
  private readonly document: Document;

  constructor(document: Document) {
    this.document = document;
  }

  /** The editor JSON to open, and (once ProseMirror has built it) `remember` pairs its nodes with our blocks. */
  content(): PMNode {
    return editorContentOf(this.document);
  }

  remember(doc: PMNodeObject): void {
    if (doc.childCount !== this.document.nodes.length) return;
    doc.forEach((node, _, i) => this.blocks.set(node, this.document.nodes[i]!));
  }

  read(doc: PMNodeObject): Document {
    const nodes = new Map<PMNode, PMNodeObject>();
    const json: PMNode = { type: 'doc', attrs: doc.attrs, content: [] };
    doc.forEach((node) => {
      const known = this.blocks.get(node);
      const child: PMNode = known ? { type: node.type.name } : (node.toJSON() as PMNode);
      nodes.set(child, node);
      json.content!.push(child);
    });
    const document = fromEditor(json, (child) => this.blocks.get(nodes.get(child)!));
    document.nodes.forEach((block, i) => this.blocks.set(doc.child(i), block));
    return document;
  }
}
