import { NodeViewWrapper, type NodeViewProps } from '@tiptap/react';
import { useEffect, useState } from 'react';
import { faChevronDown } from '@fortawesome/free-solid-svg-icons';
import type { OperationView } from '../../../../src/features/openapi-specs/reference.ts';
import type { ReferenceKind } from '../../../../src/features/reader/openapi-labels.ts';
import { OperationBlockDrawing, SchemasBlockDrawing } from '../../openapi/reference-blocks.tsx';
import { Button } from '../../../ui/button.tsx';
import { Icon } from '../../../ui/icon.tsx';
import { Popover } from '../../../ui/popover.tsx';
import { SearchList } from '../../../ui/search-list.tsx';
import { Select } from '../../../ui/select.tsx';
import { NoSpecAtAddress, referenceAt, referenceOf, useApiBlocks, useLoaded } from '../api-blocks.ts';
import { blockOf } from './block-data.ts';
import {
  blockDataPointingAt, blockPointerOf, filterOperations, operationId, pointerOf, sourceKey, specSlugForUrl, type SpecSource,
} from './openapi-operations.ts';

/*
 * An `openapi-operation`, `swagger` (a spec by its address) or `openapi-webhook` block as readers see it
 * (render-openapi.tsx draws the same parts with the same classes and words, from the same reference of the spec's
 * latest version): method and path (or webhook name), summary, description, server, authorization, parameters,
 * request body (a webhook's payload) and responses, drawn by openapi/reference-blocks.tsx (as the page view draws
 * them). The block stays as it is (an opaque block of the model); what it points at is changed from its settings
 * toolbar (OpenAPISettings).
 */

/** The key a source's reference is loaded under; a file (which is not read) has one too, so that it says why. */
const loadKey = (source: SpecSource | null) => (source ? (sourceKey(source) ?? `file:${(source as { file: string }).file}`) : null);

/** How often, and how many times, a spec just added from a block's address is asked for while the server fetches it. */
const FETCH_POLL_MS = 2000;
const FETCH_POLLS = 30;

export function OpenAPIOperationView(props: NodeViewProps) {
  const block = blockOf(props);
  const pointer = blockPointerOf(block.type, block.data);
  const { source } = pointer;
  // A spec added from the block's address is asked for again until the server has fetched it.
  const [added, setAdded] = useState(false);
  const [polls, setPolls] = useState(0);
  const key = loadKey(source);
  const loaded = useLoaded(key && `${key}#${polls}`, (host) => referenceAt(host, source!));
  useEffect(() => {
    if (!added || loaded?.state !== 'failed' || polls >= FETCH_POLLS) return;
    const timer = setTimeout(() => setPolls((n) => n + 1), FETCH_POLL_MS);
    return () => clearTimeout(timer);
  }, [added, loaded, polls]);
  const fetching = added && loaded?.state !== 'ready' && polls < FETCH_POLLS;
  const missingAt = source && 'url' in source && loaded?.state === 'failed' && loaded.error instanceof NoSpecAtAddress ? source.url : undefined;
  return (
    <NodeViewWrapper as="div" className="qe-openapi" data-quire="opaqueBlock" data-drag-handle contentEditable={false}>
      <OperationBlockDrawing pointer={pointer} loaded={loaded} fetching={fetching}>
        {missingAt && !added && props.editor.isEditable ? <AddSpecAtAddress url={missingAt} onAdded={() => setAdded(true)} /> : null}
      </OperationBlockDrawing>
    </NodeViewWrapper>
  );
}

/**
 * Adds the spec at a block's address to the organization's (the server fetches it, through its fetch guard): the
 * block, and the reader, then draw its operation. A refusal (the person may not add specs) says why.
 */
function AddSpecAtAddress({ url, onAdded }: { url: string; onAdded(): void }) {
  const host = useApiBlocks();
  const [state, setState] = useState<{ busy: boolean; failure?: string }>({ busy: false });
  if (!host) return null;
  const add = () => {
    setState({ busy: true });
    host.addUrlSpec(specSlugForUrl(url), url).then(onAdded, (error: unknown) => setState({ busy: false, failure: error instanceof Error ? error.message : String(error) }));
  };
  return (
    <p className="openapi-note">
      <Button size="sm" loading={state.busy} onClick={add}>
        Add it to the organization’s specifications
      </Button>
      {state.failure ? <span role="alert"> It could not be added: {state.failure}</span> : null}
    </p>
  );
}

interface PickerProps {
  /** Operations of the API, or the webhooks it sends. */
  kind?: ReferenceKind;
  spec?: string;
  /** The address of the spec a `swagger` block names: its operations only, no other spec to choose. */
  at?: { url: string };
  current?: string;
  onPick(spec: string, op: OperationView): void;
}

/**
 * Choosing an operation (or a webhook): a spec of the organization, then one of its operations, found by what is
 * typed (method, path or name, summary; the kit's SearchList: arrows move, Enter picks). Used by the `/` items
 * and by the block's settings.
 */
export function OperationPicker({ kind = 'operation', spec: initialSpec, at, current, onPick }: PickerProps) {
  const specs = useLoaded(at ? null : 'specs', (host) => host.listSpecs());
  const [chosen, setChosen] = useState(initialSpec ?? '');
  const spec = chosen || (specs?.state === 'ready' ? (specs.value.find((s) => s.ready)?.slug ?? '') : '');
  const source: SpecSource | null = at ?? (spec ? { spec } : null);
  const reference = useLoaded(loadKey(source), (host) => referenceAt(host, source!));
  const plural = kind === 'webhook' ? 'webhooks' : 'operations';
  if (!at && (!specs || specs.state === 'loading')) return <p className="qe-openapi-picker" role="status">Loading the organization’s API specifications…</p>;
  if (specs?.state === 'failed') return <p className="qe-openapi-picker" role="alert">The API specifications could not be listed: {specs.reason}</p>;
  if (specs?.state === 'ready' && specs.value.length === 0) return <p className="qe-openapi-picker" role="status">The organization has no OpenAPI specification yet: add one in its settings.</p>;
  return (
    <div className="qe-openapi-picker">
      {specs?.state === 'ready' ? (
        <Select
          size="sm"
          label="API specification"
          options={specs.value.map((s) => ({ value: s.slug, label: s.ready ? s.slug : `${s.slug} (being processed)`, disabled: !s.ready }))}
          value={spec || undefined}
          onValueChange={setChosen}
        />
      ) : at ? (
        <p className="qe-openapi-source">
          From <code>{at.url}</code>
        </p>
      ) : null}
      <SearchList
        label={`Search ${plural}`}
        listLabel={kind === 'webhook' ? 'Webhooks' : 'Operations'}
        search={(query) => (reference?.state === 'ready' ? filterOperations(reference.value, query, kind) : [])}
        optionKey={operationId}
        renderOption={(op) => (
          <>
            <span className={`http-method method-${op.method}`}>{op.method.toUpperCase()}</span> <code>{op.path}</code>
            {op.summary ? <span className="qe-openapi-summary">{op.summary}</span> : null}
          </>
        )}
        onPick={(op) => onPick(spec, op)}
        current={current}
        empty={reference?.state === 'ready' ? (query) => (query ? `No ${kind} matches “${query}”` : `This specification has no ${plural}.`) : undefined}
      >
        {reference?.state === 'loading' && <p role="status">Loading {plural}…</p>}
        {reference?.state === 'failed' && <p role="alert">The {plural} could not be read: {reference.reason}</p>}
      </SearchList>
    </div>
  );
}

/**
 * The settings of an operation or webhook block: what it shows, changed in the picker (another spec, another
 * operation; a `swagger` block's operations are those of the spec at its address). `onChange` gets the new data.
 */
export function OpenAPISettings({ type, data, onChange }: { type: string; data: Record<string, unknown>; onChange(data: Record<string, unknown>): void }) {
  const pointer = blockPointerOf(type, data);
  const { kind, source } = pointer;
  const [open, setOpen] = useState(false);
  const label = kind === 'webhook' ? 'Webhook' : 'Operation';
  const slug = source && 'spec' in source ? source.spec : undefined;
  const at = source && 'url' in source ? { url: source.url } : undefined;
  // What the button shows is part of its name (the spec's slug after the operation), for those who speak to it.
  const name = `${pointer.path ? `${pointer.method.toUpperCase()} ${pointer.path}` : 'none'}${slug ? ` (${slug})` : ''}`;
  return (
    <Popover
      label={label}
      open={open}
      onOpenChange={setOpen}
      trigger={
        <Button size="sm" variant="ghost" aria-label={`${label}: ${name}`}>
          {name} <Icon icon={faChevronDown} />
        </Button>
      }
    >
      <OperationPicker
        kind={kind}
        {...(slug ? { spec: slug } : {})}
        {...(at ? { at } : {})}
        current={pointer.path ? operationId(pointer) : undefined}
        onPick={(spec, op) => {
          setOpen(false);
          onChange(blockDataPointingAt(type, data, spec, op));
        }}
      />
    </Popover>
  );
}

/**
 * An `openapi-schemas` block as readers see it (render-openapi.tsx: `openapi-schemas`, a `details.openapi-model` for
 * each schema named, open): each schema's name, type, description and properties, from the same reference of the
 * spec's latest version. As an operation's summary here, nested models show by their type's name, not unfolded.
 */
export function OpenAPISchemasView(props: NodeViewProps) {
  const data = (blockOf(props).data ?? {}) as Record<string, unknown>;
  const { spec } = pointerOf(data);
  const names = Array.isArray(data.schemas) ? data.schemas.filter((n): n is string => typeof n === 'string') : [];
  const loaded = useLoaded(spec ? `spec:${spec}` : null, (host) => referenceOf(host, spec));
  return (
    <NodeViewWrapper as="div" className="qe-openapi" data-quire="opaqueBlock" data-drag-handle contentEditable={false}>
      <SchemasBlockDrawing names={names} loaded={loaded} />
    </NodeViewWrapper>
  );
}
