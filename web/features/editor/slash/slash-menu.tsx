import { Extension, type Editor, type Range } from '@tiptap/core';
import type { EditorState } from '@tiptap/pm/state';
import { exitSuggestion, Suggestion } from '@tiptap/suggestion';
import { useRef } from 'react';
import { CaretMenuOption, useSelectedInView } from '../caret-menu-option.tsx';
import { Icon } from '../../../ui/icon.tsx';
import { AnchoredPopover } from '../../../ui/popover.tsx';
import type { SuggestionBridge, SuggestionState } from '../suggestion-menu.ts';
import { filterItems, type SlashItem } from './items.ts';

/** What the menu shows while a `/` query is open (null when closed). */
export type SlashState = SuggestionState<SlashItem>;

/**
 * The `/` menu as an extension: TipTap's suggestion plugin finds the query, this component shows the items.
 * `bridge` carries the state out to React and the keys in from the editor.
 */
export function slashExtension(items: () => SlashItem[], bridge: SuggestionBridge<SlashItem>) {
  const itemsAt = (state: EditorState) => items().filter((item) => item.fitsAt?.(state) ?? true);
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
            return !/\s/.test(query) || filterItems(itemsAt(state), query).length > 0;
          },
          items: ({ query, editor }) => filterItems(itemsAt(editor.state), query),
          command: ({ editor, range, props }: { editor: Editor; range: Range; props: SlashItem }) => props.run(editor, range),
          render: () => ({
            onStart: (p) => bridge.set({ items: p.items, query: p.query, selected: 0, rect: p.clientRect?.() ?? null, measure: () => p.clientRect?.() ?? null, run: (item) => p.command(item) }),
            onUpdate: (p) => bridge.set({ items: p.items, query: p.query, selected: 0, rect: p.clientRect?.() ?? null, measure: () => p.clientRect?.() ?? null, run: (item) => p.command(item) }),
            onKeyDown: ({ event }) => bridge.key(event),
            onExit: () => bridge.set(null),
          }),
        }),
      ];
    },
  });
}

/** The items as the menu lists them: in their groups for no query; found by a query, best first, in one list. */
function sections(state: SlashState): { group: string | null; items: { item: SlashItem; index: number }[] }[] {
  const numbered = state.items.map((item, index) => ({ item, index }));
  if (state.query.trim()) return [{ group: null, items: numbered }];
  const groups: { group: string | null; items: typeof numbered }[] = [];
  for (const entry of numbered) {
    const last = groups.at(-1);
    if (last?.group === entry.item.group) last.items.push(entry);
    else groups.push({ group: entry.item.group, items: [entry] });
  }
  return groups;
}

/**
 * The items in their groups with an icon and a line of description each, on the kit's popover at the caret: below
 * it, or above when there is no room below, scrolling within the room there is. The editor keeps the focus and
 * the keys; the selected item is the listbox's active descendant.
 */
export function SlashMenu({ editor, state, onSelect }: { editor: Editor; state: SlashState; onSelect(index: number): void }) {
  const list = useRef<HTMLDivElement>(null);
  useSelectedInView(list, state.selected);
  const { rect, measure } = state;
  if (!rect) return null;
  const option = ({ item, index }: { item: SlashItem; index: number }) => (
    <CaretMenuOption key={item.title} id={`qe-slash-${index}`} selected={index === state.selected} onChoose={() => onSelect(index)}>
      {item.iconUrl ? <img src={item.iconUrl} alt="" className="qe-slash-icon" /> : <Icon icon={item.icon} className="qe-slash-icon" />}
      {/* Named by what it shows, title then description (the space between them is for the name, not drawn). */}
      <span className="qe-slash-text">
        <span className="qe-slash-title">{item.title}</span>{' '}
        <span className="qe-slash-description">{item.description}</span>
      </span>
    </CaretMenuOption>
  );
  return (
    <AnchoredPopover rect={() => measure?.() ?? rect} label="Insert a block" className="qe-slash" onEscape={() => exitSuggestion(editor.view)}>
      {state.items.length === 0 ? (
        <p role="status">No block matches</p>
      ) : (
        // The list scrolls, and is in the tab order for that (the editor keeps the keys while it is open).
        <div ref={list} role="listbox" aria-label="Insert a block" id="qe-slash-list" className="qe-slash-list" tabIndex={0} aria-activedescendant={`qe-slash-${state.selected}`}>
          {sections(state).map(({ group, items }, at) =>
            group === null ? (
              items.map(option)
            ) : (
              <div key={group} role="group" aria-labelledby={`qe-slash-group-${at}`}>
                <div className="qe-slash-group" id={`qe-slash-group-${at}`}>{group}</div>
                {items.map(option)}
              </div>
            ),
          )}
        </div>
      )}
    </AnchoredPopover>
  );
}
