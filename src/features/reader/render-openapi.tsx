import type { ComponentChild, VNode } from 'preact';
import type { Code } from '../content/document/types.ts';
import { MAX_DEPTH } from './heading-anchors.ts';
import { exampleFor, findOperation, findWebhook, lookupOf, type ApiReference, type OperationView, type SchemaLookup, type SchemaView } from '../openapi-specs/reference.ts';
import type { RenderContext } from './render-context.ts';
import { renderCode } from './render-code.tsx';
import { bodyTitle, describeSecurity, operationName, PARAMETER_GROUPS, paragraphsOf, typeLabel, unavailableNote, type ReferenceKind } from './openapi-labels.ts';

export { typeLabel };

/*
 * OpenAPI blocks as an API reference, server-rendered from the stored reference of the spec's latest version
 * (openapi-specs/reference.ts): method and path, parameters, request body and responses with their schemas,
 * examples, and a curl command with a copy button. The blocks of the official document model:
 * - `openapi-operation` { ref: { kind: 'openapi', spec: <slug> }, method, path }: one operation of a spec of
 *   the site's organization;
 * - `swagger` (and `openapi`) { ref: { kind: 'url', url }, method, path }: the same, found by the URL the spec
 *   is fetched from (GitBook's older blocks point at a URL);
 * - `openapi-schemas` { ref, schemas: [names] }: component schemas;
 * - `openapi-webhook` { ref: { kind: 'openapi', spec }, name, method }: a webhook of an OpenAPI 3.1 spec, drawn as
 *   an operation (its payload, its expected responses) without a server or a curl command: the API sends it.
 * The caller (reader/service.ts) loads the references the document names (`openapiRefsOf`) and passes them
 * as `options.openapi`; a block whose spec or operation is missing shows its method and path and says so.
 * Descriptions are shown as text paragraphs: a spec's markdown is the spec author's, not the page's.
 */

export const OPENAPI_BLOCK_TYPES = new Set(['openapi-operation', 'openapi', 'swagger', 'openapi-schemas', 'openapi-webhook']);

/**
 * How far schemas unfold: component references (`{ ref }`) are expanded from the spec's components, each at
 * most once on a path (a recursive model shows its name), and at most FIELD_BUDGET fields per block, past
 * which types show by name: a model whose every property is another model cannot make a page explode.
 */
interface Unfold {
  lookup: SchemaLookup;
  seen: readonly string[];
  budget: { left: number };
}
const FIELD_BUDGET = 1500;
const MAX_UNFOLD_DEPTH = 8;

/** The key a spec's reference is given under in `options.openapi`. */
export function openapiKey(ref: unknown): string | undefined {
  if (!ref || typeof ref !== 'object') return undefined;
  const { kind, spec, url } = ref as { kind?: unknown; spec?: unknown; url?: unknown };
  if (kind === 'openapi' && typeof spec === 'string') return `spec:${spec}`;
  if (kind === 'url' && typeof url === 'string') return `url:${url}`;
  return undefined;
}

/** The specs a document's OpenAPI blocks name: slugs and source URLs (walked without recursion, bounded). */
export function openapiRefsOf(document: { nodes?: unknown[] }): { slugs: string[]; urls: string[] } {
  const slugs = new Set<string>();
  const urls = new Set<string>();
  const stack: { node: unknown; depth: number }[] = (document.nodes ?? []).map((node) => ({ node, depth: 0 }));
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    if (!node || typeof node !== 'object' || depth > MAX_DEPTH) continue;
    const block = node as { type?: string; data?: { ref?: unknown }; nodes?: unknown[]; fragments?: { nodes?: unknown[] }[] };
    if (block.type && OPENAPI_BLOCK_TYPES.has(block.type)) {
      const key = openapiKey(block.data?.ref);
      if (key?.startsWith('spec:')) slugs.add(key.slice(5));
      else if (key?.startsWith('url:')) urls.add(key.slice(4));
      continue;
    }
    for (const child of block.nodes ?? []) stack.push({ node: child, depth: depth + 1 });
    for (const fragment of block.fragments ?? []) for (const child of fragment?.nodes ?? []) stack.push({ node: child, depth: depth + 1 });
  }
  return { slugs: [...slugs], urls: [...urls] };
}

interface OpenAPIBlockData {
  ref?: unknown;
  method?: unknown;
  path?: unknown;
  name?: unknown;
  schemas?: unknown;
}

export function renderOpenAPIBlock(type: string, data: OpenAPIBlockData, ctx: RenderContext): ComponentChild {
  const key = openapiKey(data.ref);
  const reference = key ? ctx.options.openapi?.get(key) : undefined;
  if (type === 'openapi-schemas') return renderSchemasBlock(reference, data, ctx);
  const kind: ReferenceKind = type === 'openapi-webhook' ? 'webhook' : 'operation';
  const method = typeof data.method === 'string' ? data.method.toLowerCase() : '';
  const path = kind === 'webhook' ? (typeof data.name === 'string' ? data.name : '') : typeof data.path === 'string' ? data.path : '';
  // A block that names nothing (malformed) renders nothing, like other blocks the reader cannot read.
  if (!key && !method && !path) return null;
  const find = kind === 'webhook' ? findWebhook : (r: ApiReference, p: string, m: string) => findOperation(r, p, m);
  const operation = reference && method && path ? find(reference, path, method) : undefined;
  if (!reference || !operation) {
    return (
      <section class="openapi-operation unavailable">
        <div class="openapi-head">
          {kind === 'webhook' ? <span class="openapi-badge webhook">Webhook</span> : null}
          {method ? <span class={`http-method method-${method}`}>{method.toUpperCase()}</span> : null}
          {path ? <code class="openapi-path">{path}</code> : null}
        </div>
        <p class="openapi-note">{unavailableNote(kind, Boolean(reference))}</p>
      </section>
    );
  }
  return renderOperation(reference, operation, ctx, kind);
}

function renderOperation(reference: ApiReference, op: OperationView, ctx: RenderContext, kind: ReferenceKind): VNode {
  // A webhook is sent by the API to its subscribers: no server of the API, no command to call it with.
  const server = kind === 'webhook' ? '' : (reference.servers[0] ?? '');
  const lookup = lookupOf(reference);
  const unfold: Unfold = { lookup, seen: [], budget: { left: FIELD_BUDGET } };
  return (
    <section class="openapi-operation" aria-label={operationName(kind, op.method, op.path)}>
      <div class="openapi-head">
        {kind === 'webhook' ? <span class="openapi-badge webhook">Webhook</span> : null}
        <span class={`http-method method-${op.method}`}>{op.method.toUpperCase()}</span>
        <code class="openapi-path">{op.path}</code>
        {op.deprecated ? <span class="openapi-badge deprecated">Deprecated</span> : null}
      </div>
      {op.summary ? <p class="openapi-summary">{op.summary}</p> : null}
      {paragraphs(op.description)}
      {server ? (
        <p class="openapi-server">
          <span class="openapi-label">Server</span> <code>{server}</code>
        </p>
      ) : null}
      {op.security.length > 0 ? (
        <p class="openapi-auth">
          <span class="openapi-label">Authorization</span> {op.security.map((s) => describeSecurity(s)).join(', ')}
        </p>
      ) : null}
      {PARAMETER_GROUPS.map(([where, title]) => {
        const params = op.parameters.filter((p) => p.in === where);
        return params.length > 0 ? (
          <div class="openapi-section">
            <p class="openapi-section-title">{title}</p>
            <ul class="openapi-schema">
              {params.map((p) => (
                <li>{renderField(p.name, p.required, p.schema, p.description, p.deprecated === true, 1, unfold)}</li>
              ))}
            </ul>
          </div>
        ) : null;
      })}
      {op.requestBody ? (
        <div class="openapi-section">
          <p class="openapi-section-title">
            {bodyTitle(kind)} <span class="openapi-media">{op.requestBody.contentType}</span>
            {op.requestBody.required ? <span class="openapi-required">required</span> : null}
          </p>
          {paragraphs(op.requestBody.description)}
          {op.requestBody.schema ? renderSchemaBody(op.requestBody.schema, unfold) : null}
        </div>
      ) : null}
      <div class="openapi-section">
        <p class="openapi-section-title">Responses</p>
        {op.responses.map((response) => {
          const example = response.example !== undefined ? response.example : response.schema && /json/.test(response.contentType ?? '') ? exampleFor(response.schema, lookup) : undefined;
          return (
            <details class="openapi-response" open={/^2/.test(response.status) ? true : undefined}>
              <summary>
                <span class={`openapi-status status-${response.status.charAt(0)}`}>{response.status}</span> {response.description ?? ''}
                {response.contentType ? <span class="openapi-media">{response.contentType}</span> : null}
              </summary>
              {response.schema ? renderSchemaBody(response.schema, unfold) : null}
              {example !== undefined ? renderCode(codeBlock(jsonText(example), 'json', 'Example response'), ctx) : null}
            </details>
          );
        })}
      </div>
      {kind === 'operation' ? renderCode(codeBlock(curlCommand(server, op, lookup), 'bash', 'curl'), ctx) : null}
    </section>
  );
}

function renderSchemasBlock(reference: ApiReference | undefined, data: OpenAPIBlockData, ctx: RenderContext): ComponentChild {
  const names = Array.isArray(data.schemas) ? data.schemas.filter((n): n is string => typeof n === 'string') : [];
  const found = reference ? reference.schemas.filter((s) => names.includes(s.name)) : [];
  if (found.length === 0) return <p class="openapi-note">The schemas of this API specification are not available.</p>;
  void ctx;
  const unfold: Unfold = { lookup: lookupOf(reference!), seen: [], budget: { left: FIELD_BUDGET } };
  return (
    <section class="openapi-schemas">
      {found.map((s) => (
        <details class="openapi-model" open>
          <summary>
            <code>{s.name}</code> <span class="openapi-type">{typeLabel(s.schema)}</span>
          </summary>
          {paragraphs(s.schema.description)}
          {renderSchemaBody(s.schema, { ...unfold, seen: [s.name] })}
        </details>
      ))}
    </section>
  );
}

/** The inside of a schema: its properties, an array's items, its variants; or its type alone. */
function renderSchemaBody(schema: SchemaView, unfold: Unfold, depth = 1): ComponentChild {
  const children = schemaChildren(schema, depth, unfold);
  if (children) return children;
  return (
    <p class="openapi-type-line">
      <span class="openapi-type">{typeLabel(schema)}</span>
      {constraints(schema)}
    </p>
  );
}

function schemaChildren(schema: SchemaView, depth: number, unfold: Unfold): ComponentChild {
  if (depth > MAX_UNFOLD_DEPTH || unfold.budget.left <= 0) return null;
  if (schema.ref) {
    const target = unfold.seen.includes(schema.ref) ? undefined : unfold.lookup(schema.ref);
    return target ? schemaChildren(target, depth, { ...unfold, seen: [...unfold.seen, schema.ref] }) : null;
  }
  if (schema.properties && schema.properties.length > 0) {
    unfold.budget.left -= schema.properties.length;
    return (
      <ul class="openapi-schema">
        {schema.properties.map((p) => (
          <li>{renderField(p.name, p.required, p.schema, descriptionOf(p.schema, unfold), p.schema.deprecated === true, depth + 1, unfold)}</li>
        ))}
      </ul>
    );
  }
  if (schema.items) {
    const inner = schemaChildren(schema.items, depth + 1, unfold);
    return inner ? <div class="openapi-items">{inner}</div> : null;
  }
  if (schema.variants) {
    return (
      <div class="openapi-variants">
        <span class="openapi-label">{schema.variants.kind === 'oneOf' ? 'One of' : 'Any of'}</span>
        <ul class="openapi-schema">
          {schema.variants.schemas.map((variant) => (
            <li>
              <span class="openapi-type">{typeLabel(variant)}</span>
              {schemaChildren(variant, depth + 1, unfold)}
            </li>
          ))}
        </ul>
      </div>
    );
  }
  return null;
}

function renderField(name: string, required: boolean, schema: SchemaView | undefined, description: string | undefined, deprecated: boolean, depth: number, unfold: Unfold): ComponentChild {
  const nested = schema ? schemaChildren(schema, depth, unfold) : null;
  const head = (
    <div class="openapi-field">
      <code class="openapi-name">{name}</code>
      {schema ? <span class="openapi-type">{typeLabel(schema)}</span> : null}
      {required ? <span class="openapi-required">required</span> : null}
      {deprecated ? <span class="openapi-badge deprecated">Deprecated</span> : null}
    </div>
  );
  return (
    <>
      {head}
      {description ? paragraphs(description) : null}
      {schema ? constraints(schema.ref ? (unfold.lookup(schema.ref) ?? schema) : schema) : null}
      {nested ? (
        depth > 2 ? (
          <details class="openapi-nested">
            <summary>Properties of {name}</summary>
            {nested}
          </details>
        ) : (
          nested
        )
      ) : null}
    </>
  );
}

/** A field's description: its own, else its component's. */
function descriptionOf(schema: SchemaView, unfold: Unfold): string | undefined {
  return schema.description ?? (schema.ref ? unfold.lookup(schema.ref)?.description : undefined);
}

function constraints(schema: SchemaView): ComponentChild {
  const parts: ComponentChild[] = [];
  if (schema.enum && schema.enum.length > 0) {
    parts.push(
      <span class="openapi-enum">
        One of:{' '}
        {schema.enum.map((value, i) => (
          <>
            {i > 0 ? ', ' : null}
            <code>{jsonText(value, false)}</code>
          </>
        ))}
      </span>,
    );
  }
  if (schema.default !== undefined) parts.push(<span class="openapi-default">Default: <code>{jsonText(schema.default, false)}</code></span>);
  if (schema.example !== undefined && typeof schema.example !== 'object') parts.push(<span class="openapi-example">Example: <code>{jsonText(schema.example, false)}</code></span>);
  if (schema.readOnly) parts.push(<span class="openapi-badge">Read-only</span>);
  return parts.length > 0 ? <div class="openapi-constraints">{parts}</div> : null;
}

function paragraphs(text: string | undefined): ComponentChild {
  const found = paragraphsOf(text);
  return found.length > 0 ? found.map((p) => <p class="openapi-description">{p}</p>) : null;
}

function jsonText(value: unknown, pretty = true): string {
  if (typeof value === 'string' && !pretty) return value;
  try {
    return JSON.stringify(value, null, pretty ? 2 : 0) ?? String(value);
  } catch {
    return String(value);
  }
}

/** A code block of the document model, so examples and curl render (and copy) like the page's own code. */
function codeBlock(text: string, syntax: string, title: string): Code {
  return {
    object: 'block',
    type: 'code',
    data: { syntax, title },
    nodes: text.split('\n').map((line) => ({ object: 'block', type: 'code-line', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: line, marks: [] }] }] })),
  } as unknown as Code;
}

/** Single-quoted for a POSIX shell: a quote inside becomes '\''. */
function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** The curl command of an operation: its URL with the required query parameters, headers, auth and body. */
export function curlCommand(server: string, op: OperationView, lookup?: SchemaLookup): string {
  const example = (schema: SchemaView | undefined) => exampleFor(schema, lookup);
  const query = op.parameters
    .filter((p) => p.in === 'query' && p.required)
    .map((p) => `${encodeURIComponent(p.name)}=${encodeURIComponent(String(p.example ?? example(p.schema) ?? p.name))}`);
  for (const s of op.security) if (s.kind === 'query') query.push(`${encodeURIComponent(s.parameter ?? 'api_key')}=YOUR_API_KEY`);
  const url = `${server}${op.path}${query.length > 0 ? `?${query.join('&')}` : ''}`;
  const lines = [`curl -X ${op.method.toUpperCase()} ${shellQuote(url)}`];
  for (const s of op.security) {
    if (s.kind === 'bearer') lines.push(`-H ${shellQuote('Authorization: Bearer YOUR_TOKEN')}`);
    else if (s.kind === 'basic') lines.push(`-u ${shellQuote('USERNAME:PASSWORD')}`);
    else if (s.kind === 'header') lines.push(`-H ${shellQuote(`${s.parameter}: YOUR_API_KEY`)}`);
    else if (s.kind === 'cookie') lines.push(`--cookie ${shellQuote(`${s.parameter}=YOUR_API_KEY`)}`);
  }
  for (const p of op.parameters) {
    if (p.in === 'header' && p.required) lines.push(`-H ${shellQuote(`${p.name}: ${String(p.example ?? example(p.schema) ?? '')}`)}`);
  }
  const body = op.requestBody;
  if (body) {
    if (/json/i.test(body.contentType)) {
      lines.push(`-H ${shellQuote(`Content-Type: ${body.contentType}`)}`);
      const value = body.example !== undefined ? body.example : example(body.schema);
      lines.push(`-d ${shellQuote(JSON.stringify(value ?? {}, null, 2))}`);
    } else if (body.contentType === 'multipart/form-data' || body.contentType === 'application/x-www-form-urlencoded') {
      const flag = body.contentType === 'multipart/form-data' ? '-F' : '--data-urlencode';
      for (const field of body.schema?.properties ?? []) {
        const value = field.schema.type === 'file' || field.schema.format === 'binary' ? '@file' : String(example(field.schema) ?? '');
        lines.push(`${flag} ${shellQuote(`${field.name}=${value}`)}`);
      }
    } else {
      lines.push(`-H ${shellQuote(`Content-Type: ${body.contentType}`)}`, `--data-binary ${shellQuote('@body')}`);
    }
  }
  return lines.join(' \\\n  ');
}
