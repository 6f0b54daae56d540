import { generateKeyBetween } from 'fractional-indexing';

/*
 * Rows and columns of GitBook's table (a grid or cards) added and removed, on the block's JSON: rows are
 * `records` ordered by `orderIndex` (fractional indexes), columns are `definition`s listed in `view.columns`,
 * and a text cell's value names its fragment. Everything else the block holds is kept as it was.
 */

type Json = Record<string, unknown>;
export interface TableRecordJson { orderIndex: string; values: Record<string, unknown> }
export interface TableJson {
  data: { view: { columns: string[]; [field: string]: unknown }; records: Record<string, TableRecordJson>; definition: Record<string, { id: string; title: string; type: string; [field: string]: unknown }>; [field: string]: unknown };
  fragments: { fragment: string; [field: string]: unknown }[];
  [field: string]: unknown;
}

const emptyCell = (name: string) => ({
  object: 'fragment',
  fragment: name,
  nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: '', marks: [] }] }] }],
});

/** A name of the form `<prefix><n>` that `taken` does not hold. */
function freshId(prefix: string, taken: (id: string) => boolean): string {
  let n = 1;
  while (taken(`${prefix}${n}`)) n++;
  return `${prefix}${n}`;
}

/** A cell's fragment name, `<record>-<column>` as GitBook names them, made unique if need be. */
const cellName = (table: TableJson, record: string, column: string) => {
  const names = new Set(table.fragments.map((f) => f.fragment));
  const base = `${record}-${column}`;
  return names.has(base) ? freshId(`${base}-`, (name) => names.has(name)) : base;
};

/** The records in their order. */
export function orderedRecords(table: TableJson): [string, TableRecordJson][] {
  return Object.entries(table.data.records).sort(([, a], [, b]) => (a.orderIndex < b.orderIndex ? -1 : a.orderIndex > b.orderIndex ? 1 : 0));
}

/** A row at the end, an empty cell in each text column. */
export function addRow(table: TableJson): TableJson {
  const rows = orderedRecords(table);
  const id = freshId('r', (candidate) => candidate in table.data.records);
  const last = rows[rows.length - 1]?.[1].orderIndex ?? null;
  const values: Record<string, unknown> = {};
  const fragments = [...table.fragments];
  for (const column of table.data.view.columns) {
    if (table.data.definition[column]?.type !== 'text') continue;
    const name = cellName(table, id, column);
    values[column] = name;
    fragments.push(emptyCell(name));
  }
  return { ...table, data: { ...table.data, records: { ...table.data.records, [id]: { orderIndex: generateKeyBetween(last, null), values } } }, fragments };
}

/** Fragment names a record's values point at. */
const cellFragments = (table: TableJson, values: Record<string, unknown>) => {
  const names = new Set(table.fragments.map((f) => f.fragment));
  return new Set(Object.values(values).filter((value): value is string => typeof value === 'string' && names.has(value)));
};

export function removeRow(table: TableJson, recordId: string): TableJson {
  const record = table.data.records[recordId];
  if (!record) return table;
  const gone = cellFragments(table, record.values);
  const { [recordId]: _removed, ...records } = table.data.records;
  return { ...table, data: { ...table.data, records }, fragments: table.fragments.filter((f) => !gone.has(f.fragment)) };
}

/** A text column at the end (after the shown ones), an empty cell in each row. */
export function addColumn(table: TableJson): TableJson {
  const id = freshId('c', (candidate) => candidate in table.data.definition);
  const fragments = [...table.fragments];
  const records: Record<string, TableRecordJson> = {};
  for (const [recordId, record] of Object.entries(table.data.records)) {
    const name = cellName(table, recordId, id);
    fragments.push(emptyCell(name));
    records[recordId] = { ...record, values: { ...record.values, [id]: name } };
  }
  const title = `Column ${table.data.view.columns.length + 1}`;
  return {
    ...table,
    data: {
      ...table.data,
      view: { ...table.data.view, columns: [...table.data.view.columns, id] },
      records,
      definition: { ...table.data.definition, [id]: { id, title, type: 'text', textAlignment: 'left' } },
    },
    fragments,
  };
}

/** Removes a shown column (never the last one): its definition, its cells, and view settings naming it. */
export function removeColumn(table: TableJson, columnId: string): TableJson {
  if (!table.data.view.columns.includes(columnId) || table.data.view.columns.length <= 1) return table;
  const names = new Set(table.fragments.map((f) => f.fragment));
  const gone = new Set<string>();
  const records: Record<string, TableRecordJson> = {};
  for (const [recordId, record] of Object.entries(table.data.records)) {
    const { [columnId]: value, ...values } = record.values;
    if (typeof value === 'string' && names.has(value)) gone.add(value);
    records[recordId] = { ...record, values };
  }
  const { [columnId]: _definition, ...definition } = table.data.definition;
  const view: Json = { ...table.data.view, columns: table.data.view.columns.filter((c) => c !== columnId) };
  // A cards view names its target and cover columns; a grid its column widths.
  for (const [field, value] of Object.entries(view)) if (value === columnId) delete view[field];
  if (view.columnWidths && typeof view.columnWidths === 'object') {
    const { [columnId]: _width, ...widths } = view.columnWidths as Record<string, number>;
    view.columnWidths = widths;
  }
  return { ...table, data: { ...table.data, view: view as TableJson['data']['view'], records, definition }, fragments: table.fragments.filter((f) => !gone.has(f.fragment)) };
}
