import type { TagLine } from './liquid-tags.ts';
import type { Token } from './markdown-parser.ts';

/*
 * markdown-it's token stream as to-document.ts walks it: a tree of tokens, and the flow of a container as
 * items in which GitBook's `{% tag %}` lines and <details> markers are paired up.
 */

export interface TokenNode { token: Token; children: TokenNode[] }

/** markdown-it's flat stream of `_open`/`_close` tokens as a tree. */
export function tokenTree(tokens: Token[]): TokenNode[] {
  const root: TokenNode[] = [];
  const stack: TokenNode[][] = [root];
  for (const token of tokens) {
    const siblings = stack[stack.length - 1]!;
    if (token.nesting === 1) {
      const node: TokenNode = { token, children: [] };
      siblings.push(node);
      stack.push(node.children);
    } else if (token.nesting === -1) {
      if (stack.length > 1) stack.pop();
    } else {
      siblings.push({ token, children: [] });
    }
  }
  return root;
}

/** A unit of a flow: a token subtree, a `{% tag %}` line, or a <details> marker out of an HTML block. */
export type Item =
  | { kind: 'node'; node: TokenNode }
  | { kind: 'tag'; tag: TagLine; raw: string }
  | { kind: 'details-open' | 'details-close'; raw: string; expanded?: boolean }
  | { kind: 'summary'; title: string; html: string; raw: string };

const PAIRED_TAGS: Record<string, string> = {
  hint: 'endhint', tabs: 'endtabs', tab: 'endtab', code: 'endcode', file: 'endfile', 'content-ref': 'endcontent-ref',
  embed: 'endembed', stepper: 'endstepper', step: 'endstep', columns: 'endcolumns', column: 'endcolumn', if: 'endif',
  updates: 'endupdates', update: 'endupdate', prompt: 'endprompt', openapi: 'endopenapi',
  'openapi-operation': 'endopenapi-operation', 'openapi-schemas': 'endopenapi-schemas', 'openapi-webhook': 'endopenapi-webhook',
};
const CLOSING_TAGS = new Map(Object.entries(PAIRED_TAGS).map(([open, close]) => [close, open]));

/** Which family an item opens or closes, for pairing. */
function pairing(item: Item): { family: string; opens: boolean } | null {
  if (item.kind === 'details-open') return { family: 'details', opens: true };
  if (item.kind === 'details-close') return { family: 'details', opens: false };
  if (item.kind !== 'tag') return null;
  if (PAIRED_TAGS[item.tag.name]) return { family: item.tag.name, opens: true };
  const opener = CLOSING_TAGS.get(item.tag.name);
  return opener ? { family: opener, opens: false } : null;
}

/** For each opener, the index of its closer (innermost pairing, per family). One pass, so linear. */
export function pairItems(items: Item[]): Map<number, number> {
  const pairs = new Map<number, number>();
  const open = new Map<string, number[]>();
  items.forEach((item, index) => {
    const role = pairing(item);
    if (!role) return;
    const stack = open.get(role.family) ?? [];
    open.set(role.family, stack);
    if (role.opens) stack.push(index);
    else if (stack.length > 0) pairs.set(stack.pop()!, index);
  });
  return pairs;
}

/** The plain text of inline tokens (alt texts, column titles). */
export function tokensText(tokens: Token[]): string {
  let value = '';
  for (const token of tokens) {
    if (token.type === 'text' || token.type === 'text_special' || token.type === 'code_inline') value += token.content;
    else if (token.type === 'softbreak' || token.type === 'hardbreak') value += ' ';
    else if (token.type === 'image') value += tokensText(token.children ?? []);
  }
  return value;
}
