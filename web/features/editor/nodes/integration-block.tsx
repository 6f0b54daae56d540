import { NodeViewWrapper, type NodeViewProps } from '@tiptap/react';
import { useCallback } from 'react';
import { ContentKitView } from '../../integrations/contentkit/contentkit-view.tsx';
import { useApiBlocks } from '../api-blocks.ts';
import { blockOf, setData } from './block-data.ts';
import { integrationRenderOf } from './integration-blocks.ts';

/*
 * An `integration` block as GitBook shows it: the integration renders its ContentKit component (the block's
 * `block` id, its `props`) in the space's context, drawn by the app's ContentKit view (integrations/contentkit).
 * The render request goes through the editor's host (contract.ts `apiBlocks`); a failure says why in the view, and
 * the block is kept as it is whatever the integration answers, but for the props its component asks to store
 * (`@editor.node.updateProps`).
 */
export function IntegrationBlockView(props: NodeViewProps) {
  const host = useApiBlocks();
  const block = blockOf(props);
  const render = integrationRenderOf(block.data);
  const request = useCallback((integration: string, body: Record<string, unknown>) => host!.renderIntegration(integration, body), [host]);
  // The component's `@editor.node.updateProps`: its new props stored in the block, saved and undone like typing.
  const updateProps = (next: Record<string, unknown>) => setData(props, { props: next });
  const label = render ? `Integration block ${render.integration}: ${render.componentId}` : 'Integration block';
  return (
    <NodeViewWrapper as="div" className="qe-integration-block" data-quire="opaqueBlock" data-drag-handle contentEditable={false} role="group" aria-label={label}>
      {host && render ? (
        <ContentKitView integration={render.integration} componentId={render.componentId} props={render.props} context={{ ...host.blockContext, editable: props.editor.isEditable }} request={request} {...(props.editor.isEditable ? { onUpdateProps: updateProps } : {})} />
      ) : (
        <p className="qe-card qe-readonly" role="status">
          <span className="qe-card-kind">Integration block</span> {render ? 'shown once the editor is in a space' : 'names no integration or block: kept as it is'}
        </p>
      )}
    </NodeViewWrapper>
  );
}
