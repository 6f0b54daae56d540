import { sha256 as hash } from './digest.ts';
import type { Document } from './types.ts';

/*
 * Block keys let comments and reviews point at a node. Markdown carries no keys, so a document read from
 * markdown gets keys derived from content: a block's key hashes its type, data and content (keys left out)
 * and how many identical blocks came before it in the document. Hence:
 * - the same markdown always gives the same keys, so round trips keep them;
 * - editing one block changes its key (and its containers'), not the keys of the blocks around it;
 *   inserting a block above another does not move the other's key either.
 * Keys already present are kept.
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
