import MarkdownIt from 'markdown-it';
import type { StateBlock, StateCore, StateInline, Token } from 'markdown-it';

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

const DOLLAR = 0x24;

/** `$$` on a line of its own, the formula, `$$` on a line of its own: GitBook's math block (`math_block`). */
function mathBlockRule(state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
  if (state.sCount[startLine]! - state.blkIndent >= 4) return false;
  const lineOf = (line: number) => state.src.slice(state.bMarks[line]! + state.tShift[line]!, state.eMarks[line]).trim();
  if (lineOf(startLine) !== '$$') return false;
  let next = startLine + 1;
  while (next < endLine && lineOf(next) !== '$$') next += 1;
  if (next >= endLine) return false;
  if (silent) return true;
  const token = state.push('math_block', 'math', 0);
  token.content = state.getLines(startLine + 1, next, state.sCount[startLine]!, false).replace(/\n$/, '');
  token.map = [startLine, next + 1];
  state.line = next + 1;
  return true;
}

/** `$$formula$$` in a line of text: inline math (`math_inline`). */
function mathInlineRule(state: StateInline, silent: boolean): boolean {
  const start = state.pos;
  if (state.src.charCodeAt(start) !== DOLLAR || state.src.charCodeAt(start + 1) !== DOLLAR) return false;
  const end = state.src.indexOf('$$', start + 2);
  if (end < 0 || end === start + 2) return false;
  if (!silent) {
    const token = state.push('math_inline', 'math', 0);
    token.content = state.src.slice(start + 2, end);
  }
  state.pos = end + 2;
  return true;
}

const CARET = 0x5e;
const LEFT_BRACKET = 0x5b;
const RIGHT_BRACKET = 0x5d;

/** The footnote labels a text defines (`[^label]:`), gathered in the parse's `env` by the block rule below. */
export function footnoteLabels(env: Record<string, unknown>): Set<string> {
  if (!(env.footnotes instanceof Set)) env.footnotes = new Set<string>();
  return env.footnotes as Set<string>;
}

/**
 * `[^label]: text`, and the blocks indented four spaces under it: a footnote's definition (`footnote_open`, its
 * blocks, `footnote_close`, `meta.label`), where it was written. GitBook reads footnotes as annotations
 * (to-document.ts); this is markdown-it-footnote's reading, which Quire does not depend on for these few lines.
 */
function footnoteDefinitionRule(state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
  if (state.sCount[startLine]! - state.blkIndent >= 4) return false;
  const start = state.bMarks[startLine]! + state.tShift[startLine]!;
  const max = state.eMarks[startLine]!;
  if (start + 4 > max || state.src.charCodeAt(start) !== LEFT_BRACKET || state.src.charCodeAt(start + 1) !== CARET) return false;
  let pos = start + 2;
  while (pos < max && state.src.charCodeAt(pos) !== RIGHT_BRACKET) {
    if (/\s/.test(state.src[pos]!)) return false;
    pos++;
  }
  if (pos === start + 2 || pos + 1 >= max || state.src.charCodeAt(pos + 1) !== 0x3a) return false;
  if (silent) return true;
  const label = state.src.slice(start + 2, pos);
  footnoteLabels(state.env as Record<string, unknown>).add(label);
  pos += 2;
  const open = state.push('footnote_open', '', 1);
  open.meta = { label };
  open.map = [startLine, startLine];
  // The definition's first line is read from after the colon, as if indented under it (markdown-it-footnote).
  const [oldBMark, oldTShift, oldSCount, oldParent] = [state.bMarks[startLine]!, state.tShift[startLine]!, state.sCount[startLine]!, state.parentType];
  const afterColon = pos;
  const initial = state.sCount[startLine]! + pos - start;
  let offset = initial;
  while (pos < max && (state.src[pos] === ' ' || state.src[pos] === '\t')) {
    offset += state.src[pos] === '\t' ? 4 - (offset % 4) : 1;
    pos++;
  }
  state.tShift[startLine] = pos - afterColon;
  state.sCount[startLine] = offset - initial;
  state.bMarks[startLine] = afterColon;
  state.blkIndent += 4;
  state.parentType = 'footnote' as typeof state.parentType;
  if (state.sCount[startLine]! < state.blkIndent) state.sCount[startLine]! += state.blkIndent;
  state.md.block.tokenize(state, startLine, endLine);
  state.parentType = oldParent;
  state.blkIndent -= 4;
  state.tShift[startLine] = oldTShift;
  state.sCount[startLine] = oldSCount;
  state.bMarks[startLine] = oldBMark;
  open.map[1] = state.line;
  state.push('footnote_close', '', -1);
  return true;
}

/** `[^label]` in text, of a label the text defines: a reference to that footnote (`footnote_ref`, `meta.label`). */
function footnoteReferenceRule(state: StateInline, silent: boolean): boolean {
  const start = state.pos;
  if (state.src.charCodeAt(start) !== LEFT_BRACKET || state.src.charCodeAt(start + 1) !== CARET) return false;
  const end = state.src.indexOf(']', start + 2);
  if (end < 0 || end === start + 2) return false;
  const label = state.src.slice(start + 2, end);
  if (/\s/.test(label) || !footnoteLabels(state.env as Record<string, unknown>).has(label)) return false;
  if (!silent) state.push('footnote_ref', '', 0).meta = { label };
  state.pos = end + 1;
  return true;
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
parser.block.ruler.before('fence', 'math_block', mathBlockRule, { alt: ['paragraph', 'reference', 'blockquote', 'list'] });
parser.inline.ruler.after('escape', 'math_inline', mathInlineRule);
parser.block.ruler.before('reference', 'footnote', footnoteDefinitionRule, { alt: ['paragraph', 'reference'] });
parser.inline.ruler.after('image', 'footnote_ref', footnoteReferenceRule);

/**
 * The token stream of a markdown text (block tokens; `inline` tokens carry their children). Pass the same
 * `env` when parsing a piece of the same text again, so its link reference definitions still resolve.
 */
export function parseMarkdown(markdown: string, env: Record<string, unknown> = {}): Token[] {
  return parser.parse(markdown, env);
}

/** Backslash escapes and entities resolved, as in a fence's info string. */
export const unescapeMarkdown: (text: string) => string = parser.utils.unescapeAll;
