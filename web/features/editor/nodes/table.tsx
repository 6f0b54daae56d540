import { NodeViewWrapper, type NodeViewProps } from '@tiptap/react';
import { useContext, useRef, useState } from 'react';
import { addColumn, addRow, orderedRecords, removeColumn, removeRow, type TableJson as EditableTable } from '../model/table-edit.ts';
import type { FlowBlock, Table, TableValue } from '../../../../src/features/content/document/types.ts';
import { cardsLayout, valueRefs } from '../../../../src/features/content/document/table-cards.ts';
import { ControlsShown } from '../controls-shown.ts';
import { useEditorFile, type Ref } from '../files.ts';
import { blockOf } from './block-data.ts';
import { Picture, refLabel, selectBlock } from './media.tsx';
import { useRefName } from '../../pages/ref-titles.ts';
import { RichCell } from './rich-cell.tsx';
import { ColumnResizer } from './column-resizer.tsx';
import { columnSizes, resizeColumn, type GridSizing } from '../../../../src/features/content/document/table-widths.ts';
import { faLink, faPlus, faSliders, faXmark } from '@fortawesome/free-solid-svg-icons';
import { Button, IconButton } from '../../../ui/button.tsx';
import { Icon } from '../../../ui/icon.tsx';
import { Tooltip } from '../../../ui/tooltip.tsx';
import { chooseNewOption, COLUMN_TYPE_NAMES, setCellValue, setColumnType, type ColumnType } from '../model/table-columns.ts';
import { PlainCell, CheckboxCell, ColumnMenu, NumberCell, RatingCell, SelectCell } from './table-cells.tsx';

type Definition = { id: string; title: string; type: string; [field: string]: unknown };
type Fragment = { fragment: string; nodes: { type: string; nodes?: { object: string; leaves?: { text: string; marks?: unknown[] }[] }[] }[] };
type TableJson = { data: { view: GridSizing & { coverDefinition?: string; targetDefinition?: string; cardSize?: string }; records: Record<string, { orderIndex: string; values: Record<string, unknown> }>; definition: Record<string, Definition> }; fragments: Fragment[] };

/** A cell's text when it is one paragraph of plain text (what a text input can edit without loss), else undefined. */
export function plainCellText(fragment: Fragment | undefined): string | undefined {
  if (!fragment || fragment.nodes.length !== 1 || fragment.nodes[0]!.type !== 'paragraph') return undefined;
  const nodes = fragment.nodes[0]!.nodes ?? [];
  if (!nodes.every((n) => n.object === 'text' && (n.leaves ?? []).every((l) => (l.marks ?? []).length === 0))) return undefined;
  return nodes.map((n) => (n.leaves ?? []).map((l) => l.text).join('')).join('');
}

/** A cell's text, shown until the cell is edited (and for cells of other types, which are kept as they are). */
const fragmentText = (fragment: Fragment): string => JSON.stringify(fragment.nodes).match(/"text":"((?:[^"\\]|\\.)*)"/g)?.map((m) => JSON.parse(m.slice(7)) as string).join('') ?? '';

/** An image or a file of a `files` or `image` cell (a card's cover): its picture, or its name linking to it. */
function CellFile({ refJson, image }: { refJson: Ref; image: boolean }) {
  const file = useEditorFile(refJson.kind === 'file' ? refJson.file : undefined);
  if (image || refJson.kind !== 'file' || file?.contentType.startsWith('image/')) return <Picture refJson={refJson} alt={file?.name ?? ''} width={undefined} className="table-image" />;
  return file ? <a href={file.downloadURL} download={file.name}>{file.name}</a> : <span className="qe-readonly">{file === null ? `No file ${refJson.file}` : 'Loading the file…'}</span>;
}

/** The files or links of a files, image or cover value, read as the reader and the page view read them. */
const cellRefsOf = (value: unknown): Ref[] => valueRefs(value as TableValue);

/** The width of the column of row and column controls a table has while it is edited (editor.css: .qe-table-actions). */
const ACTIONS_WIDTH = '1.75rem';

/** Why a cell of a kind the editor does not edit yet shows as it is (the kit's tooltip, on hover). */
const KEPT = 'Kept as it is: not editable here yet';

function CellFiles({ value, image }: { value: unknown; image: boolean }) {
  return (
    <Tooltip content={KEPT}>
      <span className="qe-table-files">
        {cellRefsOf(value).map((ref, i) => <CellFile key={i} refJson={ref} image={image} />)}
      </span>
    </Tooltip>
  );
}

/**
 * GitBook's table, a grid or cards (columns in `definition`, rows in `records`, text cells as fragments). A grid is
 * an HTML table; cards are the page view's list of cards (reader.css: `table-cards`), each with its cover picture
 * (`coverDefinition`, an image column) over its listed columns, its link (`targetDefinition`) named in its tools.
 * Column titles and text cells are edited here (plain text in an input, rich text in an editor of its own:
 * rich-cell.tsx), cells of other types by their type (table-cells.tsx), a column's type set from its menu
 * (model/table-columns.ts), rows and columns added and removed, a grid's columns resized by dragging their header's
 * edge (drawn at their widths as the reader draws them: table-widths.ts). Users, files and links are shown and
 * kept as they are.
 */
export function TableView(props: NodeViewProps & { spaceId: string }) {
  const latest = useRef(props);
  latest.current = props;
  // The rich cell being edited stays one while it is edited, even once its text is plain (its marks taken off):
  // an input in its place would end the editing under the person's fingers.
  const [richEditing, setRichEditing] = useState<string | null>(null);
  // What a row or column just added puts the caret in (its first cell, its title), as it is drawn: the keys typed
  // right after the click land there.
  const [fresh, setFresh] = useState<string | null>(null);
  // A column's edge being dragged: the columns' widths drawn when it was taken, and where it is now.
  const [dragging, setDragging] = useState<{ id: string; width: number; measured: Record<string, number> } | null>(null);
  // What the last change of a column's type could not carry over, said until the next one.
  const [notice, setNotice] = useState('');
  const headRow = useRef<HTMLTableRowElement>(null);
  // Its buttons and menus come the frame after the page (controls-shown.ts); its cells are editable from the start.
  const controlsShown = useContext(ControlsShown);
  const takesCaret = (name: string) =>
    fresh === name
      ? (element: HTMLInputElement | HTMLTextAreaElement | null) => {
          if (!element) return;
          element.focus();
          element.select();
          setFresh(null);
        }
      : undefined;
  const table = blockOf(props) as unknown as TableJson;
  // Only a table whose data was lost on the way in (HTML pasted from elsewhere that claims to be one) has none.
  if (!table?.data?.view || !table.data.definition || !table.data.records) {
    return (
      <NodeViewWrapper as="div" className="qe-table" data-quire="table" role="group" aria-label="Table">
        <p className="qe-failure">This table has no rows or columns to show: undo, or delete the block.</p>
      </NodeViewWrapper>
    );
  }
  const editable = props.editor.isEditable;
  const controls = editable && controlsShown;
  const columns = table.data.view.columns.map((id) => table.data.definition[id]).filter((d): d is Definition => !!d);
  const rows = orderedRecords(table as unknown as EditableTable);
  const cards = table.data.view.type === 'cards';
  // Which column is the cover and which the link, decided as the reader and the page view decide it.
  const layout = cards ? cardsLayout(table.data as unknown as Table['data']) : undefined;
  const cover = layout?.cover;
  const target = layout?.target;
  const row = cards ? 'Card' : 'Row';
  // The table as the editor holds it now, not as it was last drawn: changes made before React draws again build on each other.
  const now = (): EditableTable => {
    const pos = latest.current.getPos();
    const node = typeof pos === 'number' ? latest.current.editor.state.doc.nodeAt(pos) : null;
    return (node?.type === latest.current.node.type ? node.attrs.block : blockOf(latest.current)) as EditableTable;
  };
  const change = (edit: (t: EditableTable) => EditableTable) => props.updateAttributes({ block: edit(now()) });
  const addAndEnter = (edit: (t: EditableTable) => EditableTable) => {
    const before = table as unknown as EditableTable;
    const after = edit(before);
    const column = Object.keys(after.data.definition).find((id) => !(id in before.data.definition));
    const record = Object.keys(after.data.records).find((id) => !(id in before.data.records));
    const firstCell = record && after.data.view.columns.map((id) => after.data.records[record]!.values[id]).find((value) => typeof value === 'string');
    setFresh(column ? `column:${column}` : typeof firstCell === 'string' ? firstCell : null);
    props.updateAttributes({ block: after });
  };
  const setType = (column: Definition, type: ColumnType) => {
    const { table: after, dropped } = setColumnType(table as unknown as EditableTable, column.id, type);
    setNotice(dropped ? `${dropped} ${dropped === 1 ? 'value' : 'values'} of ${column.title || 'the column'} could not be kept as ${COLUMN_TYPE_NAMES[type]} and ${dropped === 1 ? 'was' : 'were'} emptied: undo (Ctrl+Z) brings them back.` : '');
    props.updateAttributes({ block: after });
  };
  const byName = new Map(table.fragments.map((f) => [f.fragment, f]));
  // The widths the columns are drawn at (px), read from the header: what a resize keeps of the others.
  const measure = () => Object.fromEntries(columns.map((c, i) => [c.id, headRow.current?.cells[i]?.getBoundingClientRect().width ?? 0]));
  const view = dragging ? resizeColumn(table.data.view, dragging.measured, dragging.id, dragging.width) : table.data.view;
  const sizes = cards ? null : columnSizes(view, columns.map((c) => c.id));
  const resize = (id: string, width: number) => props.updateAttributes({ block: { ...table, data: { ...table.data, view: resizeColumn(table.data.view, measure(), id, width) } } });
  const setTitle = (id: string, title: string) =>
    props.updateAttributes({ block: { ...table, data: { ...table.data, definition: { ...table.data.definition, [id]: { ...table.data.definition[id], title } } } } });
  const setCell = (name: string, text: string) =>
    props.updateAttributes({
      block: {
        ...table,
        fragments: table.fragments.map((f) => {
          if (f.fragment !== name) return f;
          const paragraph = f.nodes[0]!;
          const first = (paragraph.nodes?.[0] ?? { object: 'text' }) as Record<string, unknown>;
          return { ...f, nodes: [{ ...paragraph, nodes: [{ ...first, object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }] }] };
        }),
      },
    });
  // Read when a rich cell reports a change, not when it was made: the table may have changed since (other cells).
  const setFragment = (name: string, nodes: FlowBlock[]) => {
    const now = (blockOf(latest.current) as unknown as TableJson);
    latest.current.updateAttributes({ block: { ...now, fragments: now.fragments.map((f) => (f.fragment === name ? { ...f, nodes } : f)) } });
  };

  /** A cell drawn and edited by its column's type. */
  const cell = (recordId: string, c: Definition, label: string) => {
    const value = table.data.records[recordId]!.values[c.id];
    const set = (next: unknown) => change((t) => setCellValue(t, recordId, c.id, next));
    const fragment = typeof value === 'string' ? byName.get(value) : undefined;
    const text = c.type === 'text' && fragment?.fragment !== richEditing ? plainCellText(fragment) : undefined;
    if (text !== undefined) return <PlainCell ref={takesCaret(fragment!.fragment)} label={label} text={text} editable={editable} onChange={(next) => setCell(fragment!.fragment, next)} />;
    if (c.type === 'text' && fragment) {
      return (
        <RichCell
          page={props.editor}
          label={label}
          nodes={fragment.nodes as unknown as FlowBlock[]}
          text={fragmentText(fragment)}
          editable={editable}
          onChange={(nodes) => setFragment(fragment.fragment, nodes)}
          onEditing={(editing) => setRichEditing(editing ? fragment.fragment : null)}
        />
      );
    }
    const typed = { label, value, editable, onChange: set };
    switch (c.type) {
      case 'number':
        return <NumberCell {...typed} />;
      case 'checkbox':
        return <CheckboxCell {...typed} />;
      case 'rating':
        return <RatingCell {...typed} column={c} />;
      case 'select':
        return (
          <SelectCell
            {...typed}
            column={c}
            onAddOption={(name) => change((t) => chooseNewOption(t, recordId, c.id, name))}
          />
        );
      case 'files':
      case 'image':
        return <CellFiles value={value} image={c.type === 'image'} />;
      case 'content-ref':
        if (value && typeof value === 'object') {
          return (
            <Tooltip content={KEPT}>
              <span className="qe-readonly"><CellLink spaceId={props.spaceId} refJson={value as Ref} /></span>
            </Tooltip>
          );
        }
    }
    return (
      <Tooltip content={KEPT}>
        <span className="qe-readonly">{fragment ? fragmentText(fragment) : value === undefined ? '' : JSON.stringify(value)}</span>
      </Tooltip>
    );
  };

  /** A column's title, its menu (its type) and its removal. */
  const columnHead = (c: Definition, i: number) => (
    <span className="qe-table-column">
      <input ref={takesCaret(`column:${c.id}`)} aria-label={`Column title ${c.title || i + 1}`} placeholder={`Column ${i + 1}`} value={c.title} readOnly={!editable} onChange={(e) => setTitle(c.id, e.target.value)} />
      {controls && <ColumnMenu column={c} label={c.title || String(i + 1)} onType={(type) => setType(c, type)} />}
      {controls && columns.length > 1 && (
        <IconButton size="sm" icon={faXmark} label={`Remove column ${c.title || i + 1}`} onClick={() => change((t) => removeColumn(t, c.id))} />
      )}
    </span>
  );

  // Drawn empty until the controls come, at their height: what is below does not move when they do.
  const tools = editable && (
    <div className="qe-block-tools" contentEditable={false}>
      {controls && <>
        <Button size="sm" variant="ghost" icon={faPlus} onClick={() => addAndEnter(addRow)}>Add {row.toLowerCase()}</Button>
        <Button size="sm" variant="ghost" icon={faPlus} onClick={() => addAndEnter(addColumn)}>Add column</Button>
        <IconButton size="sm" icon={faSliders} label={`${cards ? 'Cards' : 'Table'} settings`} onClick={() => selectBlock(props)} />
        {notice && <p role="status" className="qe-table-notice">{notice}</p>}
      </>}
    </div>
  );

  if (cards) {
    return (
      <NodeViewWrapper as="div" className="qe-table qe-table-cards" data-quire="table" role="group" aria-label="Cards">
        {/* The cards show no column titles (as readers see them): the columns are named and typed above them. */}
        {editable && (
          <div className="qe-block-tools qe-table-columns" contentEditable={false} role="group" aria-label="Columns">
            {columns.map((c, i) => <span key={c.id}>{columnHead(c, i)}</span>)}
          </div>
        )}
        <ul className={layout?.size === 'large' ? 'table-cards table-cards-large' : 'table-cards'} contentEditable={false}>
          {rows.map(([id, record], r) => (
            <li key={id} className="table-card" aria-label={`Card ${r + 1}`}>
              {cover && record.values[cover.id] !== undefined && record.values[cover.id] !== null && (
                <div className="table-card-cover">
                  {cellRefsOf(record.values[cover.id]).map((ref, i) => <CellFile key={i} refJson={ref} image />)}
                </div>
              )}
              {layout!.fields.map((c) => <div key={c.id} className="table-card-field">{cell(id, c, `Card ${r + 1}, ${c.title || 'untitled column'}`)}</div>)}
              {editable && (
                <div className="qe-block-tools qe-card-tools">
                  {/* The card's link is no field of it (as readers see it): named here. */}
                  {target && record.values[target.id] && typeof record.values[target.id] === 'object' ? (
                    <span className="qe-card-target">
                      <Icon icon={faLink} /> <CellLink spaceId={props.spaceId} refJson={record.values[target.id] as Ref} />
                    </span>
                  ) : null}
                  {controls && <IconButton size="sm" icon={faXmark} label={`Remove card ${r + 1}`} onClick={() => change((t) => removeRow(t, id))} />}
                </div>
              )}
            </li>
          ))}
        </ul>
        {tools}
      </NodeViewWrapper>
    );
  }

  return (
    <NodeViewWrapper as="div" className={sizes ? 'qe-table qe-table-sized' : 'qe-table'} data-quire="table" role="group" aria-label="Table">
      <table contentEditable={false} style={sizes ? { tableLayout: 'fixed', width: editable && sizes.table.endsWith('px') ? `calc(${sizes.table} + ${ACTIONS_WIDTH})` : sizes.table } : undefined}>
        {sizes && (
          <colgroup>
            {sizes.columns.map((width, i) => <col key={i} style={{ width }} />)}
            {editable && <col style={{ width: ACTIONS_WIDTH }} />}
          </colgroup>
        )}
        <thead>
          <tr ref={headRow}>
            {columns.map((c, i) => (
              <th key={c.id}>
                {columnHead(c, i)}
                {controls && (
                  <ColumnResizer
                    label={`Width of column ${c.title || i + 1}`}
                    onDrag={(width) => setDragging((d) => (width === null ? null : { id: c.id, width, measured: d?.measured ?? measure() }))}
                    onResize={(width) => resize(c.id, width)}
                  />
                )}
              </th>
            ))}
            {editable && <th className="qe-table-actions"><span className="qe-visually-hidden">Remove</span></th>}
          </tr>
        </thead>
        <tbody>
          {rows.map(([id], r) => (
            <tr key={id}>
              {columns.map((c) => <td key={c.id}>{cell(id, c, `Row ${r + 1}, ${c.title}`)}</td>)}
              {editable && (
                <td className="qe-table-actions">
                  {controls && <IconButton size="sm" icon={faXmark} label={`Remove row ${r + 1}`} onClick={() => change((t) => removeRow(t, id))} />}
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
      {tools}
    </NodeViewWrapper>
  );
}

/** A link cell (a card's target), named as the page view names it: the page's title, or the address. */
function CellLink({ spaceId, refJson }: { spaceId: string; refJson: Ref }) {
  const title = useRefName(spaceId, refJson.kind === 'page' ? refJson : undefined);
  return <span className="qe-cell-link">{title ?? refLabel(refJson)}</span>;
}
