import type { ApiReference, OperationView } from '../../../../src/features/openapi-specs/reference.ts';
import { rankMatches } from '../slash/fuzzy-match.ts';

/*
 * An `openapi-operation` block as the editor reads and writes it: `{ ref: { kind: 'openapi', spec: <slug> },
 * method, path }` (GitBook's DocumentBlockOpenAPIOperation), and the operations of a spec as the picker lists them.
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
 * The operations that match what was typed (method, path, summary, operationId or tags), best first; all of them
 * in the spec's order for no query.
 */
export function filterOperations(reference: ApiReference, query: string): OperationView[] {
  const listed: Listed[] = reference.operations.map((op) => ({ op, title: operationLabel(op), keywords: [op.operationId, ...op.tags].filter(Boolean).join(' '), description: '' }));
  return rankMatches(listed, query).map((entry) => entry.op);
}
