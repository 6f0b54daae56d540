import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
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

  test('property: after any run of splits, copies, moves, deletions, undos and redos, every key is held once', () => {
    // The count of keys follows the blocks each change replaced (unique-keys.ts); a whole walk of the document
    // after every step says whether it followed them right.
    const step = fc.oneof(
      fc.record({ kind: fc.constant('split' as const), at: fc.nat() }),
      fc.record({ kind: fc.constant('copy' as const), block: fc.nat(), to: fc.nat() }),
      fc.record({ kind: fc.constant('move' as const), block: fc.nat(), to: fc.nat() }),
      fc.record({ kind: fc.constant('delete' as const), block: fc.nat() }),
      fc.record({ kind: fc.constant('type' as const), at: fc.nat() }),
      fc.constant({ kind: 'undo' as const }),
      fc.constant({ kind: 'redo' as const }),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 25 }), (steps) => {
        let state = open(doc(...['Alpha one.', 'Beta two.', 'Gamma three.', 'Delta four.'].map((words, i) => paragraph(`P${i}`, text(`T${i}`, words)))));
        const blockStart = (i: number) => {
          let at = 0;
          for (let n = 0; n < i; n += 1) at += state.doc.child(n).nodeSize;
          return at;
        };
        /** A position inside some paragraph's text. */
        const inText = (n: number) => {
          const places: number[] = [];
          state.doc.descendants((node, pos) => {
            if (node.isText) for (let k = 0; k <= node.text!.length; k += 1) places.push(pos + k);
          });
          return places.length > 0 ? places[n % places.length]! : undefined;
        };
        for (const s of steps) {
          const blocks = state.doc.childCount;
          if (s.kind === 'undo') undo(state, (tr) => (state = state.apply(tr)));
          else if (s.kind === 'redo') redo(state, (tr) => (state = state.apply(tr)));
          else if (s.kind === 'split') {
            const at = inText(s.at);
            if (at !== undefined) state = edit(state, (tr) => tr.split(at));
          } else if (s.kind === 'type') {
            // Typing copies no key: the check appends nothing (a count that drifted would append an empty change).
            const at = inText(s.at);
            if (at === undefined) continue;
            const applied = state.applyTransaction(state.tr.insertText('x', at));
            assert.equal(applied.transactions.length, 1, 'nothing appended to a key typed');
            state = applied.state;
          } else if (s.kind === 'copy') {
            const node = state.doc.child(s.block % blocks);
            state = edit(state, (tr) => tr.insert(blockStart(s.to % (blocks + 1)), node.copy(node.content)));
          } else if (s.kind === 'move' && blocks > 1) {
            const from = s.block % blocks;
            const node = state.doc.child(from);
            state = edit(state, (tr) => {
              tr.delete(blockStart(from), blockStart(from) + node.nodeSize);
              const to = s.to % blocks;
              let at = 0;
              for (let n = 0; n < to; n += 1) at += tr.doc.child(n).nodeSize;
              tr.insert(at, node);
            });
          } else if (s.kind === 'delete' && blocks > 1) {
            const from = s.block % blocks;
            state = edit(state, (tr) => tr.delete(blockStart(from), blockStart(from) + state.doc.child(from).nodeSize));
          }
          assertUnique(documentOf(state));
        }
      }),
      { numRuns: 150 },
    );
  });
});
