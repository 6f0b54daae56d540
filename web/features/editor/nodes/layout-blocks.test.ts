import assert from 'node:assert/strict';
import { test } from 'node:test';
import { getSchema } from '@tiptap/core';
import { Node } from '@tiptap/pm/model';
import { EditorState, TextSelection, type Command } from '@tiptap/pm/state';
import { schemaExtensions } from '../../../../src/features/content/document/editor/schema.ts';
import { canAddColumn, canRemoveColumn, columnTracks, layoutFitsIn, newColumns, newStepper, newUpdates, tagsFromText, tagsText, updateDay } from './layout-blocks.ts';
import { backspaceAtEdge, enterAtEdge } from './layout-keys.ts';

const schema = getSchema(schemaExtensions);

test('columns share the row as GitBook\'s reader shares it', () => {
  assert.equal(columnTracks([undefined, undefined]), 'minmax(0, 50fr) minmax(0, 50fr)');
  assert.equal(columnTracks([{ value: 30, unit: '%' }, undefined]), 'minmax(0, 30fr) minmax(0, 70fr)');
  assert.equal(columnTracks([{ value: 50, unit: '%' }, undefined, undefined]), 'minmax(0, 50fr) minmax(0, 25fr) minmax(0, 25fr)');
  assert.equal(columnTracks([240, undefined]), 'minmax(0, 50fr) minmax(0, 50fr)', 'a width in pixels is not read, as in GitBook');
  assert.equal(columnTracks([{ value: 60, unit: '%' }, { value: 60, unit: '%' }, undefined]), 'repeat(3, minmax(0, 1fr))', 'widths that leave nothing: equal parts');
});

test('a columns block has two or three columns', () => {
  assert.deepEqual([1, 2, 3].map(canAddColumn), [true, true, false]);
  assert.deepEqual([2, 3, 4].map(canRemoveColumn), [false, true, true]);
});

test('a layout block is not put where GitBook does not take it: no stepper in a step, no columns in a column, none in an update', () => {
  assert.equal(layoutFitsIn('stepper', ['doc', 'stepper', 'stepperStep', 'paragraph']), false);
  assert.equal(layoutFitsIn('stepper', ['doc', 'columns', 'column', 'paragraph']), true);
  assert.equal(layoutFitsIn('columns', ['doc', 'columns', 'column', 'stepper', 'stepperStep', 'paragraph']), false);
  assert.equal(layoutFitsIn('updates', ['doc', 'updates', 'update', 'hint', 'paragraph']), false);
  assert.equal(layoutFitsIn('columns', ['doc', 'hint', 'paragraph']), true);
});

test('an update\'s tags are written as one line and read back, keeping what each reference had', () => {
  const tags = [{ kind: 'tag', tag: 'beta', space: 's1' }];
  assert.equal(tagsText(tags), 'beta');
  assert.deepEqual(tagsFromText('beta, api , beta,', tags), [{ kind: 'tag', tag: 'beta', space: 's1' }, { kind: 'tag', tag: 'api' }]);
  assert.equal(tagsFromText(' , ', tags), undefined);
  assert.equal(updateDay('2025-12-25T10:00:00.000Z'), '2025-12-25');
  assert.equal(updateDay(undefined), '');
});

test('the blocks the `/` menu inserts are valid for the editor\'s schema', () => {
  for (const json of [newStepper(), newColumns(), newUpdates('2026-01-02')]) Node.fromJSON(schema, json).check();
});

/** A document of blocks, the caret at the `n`th empty paragraph (or at the start of the `n`th paragraph). */
function at(blocks: unknown[], n: number): EditorState {
  const doc = Node.fromJSON(schema, { type: 'doc', content: blocks });
  let seen = -1;
  let caret = 0;
  doc.descendants((node, pos) => {
    if (node.type.name === 'paragraph' && ++seen === n) caret = pos + 1;
    return seen < n;
  });
  return EditorState.create({ doc, selection: TextSelection.create(doc, caret) });
}
const run = (state: EditorState, command: Command) => {
  let next = state;
  const handled = command(state, (tr) => (next = state.apply(tr)));
  return { handled, next, shape: JSON.stringify(shapeOf(next.doc)), caretIn: next.selection.$from.node(-1).type.name };
};
const shapeOf = (node: Node): unknown => (node.isTextblock ? node.textContent || '_' : { [node.type.name]: node.content.content.map(shapeOf) });
const para = (text?: string) => ({ type: 'paragraph', content: text ? [{ type: 'text', text }] : [] });
const step = (...lines: unknown[]) => ({ type: 'stepperStep', content: lines });
const column = (...lines: unknown[]) => ({ type: 'column', content: lines });

test('Enter on an empty last line of a step starts the next step; in an empty last step, leaves the stepper', () => {
  const next = run(at([{ type: 'stepper', content: [step(para('one'), para())] }], 1), enterAtEdge);
  assert.equal(next.shape, '{"doc":[{"stepper":[{"stepperStep":["one"]},{"stepperStep":["_"]}]}]}');
  assert.equal(next.caretIn, 'stepperStep');
  const out = run(next.next, enterAtEdge);
  assert.equal(out.shape, '{"doc":[{"stepper":[{"stepperStep":["one"]}]},"_"]}');
  assert.equal(out.caretIn, 'doc');
  assert.equal(run(at([{ type: 'stepper', content: [step(para(), para('two'))] }], 0), enterAtEdge).handled, false, 'an empty line before others: a new line');
  assert.equal(run(at([{ type: 'columns', content: [column(para('a'), para()), column(para('b'))] }], 1), enterAtEdge).handled, false, 'columns keep their lines');
});

test('Backspace at the start of a column goes to the column before; at the start of an empty block, removes it', () => {
  const back = run(at([{ type: 'columns', content: [column(para('a')), column(para('b'))] }], 1), backspaceAtEdge);
  assert.equal(back.shape, '{"doc":[{"columns":[{"column":["a"]},{"column":["b"]}]}]}');
  assert.equal(back.next.selection.from, 4, 'the caret after "a"');
  const gone = run(at([{ type: 'updates', content: [{ type: 'update', content: [para()] }] }], 0), backspaceAtEdge);
  assert.equal(gone.shape, '{"doc":["_"]}');
  const kept = run(at([para('above'), { type: 'stepper', content: [step(para('one'))] }], 1), backspaceAtEdge);
  assert.equal(kept.handled, true);
  assert.equal(kept.shape, '{"doc":["above",{"stepper":[{"stepperStep":["one"]}]}]}', 'a first step with text stays');
  assert.equal(run(at([{ type: 'stepper', content: [step(para('one')), step(para('two'))] }], 1), backspaceAtEdge).handled, false, 'a later step joins the one before (ProseMirror)');
});
