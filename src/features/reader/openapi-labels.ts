import type { OperationView, SchemaView } from '../openapi-specs/reference.ts';

/*
 * The words the API reference shows for a schema's type and an operation's authorization: plain functions, shared
 * by the reader (render-openapi.tsx) and the editor's drawing of an operation block, so both say the same.
 */

/** `string · date-time`, `array of Pet`, `Pet | null`. */
export function typeLabel(schema: SchemaView): string {
  let label: string;
  if (schema.type === 'array') label = `array of ${schema.items ? typeLabel(schema.items) : 'any'}`;
  else if (schema.name && (schema.type === 'object' || !schema.type)) label = schema.name;
  else label = schema.type ?? (schema.variants ? schema.variants.schemas.map(typeLabel).join(' | ') : 'any');
  if (schema.format) label += ` · ${schema.format}`;
  if (schema.nullable) label += ' | null';
  return label;
}

export function describeSecurity(s: OperationView['security'][number]): string {
  if (s.kind === 'bearer') return 'Bearer token';
  if (s.kind === 'basic') return 'HTTP basic';
  return `API key in ${s.kind} ${s.parameter}`;
}

/** A description's paragraphs (blank lines between them), as text: a spec's markdown is its author's, not the page's. */
export function paragraphsOf(text: string | undefined): string[] {
  if (!text) return [];
  return text
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean);
}

/** The parameter groups of an operation, in the reader's order, with their titles. */
export const PARAMETER_GROUPS: readonly [OperationView['parameters'][number]['in'], string][] = [
  ['path', 'Path parameters'],
  ['query', 'Query parameters'],
  ['header', 'Headers'],
  ['cookie', 'Cookies'],
];

/**
 * What an `openapi-operation` or `swagger` block points at, or an `openapi-webhook` block (a request the API sends:
 * its name where an operation has its path).
 */
export type ReferenceKind = 'operation' | 'webhook';

/** The accessible name of a drawn operation or webhook: `POST /pets`, `Webhook POST newPet`. */
export function operationName(kind: ReferenceKind, method: string, path: string): string {
  const name = `${method.toUpperCase()} ${path}`.trim();
  return kind === 'webhook' ? `Webhook ${name}`.trim() : name;
}

/** The title of the request's body: what the API receives, or what a webhook sends. */
export const bodyTitle = (kind: ReferenceKind) => (kind === 'webhook' ? 'Payload' : 'Request body');

/** Why a block shows no operation: its spec is not there, or the spec has no such operation or webhook. */
export function unavailableNote(kind: ReferenceKind, specFound: boolean): string {
  if (!specFound) return `The API specification of this ${kind} is not available.`;
  return `This ${kind} is not in the API specification.`;
}
