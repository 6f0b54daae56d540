import type { TableJson } from './table-edit.ts';

/*
 * A table's columns by type and its view, on the block's JSON (GitBook's `DocumentTableDefinition*`,
 * `DocumentTableViewGrid`/`Cards`): a column's type changed with its values converted, a cell's value set, a select's
 * option added, the view switched between a grid and cards. Everything else the block holds is kept as it was.
 *
 * A conversion keeps what reads the same in the new type: a text "42" becomes the number 42, any value becomes the
 * text a reader sees of it, "yes" a ticked checkbox. A value with no meaning in the new type (the text "soon" as a
 * number, a page reference as a file) is emptied, never its record: the rows all stay, and the conversion counts
 * the values it could not carry (`dropped`) so the person is told and can undo.
 */

export const COLUMN_TYPES = ['text', 'number', 'checkbox', 'rating', 'select', 'users', 'files', 'image', 'content-ref'] as const;
export type ColumnType = (typeof COLUMN_TYPES)[number];

export const COLUMN_TYPE_NAMES: Record<ColumnType, string> = {
  text: 'Text', number: 'Number', checkbox: 'Checkbox', rating: 'Rating', select: 'Select', users: 'Users', files: 'Files', image: 'Image', 'content-ref': 'Link',
};

type Json = Record<string, unknown>;
type Definition = TableJson['data']['definition'][string];
type Fragment = TableJson['fragments'][number];
interface SelectOption { value: string; label: string; color: string }

/** A rating column's stars when GitBook's `max` is missing or out of its range (the reader's default). */
export const ratingMax = (definition: Json): number => (typeof definition.max === 'number' && definition.max > 0 && definition.max <= 10 ? definition.max : 5);

export const selectOptions = (definition: Json): SelectOption[] =>
  Array.isArray(definition.options) ? (definition.options as unknown[]).filter((o): o is SelectOption => !!o && typeof o === 'object' && typeof (o as Json).value === 'string') : [];

/** The colours new options take in turn (GitBook's select options each carry one). */
const OPTION_COLORS = ['#3b82f6', '#10b981', '#f59e0b', '#ef4444', '#8b5cf6', '#ec4899', '#64748b'];

/** The fields a column of `type` needs beyond its id and title (GitBook's definitions), as a new column has them. */
function definitionFor(column: Definition, type: ColumnType): Definition {
  const base = { id: column.id, title: column.title, type };
  switch (type) {
    case 'text':
      return { ...base, textAlignment: column.textAlignment ?? 'left', ...(column.verticalAlignment ? { verticalAlignment: column.verticalAlignment } : {}) };
    case 'rating':
      return { ...base, max: ratingMax(column) };
    case 'select':
      return { ...base, multiple: column.multiple === true, options: column.type === 'select' ? selectOptions(column) : [] };
    case 'users':
      return { ...base, multiple: column.multiple === true };
    default:
      return base;
  }
}

/** The words of a text cell's fragment, its blocks on lines of their own. */
export function fragmentWords(fragment: Fragment | undefined): string {
  const blockText = (node: unknown): string => {
    if (!node || typeof node !== 'object') return '';
    const n = node as { object?: string; leaves?: { text?: string }[]; nodes?: unknown[] };
    if (n.object === 'text') return (n.leaves ?? []).map((l) => l.text ?? '').join('');
    return (n.nodes ?? []).map(blockText).join(n.object === 'block' && (n.nodes ?? []).some((c) => (c as Json)?.object === 'block') ? '\n' : '');
  };
  return ((fragment?.nodes as unknown[] | undefined) ?? []).map(blockText).join('\n');
}

/** What a reader reads of a value of `column`: its text, or undefined when it has none to read (a file, a page). */
export function readableText(column: Definition, value: unknown, fragments: Map<string, Fragment>): string | undefined {
  if (value === undefined || value === null || value === '') return '';
  switch (column.type) {
    case 'text':
      return typeof value === 'string' ? fragmentWords(fragments.get(value)) : '';
    case 'number':
    case 'rating':
      return typeof value === 'number' || typeof value === 'string' ? String(value) : '';
    case 'checkbox':
      return value === true ? 'Yes' : 'No';
    case 'select': {
      const options = selectOptions(column);
      return (Array.isArray(value) ? value : [value]).map((v) => options.find((o) => o.value === v)?.label ?? (typeof v === 'string' ? v : '')).filter(Boolean).join(', ');
    }
    case 'content-ref':
    case 'image': {
      const ref = (value as Json).ref && typeof (value as Json).ref === 'object' ? ((value as Json).ref as Json) : (value as Json);
      return ref.kind === 'url' && typeof ref.url === 'string' ? ref.url : undefined;
    }
    default:
      // Users and files are ids: no words a reader sees.
      return Array.isArray(value) && value.length === 0 ? '' : undefined;
  }
}

const YES = new Set(['yes', 'y', 'true', 'x', '✓', '✔', 'done', 'checked', 'on']);
const NO = new Set(['', 'no', 'n', 'false', 'unchecked', 'off', '0']);

/** A number in a text as people write it ("1,5", " 42 "), or null. */
export function parseNumber(text: string): number | null {
  const trimmed = text.trim().replace(/\s/g, '');
  if (!/^[-+]?(\d+([.,]\d*)?|[.,]\d+)(e[-+]?\d+)?$/i.test(trimmed)) return null;
  const n = Number(trimmed.replace(',', '.'));
  return Number.isFinite(n) ? n : null;
}

/** A file reference of an `image` value (a file id, a reference, or GitBook's `{ ref, objectFit }`), or undefined. */
function fileOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (!value || typeof value !== 'object') return undefined;
  const ref = (value as Json).ref && typeof (value as Json).ref === 'object' ? ((value as Json).ref as Json) : (value as Json);
  return ref.kind === 'file' && typeof ref.file === 'string' ? ref.file : undefined;
}

export interface ColumnChange { table: TableJson; dropped: number }

/**
 * The column `columnId` made of `type`, each record's value converted (see the head of this file). A text column's
 * cells get fragments of their own (`<record>-<column>`, as GitBook names them); a column that stops being text lets
 * its cells' fragments go.
 */
export function setColumnType(table: TableJson, columnId: string, type: ColumnType): ColumnChange {
  const column = table.data.definition[columnId];
  if (!column || column.type === type) return { table, dropped: 0 };
  const fragments = new Map(table.fragments.map((f) => [f.fragment, f]));
  const gone = new Set<string>();
  const added: Fragment[] = [];
  const options = type === 'select' ? [...selectOptions(column.type === 'select' ? column : {})] : [];
  let dropped = 0;
  const records: TableJson['data']['records'] = {};
  for (const [recordId, record] of Object.entries(table.data.records)) {
    const value = record.values[columnId];
    if (column.type === 'text' && typeof value === 'string' && fragments.has(value)) gone.add(value);
    const text = readableText(column, value, fragments);
    const converted = convert(type, column, value, text, options, recordId, table, added);
    // A file or a page as text: an empty cell, its reference not kept.
    if (type === 'text' && text === undefined) dropped++;
    if (converted === undefined) {
      if (text !== '') dropped++;
      const { [columnId]: _value, ...values } = record.values;
      records[recordId] = { ...record, values };
    } else records[recordId] = { ...record, values: { ...record.values, [columnId]: converted } };
  }
  const definition = definitionFor(column, type);
  if (type === 'select') definition.options = options;
  return {
    table: {
      ...table,
      data: { ...table.data, records, definition: { ...table.data.definition, [columnId]: definition } },
      fragments: [...table.fragments.filter((f) => !gone.has(f.fragment)), ...added],
    },
    dropped,
  };
}

/** One value in the new type, or undefined when it has none (the cell is left empty). */
function convert(type: ColumnType, column: Definition, value: unknown, text: string | undefined, options: SelectOption[], recordId: string, table: TableJson, added: Fragment[]): unknown {
  switch (type) {
    case 'text': {
      const name = freshFragmentName(table, added, `${recordId}-${column.id}`);
      added.push(textFragment(name, text ?? ''));
      return name;
    }
    case 'number':
      return text ? (parseNumber(text) ?? undefined) : undefined;
    case 'checkbox': {
      if (column.type === 'number' || column.type === 'rating') return typeof value === 'number' ? value !== 0 : undefined;
      const word = (text ?? '').trim().toLowerCase();
      return YES.has(word) ? true : NO.has(word) ? false : undefined;
    }
    case 'rating': {
      const n = text ? parseNumber(text) : column.type === 'checkbox' ? (value === true ? 1 : 0) : null;
      return n === null ? undefined : Math.max(0, Math.min(ratingMax({}), Math.round(n)));
    }
    case 'select': {
      const label = (text ?? '').trim();
      return label ? [optionFor(options, label).value] : undefined;
    }
    case 'content-ref':
      return text && /^(https?:|mailto:)/i.test(text.trim()) ? { kind: 'url', url: text.trim() } : undefined;
    case 'files': {
      if (column.type === 'image') {
        const file = fileOf(value);
        return file ? [file] : undefined;
      }
      return undefined;
    }
    case 'image': {
      if (column.type === 'files') {
        const first = Array.isArray(value) ? value.find((v) => typeof v === 'string') : undefined;
        return typeof first === 'string' ? { kind: 'file', file: first } : undefined;
      }
      return text && /^https?:/i.test(text.trim()) ? { kind: 'url', url: text.trim() } : undefined;
    }
    case 'users':
      return undefined;
  }
}

/** The option labelled `label`, added to `options` when there is none. */
function optionFor(options: SelectOption[], label: string): SelectOption {
  const found = options.find((o) => o.label === label);
  if (found) return found;
  const taken = new Set(options.map((o) => o.value));
  let n = options.length + 1;
  while (taken.has(`option-${n}`)) n++;
  const option = { value: `option-${n}`, label, color: OPTION_COLORS[options.length % OPTION_COLORS.length]! };
  options.push(option);
  return option;
}

function freshFragmentName(table: TableJson, added: Fragment[], base: string): string {
  const names = new Set([...table.fragments, ...added].map((f) => f.fragment));
  if (!names.has(base)) return base;
  let n = 1;
  while (names.has(`${base}-${n}`)) n++;
  return `${base}-${n}`;
}

/** A fragment of one paragraph holding `text` (lines as GitBook keeps them, in one leaf). */
export const textFragment = (name: string, text: string): Fragment => ({
  object: 'fragment',
  fragment: name,
  nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }] }],
});

/** A cell of a column that is not text set to `value` (undefined empties it). */
export function setCellValue(table: TableJson, recordId: string, columnId: string, value: unknown): TableJson {
  const record = table.data.records[recordId];
  if (!record) return table;
  const { [columnId]: _old, ...rest } = record.values;
  const values = value === undefined ? rest : { ...record.values, [columnId]: value };
  return { ...table, data: { ...table.data, records: { ...table.data.records, [recordId]: { ...record, values } } } };
}

/** A select column with an option labelled `label` (the existing one if it has it), and that option's value. */
export function addSelectOption(table: TableJson, columnId: string, label: string): { table: TableJson; value: string } | null {
  const column = table.data.definition[columnId];
  if (!column || column.type !== 'select' || !label.trim()) return null;
  const options = [...selectOptions(column)];
  const option = optionFor(options, label.trim());
  return { table: { ...table, data: { ...table.data, definition: { ...table.data.definition, [columnId]: { ...column, options } } } }, value: option.value };
}

/** A select cell given a new option labelled `label` (added to its column, or the one it has): one change. */
export function chooseNewOption(table: TableJson, recordId: string, columnId: string, label: string): TableJson {
  const added = addSelectOption(table, columnId, label);
  const record = table.data.records[recordId];
  if (!added || !record) return table;
  const current = record.values[columnId];
  const chosen = (Array.isArray(current) ? current : []).filter((v): v is string => typeof v === 'string' && v !== added.value);
  return setCellValue(added.table, recordId, columnId, table.data.definition[columnId]!.multiple === true ? [...chosen, added.value] : [added.value]);
}

/**
 * The table drawn as a grid or as cards. Cards name their cover and link columns among the hidden ones (an image,
 * a link), as GitBook's markdown marks them (`data-card-cover`, `data-card-target`); a grid sizes its columns as
 * new GitBook tables do. Settings of the other view go with it: they mean nothing to this one.
 */
export function setTableView(table: TableJson, type: 'grid' | 'cards'): TableJson {
  const view = table.data.view;
  if (view.type === type) return table;
  const hidden = Object.values(table.data.definition).filter((d) => !view.columns.includes(d.id));
  const next: Json =
    type === 'grid'
      ? { type, columns: view.columns, hideHeader: false, useNewSizing: true }
      : {
          type,
          columns: view.columns,
          cardSize: 'medium',
          ...withId('targetDefinition', hidden.find((d) => d.type === 'content-ref')),
          ...withId('coverDefinition', hidden.find((d) => d.type === 'image' || d.type === 'files')),
        };
  return { ...table, data: { ...table.data, view: next as TableJson['data']['view'] } };
}

const withId = (field: string, definition: Definition | undefined) => (definition ? { [field]: definition.id } : {});

/** A view setting (a card's cover or link column, the cards' size) set, or removed with undefined. */
export function setViewField(table: TableJson, field: string, value: unknown): TableJson {
  const view: Json = { ...table.data.view };
  if (value === undefined) delete view[field];
  else view[field] = value;
  return { ...table, data: { ...table.data, view: view as TableJson['data']['view'] } };
}
