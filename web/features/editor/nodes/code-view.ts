import type { NodeViewRenderer } from '@tiptap/core';
import type { Node as PMNode } from '@tiptap/pm/model';
import { TextSelection } from '@tiptap/pm/state';
import { blockWithData, setNodeAttrs } from '../model/block-settings-target.ts';
import type { BlockJson } from './block-data.ts';

/*
 * A code block's node view, drawn as the reader draws it (render-code.tsx: `code-block`, its title bar, `pre.code`):
 * the title is edited in place in the title bar; the language, line numbers and wrapping are set from the block's
 * settings toolbar (block-settings.tsx). The code is edited as text (highlighted by decorations: code-highlight.ts).
 * Plain DOM rather than a React node view: a page holds dozens of code blocks, and a React root each made opening a
 * long page slow. The title is an editable span, not an input: Chrome's autofill reads every form field a page adds
 * (a task 100 ms after they are added), and each one inside a block `content-visibility` skips made it lay that
 * block out — ~40 ms on the 300-block page, landing just when the person starts typing (issue 42).
 */

const data = (node: PMNode) => ((node.attrs.block as BlockJson | null)?.data ?? {}) as Record<string, unknown>;

export const codeBlockView: NodeViewRenderer = ({ node: initial, editor, getPos }) => {
  let node = initial;
  const dom = document.createElement('figure');
  dom.dataset.quire = 'code';
  const header = document.createElement('figcaption');
  header.className = 'code-header';
  header.contentEditable = 'false';
  const title = document.createElement('span');
  title.className = 'code-title';
  title.setAttribute('role', 'textbox');
  title.setAttribute('aria-label', 'Code title');
  header.append(title);
  const typed = () => (title.textContent ?? '').replace(/\s*[\r\n]+\s*/g, ' ');
  const pre = document.createElement('pre');
  pre.className = 'code';
  const code = document.createElement('code');
  pre.append(code);
  dom.append(header, pre);

  title.addEventListener('input', () => {
    const pos = getPos();
    if (typeof pos !== 'number') return;
    editor.view.dispatch(setNodeAttrs(editor.state.tr, pos, { block: blockWithData(node, 'code', { title: typed() || undefined }) }));
  });
  // One line, as the reader's title bar: a line break typed or pasted is not taken (Enter goes on to the code).
  title.addEventListener('beforeinput', (event) => {
    if (event.inputType === 'insertParagraph' || event.inputType === 'insertLineBreak') event.preventDefault();
  });
  // Enter or the down arrow in the title goes on to the code, as from a title to its text.
  title.addEventListener('keydown', (event) => {
    if (event.key !== 'Enter' && event.key !== 'ArrowDown') return;
    const pos = getPos();
    if (typeof pos !== 'number') return;
    event.preventDefault();
    // At once, not a frame later as TipTap's focus command does: a key typed right after Enter belongs to the code.
    const { state } = editor.view;
    editor.view.dispatch(state.tr.setSelection(TextSelection.create(state.doc, pos + 1)).scrollIntoView());
    editor.view.focus();
  });

  const render = () => {
    const value = String(data(node).title ?? '');
    // What the person is typing is already shown: written again, the caret would go back to the start.
    if (typed() !== value) title.textContent = value;
    title.contentEditable = editor.isEditable ? 'plaintext-only' : 'false';
    title.setAttribute('aria-readonly', String(!editor.isEditable));
    if (editor.isEditable) title.dataset.placeholder = 'Add a title';
    else delete title.dataset.placeholder;
    const classes = ['code-block', 'qe-code'];
    if (data(node).lineNumbers === true) classes.push('with-line-numbers');
    if (data(node).overflow === 'wrap') classes.push('wrap');
    dom.className = classes.join(' ');
    pre.classList.toggle('qe-code-wrap', data(node).overflow === 'wrap');
    pre.toggleAttribute('data-line-numbers', data(node).lineNumbers === true);
    if (node.attrs.language) pre.dataset.language = String(node.attrs.language);
    else delete pre.dataset.language;
  };
  render();

  return {
    dom,
    contentDOM: code,
    update(next) {
      if (next.type !== node.type) return false;
      node = next;
      render();
      return true;
    },
    stopEvent: (event) => header.contains(event.target as Node),
    ignoreMutation: (mutation) => header.contains(mutation.target),
  };
};
