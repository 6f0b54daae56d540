import type { JSONContent } from '@tiptap/core';
import type { Transaction } from '@tiptap/pm/state';
import type { CSSProperties } from 'react';
import { NodeViewContent, NodeViewWrapper, type NodeViewProps } from '@tiptap/react';
import { faPlus, faTrash } from '@fortawesome/free-solid-svg-icons';
import { Button, IconButton } from '../../../ui/button.tsx';
import { TextField } from '../../../ui/text-field.tsx';
import { caretInto } from '../place-caret.ts';
import { blockOf, setData, type BlockJson } from './block-data.ts';
import { canAddColumn, canRemoveColumn, columnTracks, dayOf, newColumn, newStep, newUpdate, tagsFromText, tagsText, updateDay, withoutWidth } from './layout-blocks.ts';
import { updateDateText } from '../../../../src/features/content/document/update-date.ts';

/*
 * GitBook's layout blocks drawn with the reader's classes (reader.css: `stepper`/`step`, `columns`/`column`,
 * `updates`/`update`/`update-meta`), their children edited in place, with the kit's controls to add and remove
 * a part. The rules (limits, widths, tags) are in layout-blocks.ts; Enter and Backspace in layout-keys.ts.
 */

/**
 * Adds a part at the end of the container drawn by `props`, the caret in it and the page focused in the same
 * event (place-caret.ts): what is typed next goes there, not to the button clicked.
 */
function appendPart(props: NodeViewProps, part: JSONContent, reshape?: (tr: Transaction, pos: number) => void): void {
  const pos = props.getPos();
  if (typeof pos !== 'number') return;
  const end = pos + props.node.nodeSize - 1;
  const added = props.editor
    .chain()
    .insertContentAt(end, part)
    .command(({ tr }) => {
      reshape?.(tr, pos);
      caretInto(tr, end);
      tr.scrollIntoView();
      return true;
    })
    .run();
  if (added) props.editor.view.focus();
}

/** Removes the part drawn by `props`; the last one goes with its container, which holds at least one. */
function removePart(props: NodeViewProps): void {
  const pos = props.getPos();
  if (typeof pos !== 'number') return;
  const $pos = props.editor.state.doc.resolve(pos);
  if ($pos.parent.childCount === 1) {
    const containerPos = $pos.before();
    props.editor.chain().deleteRange({ from: containerPos, to: containerPos + $pos.parent.nodeSize }).run();
  } else props.deleteNode();
}

/** Which part of its container the node drawn by `props` is, counted from 1 (0 while it is being placed). */
function partNumber(props: NodeViewProps): number {
  const pos = props.getPos();
  return typeof pos === 'number' ? props.editor.state.doc.resolve(pos).index() + 1 : 0;
}

export function StepperView(props: NodeViewProps) {
  return (
    <NodeViewWrapper as="div" className="qe-stepper" data-quire="stepper" role="group" aria-label="Stepper">
      <NodeViewContent className="qe-stepper-steps" />
      {props.editor.isEditable && (
        <div className="qe-block-tools" contentEditable={false}>
          <Button size="sm" variant="ghost" icon={faPlus} onClick={() => appendPart(props, newStep())}>Add step</Button>
        </div>
      )}
    </NodeViewWrapper>
  );
}

/** A step: drawn in an `li.step` of the stepper's `ol.stepper` (extensions.ts), the reader's counter numbering it. */
export function StepperStepView(props: NodeViewProps) {
  const number = partNumber(props);
  return (
    <NodeViewWrapper as="div" className="qe-step" data-quire="stepperStep">
      <NodeViewContent as="div" className="qe-step-body" />
      {props.editor.isEditable && (
        <div className="qe-part-tools" contentEditable={false}>
          <IconButton size="sm" icon={faTrash} label={`Remove step ${number}`} onClick={() => removePart(props)} />
        </div>
      )}
    </NodeViewWrapper>
  );
}

/** Resets every column's width: a column added or removed shares the row equally again. */
function equalWidths(tr: Transaction, columnsPos: number): void {
  const columns = tr.doc.nodeAt(columnsPos);
  columns?.forEach((column, offset) => {
    const block = column.attrs.block as BlockJson | null;
    if (block?.data && 'width' in block.data) tr.setNodeAttribute(columnsPos + 1 + offset, 'block', { ...block, data: withoutWidth(block.data) });
  });
}

export function ColumnsView(props: NodeViewProps) {
  const widths: unknown[] = [];
  props.node.forEach((column) => widths.push((column.attrs.block as BlockJson | null)?.data?.width));
  const count = props.node.childCount;
  return (
    <NodeViewWrapper as="div" className="qe-columns" data-quire="columns" role="group" aria-label="Columns">
      {/* The grid is the `div.columns` ProseMirror puts the columns in (extensions.ts): it reads its tracks from here. */}
      <NodeViewContent className="qe-columns-row" style={{ '--qe-column-tracks': columnTracks(widths) } as CSSProperties} />
      {props.editor.isEditable && canAddColumn(count) && (
        <div className="qe-block-tools" contentEditable={false}>
          <Button size="sm" variant="ghost" icon={faPlus} onClick={() => appendPart(props, newColumn(), equalWidths)}>Add column</Button>
        </div>
      )}
    </NodeViewWrapper>
  );
}

export function ColumnView(props: NodeViewProps) {
  const number = partNumber(props);
  const remove = () => {
    const pos = props.getPos();
    if (typeof pos !== 'number') return;
    const columnsPos = props.editor.state.doc.resolve(pos).before();
    props.editor.chain().command(({ tr }) => {
      tr.delete(pos, pos + props.node.nodeSize);
      equalWidths(tr, columnsPos);
      return true;
    }).run();
  };
  const parentCount = () => {
    const pos = props.getPos();
    return typeof pos === 'number' ? props.editor.state.doc.resolve(pos).parent.childCount : 0;
  };
  return (
    <NodeViewWrapper as="div" className="qe-column" data-quire="column">
      {props.editor.isEditable && canRemoveColumn(parentCount()) && (
        <div className="qe-part-tools" contentEditable={false}>
          <IconButton size="sm" icon={faTrash} label={`Remove column ${number}`} onClick={remove} />
        </div>
      )}
      <NodeViewContent as="div" className="qe-column-body" />
    </NodeViewWrapper>
  );
}

export function UpdatesView(props: NodeViewProps) {
  return (
    <NodeViewWrapper as="div" className="qe-updates" data-quire="updates" role="group" aria-label="Updates">
      <NodeViewContent className="qe-updates-entries" />
      {props.editor.isEditable && (
        <div className="qe-block-tools" contentEditable={false}>
          <Button size="sm" variant="ghost" icon={faPlus} onClick={() => appendPart(props, newUpdate(dayOf(new Date())))}>Add update</Button>
        </div>
      )}
    </NodeViewWrapper>
  );
}

/** An update (in the reader's `section.update`): its date and tags above its text, each edited in a field of the kit. */
export function UpdateView(props: NodeViewProps) {
  const data = blockOf(props).data ?? {};
  const number = partNumber(props);
  const editable = props.editor.isEditable;
  return (
    <NodeViewWrapper as="div" className="qe-update" data-quire="update" role="group" aria-label={`Update ${number}`}>
      <div className="update-meta qe-block-tools" contentEditable={false}>
        {typeof data.date === 'string' && data.date && <time className="qe-update-date" dateTime={data.date}>{updateDateText(data.date)}</time>}
        <TextField
          type="date"
          label="Date"
          value={updateDay(data.date)}
          readOnly={!editable}
          required
          onChange={(e) => e.target.value && setData(props, { date: e.target.value })}
        />
        <TextField
          label="Tags"
          placeholder="No tags"
          // Written when the field is left (a tag is a word, not each letter of it); drawn again when another editor changes them.
          key={tagsText(data.tags)}
          defaultValue={tagsText(data.tags)}
          readOnly={!editable}
          onBlur={(e) => {
            const tags = tagsFromText(e.target.value, data.tags);
            if (tagsText(tags) !== tagsText(data.tags)) setData(props, { tags });
          }}
        />
        {editable && <IconButton size="sm" icon={faTrash} label={`Remove update ${number}`} onClick={() => removePart(props)} />}
      </div>
      <NodeViewContent as="div" className="qe-update-body" />
    </NodeViewWrapper>
  );
}
