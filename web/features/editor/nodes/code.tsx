import { NodeViewContent, NodeViewWrapper, type NodeViewProps } from '@tiptap/react';
import { blockOf, setData } from './block-data.ts';

/** A code block: language (the node's `language`, our `data.syntax`), title, line numbers and wrapping. Not highlighted while editing. */
export function CodeBlockView(props: NodeViewProps) {
  const data = blockOf(props).data ?? {};
  const editable = props.editor.isEditable;
  const wrap = data.overflow === 'wrap';
  return (
    <NodeViewWrapper as="div" className="qe-code" data-quire="code">
      <div className="qe-block-tools" contentEditable={false}>
        <label>
          Language <input size={10} value={String(props.node.attrs.language ?? '')} readOnly={!editable} onChange={(e) => props.updateAttributes({ language: e.target.value || null })} />
        </label>
        <label>
          Code title <input size={16} value={String(data.title ?? '')} readOnly={!editable} onChange={(e) => setData(props, { title: e.target.value || undefined })} />
        </label>
        <label>
          <input type="checkbox" checked={data.lineNumbers === true} disabled={!editable} onChange={(e) => setData(props, { lineNumbers: e.target.checked ? true : undefined })} /> Line numbers
        </label>
        <label>
          <input type="checkbox" checked={wrap} disabled={!editable} onChange={(e) => setData(props, { overflow: e.target.checked ? 'wrap' : undefined })} /> Wrap lines
        </label>
      </div>
      <pre className={wrap ? 'qe-code-wrap' : undefined} data-line-numbers={data.lineNumbers === true ? 'true' : undefined}>
        <NodeViewContent<'code'> as="code" />
      </pre>
    </NodeViewWrapper>
  );
}
