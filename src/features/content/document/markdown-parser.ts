import MarkdownIt from 'markdown-it';
import type { StateBlock, StateCore, Token } from 'markdown-it';

export type { Token };
import { parseTagLine } from './liquid-tags.ts';

/*
 * markdown-it rather than micromark: micromark takes quadratic time on deeply nested lists and emphasis
 * (16 KB of "- - - …" takes over a minute), and markdown is written by API callers. markdown-it caps the
 * nesting depth (`maxNesting`, beyond which it stops descending) and stays linear on those inputs.
 *
 * Configuration: CommonMark plus GFM tables and strikethrough, raw HTML kept as tokens (GitBook writes
 * <details>, <figure>, <img>), no typographer, no bare-URL linkification (plain text must stay plain text).
 * Hrefs are left as written: markdown-it would percent-encode them, and the ref resolver wants the page path.
 */

const LEFT_BRACE = 0x7b;
// Blocks nested deeper than this are dropped by markdown-it; documents are never that deep in practice and
// the bound keeps every recursive walk over the result shallow.
const MAX_NESTING = 100;

/** `{% … %}` on a line of its own (up to three spaces of indent) becomes a `gitbook_tag` token. */
function gitbookTagRule(state: StateBlock, startLine: number, _endLine: number, silent: boolean): boolean {
  if (state.sCount[startLine]! - state.blkIndent >= 4) return false;
  const start = state.bMarks[startLine]! + state.tShift[startLine]!;
  if (state.src.charCodeAt(start) !== LEFT_BRACE) return false;
  const line = state.src.slice(start, state.eMarks[startLine]);
  const tag = parseTagLine(line);
  if (!tag) return false;
  if (silent) return true;
  const token = state.push('gitbook_tag', '', 0);
  token.meta = { ...tag };
  token.content = line;
  token.map = [startLine, startLine + 1];
  state.line = startLine + 1;
  return true;
}

/**
 * GFM task list items: a list item whose paragraph starts with `[ ]` or `[x]` and a space. Runs before
 * `text_join`, so an escaped `\[ ]` (a `text_special` token) is not taken for a checkbox.
 */
function taskListRule(state: StateCore): void {
  const tokens = state.tokens;
  for (let i = 0; i + 2 < tokens.length; i++) {
    const item = tokens[i]!;
    if (item.type !== 'list_item_open' || tokens[i + 1]!.type !== 'paragraph_open' || tokens[i + 2]!.type !== 'inline') continue;
    const first = tokens[i + 2]!.children?.[0];
    if (!first || first.type !== 'text') continue;
    const match = /^\[([ xX])\][ \t]+/.exec(first.content);
    if (!match) continue;
    // The marker goes back into the text if the list turns out not to be a task list (to-document.ts).
    item.meta = { ...item.meta, checked: match[1] !== ' ', marker: match[0] };
    first.content = first.content.slice(match[0].length);
    // The inline's source too: a paragraph that keeps its source (nodes.ts, withSource) must not repeat it.
    const inline = tokens[i + 2]!;
    if (inline.content.startsWith(match[0])) inline.content = inline.content.slice(match[0].length);
  }
}

const parser = new MarkdownIt('default', { html: true, linkify: false, typographer: false, maxNesting: MAX_NESTING });

/**
 * markdown-it tries tables before fenced code, so "```a|b" over "| - | - |" is a table to it, while GFM
 * (where a table only grows out of a paragraph) reads a code block: a line that opens a fence heads no table.
 */
const { fn: tableRule, alt: tableAlt } = { ...parser.block.ruler.__rules__.find((rule) => rule.name === 'table')! };
const opensFence = (state: StateBlock, line: number) => /^(`{3,}|~{3,})/.test(state.src.slice(state.bMarks[line]! + state.tShift[line]!, state.eMarks[line]));
parser.block.ruler.at('table', (state, startLine, endLine, silent) => !opensFence(state, startLine) && tableRule(state, startLine, endLine, silent), {
  alt: [...tableAlt],
});
parser.normalizeLink = (url) => url;
parser.normalizeLinkText = (text) => text;
parser.block.ruler.before('table', 'gitbook_tag', gitbookTagRule, { alt: ['paragraph', 'reference', 'blockquote', 'list', 'table'] });
parser.core.ruler.before('text_join', 'task_list', taskListRule);

/**
 * The token stream of a markdown text (block tokens; `inline` tokens carry their children). Pass the same
 * `env` when parsing a piece of the same text again, so its link reference definitions still resolve.
 */
export function parseMarkdown(markdown: string, env: Record<string, unknown> = {}): Token[] {
  return parser.parse(markdown, env);
}

/** Backslash escapes and entities resolved, as in a fence's info string. */
export const unescapeMarkdown: (text: string) => string = parser.utils.unescapeAll;
