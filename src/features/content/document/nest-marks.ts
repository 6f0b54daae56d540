import type { PhrasingContent } from 'mdast';
import { markHtml } from './html.ts';
import type { MarkType } from './types.ts';

/*
 * Inline content as mdast phrasing: a document's leaves carry flat sets of marks, markdown nests them.
 */

export const NESTING_MARKS: readonly MarkType[] = ['bold', 'italic', 'strikethrough', 'keyboard', 'superscript', 'subscript', 'color'];
/**
 * A mark as the writer nests it: a mark type, or for a colour `color:<text>:<background>` (two colours are two
 * marks). Bold, italic and strikethrough are markdown; the others are written as the HTML GitBook writes.
 */
export type NestingMark = string;
const MARK_NODES: Record<string, 'strong' | 'emphasis' | 'delete'> = { bold: 'strong', italic: 'emphasis', strikethrough: 'delete' };
const HTML_MARKS: Record<string, string> = { keyboard: 'kbd', superscript: 'sup', subscript: 'sub' };

function markNode(mark: NestingMark, children: PhrasingContent[]): PhrasingContent {
  const node = MARK_NODES[mark];
  if (node) return { type: node, children } as PhrasingContent;
  const tag = HTML_MARKS[mark];
  if (tag) return { type: 'gitbookInlineWrap', open: `<${tag}>`, close: `</${tag}>`, children };
  const [, text = 'default', background = 'default'] = mark.split(':');
  return { type: 'gitbookInlineWrap', open: markHtml({ text, background }), close: '</mark>', children };
}

type TextAtom = { text: string; marks: NestingMark[]; code: boolean };
export type Atom = TextAtom | { node: PhrasingContent };

/** Phrasing for a run of atoms (text with marks, or ready nodes such as links). */
export function nestMarks(atoms: Atom[], inTable: boolean): PhrasingContent[] {
  const children = nest(atoms, [], inTable);
  encodeAstralEdges(children);
  return children;
}

const ATTENTION = new Set(['strong', 'emphasis', 'delete']);
const ASTRAL_PUNCTUATION = /^[\p{P}\p{S}]$/u;

/**
 * The serializer judges whether `**` can open or close by UTF-16 unit, so it takes an emoji (a symbol,
 * outside the BMP) for a letter, while CommonMark and markdown-it judge by code point: `a**😀b**` is not
 * bold to the reader. Writing such a character at the edge of a run as a character reference gives both the
 * same view (`&` and `;` are punctuation), and the serializer then escapes the outside character if needed.
 */
function encodeAstralEdges(nodes: PhrasingContent[]): void {
  for (const node of nodes) {
    if (node.type === 'link') encodeAstralEdges(node.children);
    if (!ATTENTION.has(node.type)) continue;
    const parent = node as PhrasingContent & { children: PhrasingContent[] };
    encodeAstralEdges(parent.children);
    encodeEdge(parent, 'first');
    encodeEdge(parent, 'last');
  }
}

function encodeEdge(parent: { children: PhrasingContent[] }, edge: 'first' | 'last'): void {
  const index = edge === 'first' ? 0 : parent.children.length - 1;
  const child = parent.children[index];
  if (!child) return;
  if (ATTENTION.has(child.type)) return encodeEdge(child as { children: PhrasingContent[] }, edge);
  if (child.type !== 'text') return;
  const characters = [...child.value];
  const character = edge === 'first' ? characters[0] : characters[characters.length - 1];
  if (!character || character.length < 2 || !ASTRAL_PUNCTUATION.test(character)) return;
  const literal: PhrasingContent = { type: 'gitbookLiteral', value: reference(character) };
  const rest: PhrasingContent = { type: 'text', value: edge === 'first' ? child.value.slice(character.length) : child.value.slice(0, -character.length) };
  const replacement = rest.value ? (edge === 'first' ? [literal, rest] : [rest, literal]) : [literal];
  parent.children.splice(index, 1, ...replacement);
}

/** Text with line breaks: a hard break, or <br> in a table cell (a row is one line). */
export function lines(value: string, inTable: boolean, piece: (text: string) => PhrasingContent): PhrasingContent[] {
  const out: PhrasingContent[] = [];
  value.split('\n').forEach((part, index) => {
    if (index > 0) out.push(inTable ? { type: 'html', value: '<br>' } : { type: 'break' });
    if (part) out.push(piece(part));
  });
  return out;
}

function plain(atom: Atom, inTable: boolean): PhrasingContent[] {
  if ('node' in atom) return [atom.node];
  if (atom.code) return lines(atom.text, inTable, (value) => ({ type: 'inlineCode', value }));
  return lines(atom.text, inTable, (value) => ({ type: 'text', value })).flatMap((node) => (node.type === 'text' ? escapeText(node.value) : [node]));
}

/**
 * Text, with two escapes the serializer would get wrong:
 * - an emoji right next to a literal `*`, `_` or `~` (see encodeAstralEdges), as a character reference;
 * - every `_`: the serializer leaves it bare inside a word, but may then write the letter before it as a
 *   character reference (next to `**`, say), after which that `_` can open emphasis. GitBook escapes it too.
 */
function escapeText(value: string): PhrasingContent[] {
  const characters = [...value];
  const out: PhrasingContent[] = [];
  let pending = '';
  characters.forEach((character, index) => {
    const nextToDelimiter = /[*_~]/.test(characters[index - 1] ?? '') || /[*_~]/.test(characters[index + 1] ?? '');
    const escaped = character === '_' ? '\\_' : character.length > 1 && nextToDelimiter && ASTRAL_PUNCTUATION.test(character) ? reference(character) : null;
    if (escaped === null) {
      pending += character;
      return;
    }
    if (pending) out.push({ type: 'text', value: pending });
    out.push({ type: 'gitbookLiteral', value: escaped });
    pending = '';
  });
  if (pending) out.push({ type: 'text', value: pending });
  return out;
}

const reference = (character: string) => `&#x${character.codePointAt(0)!.toString(16).toUpperCase()};`;

/**
 * Nests marks: at each point, opens the pending mark whose run lasts longest, so `**a *b* c**` stays one
 * strong. Whitespace at the edges of a run goes outside it: `**bold **` cannot close in markdown (the
 * serializer would escape it as `**bold&#x20;**`), while `**bold** ` reads the same to anyone.
 */
function nest(atoms: Atom[], open: NestingMark[], inTable: boolean): PhrasingContent[] {
  const out: PhrasingContent[] = [];
  let i = 0;
  while (i < atoms.length) {
    const atom = atoms[i]!;
    const pending = 'node' in atom ? [] : atom.marks.filter((m) => !open.includes(m));
    if (pending.length === 0) {
      append(out, plain(atom, inTable));
      i += 1;
      continue;
    }
    let best = pending[0]!;
    let end = runEnd(atoms, i, best);
    for (const candidate of pending.slice(1)) {
      const candidateEnd = runEnd(atoms, i, candidate);
      if (candidateEnd > end) [best, end] = [candidate, candidateEnd];
    }
    const { before, inner, after } = trimRun(atoms.slice(i, end), open);
    for (const a of before) append(out, plain(a, inTable));
    if (inner.length > 0) {
      out.push(markNode(best, nest(inner, [...open, best], inTable)));
    }
    for (const a of after) append(out, plain(a, inTable));
    i = end;
  }
  return out;
}

/** push(...items) passes every item as an argument: past ~100,000 (a long run of escaped text) it overflows the stack. */
function append<T>(target: T[], items: readonly T[]): void {
  for (const item of items) target.push(item);
}

function runEnd(atoms: Atom[], from: number, markType: NestingMark): number {
  let end = from;
  while (end < atoms.length) {
    const atom = atoms[end]!;
    if ('node' in atom || !atom.marks.includes(markType)) break;
    end += 1;
  }
  return end;
}

function trimRun(run: Atom[], open: NestingMark[]): { before: Atom[]; inner: Atom[]; after: Atom[] } {
  const outside = (atom: TextAtom, text: string): Atom => ({ ...atom, text, marks: atom.marks.filter((m) => open.includes(m)) });
  const before: Atom[] = [];
  const after: Atom[] = [];
  const inner = [...run];
  while (inner.length > 0) {
    const first = inner[0]!;
    if ('node' in first || first.code) break;
    const space = first.text.slice(0, first.text.length - first.text.trimStart().length);
    if (!space) break;
    before.push(outside(first, space));
    if (space.length === first.text.length) inner.shift();
    else {
      inner[0] = { ...first, text: first.text.slice(space.length) };
      break;
    }
  }
  while (inner.length > 0) {
    const last = inner[inner.length - 1]!;
    if ('node' in last || last.code) break;
    const space = last.text.slice(last.text.trimEnd().length);
    if (!space) break;
    after.unshift(outside(last, space));
    if (space.length === last.text.length) inner.pop();
    else {
      inner[inner.length - 1] = { ...last, text: last.text.slice(0, -space.length) };
      break;
    }
  }
  return { before, inner, after };
}
