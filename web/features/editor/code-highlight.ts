import { Extension } from '@tiptap/core';
import type { Node as PMNode } from '@tiptap/pm/model';
import { Plugin, PluginKey, type EditorState } from '@tiptap/pm/state';
import { Decoration, DecorationSet, type EditorView } from '@tiptap/pm/view';
import { highlightCode, highlightedNow, tokenClasses, type HighlightedLines } from '../code/highlight.ts';

/*
 * Code blocks highlighted while editing, as the reader highlights them (features/code/highlight.ts: shiki,
 * the reader's `c-token-*` classes), as ProseMirror decorations over the code's text. Typing must not wait on
 * it: while one types, the decorations only move with the text (a mapping, cheap); a short while after typing
 * stops, the code blocks whose text changed are tokenized again (each node's result is kept, so an unchanged
 * block costs nothing) and the set is rebuilt in one transaction.
 */

export const HIGHLIGHT_DELAY_MS = 150;
const key = new PluginKey<DecorationSet>('quireCodeHighlight');

/** Token ranges of a code block's text (offsets in its text) and their classes. */
type Ranges = { from: number; to: number; className: string }[];

const cache = new WeakMap<PMNode, Ranges | null>();

function rangesFrom(lines: HighlightedLines | null): Ranges | null {
  if (!lines) return null;
  const ranges: Ranges = [];
  let offset = 0;
  for (const line of lines) {
    for (const token of line) {
      const className = tokenClasses(token);
      if (className && token.text) ranges.push({ from: offset, to: offset + token.text.length, className });
      offset += token.text.length;
    }
    offset += 1; // the line's "\n"
  }
  return ranges;
}

function rangesOf(node: PMNode): Promise<Ranges | null> {
  return highlightCode(String(node.attrs.language ?? ''), node.textContent).then(rangesFrom);
}

/** The decorations of the code blocks whose tokens are already known (the page view asked for them): none waits. */
function decorationsKnownNow(doc: PMNode): DecorationSet {
  for (const { node } of codeBlocks(doc)) {
    if (cache.has(node)) continue;
    const lines = highlightedNow(String(node.attrs.language ?? ''), node.textContent);
    if (lines !== undefined) cache.set(node, rangesFrom(lines));
  }
  return decorations(doc);
}

function codeBlocks(doc: PMNode): { node: PMNode; pos: number }[] {
  const found: { node: PMNode; pos: number }[] = [];
  doc.descendants((node, pos) => {
    if (node.type.name === 'codeBlock') {
      if (node.attrs.language) found.push({ node, pos });
      return false;
    }
    // Only blocks hold code blocks: no need to walk the inline content of paragraphs.
    return !node.isTextblock;
  });
  return found;
}

function decorations(doc: PMNode): DecorationSet {
  const all: Decoration[] = [];
  for (const { node, pos } of codeBlocks(doc)) {
    for (const range of cache.get(node) ?? []) all.push(Decoration.inline(pos + 1 + range.from, pos + 1 + range.to, { class: range.className }));
  }
  return DecorationSet.create(doc, all);
}

class Highlighter {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private destroyed = false;
  /** The code blocks the decorations were last built for: when they are the same nodes, mapping kept them right. */
  private shown: PMNode[] = [];

  constructor(private readonly view: EditorView) {
    // Drawn coloured from the start when every block's tokens were known (decorationsKnownNow): nothing to redraw.
    const blocks = codeBlocks(view.state.doc);
    if (blocks.every(({ node }) => cache.has(node))) this.shown = blocks.map(({ node }) => node);
    this.schedule(0);
  }

  update(view: EditorView, previous: EditorState): void {
    if (view.state.doc !== previous.doc) this.schedule(HIGHLIGHT_DELAY_MS);
  }

  destroy(): void {
    this.destroyed = true;
    clearTimeout(this.timer);
  }

  private schedule(delay: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.run(), delay);
  }

  private async run(): Promise<void> {
    const doc = this.view.state.doc;
    const blocks = codeBlocks(doc);
    if (blocks.length === this.shown.length && blocks.every(({ node }, i) => node === this.shown[i])) return;
    const missing = blocks.filter(({ node }) => !cache.has(node));
    await Promise.all(
      missing.map(({ node }) =>
        rangesOf(node).then(
          (ranges) => cache.set(node, ranges),
          () => cache.set(node, null),
        ),
      ),
    );
    // Typed meanwhile: the next run (already scheduled) highlights the newer text.
    if (this.destroyed || this.view.state.doc !== doc) return;
    this.shown = blocks.map(({ node }) => node);
    this.view.dispatch(this.view.state.tr.setMeta(key, decorations(doc)).setMeta('addToHistory', false));
  }
}

export const CodeHighlight = Extension.create({
  name: 'codeHighlight',
  addProseMirrorPlugins() {
    return [
      new Plugin<DecorationSet>({
        key,
        state: {
          init: (_config, state) => decorationsKnownNow(state.doc),
          apply: (tr, set) => (tr.getMeta(key) as DecorationSet | undefined) ?? (tr.docChanged ? set.map(tr.mapping, tr.doc) : set),
        },
        props: { decorations: (state) => key.getState(state) },
        view: (view) => new Highlighter(view),
      }),
    ];
  },
});
