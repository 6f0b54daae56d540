import { DomUtils, ElementType, parseDocument } from 'htmlparser2';
import type { Code, CodeLine } from './types.ts';

/*
 * A code block with highlighted lines, as GitBook's Git Sync writes one: fenced markdown cannot mark lines, so
 * GitBook writes the block as HTML, its options as attributes of the `<pre>` and each highlighted line, its newline
 * included, in a `<strong>`:
 *
 *   <pre class="language-yaml" data-title="openapi.yaml"><code class="lang-yaml">paths:
 *   <strong>  x-internal: true
 *   </strong></code></pre>
 *
 * Its text escapes `<` and `&` as `&#x3C;` and `&#x26;`. Read back, it is the code block it was.
 */

type HtmlNode = ReturnType<typeof parseDocument>['children'][number];
type HtmlElement = Extract<HtmlNode, { attribs: Record<string, string> }>;

const isElement = (node: HtmlNode | undefined, name: string): node is HtmlElement => node !== undefined && ElementType.isTag(node) && (node as HtmlElement).name === name;

const CODE_HTML = /^\s*<pre\b[^>]*>\s*<code\b[^>]*>[\s\S]*<\/code>\s*<\/pre>\s*$/i;

/** Whether an HTML block is a code block written as GitBook writes one with highlighted lines. */
export function isCodeHtml(html: string): boolean {
  return CODE_HTML.test(html);
}

/** The code block of `<pre><code>…</code></pre>`; null when the HTML is something else (other markup in the code). */
export function readCodeHtml(html: string): Code | null {
  if (!isCodeHtml(html)) return null;
  const nodes = parseDocument(html.trim()).children.filter((n) => !(n.type === ElementType.Text && DomUtils.textContent(n).trim() === ''));
  const pre = nodes.length === 1 && isElement(nodes[0], 'pre') ? nodes[0] : null;
  const code = pre?.children.length === 1 && isElement(pre.children[0] as HtmlNode, 'code') ? (pre.children[0] as HtmlElement) : null;
  if (!pre || !code) return null;
  let text = '';
  const highlighted = new Set<number>();
  for (const child of code.children) {
    if (child.type === ElementType.Text) {
      text += DomUtils.textContent(child);
      continue;
    }
    if (!isElement(child as HtmlNode, 'strong') || !(child as HtmlElement).children.every((n) => n.type === ElementType.Text)) return null;
    const from = lineCount(text);
    text += DomUtils.textContent(child);
    // `<strong>line\n</strong>`: the newline ending the line is inside; the line after it is not highlighted.
    const to = lineCount(text.endsWith('\n') ? text.slice(0, -1) : text);
    for (let line = from; line <= to; line++) highlighted.add(line);
  }
  const content = text.endsWith('\n') ? text.slice(0, -1) : text;
  const block: Code = {
    object: 'block',
    type: 'code',
    data: {},
    nodes: content.split('\n').map((line, index): CodeLine => ({
      object: 'block',
      type: 'code-line',
      data: highlighted.has(index) ? { highlighted: true } : {},
      nodes: [{ object: 'text', leaves: line ? [{ object: 'leaf', text: line, marks: [] }] : [] }],
    })),
  };
  const attribute = (name: string) => pre.attribs[name];
  const syntax = /(?:^|\s)language-(\S+)/.exec(attribute('class') ?? '')?.[1] ?? /(?:^|\s)lang-(\S+)/.exec(code.attribs.class ?? '')?.[1];
  if (syntax) block.data.syntax = syntax;
  const title = attribute('data-title');
  if (title) block.data.title = title;
  const overflow = attribute('data-overflow');
  if (overflow === 'wrap' || overflow === 'scroll') block.data.overflow = overflow;
  const flag = (name: string) => {
    const value = attribute(name);
    return value === undefined ? undefined : value !== 'false';
  };
  const lineNumbers = flag('data-line-numbers');
  if (lineNumbers !== undefined) block.data.lineNumbers = lineNumbers;
  const fullWidth = flag('data-full-width');
  if (fullWidth !== undefined) block.data.fullWidth = fullWidth;
  const expandable = flag('data-expandable');
  if (expandable !== undefined) block.data.expandable = expandable;
  return block;
}

/** Whether a code block has a highlighted line, which only its HTML spelling can say. */
export function hasHighlightedLines(block: Code): boolean {
  return (block.nodes ?? []).some((line) => line.data?.highlighted === true);
}

/** The code block in GitBook's HTML spelling (see above). */
export function codeHtml(block: Code): string {
  const { syntax, title, overflow, lineNumbers, fullWidth, expandable } = block.data ?? {};
  const attributes = [
    syntax ? ` class="language-${attributeText(syntax)}"` : '',
    title !== undefined ? ` data-title="${attributeText(title)}"` : '',
    overflow !== undefined ? ` data-overflow="${overflow}"` : '',
    lineNumbers !== undefined ? ` data-line-numbers="${lineNumbers}"` : '',
    fullWidth !== undefined ? ` data-full-width="${fullWidth}"` : '',
    expandable !== undefined ? ` data-expandable="${expandable}"` : '',
  ].join('');
  const lines = (block.nodes ?? []).map((line) => {
    const text = `${codeText(line.nodes ?? []).replace(/&/g, '&#x26;').replace(/</g, '&#x3C;')}\n`;
    return line.data?.highlighted === true ? `<strong>${text}</strong>` : text;
  });
  return `<pre${attributes}><code${syntax ? ` class="lang-${attributeText(syntax)}"` : ''}>${lines.join('')}</code></pre>`;
}

function lineCount(text: string): number {
  let count = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) count++;
  return count;
}

function codeText(nodes: CodeLine['nodes']): string {
  return nodes.map((node) => (node.object === 'text' ? node.leaves.map((l) => l.text).join('') : '')).join('');
}

function attributeText(value: string): string {
  return value.replace(/&/g, '&#x26;').replace(/"/g, '&#x22;');
}
