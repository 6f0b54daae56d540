import { Extension } from '@tiptap/core';
import type { Node as PMNode } from '@tiptap/pm/model';
import { Plugin, PluginKey, type EditorState } from '@tiptap/pm/state';
import { Decoration, DecorationSet } from '@tiptap/pm/view';
import type { CommentRange } from './contract.ts';

/*
 * The words comments were made on, highlighted where they are in the page: each comment names its block (by key,
 * as the API's `node`) and quotes the words selected when it was written. The words are found again in their block
 * as it reads now, so the highlight follows edits around them; words edited away leave the comment on the block.
 * A click on highlighted words tells the host, which shows their comments.
 */

const key = new PluginKey<DecorationSet>('commentRanges');

/** The key of a top-level node's block, held in its attributes' JSON (schema.ts keeps each block's shell there). */
function blockKey(node: PMNode): string | undefined {
  for (const value of Object.values(node.attrs)) {
    const json = value as { object?: unknown; key?: unknown } | null;
    if (json && typeof json === 'object' && typeof json.key === 'string' && (json.object === 'block' || json.object === undefined)) return json.key;
  }
  return undefined;
}

/** Where `text` is in `block` (at `start`): the first place its words read the same, spaces aside; null when gone. */
export function findWords(block: PMNode, start: number, text: string): { from: number; to: number } | null {
  const wanted = text.replace(/\s+/g, ' ').trim();
  if (!wanted) return null;
  // The block's text, one character per position, with where each character is.
  let read = '';
  const at: number[] = [];
  block.descendants((node, pos) => {
    if (node.isText) {
      for (let i = 0; i < node.text!.length; i++) {
        const char = /\s/.test(node.text![i]!) ? ' ' : node.text![i]!;
        if (char === ' ' && read.endsWith(' ')) continue;
        read += char;
        at.push(start + 1 + pos + i);
      }
    } else if (node.isBlock && read && !read.endsWith(' ')) {
      read += ' ';
      at.push(-1);
    }
    return true;
  });
  let index = read.indexOf(wanted);
  if (index < 0) index = read.toLowerCase().indexOf(wanted.toLowerCase());
  if (index < 0) return null;
  let first = index;
  while (at[first] === -1) first++;
  let last = index + wanted.length - 1;
  while (last > first && at[last] === -1) last--;
  return { from: at[first]!, to: at[last]! + 1 };
}

function decorations(state: EditorState, ranges: readonly CommentRange[]): DecorationSet {
  if (ranges.length === 0) return DecorationSet.empty;
  const byBlock = new Map<string, CommentRange[]>();
  for (const range of ranges) byBlock.set(range.node, [...(byBlock.get(range.node) ?? []), range]);
  const found: Decoration[] = [];
  state.doc.forEach((block, offset) => {
    const here = byBlock.get(blockKey(block) ?? '');
    if (!here) return;
    for (const range of here) {
      const words = findWords(block, offset, range.text);
      if (words) found.push(Decoration.inline(words.from, words.to, { class: range.active ? 'qe-comment-range qe-comment-range-active' : 'qe-comment-range', 'data-comment': range.id }));
    }
  });
  return DecorationSet.create(state.doc, found);
}

/** The highlights, read through `ranges()` (the host's latest); `refresh` after they change. */
export function commentRangesExtension(ranges: () => readonly CommentRange[], onClick: (ids: string[]) => void) {
  return Extension.create({
    name: 'commentRanges',
    addProseMirrorPlugins() {
      return [
        new Plugin<DecorationSet>({
          key,
          state: {
            init: (_, state) => decorations(state, ranges()),
            apply: (tr, old, _, state) => (tr.getMeta(key) || tr.docChanged ? decorations(state, ranges()) : old),
          },
          props: {
            decorations: (state) => key.getState(state),
            handleClick: (view, _pos, event) => {
              // Every comment whose words hold the click (words of two comments may overlap).
              const ids: string[] = [];
              for (let el = event.target instanceof Element ? event.target : null; el && el !== view.dom; el = el.parentElement) {
                const id = el.classList.contains('qe-comment-range') ? el.getAttribute('data-comment') : null;
                if (id && !ids.includes(id)) ids.push(id);
              }
              if (ids.length > 0) onClick(ids);
              // The caret still goes where the person clicked.
              return false;
            },
          },
        }),
      ];
    },
  });
}

/** Tells the plugin the host's highlights changed. */
export function refreshCommentRanges(view: { state: EditorState; dispatch(tr: ReturnType<EditorState['tr']['setMeta']>): void }): void {
  view.dispatch(view.state.tr.setMeta(key, true).setMeta('addToHistory', false));
}
