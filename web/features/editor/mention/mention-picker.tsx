import { Extension, type Editor, type Range } from '@tiptap/core';
import { PluginKey } from '@tiptap/pm/state';
import { exitSuggestion, Suggestion } from '@tiptap/suggestion';
import { faFileLines } from '@fortawesome/free-solid-svg-icons';
import { useRef } from 'react';
import { CaretMenuOption, useSelectedInView } from '../caret-menu-option.tsx';
import { Avatar } from '../../../ui/avatar.tsx';
import { Icon } from '../../../ui/icon.tsx';
import { AnchoredPopover } from '../../../ui/popover.tsx';
import type { SuggestionBridge, SuggestionState } from '../suggestion-menu.ts';
import { findMentions, loadMentionCandidates, mentionInline, type MentionCandidate } from './mention-data.ts';

/** Its own key: the `/` menu's suggestion plugin holds the default one. */
const mentionPickerKey = new PluginKey('mentionPicker');

/**
 * `@` at the start of a word offers the organization's members and the space's pages whose names match (`@ada`),
 * as in GitBook, Notion or Outline; Enter, Tab or a click puts in GitBook's `mention` inline. An address such as
 * `ada@example.com` opens nothing (the `@` must start a word), and a query nothing matches leaves the keys to the text.
 */
export function mentionExtension(bridge: SuggestionBridge<MentionCandidate>, where: { organizationId: string; spaceId: string }) {
  return Extension.create({
    name: 'mentionPicker',
    addProseMirrorPlugins() {
      return [
        Suggestion<MentionCandidate, MentionCandidate>({
          editor: this.editor,
          pluginKey: mentionPickerKey,
          char: '@',
          startOfLine: false,
          allowSpaces: false,
          items: async ({ query }) => {
            try {
              return findMentions(await loadMentionCandidates(where.organizationId, where.spaceId), query);
            } catch {
              // Offline or refused: `@` stays text, as it would without the picker.
              return [];
            }
          },
          command: ({ editor, range, props }: { editor: Editor; range: Range; props: MentionCandidate }) => {
            editor
              .chain()
              .focus()
              .insertContentAt(range, [{ type: 'inlineAtom', attrs: { inline: mentionInline(props), leading: null } }, { type: 'text', text: ' ' }])
              .run();
          },
          render: () => {
            const show = (p: { items: MentionCandidate[]; query: string; clientRect?: (() => DOMRect | null) | null; command(item: MentionCandidate): void }) =>
              bridge.set(p.items.length === 0 ? null : { items: p.items, query: p.query, selected: 0, rect: p.clientRect?.() ?? null, measure: () => p.clientRect?.() ?? null, run: (item) => p.command(item) });
            return { onStart: show, onUpdate: show, onKeyDown: ({ event }) => bridge.key(event), onExit: () => bridge.set(null) };
          },
        }),
      ];
    },
  });
}

/** The members and pages found, at the caret on the kit's popover; the editor keeps the focus and the keys. */
export function MentionPicker({ editor, state }: { editor: Editor; state: SuggestionState<MentionCandidate> }) {
  const list = useRef<HTMLDivElement>(null);
  useSelectedInView(list, state.selected);
  const { rect, measure } = state;
  if (!rect) return null;
  return (
    <AnchoredPopover rect={() => measure?.() ?? rect} label="Mention a person or a page" className="qe-slash qe-mention" onEscape={() => exitSuggestion(editor.view, mentionPickerKey)}>
      <div ref={list} role="listbox" aria-label="Mention a person or a page" className="qe-slash-list" tabIndex={0} aria-activedescendant={`qe-mention-${state.selected}`}>
        {state.items.map((item, index) => (
          <CaretMenuOption key={`${item.kind}:${item.id}`} id={`qe-mention-${index}`} selected={index === state.selected} onChoose={() => state.run(item)}>
            {item.kind === 'user' ? <Avatar name={item.label} src={item.photo} size="sm" decorative /> : <Icon icon={faFileLines} />}
            <span className="qe-slash-text">
              <span className="qe-slash-title">{item.label}</span>{' '}
              {item.detail ? <span className="qe-slash-description">{item.detail}</span> : null}
            </span>
          </CaretMenuOption>
        ))}
      </div>
    </AnchoredPopover>
  );
}
