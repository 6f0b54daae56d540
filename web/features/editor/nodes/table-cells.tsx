import { useState, type KeyboardEvent, type Ref } from 'react';
import { faCheck, faChevronDown, faPlus } from '@fortawesome/free-solid-svg-icons';
import { Button, IconButton } from '../../../ui/button.tsx';
import { Checkbox } from '../../../ui/choices.tsx';
import { Icon } from '../../../ui/icon.tsx';
import { DropdownMenu, DropdownMenuCheckItem, DropdownMenuLabel } from '../../../ui/menus.tsx';
import { Popover } from '../../../ui/popover.tsx';
import { TextField } from '../../../ui/text-field.tsx';
import { COLUMN_TYPES, COLUMN_TYPE_NAMES, parseNumber, ratingMax, selectOptions, type ColumnType } from '../model/table-columns.ts';

/*
 * A table's cells of the types that are not text, drawn as the reader draws them (reader.css: `.checkbox`,
 * `.rating`, `.tag`) and edited in place: a checkbox toggles, a number is typed, stars are clicked or set with the
 * arrow keys, a select's options are ticked (and one added). Each reports its new value; the table stores it.
 */

type Definition = { id: string; title: string; type: string; [field: string]: unknown };
interface CellProps<T> { label: string; value: unknown; editable: boolean; onChange: (value: T | undefined) => void }

/**
 * A plain text cell: its words wrap at the column's width as readers see them (an input cut them to one line), and it
 * grows with them (CSS `field-sizing`). It stays one paragraph: Enter adds no line, and lines pasted are joined.
 */
export function PlainCell({ ref, label, text, editable, onChange }: { ref?: Ref<HTMLTextAreaElement> | undefined; label: string; text: string; editable: boolean; onChange: (text: string) => void }) {
  return (
    <textarea
      ref={ref}
      rows={1}
      className="qe-cell-text"
      aria-label={label}
      value={text}
      readOnly={!editable}
      onKeyDown={(e) => {
        if (e.key === 'Enter') e.preventDefault();
      }}
      onChange={(e) => onChange(e.target.value.replace(/\s*[\r\n]+\s*/g, ' '))}
    />
  );
}

export function CheckboxCell({ label, value, editable, onChange }: CellProps<boolean>) {
  const checked = value === true;
  return (
    <button type="button" role="checkbox" aria-checked={checked} aria-label={label} disabled={!editable} className={checked ? 'checkbox checked qe-cell-checkbox' : 'checkbox qe-cell-checkbox'} onClick={() => onChange(!checked)}>
      {checked ? <Icon icon={faCheck} /> : null}
    </button>
  );
}

/** A number as typed: kept in the field while it is not one yet ("1."), stored once it is, emptied when cleared. */
export function NumberCell({ label, value, editable, onChange }: CellProps<number>) {
  const shown = typeof value === 'number' || typeof value === 'string' ? String(value) : '';
  const [typed, setTyped] = useState(shown);
  // Changed from elsewhere (undo, another person): show the stored number.
  const [seen, setSeen] = useState(shown);
  if (seen !== shown) {
    setSeen(shown);
    setTyped(shown);
  }
  const invalid = typed.trim() !== '' && parseNumber(typed) === null;
  return (
    <input
      inputMode="decimal"
      aria-label={label}
      aria-invalid={invalid || undefined}
      className="qe-cell-number"
      value={typed}
      readOnly={!editable}
      onChange={(e) => {
        setTyped(e.target.value);
        const n = parseNumber(e.target.value);
        if (e.target.value.trim() === '') onChange(undefined);
        else if (n !== null && n !== value) onChange(n);
      }}
    />
  );
}

/** Stars out of the column's maximum: a slider (arrow keys, Home, End, a digit), or a click on a star. */
export function RatingCell({ label, value, editable, onChange, column }: CellProps<number> & { column: Definition }) {
  const max = ratingMax(column);
  const stars = typeof value === 'number' ? Math.max(0, Math.min(max, Math.round(value))) : 0;
  const set = (n: number) => onChange(Math.max(0, Math.min(max, n)));
  const onKeyDown = (event: KeyboardEvent) => {
    const next =
      event.key === 'ArrowRight' || event.key === 'ArrowUp' ? stars + 1
      : event.key === 'ArrowLeft' || event.key === 'ArrowDown' ? stars - 1
      : event.key === 'Home' ? 0
      : event.key === 'End' ? max
      : /^[0-9]$/.test(event.key) ? Number(event.key)
      : null;
    if (next === null || !editable) return;
    event.preventDefault();
    set(next);
  };
  return (
    <span
      className="rating qe-cell-rating"
      role="slider"
      tabIndex={editable ? 0 : -1}
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={max}
      aria-valuenow={stars}
      aria-valuetext={`${stars} out of ${max}`}
      aria-readonly={!editable || undefined}
      onKeyDown={onKeyDown}
    >
      {Array.from({ length: max }, (_, i) => (
        // A click on the star that is the rating takes it back one: a single star can be cleared.
        <span key={i} aria-hidden onClick={() => editable && set(i + 1 === stars ? i : i + 1)}>{i < stars ? '★' : '☆'}</span>
      ))}
    </span>
  );
}

/** The chosen options as the reader's tags; a popover to tick them, and to add (and choose) one the column lacks. */
export function SelectCell({ label, value, editable, onChange, column, onAddOption }: CellProps<string[]> & { column: Definition; onAddOption: (label: string) => void }) {
  const options = selectOptions(column);
  const chosen = (Array.isArray(value) ? value : typeof value === 'string' ? [value] : []).filter((v): v is string => typeof v === 'string');
  const [adding, setAdding] = useState('');
  const tags = chosen.map((v) => <span key={v} className="tag">{options.find((o) => o.value === v)?.label ?? v}</span>);
  if (!editable) return <span>{tags}</span>;
  const toggle = (option: string, on: boolean) =>
    onChange(column.multiple === true ? (on ? [...chosen, option] : chosen.filter((v) => v !== option)) : on ? [option] : undefined);
  const add = () => {
    if (!adding.trim()) return;
    onAddOption(adding);
    setAdding('');
  };
  return (
    <Popover
      label={label}
      trigger={
        <button type="button" className="qe-cell-select" aria-label={`${label}: ${chosen.length ? chosen.map((v) => options.find((o) => o.value === v)?.label ?? v).join(', ') : 'none'}`}>
          {tags.length ? tags : <span className="qe-cell-empty">Choose…</span>}
        </button>
      }
    >
      <div className="qe-select-options" role="group" aria-label={`Options of ${column.title || 'the column'}`}>
        {options.map((o) => <Checkbox key={o.value} label={o.label} checked={chosen.includes(o.value)} onCheckedChange={(on) => toggle(o.value, on)} />)}
        <form className="qe-select-add" onSubmit={(e) => { e.preventDefault(); add(); }}>
          <TextField label="New option" hideLabel placeholder="New option" value={adding} onChange={(e) => setAdding(e.target.value)} />
          <Button size="sm" type="submit" icon={faPlus} disabled={!adding.trim()}>Add option</Button>
        </form>
      </div>
    </Popover>
  );
}

/** A column's menu: its type, among GitBook's. */
export function ColumnMenu({ column, label, onType }: { column: Definition; label: string; onType: (type: ColumnType) => void }) {
  return (
    <DropdownMenu label={`Column ${label}`} align="start" trigger={<IconButton size="sm" icon={faChevronDown} label={`Column ${label} menu`} />}>
      <DropdownMenuLabel>Type</DropdownMenuLabel>
      {COLUMN_TYPES.map((type) => (
        <DropdownMenuCheckItem key={type} checked={column.type === type} onSelect={() => onType(type)}>{COLUMN_TYPE_NAMES[type]}</DropdownMenuCheckItem>
      ))}
    </DropdownMenu>
  );
}
