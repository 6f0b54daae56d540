import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { api } from '../../../api/client.ts';
import { ErrorNote, Skeleton } from '../../../ui/states.tsx';
import { ContentKitElement, type ElementContext } from './elements.tsx';
import { initialStateOf, routeAction, safeHttpUrl, type ContentKitState } from './state.ts';
import { Button } from '../../../ui/button.tsx';
import { Dialog } from '../../../ui/dialogs.tsx';

/** The official ContentKit context and render output (RenderIntegrationUI, ContentKitRenderOutput). */
export type ContentKitContext = { type: string; theme: 'light' | 'dark' } & Record<string, unknown>;
type RenderOutput =
  | { type?: 'element'; element: Record<string, unknown>; state: ContentKitState; props: Record<string, unknown> }
  | { type: 'complete'; returnValue?: Record<string, unknown> };

interface Props {
  integration: string;
  componentId: string;
  props: Record<string, unknown>;
  context: ContentKitContext;
  /** The component finished (`complete`), with its return value: a configuration flow is done. */
  onComplete?: (returnValue: Record<string, unknown>) => void;
  /** Inside a modal: `@ui.modal.close` closes it and hands its return value to the parent. */
  onClose?: (returnValue: Record<string, unknown>) => void;
  /**
   * In a document block: `@editor.node.updateProps` stores these props in the block (the editor saves them), and the
   * component renders again with them. Elsewhere the action goes to the integration as any other.
   */
  onUpdateProps?: (props: Record<string, unknown>) => void;
  /** Sends a render request (renderIntegrationUIWithPost) its own way: the editor's host answers it (editor/contract.ts). */
  request?: (integration: string, body: Record<string, unknown>) => Promise<unknown>;
}

const postRender = (integration: string, body: Record<string, unknown>) => api<unknown>('POST', `/integrations/${integration}/render`, { body });

/**
 * An integration's own UI, rendered by the integration through the render API (renderIntegrationUIWithPost): the
 * first render with its props, then one render per action with the state the person gave its inputs. GitBook's
 * `@ui.*` actions stay here: a modal is another component rendered in a dialog, whose close action comes back to
 * this one as `@ui.modal.close` with its return value.
 */
export function ContentKitView({ integration, componentId, props, context, onComplete, onClose, onUpdateProps, request = postRender }: Props) {
  const [output, setOutput] = useState<Extract<RenderOutput, { element: unknown }> | null>(null);
  const [state, setState] = useState<ContentKitState>({});
  const [busy, setBusy] = useState(true);
  const [error, setError] = useState<unknown>(null);
  const [modal, setModal] = useState<{ componentId: string; props: Record<string, unknown> } | null>(null);
  const current = useRef({ props, state, rendered: false });
  current.current = { props: output?.props ?? props, state, rendered: output !== null };

  const render = useCallback(
    async (action?: Record<string, unknown>) => {
      setBusy(true);
      setError(null);
      try {
        const answer = (await request(integration, {
          // The first render sends no state, so the component starts from its own initial state.
          componentId, props: current.current.props, ...(current.current.rendered ? { state: current.current.state } : {}), context, ...(action ? { action } : {}),
        })) as RenderOutput;
        if (answer.type === 'complete') {
          onComplete?.(answer.returnValue ?? {});
          return;
        }
        setOutput(answer);
        setState(initialStateOf(answer.element, answer.state ?? {}));
      } catch (e) {
        setError(e);
      } finally {
        setBusy(false);
      }
    },
    // The context is a new object on each render of the host; what it says is what counts.
    [integration, componentId, JSON.stringify(context), onComplete, request],
  );

  useEffect(() => {
    void render();
  }, [render]);

  const act = (action: Record<string, unknown>) => {
    const route = routeAction(action);
    if (route.kind === 'open-modal') setModal({ componentId: route.componentId, props: route.props });
    else if (route.kind === 'close-modal') onClose?.(route.returnValue);
    else if (route.kind === 'update-props' && onUpdateProps) {
      onUpdateProps(route.props);
      current.current = { ...current.current, props: route.props };
      void render();
    } else if (route.kind === 'open-url') {
      const url = safeHttpUrl(route.url);
      if (url) window.open(url, '_blank', 'noopener,noreferrer');
    } else void render(route.kind === 'update-props' ? action : route.action);
  };

  const ctx: ElementContext = { state, setState, act, busy };
  const element = output?.element;
  return (
    <div className="contentkit" aria-busy={busy}>
      {!output && busy ? <Skeleton lines={3} label={`Loading ${integration}'s screen`} /> : null}
      <ErrorNote error={error}>
        {' '}
        <Button variant="ghost" size="sm" onClick={() => void render()}>Try again</Button>
      </ErrorNote>
      {element && element.type === 'modal' ? (
        <ModalBody element={element} ctx={ctx} onCancel={() => onClose?.({})} />
      ) : element ? (
        <ContentKitElement node={element} ctx={ctx} depth={0} />
      ) : null}
      {modal ? (
        <ModalHost
          integration={integration}
          onDismiss={() => setModal(null)}
          body={
            <ContentKitView
              integration={integration}
              componentId={modal.componentId}
              props={modal.props}
              context={context}
              request={request}
              onComplete={() => setModal(null)}
              onClose={(returnValue) => {
                setModal(null);
                void render({ action: '@ui.modal.close', returnValue });
              }}
            />
          }
        />
      ) : null}
    </div>
  );
}

function ModalBody({ element, ctx, onCancel }: { element: Record<string, unknown>; ctx: ElementContext; onCancel: () => void }) {
  return (
    <div className="ck-modal">
      {element.title ? <h2>{String(element.title)}</h2> : null}
      <ContentKitElement node={{ type: 'box', children: element.children }} ctx={ctx} depth={0} />
      <div className="ck-hstack">
        {element.submit ? <ContentKitElement node={element.submit as Record<string, unknown>} ctx={ctx} depth={1} /> : null}
        <Button onClick={onCancel}>Cancel</Button>
      </div>
    </div>
  );
}

/** The integration's modal in the kit's Dialog (focus kept inside, Escape closes it); its body shows its own title. */
function ModalHost({ integration, body, onDismiss }: { integration: string; body: ReactNode; onDismiss: () => void }) {
  return (
    <Dialog open onOpenChange={(open) => open || onDismiss()} title={`Dialog of ${integration}`} hideTitle>
      {body}
    </Dialog>
  );
}
