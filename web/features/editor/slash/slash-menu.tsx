import { Extension, type Editor, type Range } from '@tiptap/core';
import { Suggestion } from '@tiptap/suggestion';
import { useEffect, useRef } from 'react';
import { filterItems, type SlashItem } from './items.ts';

/** What the menu shows while a `/` query is open (null when closed). */
export interface SlashState { items: SlashItem[]; selected: number; rect: DOMRect | null; run(item: SlashItem): void }

/**
 * The `/` menu as an extension: TipTap's suggestion plugin finds the query, this component shows the items.
 * `bridge` carries the state out to React and the keys in from the editor.
 */
export function slashExtension(items: () => SlashItem[], bridge: { set(state: SlashState | null): void; key(event: KeyboardEvent): boolean }) {
  return Extension.create({
    name: 'slashMenu',
    addProseMirrorPlugins() {
      return [
        Suggestion<SlashItem, SlashItem>({
          editor: this.editor,
          char: '/',
          startOfLine: false,
          // A query may hold spaces ("/code block", as filterItems reads it); once nothing matches, a space ends it,
          // so a sentence that starts with a slash ("/usr is…") is only text.
          allowSpaces: true,
          allow: ({ state, range }) => {
            const query = state.doc.textBetween(range.from + 1, range.to);
            return !/\s/.test(query) || filterItems(items(), query).length > 0;
          },
          items: ({ query }) => filterItems(items(), query),
          command: ({ editor, range, props }: { editor: Editor; range: Range; props: SlashItem }) => props.run(editor, range),
          render: () => ({
            onStart: (p) => bridge.set({ items: p.items, selected: 0, rect: p.clientRect?.() ?? null, run: (item) => p.command(item) }),
            onUpdate: (p) => bridge.set({ items: p.items, selected: 0, rect: p.clientRect?.() ?? null, run: (item) => p.command(item) }),
            onKeyDown: ({ event }) => bridge.key(event),
            onExit: () => bridge.set(null),
          }),
        }),
      ];
    },
  });
}

export function SlashMenu({ state, onSelect }: { state: SlashState; onSelect(index: number): void }) {
  const list = useRef<HTMLUListElement>(null);
  useEffect(() => {
    list.current?.querySelector('[aria-selected="true"]')?.scrollIntoView({ block: 'nearest' });
  }, [state.selected]);
  // The caret's rectangle is in viewport coordinates: the menu is fixed to the viewport under it.
  const style = state.rect ? { top: state.rect.bottom + 4, left: state.rect.left } : undefined;
  return (
    <div className="qe-slash" style={style}>
      {state.items.length === 0 ? (
        <p role="status">No block matches</p>
      ) : (
        <ul ref={list} role="listbox" aria-label="Insert a block" id="qe-slash-list">
          {state.items.map((item, i) => (
            <li
              key={item.title}
              id={`qe-slash-${i}`}
              role="option"
              aria-selected={i === state.selected}
              onMouseDown={(e) => {
                e.preventDefault();
                onSelect(i);
              }}
            >
              {item.title}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
