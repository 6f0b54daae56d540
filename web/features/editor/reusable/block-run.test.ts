import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { getSchema } from '@tiptap/core';
import { Node } from '@tiptap/pm/model';
import { EditorState, NodeSelection, TextSelection } from '@tiptap/pm/state';
import { toEditor } from '../../../../src/features/content/document/editor/blocks.ts';
import { schemaExtensions } from '../../../../src/features/content/document/editor/schema.ts';
import type { Document, FlowBlock } from '../../../../src/features/content/document/types.ts';
import { blocksToReuse } from './block-run.ts';

const schema = getSchema(schemaExtensions);
const text = (value: string) => ({ object: 'text', leaves: [{ object: 'leaf', text: value, marks: [] }] });
const paragraph = (key: string, value: string) => ({ object: 'block', type: 'paragraph', key, data: {}, nodes: [text(value)] }) as unknown as FlowBlock;
const list = (key: string, ...items: [string, string][]) =>
  ({ object: 'block', type: 'list-unordered', key, data: {}, nodes: items.map(([k, v]) => ({ object: 'block', type: 'list-item', key: k, data: {}, nodes: [paragraph(`${k}p`, v)] })) }) as unknown as FlowBlock;
const open = (...nodes: FlowBlock[]) => EditorState.create({ schema, doc: Node.fromJSON(schema, toEditor({ object: 'document', data: {}, nodes } as Document)) });
/** Where the `index`th top-level block starts. */
const topAt = (state: EditorState, index: number) => {
  let pos = 0;
  for (let i = 0; i < index; i++) pos += state.doc.child(i).nodeSize;
  return pos;
};
const keysIn = (state: EditorState, run: { from: number; to: number } | null) => {
  const keys: string[] = [];
  // The top level only: a list's items are inside it, not made reusable on their own.
  if (run) {
    state.doc.nodesBetween(run.from, run.to, (node) => {
      if (node.attrs.block?.key) keys.push(node.attrs.block.key);
      return false;
    });
  }
  return keys;
};

describe('the blocks made into reusable content', () => {
  const state = open(paragraph('a', 'Alpha'), paragraph('b', 'Beta'), list('l', ['i1', 'One'], ['i2', 'Two']), paragraph('c', 'Gamma'));
  const select = (from: number, to: number) => state.apply(state.tr.setSelection(TextSelection.create(state.doc, from, to)));

  test('those the selected text touches, whole', () => {
    const partly = select(topAt(state, 0) + 3, topAt(state, 1) + 2);
    assert.deepEqual(keysIn(partly, blocksToReuse(partly)), ['a', 'b']);
    const caret = select(topAt(state, 1) + 2, topAt(state, 1) + 2);
    assert.deepEqual(keysIn(caret, blocksToReuse(caret)), ['b']);
  });

  test('a block inside a list takes the whole list: only whole blocks of the page are replaced', () => {
    const inItem = select(topAt(state, 2) + 4, topAt(state, 2) + 5);
    assert.deepEqual(keysIn(inItem, blocksToReuse(inItem)), ['l']);
    const across = select(topAt(state, 1) + 2, topAt(state, 2) + 4);
    assert.deepEqual(keysIn(across, blocksToReuse(across)), ['b', 'l']);
  });

  test('the block menu\'s block when the selection is elsewhere, the selection when it holds that block', () => {
    const inAlpha = select(2, 2);
    assert.deepEqual(keysIn(inAlpha, blocksToReuse(inAlpha, topAt(state, 3))), ['c']);
    const both = select(topAt(state, 0) + 2, topAt(state, 1) + 2);
    assert.deepEqual(keysIn(both, blocksToReuse(both, topAt(state, 1))), ['a', 'b']);
    const selected = state.apply(state.tr.setSelection(NodeSelection.create(state.doc, topAt(state, 2))));
    assert.deepEqual(keysIn(selected, blocksToReuse(selected)), ['l']);
  });
});
