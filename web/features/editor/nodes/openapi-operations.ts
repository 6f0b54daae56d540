import type { ApiReference, OperationView } from '../../../../src/features/openapi-specs/reference.ts';
import type { ReferenceKind } from '../../../../src/features/reader/openapi-labels.ts';
import { rankMatches } from '../slash/fuzzy-match.ts';

/*
 * OpenAPI blocks as the editor reads and writes them (GitBook's document model), and the operations of a spec as
 * the picker lists them:
 * - `openapi-operation` `{ ref: { kind: 'openapi', spec: <slug> }, method, path }`;
 * - `swagger` (and the older `openapi`) `{ ref: { kind: 'url', url } | { kind: 'file', file }, method, path }`: the
 *   spec found by the address it is fetched from, as the reader finds it (a spec of the organization with that
 *   source URL);
 * - `openapi-webhook` `{ ref: { kind: 'openapi', spec }, name, method }`: a webhook (the reference's `webhooks`,
 *   whose `path` is the webhook's name).
 * No DOM here: the node view and the picker (openapi.tsx) draw what these say.
 */

/** What a block points at; a field the block does not hold is empty. */
export interface OperationPointer {
  spec: string;
  method: string;
  path: string;
}

export function pointerOf(data: Record<string, unknown> | undefined): OperationPointer {
  const ref = (data?.ref ?? {}) as { kind?: unknown; spec?: unknown };
  return {
    spec: ref.kind === 'openapi' && typeof ref.spec === 'string' ? ref.spec : '',
    method: typeof data?.method === 'string' ? data.method.toLowerCase() : '',
    path: typeof data?.path === 'string' ? data.path : '',
  };
}

/** Where a block's spec is: one of the organization's by its slug, the address it is fetched from, or a file of the space. */
export type SpecSource = { spec: string } | { url: string } | { file: string };

/** What any OpenAPI block that shows one operation points at; `path` is a webhook's name. */
export interface BlockPointer {
  kind: ReferenceKind;
  source: SpecSource | null;
  method: string;
  path: string;
}

/** The block types that show one operation or webhook, and which. */
export const OPERATION_BLOCK_KINDS: Readonly<Record<string, ReferenceKind>> = { 'openapi-operation': 'operation', swagger: 'operation', openapi: 'operation', 'openapi-webhook': 'webhook' };

const textOf = (value: unknown) => (typeof value === 'string' ? value : '');

export function blockPointerOf(type: string, data: Record<string, unknown> | undefined): BlockPointer {
  const kind = OPERATION_BLOCK_KINDS[type] ?? 'operation';
  const ref = (data?.ref ?? {}) as { kind?: unknown; spec?: unknown; url?: unknown; file?: unknown };
  const source: SpecSource | null =
    ref.kind === 'openapi' && textOf(ref.spec) ? { spec: textOf(ref.spec) }
    : ref.kind === 'url' && textOf(ref.url) ? { url: textOf(ref.url) }
    : ref.kind === 'file' && textOf(ref.file) ? { file: textOf(ref.file) }
    : null;
  return { kind, source, method: textOf(data?.method).toLowerCase(), path: textOf(kind === 'webhook' ? data?.name : data?.path) };
}

/** The key a source's reference is asked and kept under (the reader's `spec:` and `url:` keys); none for a file. */
export function sourceKey(source: SpecSource | null): string | null {
  if (!source) return null;
  if ('spec' in source) return `spec:${source.spec}`;
  if ('url' in source) return `url:${source.url}`;
  return null;
}

/**
 * A block's data pointing at another operation or webhook of a spec: a URL-pointed block keeps its address (only
 * the spec it names has its operations), the others point at the spec picked. Other fields are kept.
 */
export function blockDataPointingAt(type: string, data: Record<string, unknown> | undefined, spec: string, op: Pick<OperationView, 'method' | 'path'>): Record<string, unknown> {
  const kind = OPERATION_BLOCK_KINDS[type] ?? 'operation';
  if (kind === 'webhook') return { ...data, ref: { kind: 'openapi', spec }, name: op.path, method: op.method };
  if (type === 'openapi-operation') return dataPointingAt(data, spec, op);
  return { ...data, method: op.method, path: op.path };
}

/**
 * The slug a spec added from a block's address is given: the address's host and path in words
 * (`petstore3-swagger-io-api-v3-openapi-json`), within the API's rule (lowercase words joined by dashes, 100 at most).
 */
export function specSlugForUrl(url: string): string {
  let words: string;
  try {
    const parsed = new URL(url);
    words = `${parsed.hostname} ${parsed.pathname}`;
  } catch {
    words = url;
  }
  const slug = words.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 100).replace(/-+$/, '');
  return slug || 'openapi';
}

/** A new webhook block, as GitBook writes one. */
export function newWebhookBlock(spec: string, op: Pick<OperationView, 'method' | 'path'>): Record<string, unknown> {
  return { object: 'block', type: 'openapi-webhook', isVoid: true, data: blockDataPointingAt('openapi-webhook', {}, spec, op) };
}

/**
 * The block's data pointing at another operation: the other fields of `data` (GitBook's own, such as a block's
 * display options) are kept as they are.
 */
export function dataPointingAt(data: Record<string, unknown> | undefined, spec: string, op: Pick<OperationView, 'method' | 'path'>): Record<string, unknown> {
  return { ...data, ref: { kind: 'openapi', spec }, method: op.method, path: op.path };
}

/** A new block for an operation of a spec, as GitBook writes one (void, no key until it is saved). */
export function newOperationBlock(spec: string, op: Pick<OperationView, 'method' | 'path'>): Record<string, unknown> {
  return { object: 'block', type: 'openapi-operation', isVoid: true, data: dataPointingAt({}, spec, op) };
}

/** One line of the picker: `GET /pets List all pets`. */
export function operationLabel(op: Pick<OperationView, 'method' | 'path' | 'summary'>): string {
  return [op.method.toUpperCase(), op.path, op.summary].filter(Boolean).join(' ');
}

/** A stable id of an operation in a spec (its method and path, as a block finds it). */
export const operationId = (op: Pick<OperationView, 'method' | 'path'>) => `${op.method} ${op.path}`;

interface Listed {
  op: OperationView;
  title: string;
  keywords: string;
  description: string;
}

/**
 * The operations (or webhooks) that match what was typed (method, path or name, summary, operationId or tags), best
 * first; all of them in the spec's order for no query.
 */
export function filterOperations(reference: ApiReference, query: string, kind: ReferenceKind = 'operation'): OperationView[] {
  const listed: Listed[] = (kind === 'webhook' ? (reference.webhooks ?? []) : reference.operations).map((op) => ({ op, title: operationLabel(op), keywords: [op.operationId, ...op.tags].filter(Boolean).join(' '), description: '' }));
  return rankMatches(listed, query).map((entry) => entry.op);
}
