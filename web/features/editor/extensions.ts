import { Extension, type AnyExtension } from '@tiptap/core';
import { Plugin, TextSelection } from '@tiptap/pm/state';
import type { EditorView } from '@tiptap/pm/view';
import { ReactNodeViewRenderer, type NodeViewProps, type ReactNodeViewRendererOptions } from '@tiptap/react';
import { Dropcursor, Gapcursor, Placeholder } from '@tiptap/extensions';
import { createElement, type FunctionComponent } from 'react';
import { CodeHighlight } from './code-highlight.ts';
import { CodeLineNumbers } from './code-line-numbers.ts';
import * as model from '../../../src/features/content/document/editor/schema.ts';
import { randomKey } from '../../../src/features/content/document/keys.ts';
import { uniqueKeysPlugin } from './model/unique-keys.ts';
import { codeBlockView } from './nodes/code-view.ts';
import { InlineAtomView, OpaqueBlockView } from './nodes/cards.tsx';
import { ConditionalView } from './nodes/conditional.tsx';
import { ConditionalKeys } from './nodes/conditional-keys.ts';
import { openSelectedFormula } from './formula-requests.ts';
import { SharedUndo } from './shared-binding.ts';
import { ExpandableView, FragmentView, HintView, TabsItemView, TabsView } from './nodes/containers.tsx';
import { ColumnsView, ColumnView, StepperStepView, StepperView, UpdatesView, UpdateView } from './nodes/layout.tsx';
import { LayoutKeys } from './nodes/layout-keys.ts';
import { LayoutParts, redrawOnNewPlace } from './nodes/layout-parts.ts';
import { ContentRefView, EmbedView, FileView, ImagesView, ImageView } from './nodes/media.tsx';
import { PromptView } from './nodes/prompt.tsx';
import { TableView } from './nodes/table.tsx';

/*
 * The schema's extensions (src/features/content/document/editor/schema.ts) with the editor's node views and
 * behaviour: undo/redo, drop and gap cursors, a placeholder, Shift-Enter for a line break (our texts hold `\n`;
 * there is no hard-break node), code highlighted as the reader does, one key per node (model/unique-keys.ts), keys
 * handled at the caret the browser shows (CaretFirst), Enter and Backspace at the edges of steps, columns and updates
 * (nodes/layout-keys.ts).
 */

type View = FunctionComponent<NodeViewProps>;
/** How a view is drawn around its React component: its element's tag and class, its children's element and class. */
type Rendering = Partial<ReactNodeViewRendererOptions> & { contentClass?: string };
const withView = <T extends { extend: (config: object) => T }>(extension: T, view: View, rendering: Rendering = {}): T =>
  extension.extend({
    addNodeView: () => {
      const { contentClass, ...options } = rendering;
      const render = ReactNodeViewRenderer(view as never, options);
      if (!contentClass) return render;
      return (props: Parameters<typeof render>[0]) => {
        const nodeView = render(props) as { contentDOM?: HTMLElement | null };
        nodeView.contentDOM?.classList.add(contentClass);
        return nodeView as ReturnType<typeof render>;
      };
    },
  });

/*
 * The layout blocks are drawn in the reader's elements and classes (reader.css): a stepper's steps are the
 * `li.step` items of its `ol.stepper`, columns the `div.column` items of the `div.columns` grid, updates the
 * `section.update` entries of `div.updates`. The elements ProseMirror puts children in are those, so the
 * reader's list numbering and grid apply as they are.
 */
const RENDERED_AS = new Map<AnyExtension, Rendering>([
  [model.Stepper, { contentDOMElementTag: 'ol', contentClass: 'stepper' }],
  [model.StepperStep, { as: 'li', className: 'step', update: redrawOnNewPlace }],
  [model.Columns, { contentClass: 'columns' }],
  [model.Column, { className: 'column', update: redrawOnNewPlace }],
  [model.Updates, { contentClass: 'updates' }],
  [model.Update, { as: 'section', className: 'update', update: redrawOnNewPlace }],
]);

/*
 * A character typed into text is inserted by ProseMirror, not by the browser. Left to the browser, each key
 * runs Blink's editing command over the whole editable (about 7 ms a key in a 300-block page: a forced layout,
 * selection syncing) before ProseMirror reads the change back from the DOM; ProseMirror itself takes this path
 * for any selection that is not a text selection inside one block (prosemirror-view's keypress handler). Typing
 * still goes through `handleTextInput`, so input rules and the `/` menu see every character. Composition (IME,
 * dead keys) never reaches keypress and stays the browser's, as does a key typed before ProseMirror has read
 * where the browser's caret went.
 */
/**
 * Whether the editor's selection is where the browser's is. ProseMirror reads a selection the browser moved (a
 * click, End) on `selectionchange`, which may come after a key typed right away: then the browser types it,
 * where its caret is, and ProseMirror reads the change back.
 */
function selectionIsRead(view: EditorView): boolean {
  const dom = (view.root as Document).getSelection?.();
  if (!dom?.anchorNode || !dom.focusNode) return false;
  try {
    const { anchor, head } = view.state.selection;
    return view.posAtDOM(dom.anchorNode, dom.anchorOffset) === anchor && view.posAtDOM(dom.focusNode, dom.focusOffset) === head;
  } catch {
    return false;
  }
}

/*
 * The selection the browser has, taken before any key is handled. A key the browser handles (End, Home, an arrow,
 * a click) moves the DOM's caret at once, but ProseMirror reads it on `selectionchange`, a task later: a key sent
 * right after (a fast typist, a keyboard macro) was handled at the old caret, so End then Enter split the block
 * where the caret had been. prosemirror-view's DOM observer has no public way to read the selection now; its
 * `flush` is what `selectionchange` runs, and does nothing when the two agree.
 */
interface ObservedView {
  domObserver?: { flush(): void };
}
function takeBrowserSelection(view: EditorView): void {
  if (view.composing || selectionIsRead(view)) return;
  (view as unknown as ObservedView).domObserver?.flush();
  if (selectionIsRead(view)) return;
  // The observer had already seen this selection: the editor's moved while it was not focused (a menu's command),
  // and the person clicked back where the page's caret still was, which the browser does not report as a change.
  const shown = browserTextSelection(view);
  if (shown) view.dispatch(view.state.tr.setSelection(shown));
}

/** The browser's selection as a text selection, when it and the editor's are both in text the editor holds. */
function browserTextSelection(view: EditorView): TextSelection | null {
  const dom = (view.root as Document).getSelection?.();
  if (!dom?.anchorNode || !dom.focusNode || !(view.state.selection instanceof TextSelection)) return null;
  for (const node of [dom.anchorNode, dom.focusNode]) {
    const element = node.nodeType === Node.TEXT_NODE ? node.parentElement : (node as HTMLElement);
    if (!element?.isContentEditable || !view.dom.contains(element)) return null;
  }
  try {
    const anchor = view.posAtDOM(dom.anchorNode, dom.anchorOffset);
    const head = view.posAtDOM(dom.focusNode, dom.focusOffset);
    const { doc } = view.state;
    if (!doc.resolve(anchor).parent.inlineContent || !doc.resolve(head).parent.inlineContent) return null;
    return TextSelection.create(doc, anchor, head);
  } catch {
    return null;
  }
}

const CaretFirst = Extension.create({
  name: 'caretFirst',
  // Before every extension's keyboard shortcuts, which act at the editor's selection.
  priority: 10_000,
  addProseMirrorPlugins() {
    return [
      new Plugin({
        props: {
          handleKeyDown(view, event) {
            if (!event.isComposing && event.keyCode !== 229) takeBrowserSelection(view);
            return false;
          },
        },
      }),
    ];
  },
});

const TypedText = Extension.create({
  name: 'typedText',
  addProseMirrorPlugins() {
    return [
      new Plugin({
        props: {
          handleKeyPress(view, event) {
            const text = String.fromCharCode(event.charCode);
            if (/[\r\n]/.test(text) || !selectionIsRead(view)) return false;
            const { from, to } = view.state.selection;
            const deflt = () => view.state.tr.insertText(text).scrollIntoView();
            if (!view.someProp('handleTextInput', (f) => f(view, from, to, text, deflt))) view.dispatch(deflt());
            return true;
          },
        },
      }),
    ];
  },
});

const UniqueKeys = Extension.create({
  name: 'uniqueKeys',
  addProseMirrorPlugins: () => [uniqueKeysPlugin(randomKey)],
});

const LineBreak = Extension.create({
  name: 'lineBreak',
  addKeyboardShortcuts() {
    return { 'Shift-Enter': () => this.editor.commands.insertContent('\n') };
  },
});

/** Enter on a selected formula opens its editor, before lists or paragraphs take the key. */
const FormulaKeys = Extension.create({
  name: 'formulaKeys',
  priority: 1000,
  addKeyboardShortcuts() {
    return { Enter: () => openSelectedFormula(this.editor) };
  },
});

export function editorExtensions(options: { spaceId: string; extra?: AnyExtension[] }): AnyExtension[] {
  const inSpace = (view: FunctionComponent<NodeViewProps & { spaceId: string }>): View => (props) => createElement(view, { ...props, spaceId: options.spaceId });
  const views = new Map<AnyExtension, View>([
    [model.Hint, HintView], [model.Tabs, TabsView], [model.TabsItem, TabsItemView], [model.Expandable, ExpandableView],
    [model.Fragment, FragmentView], [model.Images, ImagesView], [model.Image, inSpace(ImageView)], [model.Embed, EmbedView],
    [model.FileBlock, inSpace(FileView)], [model.ContentRef, inSpace(ContentRefView)], [model.Table, inSpace(TableView)],
    [model.Stepper, StepperView], [model.StepperStep, StepperStepView], [model.Columns, ColumnsView], [model.Column, ColumnView],
    [model.Updates, UpdatesView], [model.Update, UpdateView], [model.Conditional, inSpace(ConditionalView)], [model.Prompt, PromptView], [model.OpaqueBlock, OpaqueBlockView], [model.InlineAtom, inSpace(InlineAtomView)]
  ]);
  return [
    ...model.schemaExtensions.map((extension) => {
      if (extension === model.QuireCodeBlock) return model.QuireCodeBlock.extend({ addNodeView: () => codeBlockView });
      const view = views.get(extension);
      return view ? withView(extension as never, view, RENDERED_AS.get(extension)) : extension;
    }),
    // Undo and redo: the editor's history, Yjs's once the page is edited together (shared-binding.ts).
    SharedUndo,
    Dropcursor,
    Gapcursor,
    Placeholder.configure({ placeholder: 'Write, or type / for a block' }),
    CaretFirst,
    LineBreak,
    FormulaKeys,
    TypedText,
    UniqueKeys,
    CodeHighlight,
    CodeLineNumbers,
    LayoutKeys,
    ConditionalKeys,
    LayoutParts,
    ...(options.extra ?? []),
  ];
}
