import { Extension, type Editor, type Range } from '@tiptap/core';
import { PluginKey } from '@tiptap/pm/state';
import { exitSuggestion, Suggestion } from '@tiptap/suggestion';
import { useRef } from 'react';
import { CaretMenuOption, useSelectedInView } from '../caret-menu-option.tsx';
import { AnchoredPopover } from '../../../ui/popover.tsx';
import type { SuggestionBridge, SuggestionState } from '../suggestion-menu.ts';
import { emojiCode, findEmoji, loadEmoji, type EmojiEntry } from './emoji-data.ts';

/** Its own key: the `/` menu's suggestion plugin holds the default one. */
const emojiPickerKey = new PluginKey('emojiPicker');

/**
 * `:` and two letters or more open a list of the emoji whose names match (`:rocke` → 🚀 rocket), as in GitBook, Slack
 * or GitHub; Enter or a click puts the chosen one in, as GitBook's `emoji` inline. The colon must start a word, so
 * a time (10:30) or a label ("Note:") opens nothing, and a query nothing matches leaves the keys to the text.
 */
export function emojiExtension(bridge: SuggestionBridge<EmojiEntry>) {
  return Extension.create({
    name: 'emojiPicker',
    addProseMirrorPlugins() {
      return [
        Suggestion<EmojiEntry, EmojiEntry>({
          editor: this.editor,
          pluginKey: emojiPickerKey,
          char: ':',
          startOfLine: false,
          allowSpaces: false,
          items: async ({ query }) => (query.length < 2 ? [] : findEmoji(await loadEmoji(), query)),
          command: ({ editor, range, props }: { editor: Editor; range: Range; props: EmojiEntry }) => {
            editor
              .chain()
              .focus()
              .insertContentAt(range, [{ type: 'inlineAtom', attrs: { inline: { object: 'inline', type: 'emoji', isVoid: true, data: { code: emojiCode(props.char) } }, leading: null } }])
              .run();
          },
          render: () => {
            const show = (p: { items: EmojiEntry[]; query: string; clientRect?: (() => DOMRect | null) | null; command(item: EmojiEntry): void }) =>
              bridge.set(p.items.length === 0 ? null : { items: p.items, query: p.query, selected: 0, rect: p.clientRect?.() ?? null, measure: () => p.clientRect?.() ?? null, run: (item) => p.command(item) });
            return { onStart: show, onUpdate: show, onKeyDown: ({ event }) => bridge.key(event), onExit: () => bridge.set(null) };
          },
        }),
      ];
    },
  });
}

/** The emoji found, each with its name, at the caret on the kit's popover; the editor keeps the focus and the keys. */
export function EmojiPicker({ editor, state, onSelect }: { editor: Editor; state: SuggestionState<EmojiEntry>; onSelect(index: number): void }) {
  const list = useRef<HTMLDivElement>(null);
  useSelectedInView(list, state.selected);
  const { rect, measure } = state;
  if (!rect) return null;
  return (
    <AnchoredPopover rect={() => measure?.() ?? rect} label="Insert an emoji" className="qe-slash qe-emoji" onEscape={() => exitSuggestion(editor.view, emojiPickerKey)}>
      <div ref={list} role="listbox" aria-label="Insert an emoji" className="qe-slash-list" tabIndex={0} aria-activedescendant={`qe-emoji-${state.selected}`}>
        {state.items.map((item, index) => (
          <CaretMenuOption key={item.char} id={`qe-emoji-${index}`} selected={index === state.selected} onChoose={() => onSelect(index)}>
            <span className="qe-emoji-char" aria-hidden="true">{item.char}</span>
            <span className="qe-slash-text">{item.name}</span>
          </CaretMenuOption>
        ))}
      </div>
    </AnchoredPopover>
  );
}
