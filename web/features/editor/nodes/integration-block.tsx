import { NodeViewWrapper, type NodeViewProps } from '@tiptap/react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { faArrowRotateRight, faGear, faTrashCan } from '@fortawesome/free-solid-svg-icons';
import { buttonClass, IconButton } from '../../../ui/button.tsx';
import { Icon } from '../../../ui/icon.tsx';
import { ContentKitView } from '../../integrations/contentkit/contentkit-view.tsx';
import { installedBlocksOf, useApiBlocks, useLoaded } from '../api-blocks.ts';
import { blockOf, setData } from './block-data.ts';
import { integrationRenderOf } from './integration-blocks.ts';

/**
 * Asks a block's view to render again: the settings toolbar and the block's view share no React tree (the view is
 * TipTap's node view), so the toolbar sends this event to the block's element.
 */
const REFRESH = 'qe-integration-refresh';

export function refreshIntegrationBlock(dom: Node | null | undefined): void {
  const element = dom instanceof Element ? (dom.matches('.qe-integration-block') ? dom : dom.querySelector('.qe-integration-block')) : null;
  element?.dispatchEvent(new CustomEvent(REFRESH));
}

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
  // Each refresh draws the component anew from the block's stored props: its first render, asked again.
  const [renders, setRenders] = useState(0);
  const wrapper = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = wrapper.current;
    const refresh = () => setRenders((n) => n + 1);
    element?.addEventListener(REFRESH, refresh);
    return () => element?.removeEventListener(REFRESH, refresh);
  }, []);
  return (
    <NodeViewWrapper ref={wrapper} as="div" className="qe-integration-block" data-quire="opaqueBlock" data-drag-handle contentEditable={false} role="group" aria-label={label}>
      {host && render ? (
        <ContentKitView key={renders} integration={render.integration} componentId={render.componentId} props={render.props} context={{ ...host.blockContext, editable: props.editor.isEditable }} request={request} {...(props.editor.isEditable ? { onUpdateProps: updateProps } : {})} />
      ) : (
        <p className="qe-card qe-readonly" role="status">
          <span className="qe-card-kind">Integration block</span> {render ? 'shown once the editor is in a space' : 'names no integration or block: kept as it is'}
        </p>
      )}
    </NodeViewWrapper>
  );
}

/**
 * The settings toolbar of a selected integration block (block-settings.tsx): render it again, open the
 * integration's settings in the app (its installation's page where the person may see it), delete the block.
 */
export function IntegrationSettings({ data, onRefresh, onDelete }: { data: Record<string, unknown>; onRefresh(): void; onDelete(): void }) {
  const render = integrationRenderOf(data);
  const installed = useLoaded('installed', installedBlocksOf);
  const integration = installed?.state === 'ready' ? installed.value.find((i) => i.name === render?.integration) : undefined;
  const name = integration?.title ?? render?.integration ?? 'the integration';
  return (
    <>
      <IconButton size="sm" icon={faArrowRotateRight} label="Refresh" disabled={!render} onClick={onRefresh} />
      {integration?.settingsUrl ? (
        <a className={buttonClass('ghost', 'sm')} href={integration.settingsUrl} target="_blank" rel="noopener">
          <span className="ui-button-label">
            <Icon icon={faGear} /> Settings of {name}
          </span>
        </a>
      ) : null}
      <IconButton size="sm" icon={faTrashCan} label="Delete" onClick={onDelete} />
    </>
  );
}
