import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { Schema, type Node as PMNode } from '@tiptap/pm/model';
import { EditorState } from '@tiptap/pm/state';
import { Decoration, type DecorationSet } from '@tiptap/pm/view';
import { decorationsOf, mapDecorations, type FindInBlock } from './block-decorations.ts';

// Top-level blocks are paragraphs or boxes of paragraphs (as hints and steppers hold blocks).
const schema = new Schema({
  nodes: {
    doc: { content: 'block+' },
    paragraph: { group: 'block', content: 'text*' },
    box: { group: 'block', content: 'paragraph+' },
    text: {},
  },
});

/** A decoration per paragraph (its length and place in its parent) and a widget at its start. */
const find: FindInBlock = (block, at) => {
  const found: Decoration[] = [];
  const visit = (node: PMNode, pos: number, index: number, parent: PMNode | null) => {
    if (node.type.name !== 'paragraph') return;
    found.push(Decoration.node(pos, pos + node.nodeSize, {}, { what: `${node.content.size} ${index}/${parent?.childCount ?? 0}` }));
    found.push(Decoration.widget(pos + 1, () => document.createElement('span'), { key: `w${node.content.size}` }));
  };
  visit(block, at, 0, null);
  block.descendants((node, pos, parent, index) => visit(node, at + 1 + pos, index, parent));
  return found;
};

const listed = (set: DecorationSet, doc: PMNode) =>
  set
    .find(0, doc.content.size)
    .map((d) => `${d.from}-${d.to} ${JSON.stringify(d.spec)}`)
    .sort();

const paragraph = (text: string) => schema.node('paragraph', null, text ? [schema.text(text)] : []);
const start = schema.node('doc', null, [paragraph('alpha'), schema.node('box', null, [paragraph('one'), paragraph('two')]), paragraph(''), paragraph('omega')]);

/** Positions where text may go (inside paragraphs). */
function textPositions(doc: PMNode): number[] {
  const out: number[] = [];
  doc.descendants((node, pos) => {
    if (node.type.name === 'paragraph') for (let i = 0; i <= node.content.size; i++) out.push(pos + 1 + i);
  });
  return out;
}

const edit = fc.record({ kind: fc.constantFrom('type', 'delete', 'split', 'join', 'insert-block'), a: fc.nat(), b: fc.nat(), text: fc.string({ minLength: 1, maxLength: 4 }) });

describe('decorations kept by top-level block', () => {
  test('after any edits, the mapped decorations are those found again in the whole document', () => {
    fc.assert(
      fc.property(fc.array(edit, { minLength: 1, maxLength: 12 }), (edits) => {
        let state = EditorState.create({ schema, doc: start });
        let set = decorationsOf(state.doc, find);
        for (const e of edits) {
          const tr = state.tr;
          const positions = textPositions(state.doc);
          const at = positions[e.a % positions.length]!;
          try {
            if (e.kind === 'type') tr.insertText(e.text.replace(/[^a-z]/gi, 'x'), at);
            else if (e.kind === 'delete') tr.delete(Math.min(at, positions[e.b % positions.length]!), Math.max(at, positions[e.b % positions.length]!));
            else if (e.kind === 'split') tr.split(at);
            else if (e.kind === 'join') tr.join(tr.doc.resolve(at).before());
            else tr.insert(0, paragraph(e.text.replace(/[^a-z]/gi, 'y')));
          } catch {
            continue; // not an edit this document allows (a join where nothing joins)
          }
          state = state.apply(tr);
          set = mapDecorations(tr, set, find);
          assert.deepEqual(listed(set, state.doc), listed(decorationsOf(state.doc, find), state.doc));
        }
      }),
      { numRuns: 300 },
    );
  });

  test('a keystroke finds the decorations of its block only', () => {
    const state = EditorState.create({ schema, doc: start });
    const set = decorationsOf(state.doc, find);
    const searched: PMNode[] = [];
    const tr = state.tr.insertText('!', 3);
    mapDecorations(tr, set, (block, pos) => (searched.push(block), find(block, pos)));
    assert.deepEqual(searched.map((b) => b.textContent), ['al!pha']);
  });
});
