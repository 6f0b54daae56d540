import { NodeViewWrapper, type NodeViewProps } from '@tiptap/react';
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { faChevronDown } from '@fortawesome/free-solid-svg-icons';
import type { ApiReference, OperationView, SchemaView } from '../../../../src/features/openapi-specs/reference.ts';
import { findOperation, findWebhook } from '../../../../src/features/openapi-specs/reference.ts';
import {
  bodyTitle, describeSecurity, operationName, PARAMETER_GROUPS, paragraphsOf, typeLabel, unavailableNote, type ReferenceKind,
} from '../../../../src/features/reader/openapi-labels.ts';
import { Button } from '../../../ui/button.tsx';
import { Icon } from '../../../ui/icon.tsx';
import { Popover } from '../../../ui/popover.tsx';
import { Select } from '../../../ui/select.tsx';
import { NoSpecAtAddress, referenceAt, referenceOf, useApiBlocks, useLoaded } from '../api-blocks.ts';
import { blockOf } from './block-data.ts';
import {
  blockDataPointingAt, blockPointerOf, filterOperations, operationId, pointerOf, sourceKey, specSlugForUrl, type BlockPointer, type SpecSource,
} from './openapi-operations.ts';

/*
 * An `openapi-operation`, `swagger` (a spec by its address) or `openapi-webhook` block as readers see it
 * (render-openapi.tsx draws the same parts with the same classes and words, from the same reference of the spec's
 * latest version): method and path (or webhook name), summary, description, server, authorization, parameters,
 * request body (a webhook's payload) and responses. The block stays as it is (an opaque block of the model); what it
 * points at is changed from its settings toolbar (OpenAPISettings).
 */

/** The key a source's reference is loaded under; a file (which is not read) has one too, so that it says why. */
const loadKey = (source: SpecSource | null) => (source ? (sourceKey(source) ?? `file:${(source as { file: string }).file}`) : null);

/** How a block's spec is named where it is not available. */
function specName(source: SpecSource): string {
  if ('spec' in source) return `“${source.spec}”`;
  if ('url' in source) return `at ${source.url}`;
  return `file ${source.file}`;
}

/** How often, and how many times, a spec just added from a block's address is asked for while the server fetches it. */
const FETCH_POLL_MS = 2000;
const FETCH_POLLS = 30;

export function OpenAPIOperationView(props: NodeViewProps) {
  const block = blockOf(props);
  const pointer = blockPointerOf(block.type, block.data);
  const { kind, source } = pointer;
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
  const reference = loaded?.state === 'ready' ? loaded.value : undefined;
  const find = kind === 'webhook' ? findWebhook : findOperation;
  const operation = reference && pointer.method && pointer.path ? find(reference, pointer.path, pointer.method) : undefined;
  return (
    <NodeViewWrapper as="div" className="qe-openapi" data-quire="opaqueBlock" data-drag-handle contentEditable={false}>
      {operation && reference ? (
        <OperationSummary reference={reference} op={operation} kind={kind} />
      ) : (
        <section className="openapi-operation unavailable" aria-label={operationName(kind, pointer.method, pointer.path) || (kind === 'webhook' ? 'OpenAPI webhook' : 'OpenAPI operation')}>
          <OperationHead pointer={pointer} />
          <p className="openapi-note" aria-busy={loaded?.state === 'loading' || fetching}>
            {!source || !pointer.path
              ? `No ${kind} chosen yet: pick one in the block’s settings.`
              : fetching
                ? `The server is fetching the API specification ${specName(source)}…`
                : loaded?.state === 'loading'
                  ? 'Loading the API specification…'
                  : loaded?.state === 'failed'
                    ? `The API specification ${specName(source)} is not available: ${loaded.reason}`
                    : unavailableNote(kind, Boolean(reference))}
          </p>
          {missingAt && !added && props.editor.isEditable ? <AddSpecAtAddress url={missingAt} onAdded={() => setAdded(true)} /> : null}
        </section>
      )}
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

function OperationHead({ pointer, deprecated }: { pointer: Pick<BlockPointer, 'kind' | 'method' | 'path'>; deprecated?: boolean }) {
  return (
    <div className="openapi-head">
      {pointer.kind === 'webhook' ? <span className="openapi-badge webhook">Webhook</span> : null}
      {pointer.method ? <span className={`http-method method-${pointer.method}`}>{pointer.method.toUpperCase()}</span> : null}
      {pointer.path ? <code className="openapi-path">{pointer.path}</code> : null}
      {deprecated ? <span className="openapi-badge deprecated">Deprecated</span> : null}
    </div>
  );
}

/** The operation's parts, as the reader draws them; schemas show their type, not their fields (the reader unfolds them). */
function OperationSummary({ reference, op, kind }: { reference: ApiReference; op: OperationView; kind: ReferenceKind }) {
  // A webhook is sent by the API to its subscribers: no server of the API (as the reader).
  const server = kind === 'webhook' ? '' : (reference.servers[0] ?? '');
  return (
    <section className="openapi-operation" aria-label={operationName(kind, op.method, op.path)}>
      <OperationHead pointer={{ ...op, kind }} deprecated={op.deprecated} />
      {op.summary ? <p className="openapi-summary">{op.summary}</p> : null}
      {paragraphsOf(op.description).map((p, i) => <p key={i} className="openapi-description">{p}</p>)}
      {server ? (
        <p className="openapi-server">
          <span className="openapi-label">Server</span> <code>{server}</code>
        </p>
      ) : null}
      {op.security.length > 0 ? (
        <p className="openapi-auth">
          <span className="openapi-label">Authorization</span> {op.security.map(describeSecurity).join(', ')}
        </p>
      ) : null}
      {PARAMETER_GROUPS.map(([where, title]) => {
        const params = op.parameters.filter((p) => p.in === where);
        return params.length > 0 ? (
          <div key={where} className="openapi-section">
            <p className="openapi-section-title">{title}</p>
            <ul className="openapi-schema">
              {params.map((p) => (
                <li key={p.name}>
                  <div className="openapi-field">
                    <code className="openapi-name">{p.name}</code>
                    {p.schema ? <span className="openapi-type">{typeLabel(p.schema)}</span> : null}
                    {p.required ? <span className="openapi-required">required</span> : null}
                    {p.deprecated ? <span className="openapi-badge deprecated">Deprecated</span> : null}
                  </div>
                  {paragraphsOf(p.description).map((text, i) => <p key={i} className="openapi-description">{text}</p>)}
                </li>
              ))}
            </ul>
          </div>
        ) : null;
      })}
      {op.requestBody ? (
        <div className="openapi-section">
          <p className="openapi-section-title">
            {bodyTitle(kind)} <span className="openapi-media">{op.requestBody.contentType}</span>
            {op.requestBody.required ? <span className="openapi-required">required</span> : null}
            {op.requestBody.schema ? <span className="openapi-type">{typeLabel(op.requestBody.schema)}</span> : null}
          </p>
        </div>
      ) : null}
      {op.responses.length > 0 ? (
        <div className="openapi-section">
          <p className="openapi-section-title">Responses</p>
          {op.responses.map((response) => (
            <div key={response.status} className="openapi-response">
              <span className={`openapi-status status-${response.status.charAt(0)}`}>{response.status}</span> {response.description ?? ''}
              {response.contentType ? <span className="openapi-media"> {response.contentType}</span> : null}
            </div>
          ))}
        </div>
      ) : null}
    </section>
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
 * typed (method, path or name, summary; a combobox: arrows move, Enter picks). Used by the `/` items and by the
 * block's settings.
 */
export function OperationPicker({ kind = 'operation', spec: initialSpec, at, current, onPick }: PickerProps) {
  const specs = useLoaded(at ? null : 'specs', (host) => host.listSpecs());
  const [chosen, setChosen] = useState(initialSpec ?? '');
  const spec = chosen || (specs?.state === 'ready' ? (specs.value.find((s) => s.ready)?.slug ?? '') : '');
  const source: SpecSource | null = at ?? (spec ? { spec } : null);
  const reference = useLoaded(loadKey(source), (host) => referenceAt(host, source!));
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const list = useRef<HTMLUListElement>(null);
  const id = useId();
  const shown = reference?.state === 'ready' ? filterOperations(reference.value, query, kind) : [];
  const plural = kind === 'webhook' ? 'webhooks' : 'operations';
  useEffect(() => {
    list.current?.querySelector(`[data-index="${active}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [active]);
  const pick = (op: OperationView | undefined) => op && onPick(spec, op);
  const onKeyDown = (event: KeyboardEvent) => {
    const moves: Record<string, () => void> = {
      ArrowDown: () => setActive((a) => Math.min(a + 1, shown.length - 1)),
      ArrowUp: () => setActive((a) => Math.max(a - 1, 0)),
      Enter: () => pick(shown[active]),
    };
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    move();
  };
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
          onValueChange={(next) => {
            setChosen(next);
            setActive(0);
          }}
        />
      ) : at ? (
        <p className="qe-openapi-source">
          From <code>{at.url}</code>
        </p>
      ) : null}
      <input
        className="ui-input"
        aria-label={`Search ${plural}`}
        placeholder={`Search ${plural}`}
        role="combobox"
        aria-expanded
        aria-autocomplete="list"
        aria-controls={`${id}-list`}
        aria-activedescendant={shown[active] ? `${id}-${active}` : undefined}
        autoFocus
        value={query}
        onChange={(e) => {
          setQuery(e.target.value);
          setActive(0);
        }}
        onKeyDown={onKeyDown}
      />
      <ul ref={list} id={`${id}-list`} role="listbox" aria-label={kind === 'webhook' ? 'Webhooks' : 'Operations'}>
        {shown.map((op, i) => (
          <li
            key={operationId(op)}
            id={`${id}-${i}`}
            data-index={i}
            role="option"
            aria-selected={i === active}
            aria-current={current === operationId(op) ? 'true' : undefined}
            className={i === active ? 'active' : undefined}
            onMouseEnter={() => setActive(i)}
            onClick={() => pick(op)}
          >
            <span className={`http-method method-${op.method}`}>{op.method.toUpperCase()}</span> <code>{op.path}</code>
            {op.summary ? <span className="qe-openapi-summary">{op.summary}</span> : null}
          </li>
        ))}
      </ul>
      {reference?.state === 'loading' && <p role="status">Loading {plural}…</p>}
      {reference?.state === 'failed' && <p role="alert">The {plural} could not be read: {reference.reason}</p>}
      {reference?.state === 'ready' && shown.length === 0 && <p role="status">{query.trim() ? `No ${kind} matches “${query.trim()}”` : `This specification has no ${plural}.`}</p>}
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
  const reference = loaded?.state === 'ready' ? loaded.value : undefined;
  const found = reference ? reference.schemas.filter((s) => names.includes(s.name)) : [];
  const named = (schema: SchemaView) => (schema.ref ? (reference?.schemas.find((s) => s.name === schema.ref)?.schema ?? schema) : schema);
  return (
    <NodeViewWrapper as="div" className="qe-openapi" data-quire="opaqueBlock" data-drag-handle contentEditable={false}>
      {found.length > 0 ? (
        <section className="openapi-schemas" aria-label={`Schemas: ${found.map((s) => s.name).join(', ')}`}>
          {found.map((s) => (
            <details key={s.name} className="openapi-model" open>
              <summary>
                <code>{s.name}</code> <span className="openapi-type">{typeLabel(s.schema)}</span>
              </summary>
              {paragraphsOf(s.schema.description).map((text, i) => <p key={i} className="openapi-description">{text}</p>)}
              {(named(s.schema).properties ?? []).length > 0 ? (
                <ul className="openapi-schema">
                  {named(s.schema).properties!.map((p) => (
                    <li key={p.name}>
                      <div className="openapi-field">
                        <code className="openapi-name">{p.name}</code>
                        <span className="openapi-type">{typeLabel(p.schema)}</span>
                        {p.required ? <span className="openapi-required">required</span> : null}
                        {p.schema.deprecated ? <span className="openapi-badge deprecated">Deprecated</span> : null}
                      </div>
                      {paragraphsOf(p.schema.description).map((text, i) => <p key={i} className="openapi-description">{text}</p>)}
                    </li>
                  ))}
                </ul>
              ) : null}
            </details>
          ))}
        </section>
      ) : (
        <p className="openapi-note" aria-busy={loaded?.state === 'loading'}>
          {loaded?.state === 'loading' ? 'Loading the API specification…' : 'The schemas of this API specification are not available.'}
        </p>
      )}
    </NodeViewWrapper>
  );
}
