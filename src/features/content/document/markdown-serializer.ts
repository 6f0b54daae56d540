import type { InlineCode, Paragraph, PhrasingContent, Root, RootContent, Text } from 'mdast';
import { gfmStrikethroughToMarkdown } from 'mdast-util-gfm-strikethrough';
import { gfmTableToMarkdown } from 'mdast-util-gfm-table';
import { gfmTaskListItemToMarkdown } from 'mdast-util-gfm-task-list-item';
import { defaultHandlers, toMarkdown } from 'mdast-util-to-markdown';
import type { Handle, Options } from 'mdast-util-to-markdown';
import { isPlaceholderTag } from './html.ts';

/*
 * mdast-util-to-markdown set up for GitBook's markdown as markdown-parser.ts reads it: GitBook's spelling
 * (`-` bullets, `***` rules, fenced code), GFM tables, strikethrough and task lists, two node types of our own
 * (a block wrapped in tag lines, a character reference), and the blank lines markdown-it needs.
 */

/** A block between two lines of its own (`{% hint %}` … `{% endhint %}`, `<details>` … `</details>`). */
export interface Wrapped {
  type: 'gitbookWrapped';
  open: string;
  close: string;
  /** What separates the lines: "\n" for tags, a blank line for HTML (which would swallow the next line). */
  gap: string;
  children: RootContent[];
}

/** Markdown written as it is: an escape or a character reference the serializer must not escape again. */
export interface RawMarkdown {
  type: 'gitbookLiteral';
  value: string;
}

/** Phrasing between two pieces of inline HTML (`<kbd>` … `</kbd>`, `<mark style="…">` … `</mark>`). */
export interface InlineWrap {
  type: 'gitbookInlineWrap';
  open: string;
  close: string;
  children: PhrasingContent[];
}

declare module 'mdast' {
  interface PhrasingContentMap {
    gitbookLiteral: RawMarkdown;
    gitbookInlineWrap: InlineWrap;
  }
  interface RootContentMap {
    gitbookWrapped: Wrapped;
    gitbookLiteral: RawMarkdown;
    gitbookInlineWrap: InlineWrap;
  }
  interface BlockContentMap {
    gitbookWrapped: Wrapped;
  }
}

export function wrap(open: string, close: string, children: RootContent[], gap = '\n'): Wrapped {
  return { type: 'gitbookWrapped', open, close, gap, children };
}

const wrapped: Handle = (node: Wrapped, _parent, state, info) => {
  const inner = node.children.length > 0 ? state.containerFlow(node as never, state.createTracker(info).current()) : '';
  const last = node.children[node.children.length - 1];
  const closeGap = last && endsInHtmlBlock(last) ? '\n\n' : node.gap;
  return node.open + node.gap + (inner ? inner + closeGap : '') + node.close;
};

/**
 * Not an `html` node, which would do the same: the serializer turns the line break before an `html` node
 * into a space (lest it start an HTML block).
 */
function writeRaw(node: RawMarkdown): string {
  return node.value;
}

const inlineWrap: Handle = (node: InlineWrap, _parent, state, info) => {
  const tracker = state.createTracker(info);
  let value = tracker.move(node.open);
  value += tracker.move(state.containerPhrasing(node as never, { before: value, after: node.close, ...tracker.current() }));
  return value + tracker.move(node.close);
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

/**
 * A paragraph written in pieces of about CHUNK children, cut inside plain text right before whitespace. The
 * serializer checks and fixes its emphasis sequences over a whole container, and each fix renders the whole
 * container again: on a long paragraph of marks that is quadratic (issue 14). Delimiters never pair across
 * a piece boundary (each piece's own delimiters are already paired, and whitespace follows the cut), so the
 * pieces can be written apart; each sees the character before and after it.
 */
const CHUNK = 64;
const taskParagraph = gfmTaskListItemToMarkdown().handlers!.paragraph!;
const paragraphHandler: Handle = (node: Paragraph, parent, state, info) => {
  if (node.children.length <= CHUNK) return taskParagraph(node, parent, state, info);
  // The checkbox of a task list item, which taskParagraph writes for shorter paragraphs.
  const item = parent?.type === 'listItem' && typeof parent.checked === 'boolean' && parent.children[0] === node ? parent : undefined;
  let value = item ? `[${item.checked ? 'x' : ' '}] ` : '';
  const exit = state.enter('paragraph');
  const subexit = state.enter('phrasing');
  {
    let piece: PhrasingContent[] = [];
    const flush = (after: string) => {
      if (piece.length === 0) return;
      value += state.containerPhrasing({ type: 'paragraph', children: piece }, { ...info, before: value ? value.slice(-1) : info.before, after });
      piece = [];
    };
    for (const child of node.children) {
      const cut = piece.length >= CHUNK && child.type === 'text' ? child.value.search(/\S\s/) : -1;
      if (cut < 0 || child.type !== 'text') {
        piece.push(child);
        continue;
      }
      piece.push({ type: 'text', value: child.value.slice(0, cut + 1) });
      flush(child.value.charAt(cut + 1));
      piece.push({ type: 'text', value: child.value.slice(cut + 1) });
    }
    flush(info.after);
  }
  subexit();
  exit();
  return value;
};

const PLACEHOLDER = /<\/?[A-Za-z][A-Za-z0-9-]*>/g;

/**
 * Text with a tag of no HTML element (`Replace <pipeline-name> with …`, `List<T>`): the reader takes it as text
 * (to-document.ts), so it is written as it was, as GitBook writes it, not escaped (`\<pipeline-name>`) — except at
 * the start of a line, where a tag alone on its line would open an HTML block, and in a table.
 */
const textHandler: Handle = (node: Text, parent, state, info) => {
  const value = node.value;
  // In a table cell it stays escaped: a column's title is read as plain text.
  if (!value.includes('<') || state.stack.includes('tableCell')) return defaultHandlers.text(node, parent, state, info);
  let out = '';
  let last = 0;
  for (const match of value.matchAll(PLACEHOLDER)) {
    const before = value.slice(last, match.index);
    const previous = before ? before.slice(-1) : out ? out.slice(-1) : info.before;
    if (!isPlaceholderTag(match[0]) || previous === '' || previous === '\n' || previous === '\r') continue;
    out += state.safe(before, { before: out ? out.slice(-1) : info.before, after: '<' }) + match[0];
    last = match.index + match[0].length;
  }
  return out + state.safe(value.slice(last), { before: out ? out.slice(-1) : info.before, after: info.after });
};

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
  handlers: { gitbookWrapped: wrapped, gitbookLiteral: writeRaw, gitbookInlineWrap: inlineWrap, paragraph: paragraphHandler, text: textHandler },
  join: [(left, right) => (needsBlankLine(left as RootContent, right as RootContent) ? 1 : undefined)],
  // A paragraph line that starts with "{%" would read back as a GitBook tag.
  // `$$` would read back as math.
  unsafe: [{ character: '{', after: '%', atBreak: true }, { character: '$', after: '\\$' }],
  extensions: [gfmStrikethroughToMarkdown(), gfmTableToMarkdown(), gfmTaskListItemToMarkdown(), { handlers: { inlineCode: inlineCodeInTable } }],
};

/** The markdown text of an mdast tree. */
export function serializeMarkdown(root: Root): string {
  return toMarkdown(root, OPTIONS);
}
