import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { faChevronDown } from '@fortawesome/free-solid-svg-icons';
import { highlighterLanguages } from '../code/highlight.ts';
import { Button } from '../../ui/button.tsx';
import { Icon } from '../../ui/icon.tsx';
import { Popover } from '../../ui/popover.tsx';
import { filterLanguages, languageName, type Language } from './model/code-languages.ts';

/** The languages the highlighter knows, once its worker has said (the reader highlights the same ones). */
function useLanguages(): Language[] {
  const [languages, setLanguages] = useState<Language[]>([]);
  useEffect(() => {
    let current = true;
    void highlighterLanguages().then((found) => current && setLanguages(found));
    return () => {
      current = false;
    };
  }, []);
  return languages;
}

/**
 * A code block's language: a button showing it, opening a searchable list (a combobox: type to filter, arrows to
 * move, Enter to pick). A language the highlighter does not know stays as the block has it until another is picked.
 */
export function LanguagePicker({ value, onPick }: { value: string; onPick: (language: string) => void }) {
  const languages = useLanguages();
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const list = useRef<HTMLUListElement>(null);
  const id = useId();
  const shown = filterLanguages(languages, query);
  const name = languageName(languages, value);
  const pick = (language: Language | undefined) => {
    if (!language) return;
    setOpen(false);
    onPick(language.id);
  };
  useEffect(() => {
    list.current?.querySelector(`[data-index="${active}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [active]);
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
    <Popover
      label="Language"
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        setQuery('');
        setActive(0);
      }}
      trigger={
        <Button size="sm" variant="ghost" aria-label={`Language: ${name}`}>
          {name} <Icon icon={faChevronDown} />
        </Button>
      }
    >
      <div className="qe-language-picker">
        <input
          className="ui-input"
          aria-label="Search languages"
          placeholder="Search languages"
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
        <ul ref={list} id={`${id}-list`} role="listbox" aria-label="Languages">
          {shown.map((language, i) => (
            <li
              key={language.id}
              id={`${id}-${i}`}
              data-index={i}
              role="option"
              aria-selected={i === active}
              className={i === active ? 'active' : undefined}
              onMouseEnter={() => setActive(i)}
              onClick={() => pick(language)}
            >
              {language.name}
            </li>
          ))}
        </ul>
        {shown.length === 0 && <p role="status">No language called “{query.trim()}”</p>}
      </div>
    </Popover>
  );
}
