import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { addSelectOption, chooseNewOption, fragmentWords, parseNumber, setCellValue, setColumnType, setTableView, setViewField } from './table-columns.ts';
import type { TableJson } from './table-edit.ts';

const cell = (name: string, text: string) => ({ object: 'fragment', fragment: name, nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }] }] });

/** Three rows: a text column of `texts`, an image column, a link column (hidden, as cards have them). */
const table = (texts: string[] = ['42', '1,5', 'soon']): TableJson => ({
  object: 'block',
  type: 'table',
  key: 'k1',
  isVoid: true,
  data: {
    view: { type: 'grid', columns: ['c1'], hideHeader: false, columnWidths: { c1: 120 }, useNewSizing: true },
    records: Object.fromEntries(texts.map((_, i) => [`r${i + 1}`, { orderIndex: `a${i}`, values: { c1: `r${i + 1}-c1`, c2: { kind: 'file', file: `f${i + 1}` }, c3: { kind: 'url', url: `https://example.org/${i + 1}` } } }])),
    definition: {
      c1: { id: 'c1', title: 'Amount', type: 'text', textAlignment: 'right' },
      c2: { id: 'c2', title: 'Cover', type: 'image' },
      c3: { id: 'c3', title: '', type: 'content-ref' },
    },
  },
  fragments: texts.map((text, i) => cell(`r${i + 1}-c1`, text)),
});

const values = (t: TableJson, column: string) => Object.values(t.data.records).map((r) => r.values[column]);

describe('a table column\'s type', () => {
  test('text becomes numbers where it reads as one; the others are emptied and counted, every record kept', () => {
    const before = table();
    const { table: after, dropped } = setColumnType(before, 'c1', 'number');
    assert.deepEqual(values(after, 'c1'), [42, 1.5, undefined]);
    assert.equal(dropped, 1);
    assert.deepEqual(Object.keys(after.data.records), ['r1', 'r2', 'r3']);
    assert.deepEqual(after.data.definition.c1, { id: 'c1', title: 'Amount', type: 'number' });
    assert.deepEqual(after.fragments, [], 'the text cells\' fragments go with them');
    assert.deepEqual(after.data.records.r1!.values.c2, before.data.records.r1!.values.c2, 'other columns are kept');
    assert.deepEqual(before, table(), 'the input is not changed');
  });

  test('numbers back to text keep their digits, in fragments named as GitBook names them', () => {
    const numbers = setColumnType(table(), 'c1', 'number').table;
    const { table: text, dropped } = setColumnType(numbers, 'c1', 'text');
    assert.equal(dropped, 0);
    assert.deepEqual(values(text, 'c1'), ['r1-c1', 'r2-c1', 'r3-c1']);
    assert.deepEqual(text.fragments.map((f) => fragmentWords(f as never)), ['42', '1.5', '']);
    assert.equal(text.data.definition.c1!.textAlignment, 'left');
  });

  test('yes and no words become a checkbox; a checkbox reads Yes or No as text', () => {
    const { table: boxes, dropped } = setColumnType(table(['yes', '', 'maybe']), 'c1', 'checkbox');
    assert.deepEqual(values(boxes, 'c1'), [true, false, undefined]);
    assert.equal(dropped, 1);
    assert.deepEqual(setColumnType(boxes, 'c1', 'text').table.fragments.map((f) => fragmentWords(f as never)), ['Yes', 'No', '']);
  });

  test('a rating is a whole number of stars within its maximum', () => {
    const { table: rated } = setColumnType(table(['3', '9', '2.6']), 'c1', 'rating');
    assert.deepEqual(values(rated, 'c1'), [3, 5, 3]);
    assert.equal(rated.data.definition.c1!.max, 5);
  });

  test('text becomes a select with an option per distinct text, and back to the options\' labels', () => {
    const { table: chosen } = setColumnType(table(['Beta', 'Stable', 'Beta']), 'c1', 'select');
    const options = chosen.data.definition.c1!.options as { value: string; label: string; color: string }[];
    assert.deepEqual(options.map((o) => o.label), ['Beta', 'Stable']);
    assert.ok(options.every((o) => o.color));
    assert.deepEqual(values(chosen, 'c1'), [[options[0]!.value], [options[1]!.value], [options[0]!.value]]);
    assert.deepEqual(setColumnType(chosen, 'c1', 'text').table.fragments.map((f) => fragmentWords(f as never)), ['Beta', 'Stable', 'Beta']);
  });

  test('a link keeps its address as text; text that is an address becomes a link', () => {
    const { table: text } = setColumnType(table(), 'c3', 'text');
    assert.deepEqual(text.fragments.slice(3).map((f) => fragmentWords(f as never)), ['https://example.org/1', 'https://example.org/2', 'https://example.org/3']);
    const { table: links, dropped } = setColumnType(table(['https://a.example', 'no']), 'c1', 'content-ref');
    assert.deepEqual(values(links, 'c1'), [{ kind: 'url', url: 'https://a.example' }, undefined]);
    assert.equal(dropped, 1);
  });

  test('an image column becomes files and back, keeping its files; an uploaded file has no text to keep', () => {
    const { table: files } = setColumnType(table(), 'c2', 'files');
    assert.deepEqual(values(files, 'c2'), [['f1'], ['f2'], ['f3']]);
    assert.deepEqual(values(setColumnType(files, 'c2', 'image').table, 'c2'), [{ kind: 'file', file: 'f1' }, { kind: 'file', file: 'f2' }, { kind: 'file', file: 'f3' }]);
    assert.equal(setColumnType(table(), 'c2', 'text').dropped, 3);
  });

  test('the same type changes nothing', () => {
    const before = table();
    assert.equal(setColumnType(before, 'c1', 'text').table, before);
  });
});

describe('a table\'s cells, options and view', () => {
  test('a cell is set and emptied', () => {
    const set = setCellValue(table(), 'r1', 'c4', true);
    assert.equal(set.data.records.r1!.values.c4, true);
    assert.equal('c4' in setCellValue(set, 'r1', 'c4', undefined).data.records.r1!.values, false);
  });

  test('a select gains an option once per label', () => {
    const chosen = setColumnType(table(['Beta']), 'c1', 'select').table;
    const added = addSelectOption(chosen, 'c1', 'Deprecated')!;
    assert.equal((added.table.data.definition.c1!.options as unknown[]).length, 2);
    assert.equal(addSelectOption(added.table, 'c1', 'Deprecated')!.value, added.value);
    assert.equal(addSelectOption(table(), 'c1', 'x'), null, 'a text column has no options');
  });

  test('a new option is added and chosen in one change: alone in a single select, beside the others in a multiple one', () => {
    const chosen = setColumnType(table(['Beta']), 'c1', 'select').table;
    const single = chooseNewOption(chosen, 'r1', 'c1', 'Stable');
    const options = single.data.definition.c1!.options as { value: string; label: string }[];
    assert.deepEqual(single.data.records.r1!.values.c1, [options[1]!.value]);
    const multiple = { ...chosen, data: { ...chosen.data, definition: { ...chosen.data.definition, c1: { ...chosen.data.definition.c1!, multiple: true } } } };
    assert.deepEqual(chooseNewOption(multiple, 'r1', 'c1', 'Stable').data.records.r1!.values.c1, [options[0]!.value, options[1]!.value]);
  });

  test('a grid becomes cards naming its hidden image and link columns, and a grid again', () => {
    const cards = setTableView(table(), 'cards');
    assert.deepEqual(cards.data.view, { type: 'cards', columns: ['c1'], cardSize: 'medium', targetDefinition: 'c3', coverDefinition: 'c2' });
    assert.deepEqual(setTableView(cards, 'grid').data.view, { type: 'grid', columns: ['c1'], hideHeader: false, useNewSizing: true });
    assert.deepEqual(setViewField(cards, 'coverDefinition', undefined).data.view, { type: 'cards', columns: ['c1'], cardSize: 'medium', targetDefinition: 'c3' });
  });

  test('numbers are read as people write them', () => {
    assert.equal(parseNumber(' 12 '), 12);
    assert.equal(parseNumber('-0,25'), -0.25);
    assert.equal(parseNumber('1e3'), 1000);
    assert.equal(parseNumber('12 apples'), null);
    assert.equal(parseNumber(''), null);
  });
});
