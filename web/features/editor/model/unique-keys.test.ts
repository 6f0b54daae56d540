import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { getSchema } from '@tiptap/core';
import { history, redo, undo } from '@tiptap/pm/history';
import { Node } from '@tiptap/pm/model';
import { EditorState, type Transaction } from '@tiptap/pm/state';
import { fromEditor, toEditor } from '../../../../src/features/content/document/editor/blocks.ts';
import type { PMNode } from '../../../../src/features/content/document/editor/editor-json.ts';
import { schemaExtensions } from '../../../../src/features/content/document/editor/schema.ts';
import type { Document, FlowBlock } from '../../../../src/features/content/document/types.ts';
import { uniqueKeysPlugin } from './unique-keys.ts';

const schema = getSchema(schemaExtensions);

type Json = Record<string, unknown>;
const text = (key: string, value: string) => ({ object: 'text', key, leaves: [{ object: 'leaf', text: value, marks: [] }] });
const paragraph = (key: string, ...nodes: unknown[]) => ({ object: 'block', type: 'paragraph', key, data: {}, nodes }) as unknown as FlowBlock;
const doc = (...nodes: FlowBlock[]): Document => ({ object: 'document', data: {}, nodes });

/** The editor's state of a document, with the plugin (new keys n1, n2…) and undo history. */
function open(document: Document): EditorState {
  let n = 0;
  return EditorState.create({ schema, doc: Node.fromJSON(schema, toEditor(document)), plugins: [history(), uniqueKeysPlugin(() => `n${++n}`)] });
}

function edit(state: EditorState, change: (tr: Transaction) => void): EditorState {
  const tr = state.tr;
  change(tr);
  return state.applyTransaction(tr).state;
}

const documentOf = (state: EditorState): Document => fromEditor(state.doc.toJSON() as PMNode);

/** Every key of a document, in order. */
function keys(document: Document): string[] {
  const out: string[] = [];
  JSON.stringify(document, (name, value: unknown) => (name === 'key' ? void out.push(value as string) : value));
  return out;
}

function assertUnique(document: Document): void {
  const all = keys(document);
  assert.equal(new Set(all).size, all.length, all.join(' '));
}

/** The position just after the first occurrence of `text` in the state's document. */
function after(state: EditorState, value: string): number {
  let found = -1;
  state.doc.descendants((node, pos) => {
    if (found < 0 && node.isText && node.text!.includes(value)) found = pos + node.text!.indexOf(value) + value.length;
  });
  assert.ok(found >= 0, value);
  return found;
}

describe('unique keys in the editor', () => {
  test('Enter in the middle of a paragraph: the part after the caret gets new keys (block, text, link)', () => {
    const link = { object: 'inline', type: 'link', key: 'L', data: { ref: { kind: 'url', url: 'https://a' } }, nodes: [text('LT', 'a link here')] };
    let state = open(doc(paragraph('K', text('T', 'Alpha paragraph with '), link, text('T2', '.'))));
    state = edit(state, (tr) => tr.split(after(state, 'Alpha ')));
    state = edit(state, (tr) => tr.split(after(state, 'a link')));
    const document = documentOf(state);
    assertUnique(document);
    assert.deepEqual(document.nodes.map((b) => b.key), ['K', 'n1', 'n3']);
    assert.equal(((document.nodes[0] as Json).nodes as Json[])[0]!.key, 'T');
    const words = JSON.stringify(document).match(/"text":"[^"]+"/g)!.map((m) => m.slice(8, -1));
    assert.deepEqual(words, ['Alpha ', 'paragraph with ', 'a link', ' here', '.']);
  });

  test('Enter at the start of a list item: the item holding the text after the caret gets new keys', () => {
    const list = { object: 'block', type: 'list-unordered', key: 'U', data: {}, nodes: [{ object: 'block', type: 'list-item', key: 'I', data: {}, nodes: [paragraph('P', text('T', 'First item'))] }] };
    let state = open(doc(list as unknown as FlowBlock));
    state = edit(state, (tr) => tr.split(after(state, 'First item') - 'First item'.length, 2));
    const document = documentOf(state);
    assertUnique(document);
    const items = (document.nodes[0] as Json).nodes as Json[];
    assert.deepEqual(items.map((item) => item.key), ['I', 'n1']);
  });

  test('a duplicated table keeps no key of the original, which keeps all of its own', () => {
    const cell = { object: 'fragment', key: 'F', fragment: 'r1-c1', nodes: [paragraph('CP', text('CT', 'cell'))] };
    const table = {
      object: 'block', type: 'table', key: 'TB', isVoid: true,
      data: { view: { type: 'grid', columns: ['c1'], hideHeader: false }, records: { r1: { orderIndex: 'a0', values: { c1: 'r1-c1' } } }, definition: { c1: { id: 'c1', title: 'A', type: 'text' } } },
      fragments: [cell],
    };
    const original = doc(table as unknown as FlowBlock);
    let state = open(original);
    state = edit(state, (tr) => tr.insert(state.doc.content.size, state.doc.child(0).copy()));
    const document = documentOf(state);
    assertUnique(document);
    assert.deepEqual(document.nodes[0], original.nodes[0]);
    assert.deepEqual(keys({ ...document, nodes: [document.nodes[1]!] }), ['n1', 'n2', 'n3', 'n4']);
  });

  test('a copy dropped above its original (drag with the copy modifier) takes the new keys, not the original', () => {
    let state = open(doc(paragraph('A', text('AT', 'Above')), paragraph('K', text('T', 'Copied'))));
    state = edit(state, (tr) => tr.insert(0, state.doc.child(1).copy(state.doc.child(1).content)));
    const document = documentOf(state);
    assertUnique(document);
    assert.deepEqual(document.nodes.map((b) => b.key), ['n1', 'A', 'K']);
  });

  test("a duplicated code block's lines get new keys", () => {
    const code = { object: 'block', type: 'code', key: 'C', data: {}, nodes: [{ object: 'block', type: 'code-line', key: 'L1', data: {}, nodes: [text('LT1', 'let a = 1;')] }] };
    let state = open(doc(code as unknown as FlowBlock));
    state = edit(state, (tr) => tr.insert(state.doc.content.size, state.doc.child(0).copy(state.doc.child(0).content)));
    assertUnique(documentOf(state));
  });

  test('typing changes no key; undo of a split joins it back under its key, redo splits it with the same new key', () => {
    let state = open(doc(paragraph('K', text('T', 'Alpha paragraph.'))));
    state = edit(state, (tr) => tr.insertText('!', after(state, 'paragraph.')));
    assert.deepEqual(keys(documentOf(state)), ['K', 'T']);
    state = edit(state, (tr) => tr.split(after(state, 'Alpha ')));
    const split = keys(documentOf(state));
    assert.deepEqual(split, ['K', 'T', 'n1', 'n2']);
    undo(state, (tr) => (state = state.apply(tr)));
    assert.deepEqual(keys(documentOf(state)), ['K', 'T']);
    redo(state, (tr) => (state = state.apply(tr)));
    assert.deepEqual(keys(documentOf(state)), split);
  });
});
