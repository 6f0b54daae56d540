import { NodeViewWrapper, type NodeViewProps } from '@tiptap/react';
import type { Ref } from '../files.ts';
import { blockOf, setData } from './block-data.ts';
import { Picture } from './media.tsx';

const NAMES: Record<string, string> = {
  math: 'Math', drawing: 'Drawing', if: 'Conditional content', openapi: 'OpenAPI', 'openapi-operation': 'OpenAPI operation',
  'openapi-schemas': 'OpenAPI schemas', 'openapi-webhook': 'OpenAPI webhook', integration: 'Integration block',
  'reusable-content': 'Reusable content', swagger: 'Swagger', prompt: 'Prompt',
};

/**
 * A block the editor keeps exactly as it is and shows as a card: GitBook's opaque blocks and any block the
 * model cannot give back unchanged (content/document/editor/blocks.ts). Math is the exception: its formula is edited here.
 */
export function OpaqueBlockView(props: NodeViewProps) {
  const block = blockOf(props);
  const name = NAMES[block.type] ?? block.type;
  if (block.type === 'math') {
    return (
      <NodeViewWrapper as="div" className="qe-card qe-math" data-quire="math">
        <label contentEditable={false}>
          <span className="qe-card-kind">Math formula (TeX)</span>
          <textarea rows={2} value={String(block.data?.formula ?? '')} readOnly={!props.editor.isEditable} onChange={(e) => setData(props, { formula: e.target.value })} />
        </label>
      </NodeViewWrapper>
    );
  }
  return (
    <NodeViewWrapper as="div" className="qe-card qe-readonly" data-quire="opaqueBlock" data-drag-handle>
      <span className="qe-card-kind">{name}</span> <span>kept as it is; not editable here yet</span>
    </NodeViewWrapper>
  );
}

type InlineJson = { type?: string; data?: Record<string, unknown>; nodes?: unknown };

/** The text of inline or block JSON, leaves joined: what an annotation's words and note say. */
function textOf(nodes: unknown): string {
  if (!Array.isArray(nodes)) return '';
  return nodes
    .map((node) => {
      const n = node as { object?: string; leaves?: { text?: string }[]; nodes?: unknown };
      return n?.object === 'text' ? (n.leaves ?? []).map((l) => l.text ?? '').join('') : textOf(n?.nodes);
    })
    .join('');
}

/** An inline kept as JSON: an emoji shows itself, inline math edits its formula, the rest are chips. */
export function InlineAtomView(props: NodeViewProps) {
  const inline = (props.node.attrs.inline ?? {}) as InlineJson;
  const data = inline.data ?? {};
  const update = (patch: Record<string, unknown>) => props.updateAttributes({ inline: { ...inline, data: { ...data, ...patch } } });
  switch (inline.type) {
    case 'emoji': {
      const code = String(data.code ?? '');
      const char = /^[0-9a-f]+(-[0-9a-f]+)*$/i.test(code) ? String.fromCodePoint(...code.split('-').map((c) => parseInt(c, 16))) : code;
      return <NodeViewWrapper as="span" className="qe-inline" role="img" aria-label={`Emoji ${code}`}>{char}</NodeViewWrapper>;
    }
    case 'inline-math':
      return (
        <NodeViewWrapper as="span" className="qe-inline qe-inline-math">
          <input aria-label="Inline formula" size={Math.max(4, String(data.formula ?? '').length)} value={String(data.formula ?? '')} readOnly={!props.editor.isEditable} onChange={(e) => update({ formula: e.target.value })} />
        </NodeViewWrapper>
      );
    case 'inline-image': {
      // As the reader shows it: a `line` image is as tall as the text around it; a dark variant shows in dark mode.
      const className = data.size === 'line' ? 'inline-image inline-image-line' : 'inline-image';
      const alt = String(data.alt ?? data.caption ?? '');
      return (
        <NodeViewWrapper as="span" className="qe-inline">
          {data.refDark ? (
            <>
              <Picture refJson={data.ref as Ref | undefined} alt={alt} width={undefined} className={`${className} only-light`} />
              <Picture refJson={data.refDark as Ref} alt={alt} width={undefined} className={`${className} only-dark`} />
            </>
          ) : (
            <Picture refJson={data.ref as Ref | undefined} alt={alt} width={undefined} className={className} />
          )}
        </NodeViewWrapper>
      );
    }
    case 'button': {
      // As the reader draws it (reader.css); its label and target are kept as they are.
      const label = String(data.label ?? '');
      return (
        <NodeViewWrapper as="span" className="qe-inline">
          <span className={`button button-${data.kind === 'secondary' ? 'secondary' : 'primary'}`}>{label || 'Button'}</span>
        </NodeViewWrapper>
      );
    }
    case 'annotation': {
      // The annotated words, underlined as readers see them; the note is the title the reader shows on hover.
      const words = textOf(inline.nodes);
      const note = (((inline as { fragments?: { nodes?: unknown }[] }).fragments ?? []).map((f) => textOf(f.nodes)).join(' ')).trim();
      return (
        <NodeViewWrapper as="span" className="qe-inline">
          <span className="annotation">{words}</span>
          {note ? <span className="sr-only"> ({note})</span> : null}
        </NodeViewWrapper>
      );
    }
    default:
      return <NodeViewWrapper as="span" className="qe-inline qe-readonly">{inline.type ?? 'inline'}</NodeViewWrapper>;
  }
}
