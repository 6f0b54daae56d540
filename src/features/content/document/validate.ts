import { Compile } from 'typebox/compile';
import { unsafeUrlProblem } from './document-urls.ts';
import { DocumentSchema } from './types.ts';

/*
 * The gate every JSON document passes before it is stored (page writes, comment bodies, markdown converted on
 * write): what is accepted can always be read, merged and rendered. Three steps:
 * 1. a loop (no recursion, so no input can overflow the stack) over every node, checking that each is an
 *    object and that the document stays under the depth and node-count limits;
 * 2. the schema of our document model (types.ts): node types, required fields, no nulls;
 * 3. the URLs it holds (document-urls.ts): none a browser would run as script (`javascript:`, `data:text/html`).
 * The loop also checks that no two nodes hold one key (keys.ts): a key is one node's.
 * The limits are far above what a person writes and keep every recursive walk over a stored document (the
 * markdown writer, merges, the schema check itself) shallow and short.
 */

/** Levels of nested nodes (blocks, inlines, texts, fragments); a page rarely goes past 10. */
export const MAX_DOCUMENT_DEPTH = 64;
/** Nodes of every kind (blocks, inlines, texts, leaves, fragments, table records) in one document. */
export const MAX_DOCUMENT_NODES = 100_000;

const validator = Compile(DocumentSchema);

/** What is wrong with a document: the JSON path of the first bad node ('' for the whole) and what is wrong. */
export interface DocumentProblem { path: string; message: string }

/** What is wrong with a document (see DocumentProblem); null when it is valid. */
export function documentProblem(document: unknown): DocumentProblem | null {
  const problem = (path: string, message: string): DocumentProblem => ({ path, message });
  if (document === null || typeof document !== 'object' || Array.isArray(document)) return problem('', 'must be a JSON document object');
  const stack: { value: unknown; path: string; depth: number }[] = [{ value: document, path: '', depth: 0 }];
  let count = 0;
  const keys = new Map<string, string>();
  while (stack.length > 0) {
    const { value, path, depth } = stack.pop()!;
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      return problem(path, `must be a node object, not ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}`);
    }
    count += 1;
    if (count > MAX_DOCUMENT_NODES) return problem('', `has more than ${MAX_DOCUMENT_NODES} nodes (the limit per document)`);
    if (depth > MAX_DOCUMENT_DEPTH) return problem(path, `is nested more than ${MAX_DOCUMENT_DEPTH} levels deep (the limit per document)`);
    const node = value as Record<string, unknown>;
    if (typeof node.key === 'string' && node.key !== '') {
      const first = keys.get(node.key);
      if (first !== undefined) return problem(path, `repeats the key "${node.key}" of the node at ${first}: a key names one node of a document`);
      keys.set(node.key, path);
    }
    for (const field of ['nodes', 'fragments', 'leaves'] as const) {
      const children = node[field];
      if (children === undefined) continue;
      if (!Array.isArray(children)) return problem(`${path}/${field}`, 'must be an array');
      for (let i = children.length - 1; i >= 0; i--) stack.push({ value: children[i], path: `${path}/${field}/${i}`, depth: depth + 1 });
    }
    // A table's records are nodes too: they are walked (and written as rows) one by one.
    const records = node.object === 'block' && node.type === 'table' ? (node.data as { records?: unknown } | undefined)?.records : undefined;
    if (records && typeof records === 'object') count += Object.keys(records).length;
  }
  if (!validator.Check(document)) {
    const first = [...validator.Errors(document)][0];
    return problem(first?.instancePath ?? '', first?.message ?? 'is not a valid document');
  }
  return unsafeUrlProblem(document);
}
