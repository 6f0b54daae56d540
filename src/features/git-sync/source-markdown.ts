import { CORE_SCHEMA, load as loadLenientYaml } from 'js-yaml';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { htmlFragmentToMarkdown } from '../imports/html-to-markdown.ts';

/*
 * What the MkDocs and Docusaurus converters share: both turn another tool's markdown into GitBook's before the
 * GitBook reader sees it, line by line, and name what they could not carry over.
 */

export interface Converted {
  markdown: string;
  /** Constructs not carried over exactly, each once, in words a person reads in the import report. */
  notes: string[];
  /** Highlighted lines of the page's code blocks, in the order of the blocks: fenced code cannot say them. */
  highlights: CodeHighlight[];
}

/**
 * Lines of one code block to highlight (1-based), with the block's code as the document will hold it, to find the
 * block again once the page is a document: the document model has highlighted code lines (`code-line`'s
 * `data.highlighted`); fenced code cannot say them (GitBook writes such a block in HTML, code-html.ts), so the
 * converters keep the fence as written and the lines travel beside the markdown.
 */
export interface CodeHighlight {
  code: string;
  lines: number[];
}

/**
 * Notes that name a construct left out or rewritten without changing what a reader learns from the page: the
 * import report lists them like any other, and the measure (scripts/import-roundtrip.ts) does not count them as
 * a change of meaning.
 */
const MEANING_KEPT = [
  'import of a component converted here',
  'MDX import',
  'MDX partial',
  'in-page table of contents',
  'npm2yarn',
  'icon shortcodes drawn',
  'icons without a Font Awesome match before the words',
  'icons in a tab’s title written as the character',
  'small print (<small>',
  'Material’s badges',
  'colours of icons',
  'code tabs synchronised across the page',
  'tabs synchronised by groupId',
  'attribute lists of classes',
  'HTML wrapper of an example’s result',
  'HTML wrapper that flows a list into columns',
  'grids of cards',
  'highlights (==',
  'buttons (md-button)',
  'icons in a link’s text',
  'annotations ((1)',
  'tooltips ({ title=',
  'admonitions set beside the text',
  'styles that place a block',
  'abbreviations (*[',
  'definition lists (a term',
  'grids (<div class="grid"',
  'HTML wrapper that styles its content',
  'admonitions of the site’s own types',
  'underlines (^^',
  'empty paragraphs that only place an anchor',
  'icons no Font Awesome set has, words of their sentence',
  'empty headings holding only HTML tags',
  'anchors set on words',
  'code files included with markdown-include-variants',
  'code includes’ other versions and full-file previews',
  'site components that draw an expandable',
  'words with a title (<abbr title>',
  'drawings inlined from an SVG file',
  'HTML blocks written as markdown',
  'style sheets of the page',
];

export function noteKeepsMeaning(note: string): boolean {
  return MEANING_KEPT.some((start) => note.startsWith(start));
}

/**
 * Line numbers written as MkDocs' `hl_lines="1 3-4"` or Docusaurus' `{1,3-4}`: single numbers and ranges, split
 * by spaces or commas, within the block's `count` lines; at most `count` numbers whatever the ranges say.
 */
export function lineNumbers(spec: string, count: number): number[] {
  const lines = new Set<number>();
  for (const part of spec.split(/[\s,]+/)) {
    const range = /^(\d+)(?:-(\d+))?$/.exec(part);
    if (!range) continue;
    const from = Number(range[1]);
    const to = Math.min(Number(range[2] ?? range[1]), count);
    for (let n = Math.max(from, 1); n <= to; n++) lines.add(n);
  }
  return [...lines].sort((a, b) => a - b);
}

/** A fence's content lines as the markdown reader gives them: the fence's own indentation taken off each line. */
export function fenceCode(lines: readonly string[], indent: string): string {
  const width = indent.replace(/\t/g, '    ').length;
  return lines
    .map((line) => {
      let taken = 0;
      let i = 0;
      while (i < line.length && taken < width && (line[i] === ' ' || line[i] === '\t')) {
        taken += line[i] === '\t' ? 4 : 1;
        i++;
      }
      return line.slice(i);
    })
    .join('\n');
}

/** Admonition kinds of MkDocs and Docusaurus -> GitBook's hint styles. */
export const HINT_STYLE_OF: Record<string, 'info' | 'warning' | 'danger' | 'success'> = {
  note: 'info', info: 'info', abstract: 'info', summary: 'info', tldr: 'info', todo: 'info', question: 'info', help: 'info', faq: 'info',
  example: 'info', quote: 'info', cite: 'info', important: 'info', secondary: 'info',
  tip: 'success', hint: 'success', success: 'success', check: 'success', done: 'success',
  warning: 'warning', caution: 'warning', attention: 'warning',
  danger: 'danger', error: 'danger', failure: 'danger', fail: 'danger', missing: 'danger', bug: 'danger',
};

/** The marks that open a code fence on this line, if it opens one (a backtick fence's info has no backtick). */
export function fenceOpening(line: string): string | undefined {
  const m = /^[ \t]*(`{3,}|~{3,})(.*)$/.exec(line);
  if (!m || (m[1]![0] === '`' && m[2]!.includes('`'))) return undefined;
  return m[1];
}

/** A closing fence for an opening run of `marks`: the same character, at least as many, nothing after. */
export function isFence(line: string, marks: string): boolean {
  const m = /^[ \t]*(`{3,}|~{3,})[ \t]*$/.exec(line);
  return m !== null && m[1]![0] === marks[0] && m[1]!.length >= marks.length;
}

/** For each line, whether it is fenced code: an opening fence, a line inside, or the fence that closes it. */
export function codeLines(lines: readonly string[]): boolean[] {
  let fence: string | undefined;
  return lines.map((line) => {
    if (fence !== undefined) {
      if (isFence(line, fence)) fence = undefined;
      return true;
    }
    fence = fenceOpening(line);
    return fence !== undefined;
  });
}

/** Text in HTML: `&`, `<` and `>` as entities. */
export const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The line of the fence that closes the one opened before `from` with `marks`; the last line when none does. */
export function closingFence(lines: readonly string[], from: number, marks: string): number {
  for (let i = from; i < lines.length; i++) if (isFence(lines[i]!, marks)) return i;
  return lines.length - 1;
}

/**
 * The block indented under a line (four spaces or a tab, as Python-Markdown nests), dedented, and the index of the
 * first line after it. Blank lines belong to the block while an indented line follows them.
 */
export function indentedBlock(lines: readonly string[], from: number): { lines: string[]; next: number } {
  const inner: string[] = [];
  let i = from;
  let pendingBlank = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (line.trim() === '') {
      pendingBlank++;
      i++;
      continue;
    }
    if (!/^(?: {4}|\t)/.test(line)) break;
    for (; pendingBlank > 0; pendingBlank--) inner.push('');
    inner.push(line.startsWith('\t') ? line.slice(1) : line.slice(4));
    i++;
  }
  return { lines: inner, next: i - pendingBlank };
}

/** A line with `edit` applied to its prose, its code spans (`` `a == b` ``) left as they are. */
export function outsideCodeSpans(line: string, edit: (prose: string) => string): string {
  return line
    .split(/(`+[^`]*`+)/)
    .map((piece, i) => (i % 2 === 1 ? piece : edit(piece)))
    .join('');
}

/** The names of the constructs found in a page's text outside its code (fenced or inline). */
export function listConstructs(markdown: string, constructs: readonly { name: string; pattern: RegExp }[]): string[] {
  const prose = withoutCode(markdown);
  return constructs.filter(({ pattern }) => pattern.test(prose)).map(({ name }) => name);
}

/** The text with fenced code blocks and inline code spans blanked, for looking at prose only. */
export function withoutCode(markdown: string): string {
  const out: string[] = [];
  let fence: string | undefined;
  for (const line of markdown.split('\n')) {
    if (fence !== undefined) {
      if (isFence(line, fence)) fence = undefined;
      out.push('');
      continue;
    }
    const opening = fenceOpening(line);
    if (opening) {
      fence = opening;
      out.push('');
      continue;
    }
    out.push(line.replace(/`+[^`]*`+/g, ''));
  }
  return out.join('\n');
}

const ALIGNED_IMAGE = /^[ \t]*<(div|p)\s+align=["']?(center|left|right)["']?\s*>\s*(<img\b[^>]*?)\s*\/?>\s*(?:<\/img>\s*)?<\/\1>[ \t]*$/i;
const LEGACY_EMBED = /^([ \t]*)\{%\s*embed\s+url="([^"]*)"\s+caption=(?:"([^"]*)"|'([^']*)')\s*%\}[ \t]*$/;
const DETAILS_LINE = /^([ \t]*)<details\b[^>]*>[ \t]*<summary>(.*?)<\/summary>[ \t]*$/;

/**
 * Spellings of plain markdown (as GitHub renders a README) that GitBook writes another way, line by line outside
 * code: an image in an aligned `<div>` or `<p>` is GitBook's aligned figure (its width kept), and
 * `<details><summary>…</summary>` on one line or two is GitBook's expandable, each tag on a line of its own;
 * an embed's `caption="…"` (GitBook's older spelling) is the embed's caption as Git Sync writes it now.
 */
export function plainToGitbook(markdown: string): string {
  markdown = lenientFrontMatter(markdown);
  const out: string[] = [];
  let fence: string | undefined;
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i]!;
    if (fence !== undefined) {
      if (isFence(line, fence)) fence = undefined;
      out.push(line);
      continue;
    }
    const opening = fenceOpening(line);
    if (opening) fence = opening;
    // The same written on lines of their own: the opening tag, the image, perhaps lines of `<br>`s that only make
    // room under it, the closing tag.
    if (!opening && /^[ \t]*<(div|p)\s+align=[^>]*>[ \t]*$/i.test(line)) {
      let end = i + 2;
      while (end < i + 5 && BREAKS_LINE.test(lines[end] ?? '')) end++;
      const joined = [...lines.slice(i, i + 2), lines[end] ?? ''].join('');
      if (ALIGNED_IMAGE.test(joined)) {
        line = joined;
        i = end;
      }
    }
    // `<br>`s after a wrapped image or figure on its line (`</div> <br></br>`): they only make room under it.
    if (!opening) line = line.replace(TRAILING_BREAKS, '$1');
    const image = opening ? null : ALIGNED_IMAGE.exec(line);
    // `<details>` with its `<summary>` on the next lines reads as one HTML block: GitBook writes them apart.
    const summary = !opening && /^[ \t]*<details\b[^>]*>[ \t]*$/.test(line) ? summaryLines(lines, i + 1) : undefined;
    if (summary) {
      line = `${line.trimEnd()}<summary>${summary.text}</summary>`;
      i = summary.next - 1;
    }
    const details = opening ? null : DETAILS_LINE.exec(line);
    if (image) {
      const img = figureImage(image[3]!);
      if (img) {
        // At the indentation it was written at: in a list item the figure is the item's.
        out.push(`${/^[ \t]*/.exec(line)![0]}<div align="${image[2]!.toLowerCase()}"><figure>${img}<figcaption></figcaption></figure></div>`);
        // `<br>`s under it only make room, and would join the figure's HTML block, which GitBook ends at its tag.
        while (BREAKS_LINE.test(lines[i + 1] ?? '')) i++;
        if ((lines[i + 1] ?? '').trim() !== '') out.push('');
        continue;
      }
    }
    // An image of a given width alone between blank lines: GitBook writes one as a figure (a bare `<img>` is read
    // as an image in the text, which has no width).
    const sized = opening ? null : SIZED_IMAGE.exec(line);
    const img = sized && (out.length === 0 || out[out.length - 1]!.trim() === '') && (lines[i + 1] ?? '').trim() === '' ? figureImage(sized[2]!) : undefined;
    if (sized && img) {
      out.push(`${sized[1]}<figure>${img}<figcaption></figcaption></figure>`);
      continue;
    }
    // GitBook's older embeds carry their caption as an attribute; its Git Sync writes it as the tag's body now.
    const embed = opening ? null : LEGACY_EMBED.exec(line);
    if (embed) {
      const caption = embed[3] ?? embed[4] ?? '';
      out.push(`${embed[1]}{% embed url="${embed[2]}" %}`, ...(caption ? [`${embed[1]}${caption}`, `${embed[1]}{% endembed %}`] : []));
      continue;
    }
    if (details) {
      out.push(`${details[1]}<details>`, '', `${details[1]}<summary>${details[2]}</summary>`, '');
      const body = htmlBody(lines, i + 1);
      if (body) {
        out.push(...body.markdown.split('\n').map((l) => (l ? details[1] + l : l)), '');
        i = body.next - 1;
      }
      continue;
    }
    out.push(line);
    // GitBook's closing tag stands alone between blank lines; HTML right under it (a `<br>`) would join its block.
    if (!opening && /^[ \t]*<\/details>[ \t]*$/.test(line) && (lines[i + 1] ?? '').trim() !== '') out.push('');
  }
  return out.join('\n');
}

/**
 * A `<summary>` written over the lines from `start` (`<summary>`, its words, `</summary>`, as an HTML author indents
 * them): its words on one line, and the line after it. Undefined when the lines there are not a summary.
 */
function summaryLines(lines: readonly string[], start: number): { text: string; next: number } | undefined {
  if (!/^[ \t]*<summary>/.test(lines[start] ?? '')) return undefined;
  for (let end = start; end < Math.min(lines.length, start + 8); end++) {
    const line = lines[end]!;
    if (end > start && line.trim() === '') return undefined;
    if (/<\/summary>[ \t]*$/.test(line)) {
      const joined = lines.slice(start, end + 1).join(' ');
      const text = /^[ \t]*<summary>([\s\S]*?)<\/summary>[ \t]*$/.exec(joined)?.[1];
      return text === undefined || text.includes('<summary') ? undefined : { text: text.replace(/\s+/g, ' ').trim(), next: end + 1 };
    }
  }
  return undefined;
}

/** What an expandable's body written in HTML opens with: block elements, which markdown has its own spelling of. */
const HTML_BODY = /^[ \t]*<(?:div|ul|ol|p|table|blockquote|dl)\b[^>]*>/i;

/**
 * An expandable's body written as one block of HTML (`<div><ul><li>…`) up to its `</details>`, as markdown: GitBook's
 * model reads an HTML block as one paragraph of its text, while the list or paragraphs it draws are blocks there.
 * Undefined when the body is markdown, or not one HTML block up to the closing tag (a nested `<details>` stays).
 */
function htmlBody(lines: readonly string[], start: number): { markdown: string; next: number } | undefined {
  let first = start;
  while (first < lines.length && lines[first]!.trim() === '') first++;
  if (!HTML_BODY.test(lines[first] ?? '')) return undefined;
  for (let end = first; end < lines.length; end++) {
    const line = lines[end]!;
    if (line.trim() === '' || /<details\b/i.test(line)) return undefined;
    if (/^[ \t]*<\/details>[ \t]*$/.test(line)) {
      const markdown = htmlFragmentToMarkdown(lines.slice(first, end).join('\n'));
      return markdown ? { markdown, next: end } : undefined;
    }
  }
  return undefined;
}

const TRAILING_BREAKS = /^([ \t]*<(div|p)\b[^>]*>\s*(?:<figure>|<img\b).*<\/\2>)(?:\s*<br\s*\/?>(?:\s*<\/br>)?)+[ \t]*$/i;

const BREAKS_LINE = /^[ \t]*(?:<br\s*\/?>(?:[ \t]*<\/br>)?[ \t]*)+$/i;

const SIZED_IMAGE = /^([ \t]{0,3})(<img\b(?=[^>]*\swidth=)[^>]*?)\s*\/?>[ \t]*$/i;

/** An `<img>` tag's source, alt text and width as GitBook writes them in a figure; undefined without a source. */
function figureImage(tag: string): string | undefined {
  const attr = (name: string) => new RegExp(`\\b${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i').exec(tag);
  const value = (m: RegExpExecArray | null) => (m ? (m[1] ?? m[2] ?? m[3]!) : undefined);
  const src = value(attr('src'));
  const width = value(attr('width'))?.replace(/px$/i, '');
  if (src === undefined) return undefined;
  return `<img src="${src}" alt="${value(attr('alt')) ?? ''}"${width ? ` width="${width}"` : ''}>`;
}

const FRONT_MATTER = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?=\r?\n|$)/;

/**
 * Front matter as the tool it was written for reads it. Docusaurus (gray-matter) and MkDocs (PyYAML) read some
 * YAML that the strict reader of Git Sync refuses — a quoted description continued on an unindented line is the
 * common case — so where `yaml` refuses and js-yaml (what gray-matter uses) reads it, the front matter is written
 * again as plain YAML with the same values. Front matter neither reads stays as it is (and the page's import
 * names it).
 */
export function lenientFrontMatter(markdown: string): string {
  const fm = FRONT_MATTER.exec(markdown);
  if (!fm) return markdown;
  try {
    parseYaml(fm[1]!);
    return markdown;
  } catch {
    // Read below as the other tools read it.
  }
  let data: unknown;
  try {
    // CORE_SCHEMA: dates stay the strings they were written as, as the strict reader keeps them.
    data = loadLenientYaml(fm[1]!, { schema: CORE_SCHEMA });
  } catch {
    return markdown;
  }
  if (!data || typeof data !== 'object' || Array.isArray(data)) return markdown;
  return `---\n${stringifyYaml(data).trimEnd()}\n---${markdown.slice(fm[0].length)}`;
}
