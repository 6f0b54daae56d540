import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';

/*
 * A list searched as it is typed into (a code block's language, a reusable content, an API operation): a filter
 * input that is a combobox, its options in a listbox always shown under it. The focus stays in the input; the
 * active option is the one Enter picks (aria-activedescendant), moved by the arrows, Home and End or the pointer.
 * What matches what is typed is the caller's to say, and so is what to say when nothing does.
 */

export interface SearchListProps<T> {
  /** The input's accessible name ("Search languages"), and its placeholder unless `placeholder` says otherwise. */
  label: string;
  placeholder?: string;
  /** The listbox's accessible name ("Languages"). */
  listLabel: string;
  /** The options matching what is typed, in the order shown. */
  search: (query: string) => readonly T[];
  /** An option's identity: its element's key, and what keeps it active while the options change around it. */
  optionKey: (option: T) => string;
  renderOption: (option: T) => ReactNode;
  onPick: (option: T) => void;
  /** Said when no option matches (given what is typed, trimmed); nothing is said without it (while options load). */
  empty?: (query: string) => ReactNode;
  /** The key of the option that is the value now (aria-current), when there is one. */
  current?: string;
  /** Said under the list: that its options are loading, or why they could not be. */
  children?: ReactNode;
  className?: string;
}

export function SearchList<T>({ label, placeholder, listLabel, search, optionKey, renderOption, onPick, empty, current, children, className }: SearchListProps<T>) {
  const [query, setQuery] = useState('');
  // The active option by key: it stays active while it is shown (as options load, or change with a choice beside
  // the list), and the first is active otherwise.
  const [activeKey, setActiveKey] = useState<string | undefined>(undefined);
  const list = useRef<HTMLUListElement>(null);
  const id = useId();
  const shown = search(query);
  const found = activeKey === undefined ? -1 : shown.findIndex((option) => optionKey(option) === activeKey);
  const active = found >= 0 ? found : 0;
  const activate = (index: number) => {
    const option = shown[Math.max(0, Math.min(index, shown.length - 1))];
    if (option !== undefined) setActiveKey(optionKey(option));
  };
  useEffect(() => {
    list.current?.querySelector(`[data-index="${active}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [active]);
  const pick = (option: T | undefined) => option !== undefined && onPick(option);
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const keys: Record<string, () => void> = {
      ArrowDown: () => activate(active + 1),
      ArrowUp: () => activate(active - 1),
      Home: () => activate(0),
      End: () => activate(shown.length - 1),
      Enter: () => pick(shown[active]),
      // What is typed is cleared, unless the popover or dialog around the list took the key (Radix sees it first,
      // on the document) to close.
      Escape: () => {
        setQuery('');
        setActiveKey(undefined);
      },
    };
    const act = keys[event.key];
    if (!act || (event.key === 'Escape' && (event.defaultPrevented || query === ''))) return;
    event.preventDefault();
    act();
  };
  const said = shown.length === 0 && empty ? empty(query.trim()) : null;
  return (
    <div className={className ? `ui-search-list ${className}` : 'ui-search-list'}>
      <input
        className="ui-input"
        aria-label={label}
        placeholder={placeholder ?? label}
        role="combobox"
        aria-expanded
        aria-autocomplete="list"
        aria-controls={`${id}-list`}
        aria-activedescendant={shown[active] !== undefined ? `${id}-${active}` : undefined}
        autoFocus
        value={query}
        onChange={(e) => {
          setQuery(e.target.value);
          setActiveKey(undefined);
        }}
        onKeyDown={onKeyDown}
      />
      <ul ref={list} id={`${id}-list`} role="listbox" aria-label={listLabel} className="ui-search-list-options">
        {shown.map((option, i) => {
          const key = optionKey(option);
          return (
            <li
              key={key}
              id={`${id}-${i}`}
              data-index={i}
              role="option"
              aria-selected={i === active}
              aria-current={current === key ? 'true' : undefined}
              className="ui-search-list-option"
              onMouseEnter={() => setActiveKey(key)}
              onClick={() => pick(option)}
            >
              {renderOption(option)}
            </li>
          );
        })}
      </ul>
      {children}
      {said ? <p role="status">{said}</p> : null}
    </div>
  );
}
