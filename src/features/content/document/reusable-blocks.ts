import type { Document } from './types.ts';

/*
 * What readers see of a `reusable-content` block: the blocks of the reusable content it names, taken from the
 * same revision. A reusable content may include others; expansion stops after MAX_INCLUDE_DEPTH levels, and a
 * reusable content met again inside itself (directly or through others) shows nothing, so no document can make
 * a reader loop or grow without bound. A block that names what the revision does not hold, or another space's
 * reusable content, shows nothing either.
 */

/** Reusable contents inside reusable contents, this deep at most: a few levels are all anyone nests. */
export const MAX_INCLUDE_DEPTH = 3;

type Node = { object?: unknown; type?: unknown; data?: unknown; nodes?: unknown; [field: string]: unknown };

/** The documents of the reusable contents a document includes, by id (undefined: not in the revision). */
export type IncludedDocuments = ReadonlyMap<string, Document | undefined>;

/** The reusable content a block includes, if it is a `reusable-content` block of this space. */
function includedId(node: Node): string | undefined {
  if (node.object !== 'block' || node.type !== 'reusable-content') return undefined;
  const ref = (node.data as { ref?: { kind?: unknown; reusableContent?: unknown; space?: unknown } } | undefined)?.ref;
  if (ref?.kind !== 'reusable-content' || typeof ref.reusableContent !== 'string' || ref.space !== undefined) return undefined;
  return ref.reusableContent;
}

function isIncludeBlock(node: Node): boolean {
  return node.object === 'block' && node.type === 'reusable-content';
}

/** The ids of the reusable contents the nodes include, at any depth of blocks (tabs, hints, expandables hold them too). */
export function includedReusableContents(nodes: readonly unknown[]): string[] {
  const ids = new Set<string>();
  const visit = (list: readonly unknown[]) => {
    for (const node of list as Node[]) {
      if (!node || typeof node !== 'object') continue;
      const id = includedId(node);
      if (id !== undefined) ids.add(id);
      else if (Array.isArray(node.nodes) && node.object !== 'text') visit(node.nodes);
    }
  };
  visit(nodes);
  return [...ids];
}

/**
 * Reads, through `load`, the documents of every reusable content the document includes, and those they include,
 * down to MAX_INCLUDE_DEPTH: what expandReusableBlocks needs, each read once.
 */
export async function loadIncludedDocuments(document: Document, load: (id: string) => Promise<Document | undefined>): Promise<Map<string, Document | undefined>> {
  const found = new Map<string, Document | undefined>();
  let wanted = includedReusableContents(document.nodes);
  for (let depth = 0; depth < MAX_INCLUDE_DEPTH && wanted.length > 0; depth++) {
    const next: string[] = [];
    for (const id of wanted) {
      if (found.has(id)) continue;
      const included = await load(id);
      found.set(id, included);
      if (included) next.push(...includedReusableContents(included.nodes));
    }
    wanted = next.filter((id) => !found.has(id));
  }
  return found;
}

/**
 * The document with each `reusable-content` block replaced by the blocks of what it includes (expanded in turn).
 * The document is returned as it is when it includes nothing.
 */
export function expandReusableBlocks(document: Document, included: IncludedDocuments): Document {
  if (!hasIncludeBlock(document.nodes)) return document;
  return { ...document, nodes: expandNodes(document.nodes, included, []) as Document['nodes'] };
}

function hasIncludeBlock(nodes: readonly unknown[]): boolean {
  return (nodes as Node[]).some((node) => node && typeof node === 'object' && (isIncludeBlock(node) || (Array.isArray(node.nodes) && node.object !== 'text' && hasIncludeBlock(node.nodes))));
}

/** `chain`: the reusable contents being expanded around these nodes, outermost first. */
function expandNodes(nodes: readonly unknown[], included: IncludedDocuments, chain: readonly string[]): unknown[] {
  const out: unknown[] = [];
  for (const node of nodes as Node[]) {
    if (!node || typeof node !== 'object') {
      out.push(node);
      continue;
    }
    if (isIncludeBlock(node)) {
      const id = includedId(node);
      const document = id === undefined ? undefined : included.get(id);
      if (id === undefined || !document || chain.includes(id) || chain.length >= MAX_INCLUDE_DEPTH) continue;
      out.push(...expandNodes(document.nodes, included, [...chain, id]));
      continue;
    }
    if (Array.isArray(node.nodes) && node.object !== 'text' && hasIncludeBlock(node.nodes)) out.push({ ...node, nodes: expandNodes(node.nodes, included, chain) });
    else out.push(node);
  }
  return out;
}
