import type { BlockContent, Heading as MdHeading, InlineCode, ListItem as MdListItem, PhrasingContent, Root, RootContent, TableCell, TableRow } from 'mdast';
import { gfmStrikethroughToMarkdown } from 'mdast-util-gfm-strikethrough';
import { gfmTableToMarkdown } from 'mdast-util-gfm-table';
import { gfmTaskListItemToMarkdown } from 'mdast-util-gfm-task-list-item';
import { defaultHandlers, toMarkdown } from 'mdast-util-to-markdown';
import type { Handle, Options } from 'mdast-util-to-markdown';
import { anchorHtml, figureHtml, imgHtml, summaryHtml } from './html.ts';
import type { HtmlImage } from './html.ts';
import { formatTag } from './liquid-tags.ts';
import { blockText, inlineText, oneLine } from './nodes.ts';
import type {
  Block, Code, ContentRef, Document, Fragment, Images, InlineContent, List, MarkType, RefWriter, Table, TableValue,
} from './types.ts';

/**
 * Writes a JSON document as GitBook-flavoured markdown (the form Git Sync writes: `{% hint %}`, `{% tabs %}`,
 * `<details>`, `<figure>`, GFM tables and task lists). Blocks markdown cannot express (math, OpenAPI, …) are
 * left out. The output is canonical: markdownToDocument reads it back to the same document, and writing that
 * document again gives the same markdown.
 */
export function documentToMarkdown(document: Document, refs: RefWriter): string {
  const root: Root = { type: 'root', children: new Writer(refs).flow(document.nodes ?? [], 0) };
  return toMarkdown(root, OPTIONS);
}

/** A block between two lines of its own (`{% hint %}` … `{% endhint %}`, `<details>` … `</details>`). */
interface Wrapped {
  type: 'gitbookWrapped';
  open: string;
  close: string;
  /** What separates the lines: "\n" for tags, a blank line for HTML (which would swallow the next line). */
  gap: string;
  children: RootContent[];
}

interface CharacterReference {
  type: 'characterReference';
  value: string;
}

declare module 'mdast' {
  interface PhrasingContentMap {
    characterReference: CharacterReference;
  }
  interface RootContentMap {
    gitbookWrapped: Wrapped;
    characterReference: CharacterReference;
  }
  interface BlockContentMap {
    gitbookWrapped: Wrapped;
  }
}

const wrapped: Handle = (node: Wrapped, _parent, state, info) => {
  const inner = node.children.length > 0 ? state.containerFlow(node as never, state.createTracker(info).current()) : '';
  const last = node.children[node.children.length - 1];
  const closeGap = last && endsInHtmlBlock(last) ? '\n\n' : node.gap;
  return node.open + node.gap + (inner ? inner + closeGap : '') + node.close;
};

/**
 * An HTML block (a figure, </details>, or a paragraph that is only an inline <img>) runs until a blank line:
 * whatever follows it, even in a tight list, needs a blank line first or it becomes part of the HTML.
 */
function endsInHtmlBlock(node: RootContent): boolean {
  if (node.type === 'html') return node.value.startsWith('<');
  if (node.type === 'gitbookWrapped') return node.close.startsWith('<');
  return isHtmlParagraph(node);
}

const isHtmlParagraph = (node: RootContent) =>
  node.type === 'paragraph' && node.children.length > 0 && node.children.every((child) => child.type === 'html');

/**
 * Blank lines the serializer would leave out in a tight list: after an HTML block (see above), and before
 * what cannot interrupt a paragraph in markdown-it (a table, a lone inline <img>), which would otherwise
 * be read as the paragraph's next line.
 */
const needsBlankLine = (left: RootContent, right: RootContent) =>
  endsInHtmlBlock(left) || right.type === 'table' || isHtmlParagraph(right);

/**
 * Code in a table cell: markdown-it, like GitHub, takes any backslash right before a pipe as its escape and
 * drops it, while the GFM serializer counts backslashes the way micromark does. Every pipe gets its own.
 */
function inlineCodeInTable(node: InlineCode, parent: Parameters<Handle>[1], state: Parameters<Handle>[2]): string {
  const value = defaultHandlers.inlineCode(node, parent, state);
  return state.stack.includes('tableCell') ? value.replace(/\|/g, '\\|') : value;
}

const OPTIONS: Options = {
  bullet: '-',
  bulletOther: '*',
  bulletOrdered: '.',
  emphasis: '*',
  strong: '*',
  rule: '*',
  fence: '`',
  fences: true,
  listItemIndent: 'one',
  incrementListMarker: true,
  resourceLink: false,
  handlers: { gitbookWrapped: wrapped, characterReference: writeCharacterReference },
  join: [(left, right) => (needsBlankLine(left as RootContent, right as RootContent) ? 1 : undefined)],
  // A paragraph line that starts with "{%" would read back as a GitBook tag.
  unsafe: [{ character: '{', after: '%', atBreak: true }],
  extensions: [gfmStrikethroughToMarkdown(), gfmTableToMarkdown(), gfmTaskListItemToMarkdown(), { handlers: { inlineCode: inlineCodeInTable } }],
};

// Deeper than this, containers are written as the plain text of their content: markdown parsers stop
// nesting somewhere (markdown-parser.ts), and the serializer recurses.
const MAX_DEPTH = 32;
const NESTING_MARKS: readonly MarkType[] = ['bold', 'italic', 'strikethrough'];
type NestingMark = 'bold' | 'italic' | 'strikethrough';
const MARK_NODES = { bold: 'strong', italic: 'emphasis', strikethrough: 'delete' } as const;

type TextAtom = { text: string; marks: NestingMark[]; code: boolean };
type Atom = TextAtom | { node: PhrasingContent };

class Writer {
  constructor(private readonly refs: RefWriter) {}

  flow(blocks: readonly Block[], depth: number): RootContent[] {
    const out: RootContent[] = [];
    for (const block of blocks) {
      if (depth > MAX_DEPTH) {
        const value = blockText(block);
        if (value) out.push({ type: 'paragraph', children: [{ type: 'text', value }] });
        continue;
      }
      const node = this.block(block, depth);
      if (node) out.push(node);
    }
    return out;
  }

  private block(block: Block, depth: number): RootContent | null {
    switch (block.type) {
      case 'paragraph': {
        const children = withoutTrailingBreaks(this.phrasing(block.nodes));
        return children.length > 0 ? { type: 'paragraph', children } : null;
      }
      case 'heading-1':
      case 'heading-2':
      case 'heading-3': {
        const heading: MdHeading = { type: 'heading', depth: Number(block.type.slice(-1)) as 1 | 2 | 3, children: withoutTrailingBreaks(this.phrasing(block.nodes)) };
        if (block.data?.id) heading.children.push({ type: 'html', value: ` ${anchorHtml(block.data.id)}` });
        return heading;
      }
      case 'list-ordered':
      case 'list-unordered':
      case 'list-tasks':
        return this.list(block, depth);
      case 'divider':
        return { type: 'thematicBreak' };
      case 'blockquote':
        return { type: 'blockquote', children: this.flow(block.nodes, depth + 1) as BlockContent[] };
      case 'hint':
        return wrap(formatTag('hint', { style: block.data?.style ?? 'info' }), formatTag('endhint'), this.flow(block.nodes, depth + 1));
      case 'code':
        return this.code(block);
      case 'table':
        return this.table(block);
      case 'images':
        return this.images(block);
      case 'tabs':
        return wrap(
          formatTag('tabs'),
          formatTag('endtabs'),
          (block.nodes ?? []).map((tab) => wrap(formatTag('tab', { title: oneLine(tab.data?.title ?? '') }), formatTag('endtab'), this.flow(tab.nodes, depth + 1))),
        );
      case 'expandable': {
        const title = fragmentOf(block.fragments, 'expandable-title');
        const body = fragmentOf(block.fragments, 'expandable-body');
        const titleText = oneLine(title ? title.nodes.map(blockText).join(' ') : '');
        return wrap(`<details>\n\n${summaryHtml(titleText)}`, '</details>', this.flow(body?.nodes ?? [], depth + 1), '\n\n');
      }
      case 'embed':
        return block.data?.url ? { type: 'html', value: formatTag('embed', { url: block.data.url }) } : null;
      case 'file':
        return block.data?.ref ? { type: 'html', value: formatTag('file', { src: this.refs(block.data.ref, 'image') }) } : null;
      case 'content-ref': {
        if (!block.data?.ref) return null;
        const url = this.refs(block.data.ref, 'link');
        // GitBook writes a plain link between the tags, for renderers that do not know them.
        const link: PhrasingContent = { type: 'link', url, children: [{ type: 'text', value: url }] };
        return wrap(formatTag('content-ref', { url }), formatTag('endcontent-ref'), [{ type: 'paragraph', children: [link] }]);
      }
      default:
        // Blocks markdown cannot carry (math, drawings, OpenAPI, …), and list items or code lines out of place.
        return null;
    }
  }

  private list(block: List, depth: number): RootContent {
    const tasks = block.type === 'list-tasks';
    const start = block.type === 'list-ordered' && typeof block.data?.start === 'number' ? block.data.start : 1;
    return {
      type: 'list',
      ordered: block.type === 'list-ordered',
      start,
      spread: false,
      children: (block.nodes ?? []).map(
        (item): MdListItem => ({
          type: 'listItem',
          spread: false,
          checked: tasks ? item.data?.checked === true : null,
          children: this.flow(item.nodes ?? [], depth + 1) as BlockContent[],
        }),
      ),
    };
  }

  private code(block: Code): RootContent {
    const value = (block.nodes ?? [])
      .map((line) => (line.nodes ?? []).map((node) => (node.object === 'text' ? node.leaves.map((l) => l.text).join('') : '')).join(''))
      .join('\n');
    const code: RootContent = { type: 'code', lang: block.data?.syntax || null, value };
    const { title, overflow, lineNumbers, fullWidth } = block.data ?? {};
    if (title === undefined && overflow === undefined && lineNumbers === undefined && fullWidth === undefined) return code;
    const attributes = {
      title,
      overflow,
      lineNumbers: lineNumbers === undefined ? undefined : String(lineNumbers),
      fullWidth: fullWidth === undefined ? undefined : String(fullWidth),
    };
    return wrap(formatTag('code', attributes), formatTag('endcode'), [code]);
  }

  private images(block: Images): RootContent | null {
    const images: HtmlImage[] = (block.nodes ?? []).map((image) => ({
      src: this.refs(image.data.ref, 'image'),
      alt: oneLine(image.data.alt ?? ''),
      caption: oneLine((fragmentOf(image.fragments, 'caption')?.nodes ?? []).map(blockText).join(' ')),
    }));
    const only = images[0];
    if (images.length === 1 && only && !only.caption && !block.data?.align) {
      return { type: 'paragraph', children: [{ type: 'image', url: only.src, alt: only.alt }] };
    }
    if (images.length === 0) return null;
    const figures = images.map(figureHtml).join('\n');
    return { type: 'html', value: block.data?.align ? `<div align="${block.data.align}">${figures}</div>` : figures };
  }

  private table(block: Table): RootContent | null {
    const { definition = {}, records = {}, view } = block.data ?? {};
    const columns = (view?.columns?.length ? view.columns : Object.keys(definition)).filter((id) => definition[id]);
    if (columns.length === 0) return null;
    const header: TableRow = {
      type: 'tableRow',
      children: columns.map((id): TableCell => ({ type: 'tableCell', children: cellText(definition[id]!.title) })),
    };
    const rows = Object.entries(records)
      .sort(([idA, a], [idB, b]) => (a.orderIndex < b.orderIndex ? -1 : a.orderIndex > b.orderIndex ? 1 : idA < idB ? -1 : 1))
      .map(
        ([, record]): TableRow => ({
          type: 'tableRow',
          children: columns.map((id): TableCell => ({ type: 'tableCell', children: this.cell(block, definition[id]!.type, record.values?.[id]) })),
        }),
      );
    return {
      type: 'table',
      align: columns.map((id) => {
        const alignment = definition[id]!.textAlignment;
        return alignment === 'center' || alignment === 'right' ? alignment : null;
      }),
      children: [header, ...rows],
    };
  }

  private cell(block: Table, type: string, value: TableValue | undefined): PhrasingContent[] {
    if (value === undefined || value === null) return [];
    switch (type) {
      case 'text': {
        const content = typeof value === 'string' ? fragmentOf(block.fragments, value) : undefined;
        const parts = (content?.nodes ?? []).map((node) =>
          node.type === 'paragraph' || node.type.startsWith('heading-') ? this.phrasing((node as { nodes: InlineContent[] }).nodes, true) : cellText(blockText(node)),
        );
        // A cell holds one line: its paragraphs are separated by line breaks.
        return parts.filter((p) => p.length > 0).flatMap((p, i) => (i > 0 ? [{ type: 'html', value: '<br><br>' } as PhrasingContent, ...p] : p));
      }
      case 'checkbox':
        return cellText(value === true ? '[x]' : '[ ]');
      case 'content-ref':
        if (typeof value === 'object' && !Array.isArray(value) && 'kind' in value) {
          const url = this.refs(value as ContentRef, 'link');
          return [{ type: 'link', url, children: [{ type: 'text', value: url }] }];
        }
        return [];
      default:
        return typeof value === 'number' || typeof value === 'string' ? cellText(String(value)) : [];
    }
  }

  /** Inline content as mdast phrasing: marks become nested strong/emphasis/delete, links and images nodes. */
  phrasing(nodes: readonly InlineContent[], inTable = false): PhrasingContent[] {
    const atoms: Atom[] = [];
    for (const node of nodes ?? []) {
      if (node.object === 'text') {
        for (const l of node.leaves ?? []) {
          if (!l.text) continue;
          const types = (l.marks ?? []).map((m) => m.type);
          atoms.push({ text: l.text, marks: NESTING_MARKS.filter((m) => types.includes(m)) as NestingMark[], code: types.includes('code') });
        }
      } else if (node.type === 'link') {
        atoms.push({ node: { type: 'link', url: this.refs(node.data.ref, 'link'), children: this.phrasing(node.nodes ?? [], inTable) } });
      } else if (node.type === 'inline-image') {
        // Always as HTML: `![]()` alone in a paragraph is read as an images block.
        const image: HtmlImage = { src: this.refs(node.data.ref, 'image'), alt: oneLine(node.data.alt ?? ''), caption: '' };
        if (node.data.size) image.size = node.data.size;
        atoms.push({ node: { type: 'html', value: imgHtml(image) } });
      } else if (node.type === 'emoji' && typeof (node.data as { code?: unknown } | undefined)?.code === 'string') {
        const code = Number.parseInt((node.data as { code: string }).code, 16);
        if (Number.isInteger(code) && code > 0 && code <= 0x10ffff) atoms.push({ text: String.fromCodePoint(code), marks: [], code: false });
      }
    }
    const children = nest(atoms, [], inTable);
    encodeAstralEdges(children);
    return children;
  }
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
  const reference = characterReference(character);
  const rest: PhrasingContent = { type: 'text', value: edge === 'first' ? child.value.slice(character.length) : child.value.slice(0, -character.length) };
  const replacement = rest.value ? (edge === 'first' ? [reference, rest] : [rest, reference]) : [reference];
  parent.children.splice(index, 1, ...replacement);
}

function wrap(open: string, close: string, children: RootContent[], gap = '\n'): Wrapped {
  return { type: 'gitbookWrapped', open, close, gap, children };
}

/** A line break that ends a paragraph means nothing in markdown (and `\\` would be read as text there). */
function withoutTrailingBreaks(children: PhrasingContent[]): PhrasingContent[] {
  let end = children.length;
  while (end > 0 && children[end - 1]!.type === 'break') end -= 1;
  return children.slice(0, end);
}

function fragmentOf(fragments: readonly Fragment[] | undefined, name: string): Fragment | undefined {
  return (fragments ?? []).find((f) => f.fragment === name);
}

function cellText(value: string): PhrasingContent[] {
  return value ? lines(value, true, (text) => ({ type: 'text', value: text })) : [];
}

/** Text with line breaks: a hard break, or <br> in a table cell (a row is one line). */
function lines(value: string, inTable: boolean, piece: (text: string) => PhrasingContent): PhrasingContent[] {
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
  return lines(atom.text, inTable, (value) => ({ type: 'text', value })).flatMap((node) => (node.type === 'text' ? encodeAstralNextToDelimiters(node.value) : [node]));
}

/** See encodeAstralEdges: the same mismatch for a literal `*`, `_` or `~` right next to an emoji. */
function encodeAstralNextToDelimiters(value: string): PhrasingContent[] {
  const characters = [...value];
  const out: PhrasingContent[] = [];
  let pending = '';
  characters.forEach((character, index) => {
    const nextToDelimiter = /[*_~]/.test(characters[index - 1] ?? '') || /[*_~]/.test(characters[index + 1] ?? '');
    if (character.length > 1 && nextToDelimiter && ASTRAL_PUNCTUATION.test(character)) {
      if (pending) out.push({ type: 'text', value: pending });
      out.push(characterReference(character));
      pending = '';
    } else {
      pending += character;
    }
  });
  if (pending) out.push({ type: 'text', value: pending });
  return out;
}

/**
 * `&#x…;` written as it is. Not an `html` node: the serializer turns the line break before an `html` node
 * into a space (lest it start an HTML block), which a character reference cannot do.
 */
const characterReference = (character: string): PhrasingContent => ({ type: 'characterReference', value: `&#x${character.codePointAt(0)!.toString(16).toUpperCase()};` });
function writeCharacterReference(node: CharacterReference): string {
  return node.value;
}



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
      out.push(...plain(atom, inTable));
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
    out.push(...before.flatMap((a) => plain(a, inTable)));
    if (inner.length > 0) {
      out.push({ type: MARK_NODES[best], children: nest(inner, [...open, best], inTable) } as PhrasingContent);
    }
    out.push(...after.flatMap((a) => plain(a, inTable)));
    i = end;
  }
  return out;
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
