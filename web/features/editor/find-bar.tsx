import { Extension, type Editor } from '@tiptap/core';
import type { EditorState } from '@tiptap/pm/state';
import { useEditorState } from '@tiptap/react';
import { faArrowDown, faArrowUp, faXmark } from '@fortawesome/free-solid-svg-icons';
import { findNext, findPrev, getSearchState, replaceAll, replaceNext, search, SearchQuery, setSearchState } from 'prosemirror-search';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Button, IconButton } from '../../ui/button.tsx';
import { TextField } from '../../ui/text-field.tsx';

/** ProseMirror's own search (prosemirror-search, by its author): the query in the state, its matches decorated. */
export const PageSearch = Extension.create({
  name: 'pageSearch',
  addProseMirrorPlugins: () => [search()],
});

/** Counting stops here: past it the bar says "1,000+" rather than walk a huge page on each key. */
const MAX_COUNTED = 1000;

/** The matches of the state's query: how many, and which one the selection is on (1-based; 0 when none). */
export function matchCount(state: EditorState): { total: number; current: number } {
  const { query } = getSearchState(state) ?? {};
  if (!query?.valid) return { total: 0, current: 0 };
  let total = 0;
  let current = 0;
  const { from, to } = state.selection;
  for (let at = 0, match = query.findNext(state, 0); match && total < MAX_COUNTED; match = query.findNext(state, at)) {
    total++;
    if (match.from === from && match.to === to) current = total;
    at = match.to > match.from ? match.to : match.to + 1;
  }
  return { total, current };
}

/**
 * Find and replace in the page (Ctrl/Cmd-F while editing): the matches highlighted as one types, Enter and
 * Shift-Enter (or the arrows) go to the next and previous, and one or every match is replaced. Escape or Close puts
 * the keys back in the page, the last match selected.
 */
export function FindBar({ editor, onClose }: { editor: Editor; onClose: () => void }) {
  const [text, setText] = useState(() => {
    const { from, to, empty } = editor.state.selection;
    return empty ? '' : editor.state.doc.textBetween(from, to, ' ').slice(0, 200);
  });
  const [replacement, setReplacement] = useState('');
  const bar = useRef<HTMLDivElement>(null);
  const findField = () => bar.current?.querySelector('input');
  const count = useEditorState({ editor, selector: ({ editor: e }) => matchCount(e.state), equalityFn: (a, b) => a.total === b?.total && a.current === b.current });

  useEffect(() => {
    findField()?.focus();
    findField()?.select();
  }, []);
  useEffect(() => {
    editor.view.dispatch(setSearchState(editor.state.tr, new SearchQuery({ search: text, replace: replacement })));
  }, [editor, text, replacement]);
  // Closed, the page shows no highlights.
  useEffect(() => () => void (editor.isDestroyed || editor.view.dispatch(setSearchState(editor.state.tr, new SearchQuery({ search: '' })))), [editor]);

  const run = (command: typeof findNext) => {
    command(editor.state, editor.view.dispatch, editor.view);
    // The last match replaced, the buttons turn disabled and the focus would be nowhere: it goes to the find field.
    if (matchCount(editor.state).total === 0 && bar.current && !bar.current.querySelector('input:focus')) findField()?.focus();
  };
  const close = () => {
    onClose();
    editor.commands.focus();
  };
  const enterKey = (event: KeyboardEvent, enter: () => void) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    enter();
  };
  // On the whole bar: from a field or a button, Escape closes it and Ctrl/Cmd-F goes back to the find field.
  const barKeys = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      close();
    } else if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'f') {
      // Again: the find field, not the browser's own find bar.
      event.preventDefault();
      findField()?.focus();
      findField()?.select();
    }
  };
  const found = text === '' ? '' : count.total === 0 ? 'No match' : `${count.current > 0 ? `${count.current} of ` : ''}${count.total >= MAX_COUNTED ? '1,000+' : count.total} ${count.total === 1 ? 'match' : 'matches'}`;

  return (
    <div className="qe-find" role="search" aria-label="Find and replace" ref={bar} onKeyDown={barKeys}>
      <TextField
        label="Find in page"
        hideLabel
        placeholder="Find in page"
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => enterKey(event, () => run(event.shiftKey ? findPrev : findNext))}
      />
      <span className="qe-find-count" role="status">
        {found}
      </span>
      <IconButton size="sm" icon={faArrowUp} label="Previous match" disabled={count.total === 0} onClick={() => run(findPrev)} />
      <IconButton size="sm" icon={faArrowDown} label="Next match" disabled={count.total === 0} onClick={() => run(findNext)} />
      <TextField label="Replace with" hideLabel placeholder="Replace with" value={replacement} onChange={(event) => setReplacement(event.target.value)} onKeyDown={(event) => enterKey(event, () => run(replaceNext))} />
      <Button size="sm" disabled={count.total === 0} onClick={() => run(replaceNext)}>
        Replace
      </Button>
      <Button size="sm" disabled={count.total === 0} onClick={() => run(replaceAll)}>
        Replace all
      </Button>
      <IconButton size="sm" icon={faXmark} label="Close find" onClick={close} />
    </div>
  );
}
