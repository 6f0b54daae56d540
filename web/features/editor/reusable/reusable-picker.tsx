import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { Dialog } from '../../../ui/dialogs.tsx';
import type { EditorReusableContents } from '../contract.ts';
import { findReusable, type ReusableEntry } from './reusable-model.ts';

/**
 * The `/` menu's "Reusable content": the space's reusable contents, searched by title (a combobox: type to filter,
 * arrows to move, Enter or a click to pick), in a dialog. `onPick` gets the one chosen.
 */
export function ReusablePicker({ source, onPick, onClose }: { source: EditorReusableContents; onPick(entry: ReusableEntry): void; onClose(): void }) {
  const [entries, setEntries] = useState<ReusableEntry[] | null>(null);
  const [failure, setFailure] = useState('');
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const list = useRef<HTMLUListElement>(null);
  const id = useId();
  useEffect(() => {
    let current = true;
    source.list().then(
      (found) => current && setEntries(found),
      (error: unknown) => current && setFailure(error instanceof Error ? error.message : String(error)),
    );
    return () => {
      current = false;
    };
  }, [source]);
  const shown = findReusable(entries ?? [], query);
  useEffect(() => {
    list.current?.querySelector(`[data-index="${active}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [active]);
  const pick = (entry: ReusableEntry | undefined) => entry && onPick(entry);
  const onKeyDown = (event: KeyboardEvent) => {
    const moves: Record<string, () => void> = {
      ArrowDown: () => setActive((a) => Math.min(a + 1, shown.length - 1)),
      ArrowUp: () => setActive((a) => Math.max(a - 1, 0)),
      Enter: () => pick(shown[active]),
    };
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    move();
  };
  return (
    <Dialog title="Insert reusable content" open onOpenChange={(open) => !open && onClose()}>
      <div className="qe-reusable-picker">
        <input
          className="ui-input"
          aria-label="Search reusable content"
          placeholder="Search by title"
          role="combobox"
          aria-expanded
          aria-autocomplete="list"
          aria-controls={`${id}-list`}
          aria-activedescendant={shown[active] ? `${id}-${active}` : undefined}
          autoFocus
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            setActive(0);
          }}
          onKeyDown={onKeyDown}
        />
        <ul ref={list} id={`${id}-list`} role="listbox" aria-label="Reusable contents">
          {shown.map((entry, i) => (
            <li
              key={entry.id}
              id={`${id}-${i}`}
              data-index={i}
              role="option"
              aria-selected={i === active}
              className={i === active ? 'active' : undefined}
              onMouseEnter={() => setActive(i)}
              onClick={() => pick(entry)}
            >
              {entry.title}
            </li>
          ))}
        </ul>
        {failure && <p role="alert">{failure}</p>}
        {!failure && entries === null && <p aria-busy="true">Loading the space’s reusable content…</p>}
        {entries && shown.length === 0 && (
          <p role="status">{entries.length === 0 ? 'This space has no reusable content yet: select blocks and choose “Create reusable content”.' : `No reusable content called “${query.trim()}”`}</p>
        )}
      </div>
    </Dialog>
  );
}
