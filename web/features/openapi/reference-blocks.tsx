import type { ReactNode } from 'react';
import type { ApiReference, OperationView, SchemaView } from '../../../src/features/openapi-specs/reference.ts';
import { findOperation, findWebhook } from '../../../src/features/openapi-specs/reference.ts';
import {
  bodyTitle, describeSecurity, operationName, PARAMETER_GROUPS, paragraphsOf, typeLabel, unavailableNote, type ReferenceKind,
} from '../../../src/features/reader/openapi-labels.ts';
import type { BlockPointer, SpecSource } from '../editor/nodes/openapi-operations.ts';

/*
 * OpenAPI blocks drawn from their spec's reference, read-only: what the editor's node views (editor/nodes/openapi.tsx)
 * and the app's page view (pages/render-openapi.tsx) both show, as the reader draws them (reader/render-openapi.tsx:
 * the same parts, classes and words). Each screen loads the reference its own way and says here how far it got; a
 * block whose spec cannot be read says why, never blank. No editor (TipTap) here: the page view loads this without
 * the editor's chunk.
 */

/** How far the reference of a block's spec is loaded; null where nothing is asked (no source, no way to ask). */
export type SpecLoad = { state: 'loading' } | { state: 'ready'; value: ApiReference } | { state: 'failed'; reason: string } | null;

/** How a block's spec is named where it is not available. */
function specName(source: SpecSource): string {
  if ('spec' in source) return `“${source.spec}”`;
  if ('url' in source) return `at ${source.url}`;
  return `file ${source.file}`;
}

/**
 * An `openapi-operation`, `swagger` (a spec by its address) or `openapi-webhook` block: its operation, or its method
 * and path and why its operation is not shown. `fetching`: the server is fetching the spec just added from the
 * block's address; `children` follow the note (the editor's offer to add that spec).
 */
export function OperationBlockDrawing({ pointer, loaded, fetching = false, children }: { pointer: BlockPointer; loaded: SpecLoad; fetching?: boolean; children?: ReactNode }) {
  const { kind, source } = pointer;
  const reference = loaded?.state === 'ready' ? loaded.value : undefined;
  const find = kind === 'webhook' ? findWebhook : findOperation;
  const operation = reference && pointer.method && pointer.path ? find(reference, pointer.path, pointer.method) : undefined;
  if (operation && reference) return <OperationSummary reference={reference} op={operation} kind={kind} />;
  return (
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
      {children}
    </section>
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

/**
 * An `openapi-schemas` block (the reader's `openapi-schemas`, a `details.openapi-model` for each schema named, open):
 * each schema's name, type, description and properties. As an operation's summary here, nested models show by their
 * type's name, not unfolded.
 */
export function SchemasBlockDrawing({ names, loaded }: { names: readonly string[]; loaded: SpecLoad }) {
  const reference = loaded?.state === 'ready' ? loaded.value : undefined;
  const found = reference ? reference.schemas.filter((s) => names.includes(s.name)) : [];
  const named = (schema: SchemaView) => (schema.ref ? (reference?.schemas.find((s) => s.name === schema.ref)?.schema ?? schema) : schema);
  return found.length > 0 ? (
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
      {loaded?.state === 'loading'
        ? 'Loading the API specification…'
        : loaded?.state === 'failed'
          ? `The schemas of this API specification are not available: ${loaded.reason}`
          : 'The schemas of this API specification are not available.'}
    </p>
  );
}
