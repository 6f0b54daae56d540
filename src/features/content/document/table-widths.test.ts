import assert from 'node:assert/strict';
import { test } from 'node:test';
import { columnSizes, MIN_COLUMN_WIDTH, resizeColumn } from './table-widths.ts';

test('a grid without widths leaves the browser to size it, as do cards', () => {
  assert.equal(columnSizes({ type: 'grid', columns: ['a', 'b'] }, ['a', 'b']), null);
  assert.equal(columnSizes({ type: 'cards', columns: ['a'], columnWidths: { a: 100 } }, ['a']), null);
});

test('new sizing draws exact pixels, the table as wide as its columns', () => {
  assert.deepEqual(columnSizes({ type: 'grid', columns: ['a', 'b'], columnWidths: { a: 120.4, b: 300 }, useNewSizing: true }, ['a', 'b']), {
    columns: ['120px', '300px'],
    table: '420px',
  });
  assert.deepEqual(columnSizes({ type: 'grid', columns: ['a', 'b'], columnWidths: { a: 10 }, useNewSizing: true }, ['a', 'b']), {
    columns: [`${MIN_COLUMN_WIDTH}px`, '200px'],
    table: `${MIN_COLUMN_WIDTH + 200}px`,
  });
});

test('older tables draw shares scaled to fill the table', () => {
  assert.deepEqual(columnSizes({ type: 'grid', columns: ['a', 'b', 'c'], columnWidths: { a: 50, b: 150 } }, ['a', 'b', 'c']), {
    columns: ['16.67%', '50%', '33.33%'],
    table: '100%',
  });
});

test('dragging an edge fixes every shown column at its drawn width, in pixels from then on', () => {
  const view = { type: 'grid' as const, columns: ['a', 'b'], hideHeader: false, columnWidths: { a: 30, b: 70, hidden: 12 } };
  assert.deepEqual(resizeColumn(view, { a: 201.6, b: 470 }, 'a', 260.2), {
    type: 'grid',
    columns: ['a', 'b'],
    hideHeader: false,
    columnWidths: { a: 260, b: 470, hidden: 12 },
    useNewSizing: true,
  });
  assert.equal(resizeColumn(view, {}, 'b', 3).columnWidths?.b, MIN_COLUMN_WIDTH);
});
