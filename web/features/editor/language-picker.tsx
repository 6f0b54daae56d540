import { useEffect, useState } from 'react';
import { faChevronDown } from '@fortawesome/free-solid-svg-icons';
import { highlighterLanguages } from '../code/highlight.ts';
import { Button } from '../../ui/button.tsx';
import { Icon } from '../../ui/icon.tsx';
import { Popover } from '../../ui/popover.tsx';
import { SearchList } from '../../ui/search-list.tsx';
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
 * A code block's language: a button showing it, opening a searchable list (the kit's SearchList: type to filter,
 * arrows to move, Enter to pick). A language the highlighter does not know stays as the block has it until another is picked.
 */
export function LanguagePicker({ value, onPick }: { value: string; onPick: (language: string) => void }) {
  const languages = useLanguages();
  const [open, setOpen] = useState(false);
  const name = languageName(languages, value);
  return (
    <Popover
      label="Language"
      open={open}
      onOpenChange={setOpen}
      trigger={
        <Button size="sm" variant="ghost" aria-label={`Language: ${name}`}>
          {name} <Icon icon={faChevronDown} />
        </Button>
      }
    >
      <SearchList
        className="qe-language-picker"
        label="Search languages"
        listLabel="Languages"
        search={(query) => filterLanguages(languages, query)}
        optionKey={(language) => language.id}
        renderOption={(language) => language.name}
        onPick={(language) => {
          setOpen(false);
          onPick(language.id);
        }}
        empty={(query) => `No language called “${query}”`}
      />
    </Popover>
  );
}
