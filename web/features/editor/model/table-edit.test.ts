import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { addColumn, addRow, orderedRecords, removeColumn, removeRow, type TableJson } from './table-edit.ts';

const cell = (name: string, text: string) => ({ object: 'fragment', fragment: name, nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }] }] });

const table = (): TableJson => ({
  object: 'block',
  type: 'table',
  key: 'k1',
  isVoid: true,
  data: {
    view: { type: 'cards', columns: ['c1', 'c2'], cardSize: 'medium', targetDefinition: 'c3', coverDefinition: 'c2' },
    records: {
      r1: { orderIndex: 'a0', values: { c1: 'r1-c1', c2: 'r1-c2', c3: { kind: 'url', url: 'https://a' } } },
      r2: { orderIndex: 'a1', values: { c1: 'r2-c1', c2: 'r2-c2' } },
    },
    definition: {
      c1: { id: 'c1', title: 'Title', type: 'text' },
      c2: { id: 'c2', title: 'Text', type: 'text' },
      c3: { id: 'c3', title: '', type: 'content-ref' },
    },
  },
  fragments: [cell('r1-c1', 'A'), cell('r1-c2', 'a'), cell('r2-c1', 'B'), cell('r2-c2', 'b')],
});

describe('table rows and columns', () => {
  test('a row is added last, with an empty cell per text column; the rest is kept', () => {
    const before = table();
    const after = addRow(before);
    const rows = orderedRecords(after);
    assert.deepEqual(rows.map(([id]) => id), ['r1', 'r2', 'r3']);
    assert.ok(rows[2]![1].orderIndex > 'a1');
    assert.deepEqual(rows[2]![1].values, { c1: 'r3-c1', c2: 'r3-c2' });
    assert.deepEqual(after.fragments.slice(0, 4), before.fragments);
    assert.deepEqual(after.fragments.slice(4).map((f) => f.fragment), ['r3-c1', 'r3-c2']);
    assert.equal(after.key, 'k1');
    assert.deepEqual(before, table(), 'the input is not changed');
  });

  test('a removed row takes its cells with it', () => {
    const after = removeRow(table(), 'r1');
    assert.deepEqual(Object.keys(after.data.records), ['r2']);
    assert.deepEqual(after.fragments.map((f) => f.fragment), ['r2-c1', 'r2-c2']);
    const same = table();
    assert.equal(removeRow(same, 'nope'), same);
  });

  test('a column is added after the shown ones, with a cell in every row', () => {
    const after = addColumn(table());
    assert.deepEqual(after.data.view.columns, ['c1', 'c2', 'c4']);
    assert.deepEqual(after.data.definition.c4, { id: 'c4', title: 'Column 3', type: 'text', textAlignment: 'left' });
    assert.equal(after.data.records.r1!.values.c4, 'r1-c4');
    assert.deepEqual(after.data.records.r1!.values.c3, { kind: 'url', url: 'https://a' });
    assert.deepEqual(after.fragments.slice(4).map((f) => f.fragment), ['r1-c4', 'r2-c4']);
  });

  test('a removed column takes its cells and the view settings naming it; the last column stays', () => {
    const after = removeColumn(table(), 'c2');
    assert.deepEqual(after.data.view.columns, ['c1']);
    assert.equal('coverDefinition' in after.data.view, false);
    assert.equal(after.data.view.targetDefinition, 'c3');
    assert.equal('c2' in after.data.definition, false);
    assert.deepEqual(after.fragments.map((f) => f.fragment), ['r1-c1', 'r2-c1']);
    assert.equal(removeColumn(after, 'c1'), after);
  });

  test('names already taken are not reused', () => {
    const t = table();
    t.fragments.push(cell('r3-c1', 'orphan'));
    assert.equal(addRow(t).data.records.r3!.values.c1, 'r3-c1-1');
  });
});
