import type { Block, InlineContent, Leaf } from './types.ts';

/*
 * The plain text of document nodes: pure and free of Node's modules, so the web app (web/) can share it with the
 * reader (headings' anchors, outlines).
 */

/** The text of some inline content, marks and inlines other than links left out. */
export function inlineText(nodes: readonly InlineContent[]): string {
  let value = '';
  for (const node of nodes) {
    if (node.object === 'text') for (const l of node.leaves) value += l.text;
    else if (node.type === 'link') value += inlineText(node.nodes);
  }
  return value;
}

/** The text of a block and everything in it, without recursion (documents may be deep). */
export function blockText(root: Block): string {
  const parts: string[] = [];
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop() as { object?: string; leaves?: Leaf[]; nodes?: unknown[]; fragments?: { nodes?: unknown[] }[] };
    if (node.object === 'text') {
      for (const l of node.leaves ?? []) parts.push(l.text);
      continue;
    }
    const children = [...(node.fragments ?? []).flatMap((f) => f.nodes ?? []), ...(node.nodes ?? [])];
    if (node.object === 'block' && parts.length > 0 && children.length > 0) parts.push(' ');
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
  return parts.join('').replace(/\s+/g, ' ').trim();
}

/** Alt texts, captions, titles: one line, single spaces. */
export function oneLine(value: string): string {
  return value.replace(/\s+/g, ' ').trim();
}
