import type { NodeViewRenderer } from '@tiptap/core';
import type { Node as PMNode } from '@tiptap/pm/model';
import type { BlockJson } from './block-data.ts';

/*
 * A code block's node view: language (the node's `language`, our `data.syntax`), title, line numbers and
 * wrapping above the code, which is edited as text (highlighted by decorations: code-highlight.ts). Plain DOM rather than a
 * React node view: a page holds dozens of code blocks, and a React root each made opening a long page slow.
 */

type Field = { label: string; read(node: PMNode): string | boolean; write(node: PMNode, value: string | boolean): Record<string, unknown> };

const data = (node: PMNode) => ((node.attrs.block as BlockJson | null)?.data ?? {}) as Record<string, unknown>;
const withData = (node: PMNode, field: string, value: unknown): Record<string, unknown> => {
  // A code block made from a paragraph may still carry the paragraph's JSON (content/document/editor/blocks.ts drops it): start afresh.
  const current = node.attrs.block as BlockJson | null;
  const block: BlockJson = current?.type === 'code' ? current : { object: 'block', type: 'code', ...(typeof current?.key === 'string' ? { key: current.key } : {}), data: {}, nodes: [] };
  const next: Record<string, unknown> = { ...block.data };
  if (value === undefined) delete next[field];
  else next[field] = value;
  return { block: { ...block, data: next } };
};

const FIELDS: Field[] = [
  { label: 'Language', read: (n) => String(n.attrs.language ?? ''), write: (_, v) => ({ language: v || null }) },
  { label: 'Code title', read: (n) => String(data(n).title ?? ''), write: (n, v) => withData(n, 'title', v || undefined) },
  { label: 'Line numbers', read: (n) => data(n).lineNumbers === true, write: (n, v) => withData(n, 'lineNumbers', v ? true : undefined) },
  { label: 'Wrap lines', read: (n) => data(n).overflow === 'wrap', write: (n, v) => withData(n, 'overflow', v ? 'wrap' : undefined) },
];

export const codeBlockView: NodeViewRenderer = ({ node: initial, editor, getPos }) => {
  let node = initial;
  const dom = document.createElement('div');
  dom.className = 'qe-code';
  dom.dataset.quire = 'code';
  const tools = document.createElement('div');
  tools.className = 'qe-block-tools';
  tools.contentEditable = 'false';
  const pre = document.createElement('pre');
  const code = document.createElement('code');
  pre.append(code);
  dom.append(tools, pre);

  const inputs = FIELDS.map((field) => {
    const label = document.createElement('label');
    const input = document.createElement('input');
    const boolean = typeof field.read(node) === 'boolean';
    if (boolean) input.type = 'checkbox';
    else input.size = field.label === 'Language' ? 10 : 16;
    input.addEventListener(boolean ? 'change' : 'input', () => {
      const pos = getPos();
      if (typeof pos !== 'number') return;
      const attrs = field.write(node, boolean ? input.checked : input.value);
      editor.view.dispatch(editor.state.tr.setNodeMarkup(pos, undefined, { ...node.attrs, ...attrs }));
    });
    if (boolean) label.append(input, ` ${field.label}`);
    else label.append(`${field.label} `, input);
    tools.append(label);
    return { field, input, boolean };
  });

  const render = () => {
    const editable = editor.isEditable;
    for (const { field, input, boolean } of inputs) {
      const value = field.read(node);
      if (boolean) input.checked = value === true;
      else if (input.value !== value) input.value = String(value);
      input.disabled = boolean && !editable;
      input.readOnly = !editable;
    }
    pre.classList.toggle('qe-code-wrap', data(node).overflow === 'wrap');
    pre.toggleAttribute('data-line-numbers', data(node).lineNumbers === true);
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
    stopEvent: (event) => tools.contains(event.target as Node),
    ignoreMutation: (mutation) => tools.contains(mutation.target),
  };
};
