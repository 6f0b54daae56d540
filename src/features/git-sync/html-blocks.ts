import { parseMarkdown } from '../content/document/markdown-parser.ts';
import { markdownToDocument } from '../content/document/to-document.ts';
import type { Document } from '../content/document/types.ts';
import { htmlFragmentToMarkdown } from '../imports/html-to-markdown.ts';

/*
 * Blocks of HTML in a page of another tool (MkDocs, Docusaurus, a folder of READMEs). GitBook's model reads the HTML GitBook
 * writes (figures, tables, expandables, code with highlighted lines); any other HTML block is one paragraph of its
 * text there, which loses what the HTML drew: a screenshot in a `<div class="screenshot">`, the links of a row of
 * buttons, a list. Such a block is written as markdown instead (Turndown), its classes and layout left out.
 */

/** Elements whose meaning a paragraph of text loses. */
const MEANINGFUL = /<(?:a\s[^>]*\bhref|img|ul|ol|li|h[1-6]|table|pre|blockquote|strong|b|em|i|code|dl)\b/i;
const SCRIPT = /^\s*<script\b/i;
/** Fields a site's own scripts give life to (a search box over its icons): nothing without them. */
const FORM_FIELDS = /<(?:input|button|select|textarea)\b/i;
const STYLE = /^\s*<style\b/i;

export const HTML_AS_MARKDOWN = 'HTML blocks written as markdown: their links, images, lists and emphasis kept, their classes, styles and layout left out';
export const FORM_FIELDS_LEFT_OUT = 'form fields of the site’s own scripts (<input>, <button>): left out with the widget they make, a GitBook page runs no scripts of its own';
export const STYLES_LEFT_OUT = 'style sheets of the page (<style>): left out, a GitBook page has no styles of its own';
export const SCRIPTS_LEFT_OUT = 'scripts of the page (<script>): left out, a GitBook page runs no scripts of its own, so what they did (a widget, a demo) is not there';

/** The page with its HTML blocks the model would read as text written as markdown, and what was done, for the report. */
export function htmlBlocksAsMarkdown(markdown: string): { markdown: string; notes: string[] } {
  const lines = markdown.split('\n');
  const notes = new Set<string>();
  const replaced: { start: number; end: number; lines: string[] }[] = [];
  for (const token of parseMarkdown(markdown, {})) {
    if (token.type !== 'html_block' || !token.map) continue;
    const [start, end] = token.map;
    const html = token.content;
    // In a list item the block's lines carry the item's indentation, which the markdown written in their place
    // carries too; behind a quote's `>` (or a list marker on its first line) the block is left as it is.
    const source = lines.slice(start, end);
    const indent = /^[ \t]*/.exec(source[0] ?? '')![0];
    // (A file with CRLF line ends keeps its `\r`s in `lines`; markdown-it's content has none.)
    const unindented = (text: readonly string[]) => text.map((line) => line.trim()).join('\n');
    if (unindented(source) !== unindented(html.replace(/\n$/, '').split('\n'))) continue;
    if (SCRIPT.test(html) || STYLE.test(html)) {
      notes.add(SCRIPT.test(html) ? SCRIPTS_LEFT_OUT : STYLES_LEFT_OUT);
      replaced.push({ start, end, lines: [] });
      continue;
    }
    // A component of MDX (`<Foo>`, a capital) is not HTML: the Docusaurus conversion keeps it visible and named.
    if (!MEANINGFUL.test(html) || /<[A-Z]/.test(html) || !readAsText(html)) continue;
    const written = htmlFragmentToMarkdown(html);
    notes.add(FORM_FIELDS.test(html) ? FORM_FIELDS_LEFT_OUT : HTML_AS_MARKDOWN);
    replaced.push({ start, end, lines: written ? ['', ...written.split('\n').map((line) => (line ? indent + line : line)), ''] : [] });
  }
  for (const { start, end, lines: written } of replaced.reverse()) lines.splice(start, end - start, ...written);
  return { markdown: replaced.length > 0 ? lines.join('\n') : markdown, notes: [...notes] };
}

/** Whether the model reads this HTML block as a paragraph of its text (nothing of GitBook's it knows). */
function readAsText(html: string): boolean {
  // References are not followed here: only the kind of block the HTML becomes is asked.
  const { nodes } = markdownToDocument(html, (href) => ({ kind: 'url', url: href }));
  return nodes.length > 0 && nodes.every((node) => isTextOfHtml(node));
}

/** A paragraph of text alone, no marks, inlines or alignment: what the model makes of HTML it does not know. */
function isPlainText(node: { data?: unknown; nodes?: unknown[] }): boolean {
  if ((node.data as { align?: unknown } | undefined)?.align !== undefined) return false;
  return (node.nodes ?? []).every((child) => {
    const text = child as { object?: string; leaves?: { marks?: unknown[] }[] };
    return text.object === 'text' && (text.leaves ?? []).every((leaf) => (leaf.marks ?? []).length === 0);
  });
}

function isTextOfHtml(node: Document['nodes'][number]): boolean {
  return node.type === 'paragraph' && (node.meta as { html?: unknown } | undefined)?.html === true && isPlainText(node);
}

/**
 * The HTML blocks of a document that it holds as paragraphs of their text although they draw more (links, images,
 * lists, headings): what an import did not carry over, for the measures. Inside containers and fragments too.
 */
export function htmlReadAsText(document: Document): string[] {
  const found: string[] = [];
  const stack: unknown[] = [...document.nodes];
  while (stack.length > 0) {
    const node = stack.pop() as { type?: string; meta?: { html?: unknown; markdown?: unknown }; nodes?: unknown[]; fragments?: unknown[] } | null;
    if (!node || typeof node !== 'object') continue;
    if (node.type === 'paragraph' && node.meta?.html === true && typeof node.meta.markdown === 'string') {
      if (MEANINGFUL.test(node.meta.markdown) && !SCRIPT.test(node.meta.markdown) && !STYLE.test(node.meta.markdown) && isPlainText(node)) found.push(node.meta.markdown);
      continue;
    }
    for (const child of [...(Array.isArray(node.nodes) ? node.nodes : []), ...(Array.isArray(node.fragments) ? node.fragments : [])]) stack.push(child);
  }
  return found;
}
