import { Extension } from '@tiptap/core';
import type { Node as PMNode } from '@tiptap/pm/model';
import { Plugin, PluginKey } from '@tiptap/pm/state';
import { Decoration, type DecorationSet } from '@tiptap/pm/view';
import { decorationsOf, mapDecorations } from './model/block-decorations.ts';

/*
 * A code block's line numbers, drawn while editing where the reader draws them (render-code.tsx numbers each
 * `span.line` from the stylesheet): a number before each line of a code block whose `lineNumbers` is on. A widget
 * at each line's start rather than a gutter beside the code: a wrapped line keeps its number on its first row, as
 * in the reader. The number is the widget's CSS content (editor.css), so copying the code does not copy it.
 */

const key = new PluginKey<DecorationSet>('quireCodeLineNumbers');

/** Where each line of a code block's text starts (offsets in its text): the start, and after each newline. */
export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

const numbered = (node: PMNode) =>
  node.type.name === 'codeBlock' && ((node.attrs.block as { data?: { lineNumbers?: unknown } } | null)?.data?.lineNumbers === true);

function lineNumber(line: number): HTMLElement {
  const span = document.createElement('span');
  span.className = 'qe-line-number';
  span.dataset.line = String(line);
  span.contentEditable = 'false';
  span.setAttribute('aria-hidden', 'true');
  return span;
}

/** The line numbers of the numbered code blocks in a top-level block at `pos` (code blocks sit in hints, tabs…). */
function numbersIn(block: PMNode, at: number): Decoration[] {
  const all: Decoration[] = [];
  const visit = (node: PMNode, pos: number): boolean => {
    if (node.type.name === 'codeBlock') {
      if (numbered(node)) {
        lineStarts(node.textContent).forEach((start, i) =>
          // side -1: the caret at a line's start sits after its number; the key lets an unchanged number be kept.
          all.push(Decoration.widget(pos + 1 + start, () => lineNumber(i + 1), { side: -1, key: `line-${i + 1}`, ignoreSelection: true })),
        );
      }
      return false;
    }
    return !node.isTextblock;
  };
  if (visit(block, at)) block.descendants((node, pos) => visit(node, at + 1 + pos));
  return all;
}

export const CodeLineNumbers = Extension.create({
  name: 'codeLineNumbers',
  addProseMirrorPlugins() {
    return [
      new Plugin<DecorationSet>({
        key,
        state: {
          init: (_, state) => decorationsOf(state.doc, numbersIn),
          apply: (tr, set) => mapDecorations(tr, set, numbersIn),
        },
        props: { decorations: (state) => key.getState(state) },
      }),
    ];
  },
});
