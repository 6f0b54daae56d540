import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { getSchema } from '@tiptap/core';
import { Node } from '@tiptap/pm/model';
import { EditorState } from '@tiptap/pm/state';
import { fromEditor, toEditor } from '../../../../src/features/content/document/editor/blocks.ts';
import type { PMNode } from '../../../../src/features/content/document/editor/editor-json.ts';
import { schemaExtensions } from '../../../../src/features/content/document/editor/schema.ts';
import type { Document, FlowBlock } from '../../../../src/features/content/document/types.ts';
import { moveBlock } from './move-block.ts';

const schema = getSchema(schemaExtensions);
const text = (value: string) => ({ object: 'text', leaves: [{ object: 'leaf', text: value, marks: [] }] });
const paragraph = (key: string, value: string) => ({ object: 'block', type: 'paragraph', key, data: {}, nodes: [text(value)] }) as unknown as FlowBlock;
const list = (key: string, ...items: [string, string][]) =>
  ({ object: 'block', type: 'list-unordered', key, data: {}, nodes: items.map(([k, v]) => ({ object: 'block', type: 'list-item', key: k, data: {}, nodes: [paragraph(`${k}p`, v)] })) }) as unknown as FlowBlock;

const open = (...nodes: FlowBlock[]) => EditorState.create({ schema, doc: Node.fromJSON(schema, toEditor({ object: 'document', data: {}, nodes } as Document)) });
const read = (state: EditorState) => fromEditor(state.doc.toJSON() as PMNode);
/** Where the `index`th child of the top level starts. */
const topAt = (state: EditorState, index: number) => {
  let pos = 0;
  for (let i = 0; i < index; i++) pos += state.doc.child(i).nodeSize;
  return pos;
};
const keysOf = (nodes: readonly { key?: string }[]) => nodes.map((n) => n.key);

describe('moving a block', () => {
  test('up and down among its neighbours, keeping its key and content', () => {
    const state = open(paragraph('a', 'A'), list('l', ['i1', 'One'], ['i2', 'Two']), paragraph('c', 'C'));
    const down = state.apply(moveBlock(state, topAt(state, 0), 'down')!);
    assert.deepEqual(keysOf(read(down).nodes), ['l', 'a', 'c']);
    const up = down.apply(moveBlock(down, topAt(down, 2), 'up')!);
    assert.deepEqual(keysOf(read(up).nodes), ['l', 'c', 'a']);
    assert.deepEqual(JSON.stringify(read(up).nodes.find((n) => n.key === 'l')), JSON.stringify(read(state).nodes.find((n) => n.key === 'l')));
  });

  test('inside its parent: a list item among its list items', () => {
    const state = open(list('l', ['i1', 'One'], ['i2', 'Two'], ['i3', 'Three']));
    const second = 1 + state.doc.child(0).child(0).nodeSize;
    const moved = state.apply(moveBlock(state, second, 'down')!);
    const items = (read(moved).nodes[0] as unknown as { nodes: { key: string }[] }).nodes;
    assert.deepEqual(keysOf(items), ['i1', 'i3', 'i2']);
  });

  test('not past the first or the last', () => {
    const state = open(paragraph('a', 'A'), paragraph('b', 'B'));
    assert.equal(moveBlock(state, topAt(state, 0), 'up'), null);
    assert.equal(moveBlock(state, topAt(state, 1), 'down'), null);
  });
});
