import { base64url, sha256 as hash } from './digest.ts';
import type { Document } from './types.ts';

/*
 * Block keys let comments and reviews point at a node. Markdown carries no keys, so a document read from
 * markdown gets keys derived from content: a block's key hashes its type, data and content (keys left out)
 * and how many identical blocks came before it in the document. Hence:
 * - the same markdown always gives the same keys, so round trips keep them;
 * - editing one block changes its key (and its containers'), not the keys of the blocks around it;
 *   inserting a block above another does not move the other's key either.
 * Keys already present are kept.
 *
 * A key is one node's: comments, merges, diffs and links to a block find it by its key. A document whose keys
 * repeat (the editor copied a block's key to the new half of a split before it learned not to; data from
 * outside) is given unique ones by withUniqueKeys; the API refuses one instead (validate.ts), since a client
 * that sends it has a bug to know of.
 */

type AnyNode = { object?: string; key?: string; nodes?: AnyNode[]; fragments?: AnyNode[]; [field: string]: unknown };

const isBlock = (node: AnyNode) => node.object === 'block';
const childrenOf = (node: AnyNode): AnyNode[] => [...(node.fragments ?? []), ...(node.nodes ?? [])];

/**
 * A text or inline as JSON, every `key` left out. Most hold none, and a replacer function slows JSON.stringify
 * several times over, so it runs only when a key is there: the text `"key":` can only be a property name, since
 * a quote inside a string is written `\"`.
 */
function withoutKeys(node: AnyNode): string {
  const json = JSON.stringify(node);
  return json.includes('"key":') ? JSON.stringify(node, (name, value: unknown) => (name === 'key' ? undefined : value)) : json;
}

/** Fills in missing block keys, in place; returns the same document. */
export function keyDocument(document: Document): Document {
  const roots = document.nodes as AnyNode[];
  const signatures = new Map<AnyNode, string>();

  // Content signatures bottom-up, without recursion (a document may be deep): post-order on an explicit
  // stack. Only blocks and fragments are hashed; texts and inlines go into their parent's signature as JSON.
  const stack: { node: AnyNode; expanded: boolean }[] = roots.map((node) => ({ node, expanded: false })).reverse();
  while (stack.length > 0) {
    const entry = stack.pop()!;
    const children = childrenOf(entry.node);
    if (!entry.expanded) {
      stack.push({ node: entry.node, expanded: true });
      for (let i = children.length - 1; i >= 0; i--) {
        const child = children[i]!;
        if (isBlock(child) || child.object === 'fragment') stack.push({ node: child, expanded: false });
      }
      continue;
    }
    const { key: _key, nodes: _nodes, fragments: _fragments, ...own } = entry.node;
    const content = children.map((child) => signatures.get(child) ?? withoutKeys(child));
    signatures.set(entry.node, hash(JSON.stringify([own, content])));
  }

  // Keys in document order (pre-order), so "the n-th identical block" counts from the top.
  const seen = new Map<string, number>();
  const walk: AnyNode[] = [...roots].reverse();
  while (walk.length > 0) {
    const node = walk.pop()!;
    const signature = signatures.get(node);
    if (signature === undefined) continue;
    if (isBlock(node) && node.key === undefined) {
      const count = seen.get(signature) ?? 0;
      seen.set(signature, count + 1);
      node.key = hash(`${signature}:${count}`).slice(0, 12);
    }
    const children = childrenOf(node);
    for (let i = children.length - 1; i >= 0; i--) walk.push(children[i]!);
  }
  return document;
}

/** Calls `visit` on every node that holds a key, in document order (a node before its fragments, then its nodes). */
function forEachKeyed(document: Document, visit: (node: AnyNode & { key: string }) => void): void {
  // Stored documents are walked too: some were written before they were validated (null nodes, issue 14).
  const walk: AnyNode[] = Array.isArray(document.nodes) ? [...(document.nodes as AnyNode[])].reverse() : [];
  while (walk.length > 0) {
    const node = walk.pop()!;
    if (!node || typeof node !== 'object') continue;
    if (typeof node.key === 'string' && node.key !== '') visit(node as AnyNode & { key: string });
    const children = childrenOf(node);
    for (let i = children.length - 1; i >= 0; i--) walk.push(children[i]!);
  }
}

/**
 * The document with unique keys: itself when no key repeats (so a document prepared for storing stays
 * prepared), else a copy whose nodes holding a key an earlier node holds have new keys. The first holder keeps
 * its key, and the comments and links pointing at it. New keys derive from the key and its rank, so the same
 * document is always repaired alike: a store that repairs on every write writes the same document each time.
 */
export function withUniqueKeys<T extends Document>(document: T): T {
  const held = new Set<string>();
  let repeats = false;
  forEachKeyed(document, (node) => {
    if (held.has(node.key)) repeats = true;
    held.add(node.key);
  });
  if (!repeats) return document;
  const repaired = structuredClone(document);
  const seen = new Set<string>();
  forEachKeyed(repaired, (node) => {
    if (!seen.has(node.key)) {
      seen.add(node.key);
      return;
    }
    let fresh: string;
    for (let n = 1; held.has((fresh = hash(`${node.key}:${n}`).slice(0, 12))); n++);
    held.add(fresh);
    seen.add(fresh);
    node.key = fresh;
  });
  return repaired;
}

/** A key for a node the editor copied (the new half of a split, a pasted or duplicated block): random, so that two people splitting one block at once make two keys. */
export function randomKey(): string {
  return base64url(crypto.getRandomValues(new Uint8Array(9)));
}
