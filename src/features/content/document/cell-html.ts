import { escapeAttribute } from 'entities';
import { DomUtils, ElementType, parseDocument } from 'htmlparser2';
import type { PhrasingContent } from 'mdast';
// Our own mdast nodes (gitbookLiteral, gitbookInlineWrap) are declared there, for any program that reads this one.
import type {} from './markdown-serializer.ts';

/*
 * Table cells with blocks. GitBook's tables hold rich cells (a record's value is a fragment of blocks), and a
 * GFM table row is one line, so GitBook writes such a cell's blocks as HTML inside the row:
 *   | Cluster | <p>Create a cluster with <a href="https://example.com/eks">EKS</a></p><p><strong>Note</strong>: …</p> |
 *   | States  | <ul><li>Degraded</li><li>Healthy</li></ul> |
 * Read: the cell's HTML becomes the markdown of its blocks (paragraphs, lists, links as markdown links; the inline
 * tags the inline reader knows kept as they are), read again as a flow. Written: each block as HTML, its text
 * escaped for markdown (a row is still read as markdown) and for HTML.
 */

type HtmlNode = ReturnType<typeof parseDocument>['children'][number];
type HtmlElement = Extract<HtmlNode, { attribs: Record<string, string> }>;

/** Inline tags the markdown inline reader reads as marks, breaks or images (html.ts, readInlineHtml). */
const INLINE_TAGS = new Set(['strong', 'b', 'em', 'i', 'code', 's', 'del', 'strike', 'mark', 'kbd', 'sup', 'sub', 'br', 'img', 'span', 'u', 'small']);
const VOID_TAGS = new Set(['br', 'img']);

/** Whether a cell's markdown holds HTML that gives it blocks or links the inline reader does not read. */
export function isRichCellHtml(raw: string): boolean {
  return /<(?:p|ul|ol|li|a\s[^>]*href)\b/i.test(raw);
}

/**
 * A cell's HTML as the markdown of its blocks; null when it holds HTML that blocks cannot (a `<div>`, a table, an
 * attribute-carrying anchor), which the caller keeps as it was. Text stays as written (it is markdown already).
 */
export function cellHtmlToMarkdown(html: string): string | null {
  const nodes = parseDocument(html, { decodeEntities: false }).children;
  const blocks = flow(nodes, 0);
  return blocks === null ? null : blocks.join('\n\n');
}

const MAX_DEPTH = 16;

function flow(nodes: readonly HtmlNode[], depth: number): string[] | null {
  if (depth > MAX_DEPTH) return null;
  const blocks: string[] = [];
  let run = '';
  const flush = () => {
    if (run.trim() !== '') blocks.push(run.trim());
    run = '';
  };
  for (const node of nodes) {
    if (node.type === ElementType.Text) {
      run += DomUtils.textContent(node).replace(/\s*\n\s*/g, ' ');
      continue;
    }
    if (!ElementType.isTag(node)) return null;
    const element = node as HtmlElement;
    if (element.name === 'p' && Object.keys(element.attribs).length === 0) {
      flush();
      const inner = inline(element.children, depth + 1);
      if (inner === null) return null;
      if (inner.trim() !== '') blocks.push(inner.trim());
    } else if ((element.name === 'ul' || element.name === 'ol') && Object.keys(element.attribs).length === 0) {
      flush();
      const list = listMarkdown(element, depth + 1);
      if (list === null) return null;
      blocks.push(list);
    } else {
      const inner = inline([element], depth + 1);
      if (inner === null) return null;
      run += inner;
    }
  }
  flush();
  return blocks;
}

function listMarkdown(list: HtmlElement, depth: number): string | null {
  const lines: string[] = [];
  let number = 1;
  for (const item of list.children) {
    if (item.type === ElementType.Text && DomUtils.textContent(item).trim() === '') continue;
    if (!ElementType.isTag(item) || (item as HtmlElement).name !== 'li') return null;
    const blocks = flow((item as HtmlElement).children, depth + 1);
    if (blocks === null) return null;
    const marker = list.name === 'ol' ? `${number++}. ` : '- ';
    const indent = ' '.repeat(marker.length);
    const body = (blocks.length > 0 ? blocks : ['']).join('\n\n').split('\n');
    lines.push(`${marker}${body[0]}`, ...body.slice(1).map((line) => (line ? `${indent}${line}` : '')));
  }
  return lines.join('\n');
}

function inline(nodes: readonly HtmlNode[], depth: number): string | null {
  if (depth > MAX_DEPTH) return null;
  let out = '';
  for (const node of nodes) {
    if (node.type === ElementType.Text) {
      out += DomUtils.textContent(node).replace(/\s*\n\s*/g, ' ');
      continue;
    }
    if (!ElementType.isTag(node)) return null;
    const element = node as HtmlElement;
    if (element.name === 'a' && element.attribs.href !== undefined && Object.keys(element.attribs).length === 1) {
      const label = inline(element.children, depth + 1);
      if (label === null) return null;
      out += `[${label}](${markdownDestination(element.attribs.href)})`;
    } else if (INLINE_TAGS.has(element.name)) {
      const inner = inline(element.children, depth + 1);
      if (inner === null) return null;
      const attributes = Object.entries(element.attribs).map(([name, value]) => ` ${name}="${value}"`).join('');
      out += VOID_TAGS.has(element.name) ? `<${element.name}${attributes}>` : `<${element.name}${attributes}>${inner}</${element.name}>`;
    } else {
      return null;
    }
  }
  return out;
}

const WRITTEN_INLINE = new Set(['strong', 'em', 's', 'code', 'a', 'br', 'img', 'mark', 'kbd', 'sup', 'sub']);

/**
 * Whether a rich cell's HTML is in the form `phrasingHtml` and the table writer give it: blocks only at the top,
 * the writer's tags, no markdown in the text. A cell written otherwise (by a person: `Define **x** <ul><li> …`)
 * keeps its source, so that what the author wrote comes back as written while the cell is unchanged.
 */
export function isWrittenCellHtml(html: string): boolean {
  const nodes = parseDocument(html, { decodeEntities: false }).children;
  // The writer joins two lists of a kind side by side into one, and writes no empty paragraph.
  for (let i = 1; i < nodes.length; i++) {
    const [before, after] = [nodes[i - 1]!, nodes[i]!];
    if (ElementType.isTag(before) && ElementType.isTag(after) && /^[uo]l$/.test((before as HtmlElement).name) && (before as HtmlElement).name === (after as HtmlElement).name) return false;
  }
  const stack: { node: HtmlNode; top: boolean }[] = nodes.map((node) => ({ node, top: true }));
  while (stack.length > 0) {
    const { node, top } = stack.pop()!;
    if (node.type === ElementType.Text) {
      // Text is escaped by the writer: an unescaped markdown character means a person wrote it.
      if (top || /(?<!\\)[*_`[\]~]|\s{2}/.test(DomUtils.textContent(node))) return false;
      continue;
    }
    if (!ElementType.isTag(node)) return false;
    const element = node as HtmlElement;
    const block = element.name === 'p' || element.name === 'ul' || element.name === 'ol';
    if (element.name === 'p' || element.name === 'li') {
      // Nor a paragraph or item that is empty, or starts or ends with a space (the writer trims them).
      const text = DomUtils.textContent(element);
      if (element.children.length === 0 || /^\s|\s$/.test(text)) return false;
    }
    if (top !== block && !(element.name === 'li' && !top)) {
      if (top || !WRITTEN_INLINE.has(element.name)) return false;
    }
    for (const child of element.children) stack.push({ node: child, top: false });
  }
  return true;
}

/** A link's destination in markdown: between `<…>` when it has spaces or parentheses. */
function markdownDestination(href: string): string {
  return /[\s()<>]/.test(href) ? `<${href.replace(/[<>]/g, (c) => encodeURIComponent(c))}>` : href;
}

/**
 * Phrasing as HTML inside a table row: tags as GitBook writes them, text escaped for HTML and for markdown (the
 * row is read as markdown, so `*`, `_`, `[` or `|` in text would be markup), on one line.
 */
export function phrasingHtml(nodes: readonly PhrasingContent[]): string {
  let out = '';
  for (const node of nodes) {
    switch (node.type) {
      case 'text':
        out += escapeCellText(node.value);
        break;
      case 'strong':
        out += `<strong>${phrasingHtml(node.children)}</strong>`;
        break;
      case 'emphasis':
        out += `<em>${phrasingHtml(node.children)}</em>`;
        break;
      case 'delete':
        out += `<s>${phrasingHtml(node.children)}</s>`;
        break;
      case 'inlineCode':
        out += `<code>${escapeCellText(node.value)}</code>`;
        break;
      case 'link':
        out += `<a href="${escapeAttribute(node.url).replace(/\|/g, '%7C')}">${phrasingHtml(node.children)}</a>`;
        break;
      case 'break':
        out += '<br>';
        break;
      case 'html':
      case 'gitbookLiteral':
        out += node.value.replace(/\r?\n/g, ' ').replace(/(?<!\\)\|/g, '\\|');
        break;
      case 'gitbookInlineWrap':
        out += `${node.open}${phrasingHtml(node.children)}${node.close}`;
        break;
      default:
        break;
    }
  }
  return out;
}

function escapeCellText(value: string): string {
  return value
    .replace(/\r?\n/g, ' ')
    .replace(/[\\`*_[\]~|$!{}]/g, (c) => `\\${c}`)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}
