import { NodeViewWrapper, type NodeViewProps } from '@tiptap/react';
import { useContext } from 'react';
import type { Ref } from '../files.ts';
import { useRefName } from '../../pages/ref-titles.ts';
import { blockOf } from './block-data.ts';
import { DrawingView } from './drawing.tsx';
import { InlineMathView, MathBlockView } from './formula.tsx';
import { AnnotationView, ButtonView, ExpressionView as EditableExpression, IconView } from './inline-views.tsx';
import { IntegrationBlockView } from './integration-block.tsx';
import { OpenAPIOperationView, OpenAPISchemasView } from './openapi.tsx';
import { OPERATION_BLOCK_KINDS } from './openapi-operations.ts';
import { Picture } from './media.tsx';
import { ReusableContext } from '../reusable/reusable-directory.ts';
import { reusableRefOf } from '../reusable/reusable-model.ts';
import { ReusableContentView } from '../reusable/reusable-view.tsx';

const NAMES: Record<string, string> = {
  drawing: 'Drawing', if: 'Conditional content', openapi: 'OpenAPI', 'openapi-operation': 'OpenAPI operation',
  'openapi-schemas': 'OpenAPI schemas', 'openapi-webhook': 'OpenAPI webhook', integration: 'Integration block',
  'reusable-content': 'Reusable content', swagger: 'Swagger', prompt: 'Prompt',
};

/**
 * A block the editor keeps exactly as it is and shows as a card: GitBook's opaque blocks and any block the
 * model cannot give back unchanged (content/document/editor/blocks.ts). Math, OpenAPI operations, webhooks and schemas,
 * integration blocks and reusable content are the exceptions: they show as readers see them (formula.tsx, openapi.tsx,
 * integration-block.tsx, reusable/); a drawing shows as readers see it, read-only (drawing.tsx).
 */
export function OpaqueBlockView(props: NodeViewProps) {
  const block = blockOf(props);
  const name = NAMES[block.type] ?? block.type;
  // Reusable content of this space shows its blocks where the host reads them (reusable/); another space's stays a card.
  const reusable = useContext(ReusableContext) ? reusableRefOf(block) : undefined;
  if (block.type === 'math') return <MathBlockView {...props} />;
  if (block.type === 'drawing') return <DrawingView {...props} />;
  if (reusable && !reusable.space) return <ReusableContentView props={props} id={reusable.id} />;
  if (OPERATION_BLOCK_KINDS[block.type]) return <OpenAPIOperationView {...props} />;
  if (block.type === 'openapi-schemas') return <OpenAPISchemasView {...props} />;
  if (block.type === 'integration') return <IntegrationBlockView {...props} />;
  return (
    <NodeViewWrapper as="div" className="qe-card qe-readonly" data-quire="opaqueBlock" data-drag-handle>
      <span className="qe-card-kind">{name}</span> <span>kept as it is; not editable here yet</span>
    </NodeViewWrapper>
  );
}

type InlineJson = { type?: string; data?: Record<string, unknown>; nodes?: unknown };

/** What a mention names where its target has no name this person can see. */
const MISSING: Record<string, string> = { page: 'Missing page', anchor: 'Missing page', user: 'Unknown person', space: 'Missing space' };

/** A mention as the page view draws it: a link's look and its target's name (ref-titles.ts). */
function MentionView({ spaceId, refJson }: { spaceId: string; refJson: (Ref & { space?: string; user?: string }) | undefined }) {
  const name = useRefName(spaceId, refJson);
  if (refJson?.kind === 'url') return <span className="mention">{refJson.url}</span>;
  if (name === undefined) return <span className="mention" aria-busy="true">…</span>;
  return name ? <span className="mention">{name}</span> : <span className="mention qe-missing">{MISSING[refJson?.kind ?? ''] ?? 'Missing link'}</span>;
}

/** An inline kept as JSON, drawn as readers see it where the editor can; only an unknown inline shows its type. */
export function InlineAtomView(props: NodeViewProps & { spaceId: string }) {
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
      return <InlineMathView props={props} formula={String(data.formula ?? '')} update={update} />;
    case 'icon':
      return <IconView props={props} />;
    case 'mention':
      return (
        <NodeViewWrapper as="span" className="qe-inline">
          <MentionView spaceId={props.spaceId} refJson={data.ref as Ref | undefined} />
        </NodeViewWrapper>
      );
    case 'expression':
      return <EditableExpression props={props} />;
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
    case 'button':
      return <ButtonView props={props} spaceId={props.spaceId} />;
    case 'annotation':
      return <AnnotationView props={props} />;
    default:
      return <NodeViewWrapper as="span" className="qe-inline qe-readonly">{inline.type ?? 'inline'}</NodeViewWrapper>;
  }
}
