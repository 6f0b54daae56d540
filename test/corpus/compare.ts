import { posix } from 'node:path';
import { decodeHTML } from 'entities';
import { diffIndices } from 'node-diff3';
import { parse as parseYaml } from 'yaml';
import { parseMarkdown } from '../../src/features/content/document/markdown-parser.ts';
import type { Token } from '../../src/features/content/document/markdown-parser.ts';
import { documentToMarkdown } from '../../src/features/content/document/to-markdown.ts';
import { markdownToDocument } from '../../src/features/content/document/to-document.ts';
import { joinPageMarkdown, splitPageMarkdown } from '../../src/features/content/markdown.ts';
import { corpusRefs } from './pages.ts';

/*
 * "Did this page change in meaning?" for GitBook markdown, as issue 13 measures it. Both texts are read with
 * Quire's markdown parser (so GitBook's `{% tags %}` are tokens) and reduced to one line per block: its kind and
 * its text, with what does not change meaning normalised away (whitespace and blank lines, list markers
 * `*`/`-`, emphasis `*`/`_`, backslash escapes, table alignment padding, tight or loose lists). The front
 * matter is compared as YAML data, the title as text. Lines that differ are counted by cause.
 */

export interface PageComparison {
  changed: boolean;
  /** Cause -> occurrences on this page. */
  causes: Map<string, number>;
  /** The first differing lines, for a person to read. */
  sample: string[];
}

const collapse = (value: string) => value.replace(/\s+/g, ' ').trim();

/** The HTML of a block or inline tag, attribute order and spacing normalised enough to compare. */
const normaliseHtml = (html: string) =>
  collapse(
    html
      .replace(/>\s+</g, '><')
      .replace(/&#x26;/gi, '&amp;')
      .replace(/<figcaption><\/figcaption>/g, '')
      // A caption's text in a <p> or not is one caption.
      .replace(/<figcaption><p>([\s\S]*?)<\/p><\/figcaption>/g, '<figcaption>$1</figcaption>')
      // Spaces at a caption's ends are no part of it.
      .replace(/<figcaption>\s+/g, '<figcaption>')
      .replace(/\s+<\/figcaption>/g, '</figcaption>')
      // `a%20b.png` and `a b.png` name one file.
      .replace(/\b(src|srcset|href)="([^"]*)"/g, (_m, name: string, value: string) => `${name}="${safeDecode(value)}"`)
      // An <img> without alt and one with `alt=""` (GitBook's spelling) are both an image without alternative text.
      .replace(/<img\b([^>]*?)\s*\/?>/g, (_tag: string, attributes: string) => `<img${attributes}${/\balt=/.test(attributes) ? '' : ' alt=""'}>`),
  );

/**
 * The file a relative link of `file` names, so that two spellings of one target compare equal: `./` and
 * `README.md`, `dir/` and `dir/README.md`, `page.md#a` on page.md and `#a`. Other hrefs are kept as written.
 */
function targetOf(href: string, file: string | undefined): string {
  // `spaces%2Fx` and `spaces/x`: one spelling of a URL is decoded as the figure's `src` is (normaliseHtml).
  if (!file || /^[a-z][a-z0-9+.-]*:|^\/\//i.test(href)) return safeDecode(href);
  const hash = href.indexOf('#');
  const path = hash < 0 ? href : href.slice(0, hash);
  const anchor = hash < 0 ? '' : href.slice(hash);
  // `/x.md` is from the content's root, as GitBook reads it.
  let target = path === '' ? file : posix.normalize(path.startsWith('/') ? safeDecode(path).slice(1) : posix.join(posix.dirname(file), safeDecode(path)));
  if (path !== '' && (path.endsWith('/') || path === '.' || path === '..' || !posix.extname(target))) target = posix.join(target, 'README.md');
  // A page is its path without `.md` or `/README.md` (`setup`, `setup.md` and `setup/README.md` name one page, the
  // one the repository has); a local file is its name, since an import uploads it and an export writes it to
  // `.gitbook/assets/` (GitBook's layout).
  if (/\.md$/i.test(target)) target = `page:${target.replace(/(^|\/)README\.md$/i, '').replace(/\.md$/i, '')}`;
  else target = `file:${posix.basename(target)}`;
  return `${target}${anchor}`;
}

/** A tag line with its attribute values in double quotes: `style='info'` and `style="info"` are one attribute. */
const normaliseTag = (tag: string) =>
  collapse(tag)
    .replace(/(\s[A-Za-z][\w-]*)='([^'"]*)'/g, '$1="$2"')
    // `{%endhint%}`, `style= "info"` and `"info"%}` are spellings of the tag GitBook writes with spaces.
    .replace(/^\{%\s*/, '{% ')
    .replace(/\s*%\}$/, ' %}')
    .replace(/(\s[A-Za-z][\w-]*)\s*=\s*"/g, '$1="')
    // A title's spaces at its ends show nothing (`title=" Minikube"`).
    .replace(/(\s[A-Za-z][\w-]*)="\s+([^"]*)"/g, '$1="$2"')
    .replace(/(\s[A-Za-z][\w-]*)="([^"]*?)\s+"/g, '$1="$2"');

/** The words of inline tokens without their marks, as an image's alternative text holds them (CommonMark). */
function plainText(tokens: readonly Token[]): string {
  return tokens
    .map((token) => {
      if (token.type === 'text' || token.type === 'code_inline' || token.type === 'html_inline') return token.content;
      if (token.type === 'softbreak' || token.type === 'hardbreak') return ' ';
      return token.children ? plainText(token.children) : '';
    })
    .join('');
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** Emphasis in a fixed order, so that `_**a**_` and `**_a_**` (one meaning) read alike. */
const MARK_ORDER = ['~~', '**', '_'] as const;

function inlineSignature(tokens: readonly Token[], file?: string, footnote: (label: string) => string = () => '[^]'): string {
  let out = '';
  // Marks as a set, written where text shows a change of set: how the delimiters were nested or split
  // (`**a **_**b**_** c**` against `**a _b_ c**`) is spelling, which marks each character has is meaning.
  const open = new Set<string>();
  let written: string[] = [];
  // Nested runs of one mark (`****a****`, strong in strong) are that mark once: it holds while any run is open.
  const depth = new Map<string, number>();
  const enter = (mark: string) => {
    depth.set(mark, (depth.get(mark) ?? 0) + 1);
    open.add(mark);
  };
  const leave = (mark: string) => {
    const left = Math.max((depth.get(mark) ?? 1) - 1, 0);
    depth.set(mark, left);
    if (left === 0) open.delete(mark);
  };
  const syncMarks = () => {
    const wanted = MARK_ORDER.filter((m) => open.has(m));
    if (wanted.join() === written.join()) return;
    out += [...written].reverse().join('') + wanted.join('');
    written = wanted;
  };
  // An icon (`<i class="fa-x">:x:</i>`) is one inline of no marks: its text is for renderers without icons.
  let inIcon = false;
  for (const token of tokens) {
    if (inIcon) {
      if (token.type === 'html_inline' && /^<\/i>$/i.test(token.content.trim())) inIcon = false;
      continue;
    }
    if (token.type === 'html_inline' && /^<i class="fa-[\w-]+">$/.test(token.content.trim())) {
      out += ` ${token.content.trim()} `;
      inIcon = true;
      continue;
    }
    switch (token.type) {
      case 'text':
      case 'text_special': {
        // Spaces at a mark's edge (`**a: **b` against `**a:** b`) are outside it.
        const [, lead, core, trail] = /^(\s*)([\s\S]*?)(\s*)$/.exec(token.content)!;
        out += lead;
        if (core !== '') {
          syncMarks();
          out += core;
        }
        out += trail;
        break;
      }
      case 'softbreak':
        out += ' ';
        break;
      case 'hardbreak':
        out += ' ⏎ ';
        break;
      case 'footnote_ref':
        // A footnote is its number (the order of first reference), whatever its label.
        out += footnote(String(token.meta?.label));
        break;
      case 'code_inline':
        syncMarks();
        out += `\`${token.content}\``;
        break;
      case 'strong_open': enter('**'); break;
      case 'strong_close': leave('**'); break;
      case 'em_open': enter('_'); break;
      case 'em_close': leave('_'); break;
      case 's_open': enter('~~'); break;
      case 's_close': leave('~~'); break;
      case 'link_open':
        out += '[';
        break;
      case 'link_close':
        out += ']';
        break;
      case 'image':
        // Alternative text is plain text: `` ![`createAsyncThunk`: …] `` is the words without the code's marks.
        out += `![${collapse(plainText(token.children ?? []))}](${targetOf(String(token.attrGet('src') ?? ''), file)})`;
        break;
      case 'html_inline': {
        // Same meaning, other spelling: <br> is a hard break, a bare <img> an inline image.
        const img = /^<img\s+src="([^"]*)"(?:\s+alt="([^"]*)")?\s*\/?>$/.exec(token.content.trim());
        // `<del>`, `<strong>`, `<em>` (and their old names) are spellings of the marks `~~`, `**`, `_`.
        const format = /^<(\/?)(del|s|strike|strong|b|em|i)>$/i.exec(token.content.trim());
        if (format) {
          const mark = { del: '~~', s: '~~', strike: '~~', strong: '**', b: '**', em: '_', i: '_' }[format[2]!.toLowerCase()]!;
          if (format[1]) leave(mark);
          else enter(mark);
        } else if (/^<\/?code>$/i.test(token.content.trim())) {
          // `<code>x</code>` is code as `` `x` `` is.
          if (!token.content.includes('/')) syncMarks();
          out += '`';
        } else if (/^<br\s*\/?>$/i.test(token.content.trim())) out += ' ⏎ ';
        else if (img) out += `![${decodeHTML(img[2] ?? '')}](${targetOf(decodeHTML(img[1]!), file)})`;
        else out += normaliseHtml(token.content);
        break;
      }
      default:
        break;
    }
  }
  open.clear();
  syncMarks();
  // Links: the target follows the text, so a changed href shows.
  let linkIndex = 0;
  const hrefs = tokens.filter((t) => t.type === 'link_open').map((t) => targetOf(String(t.attrGet('href') ?? ''), file));
  out = out.replace(/\]/g, (m) => (linkIndex < hrefs.length ? `](${hrefs[linkIndex++]})` : m));
  // Two adjacent runs of one colour (`<mark a>one</mark><mark a>two</mark>`) read as one run: a document holds
  // them as one text with one mark, as GitBook's editor does.
  let merged = out;
  do {
    out = merged;
    merged = out.replace(/(<mark\b[^>]*>)((?:(?!<\/?mark\b)[^])*)<\/mark>\1/g, '$1$2');
  } while (merged !== out);
  return collapse(out);
}

/**
 * One line per block, in document order, each `kind: text`. Footnotes follow, in the order the page refers to
 * them, as readers see them (at the end, numbered), wherever their definitions were written.
 */
export function blockSignature(markdown: string, file?: string): string[] {
  const main: string[] = [];
  const stack: string[] = [];
  const tokens = parseMarkdown(markdown, {});
  // A marker is a placeholder until every footnote is read: numbered as readers see them, those of the text in
  // order, then those of each note in the order the notes are listed (as to-markdown.ts writes them).
  const footnote = (label: string) => `⁅${label}⁆`;
  const notes = new Map<string, string[]>();
  let lines = main;
  let noteDepth = 0;
  for (const token of tokens) {
    const depth = stack.filter(Boolean).length;
    const pad = (line: string) => lines.push(`${'  '.repeat(depth)}${line}`);
    if (token.type === 'footnote_open' && lines === main) {
      // The first definition of a label is the footnote (as markdown-it-footnote and Python-Markdown read them).
      const label = String(token.meta?.label);
      lines = [];
      if (!notes.has(label)) notes.set(label, lines);
      stack.push('');
      noteDepth = stack.length;
      continue;
    }
    if (token.type === 'footnote_close' && stack.length === noteDepth) {
      stack.pop();
      lines = main;
      continue;
    }
    if (token.nesting === 1) {
      // Wrappers that are no block of their own take no line and no indent.
      const wrapper = token.type === 'paragraph_open' || token.type === 'tbody_open' || token.type === 'thead_open' || token.type === 'tr_open';
      stack.push(wrapper ? '' : token.type);
      if (wrapper) continue;
      if (token.type === 'heading_open') pad(`heading ${token.tag}`);
      else if (token.type === 'ordered_list_open') pad(`ordered list from ${token.attrGet('start') ?? 1}`);
      else if (token.type === 'list_item_open') pad(`item${typeof token.meta?.checked === 'boolean' ? (token.meta.checked ? ' [x]' : ' [ ]') : ''}`);
      else if (token.type === 'th_open' || token.type === 'td_open') pad('cell');
      else pad(token.type.replace(/_open$/, ''));
      continue;
    }
    if (token.nesting === -1) {
      stack.pop();
      continue;
    }
    switch (token.type) {
      case 'inline':
        // A line break that ends a paragraph shows nothing.
        pad(`text: ${inlineSignature(token.children ?? [], file, footnote).replace(/(?:\s*⏎)+$/, '')}`);
        break;
      case 'fence':
      case 'code_block':
        pad(`code ${token.info.trim().split(/\s+/)[0] ?? ''}: ${token.content.replace(/\n+$/, '')}`);
        break;
      case 'html_block':
        // GitBook ends an HTML block at a tag line (markdown-it does not).
        for (const piece of token.content.split(/^( {0,3}\{%.*%\}[ \t]*)$/m)) {
          if (piece.trim() === '') continue;
          if (/^ {0,3}\{%.*%\}[ \t]*$/.test(piece)) {
            pad(`tag: ${normaliseTag(piece)}`);
            continue;
          }
          // Figures of images with no caption are `![alt](src) ![alt](src)` written another way.
          const html = normaliseHtml(piece);
          const figures = /^(?:<div>)?(?:<figure><img src="[^"]*" alt="[^"]*"><\/figure>)+(?:<\/div>)?$/.test(html)
            ? [...html.matchAll(/<figure><img src="([^"]*)" alt="([^"]*)"><\/figure>/g)].map((m) => `![${decodeHTML(m[2]!)}](${targetOf(decodeHTML(m[1]!), file)})`)
            : [];
          pad(figures.length > 0 ? `text: ${figures.join(' ')}` : `html: ${html}`);
        }
        break;
      case 'gitbook_tag':
        pad(`tag: ${normaliseTag(token.content)}`);
        break;
      case 'hr':
        pad('divider');
        break;
      default:
        pad(token.type);
    }
  }
  const numbers = new Map<string, number>();
  const number = (lines: readonly string[]) => {
    for (const line of lines) for (const [, label] of line.matchAll(/⁅([^⁅⁆]*)⁆/g)) if (!numbers.has(label!)) numbers.set(label!, numbers.size + 1);
  };
  number(main);
  for (const label of numbers.keys()) if (notes.has(label)) number(notes.get(label)!);
  for (const label of notes.keys()) if (!numbers.has(label)) numbers.set(label, numbers.size + 1);
  const ordered = [...numbers].filter(([label]) => notes.has(label)).map(([label, n]) => [`footnote ${n}`, ...notes.get(label)!.map((line) => `  ${line}`)]);
  const numbered = [...main, ...ordered.flat()].map((line) => line.replace(/⁅([^⁅⁆]*)⁆/g, (_m, label: string) => `[^${numbers.get(label)}]`));
  // Paragraph wrappers are hidden in tight lists and shown in loose ones; what is left is the same either way.
  // Images side by side are the same whatever space is written between them (`![a](x)![b](y)`, figures of one div).
  return numbered.filter((line) => line.trim() !== 'text: ').map((line) => (/^\s*text: (?:!\[[^\]]*\]\([^)]*\)\s*)+$/.test(line) ? line.replace(/\)\s*!\[/g, ') ![').trimEnd() : line));
}

/** The kind of difference a signature line stands for, for the report. */
export function causeOf(line: string): string {
  const text = line.trim();
  if (text.startsWith('front matter')) return text;
  if (text.startsWith('title')) return 'page title';
  if (text.startsWith('heading ')) return `heading level (${text})`;
  if (text.startsWith('tag: ')) return `tag {% ${/\{%\s*([a-z-]+)/.exec(text)?.[1] ?? '?'} %}`;
  if (text.startsWith('html: ')) return `HTML block <${/<\/?([a-zA-Z0-9-]+)/.exec(text)?.[1] ?? '?'}>`;
  if (text.startsWith('code')) return 'code block';
  if (text.startsWith('text: ')) {
    const tag = /<([a-zA-Z][a-zA-Z0-9-]*)/.exec(text)?.[1];
    if (tag) return `inline HTML <${tag}>`;
    if (/\]\([^)]*\)/.test(text)) return 'link or image';
    if (text.includes('$$')) return 'math';
    return 'text';
  }
  return text.replace(/:.*$/, '');
}

function frontLines(markdown: string): string[] {
  const fm = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(markdown.replace(/^\uFEFF/, ''));
  if (!fm) return [];
  let data: unknown;
  try {
    data = parseYaml(fm[1]!);
  } catch {
    return ['front matter (invalid YAML)'];
  }
  if (!data || typeof data !== 'object') return [];
  return Object.entries(data as Record<string, unknown>)
    .map(([key, value]) => `front matter key ${key}: ${JSON.stringify(value)}`)
    .sort();
}

/** The whole page file as lines to compare: front matter keys, then the body's blocks. */
export function pageSignature(markdown: string, file?: string): string[] {
  const body = markdown
    .replace(/^\uFEFF/, '')
    .replace(/^---[ \t]*\r?\n[\s\S]*?\r?\n---[ \t]*(?:\r?\n|$)/, '')
    // `<details><summary>` on one line or on two (GitBook's spelling) open one expandable.
    .replace(/^(<details(?:\s+open)?>)[ \t]*(?:\r?\n[ \t]*)*(<summary>)/gm, '$1$2')
    // Its text right under the summary, without a blank line (one HTML block), is the same expandable's text.
    .replace(/^(<details(?:\s+open)?><summary>.*<\/summary>)[ \t]*\r?\n((?:[ \t]*[^\s<][^\n]*\r?\n)+)(<\/details>)/gm, '$1\n\n$2\n$3');
  const front = frontLines(markdown);
  let blocks = blockSignature(body, file);
  // The page's title, written as a front matter `title` (MkDocs, Docusaurus) or as the leading `# Title`.
  const titleKey = front.findIndex((line) => line.startsWith('front matter key title: '));
  let title = titleKey >= 0 ? (JSON.parse(front.splice(titleKey, 1)[0]!.slice('front matter key title: '.length)) as unknown) : undefined;
  const heading = blocks[0] === 'heading h1' ? blocks[1]?.trim() : undefined;
  if (heading?.startsWith('text: ') && (title === undefined || heading === `text: ${String(title)}`)) {
    // A pinned anchor on the title is the page's own place: not part of the title (splitPageMarkdown).
    title = heading.slice('text: '.length).replace(/[ \t]*<a href="#[^"<>]*" id="[^"<>]*"><\/a>$/, '');
    blocks = blocks.slice(2);
  }
  return [...(title === undefined ? [] : [`title: ${String(title)}`]), ...front, ...blocks];
}

/** Compares an original page file with a round-tripped or exported one. */
/** `file`: the page's path in its layout, to compare relative links by the file they name. */
export function comparePages(original: string, result: string, file?: string): PageComparison {
  const a = pageSignature(original, file);
  const b = pageSignature(result, file);
  const causes = new Map<string, number>();
  const sample: string[] = [];
  for (const hunk of diffIndices(a, b)) {
    const removed = a.slice(hunk.buffer1[0], hunk.buffer1[0] + hunk.buffer1[1]);
    const added = b.slice(hunk.buffer2[0], hunk.buffer2[0] + hunk.buffer2[1]);
    const lines = removed.length > 0 ? removed : added;
    for (const line of lines) {
      const cause = causeOf(removed.length > 0 ? line : `${line}`);
      causes.set(cause, (causes.get(cause) ?? 0) + 1);
    }
    if (sample.length < 6) {
      for (const line of removed.slice(0, 2)) sample.push(`- ${line.trim().slice(0, 200)}`);
      for (const line of added.slice(0, 2)) sample.push(`+ ${line.trim().slice(0, 200)}`);
    }
  }
  return { changed: causes.size > 0, causes, sample };
}

/**
 * One page file of a Git Sync layout through markdown -> document -> markdown in-process, links resolved by
 * corpusRefs (relative paths to page and file references and back).
 */
export function roundTripPage(file: string, markdown: string): string {
  const { body, front } = splitPageMarkdown(markdown, file);
  const { resolve, write } = corpusRefs(file);
  const document = markdownToDocument(body, resolve);
  return joinPageMarkdown(front, documentToMarkdown(document, write));
}

export interface CorpusReport {
  pages: number;
  changed: string[];
  /** Cause -> occurrences and pages. */
  causes: Map<string, { occurrences: number; pages: number }>;
  samples: Map<string, string[]>;
}

export function compareCorpus(pairs: Iterable<{ file: string; original: string; result: string }>): CorpusReport {
  const report: CorpusReport = { pages: 0, changed: [], causes: new Map(), samples: new Map() };
  for (const { file, original, result } of pairs) {
    report.pages += 1;
    const comparison = comparePages(original, result, file);
    if (!comparison.changed) continue;
    report.changed.push(file);
    report.samples.set(file, comparison.sample);
    for (const [cause, count] of comparison.causes) {
      const entry = report.causes.get(cause) ?? { occurrences: 0, pages: 0 };
      entry.occurrences += count;
      entry.pages += 1;
      report.causes.set(cause, entry);
    }
  }
  return report;
}

export function formatReport(report: CorpusReport): string {
  const percent = report.pages === 0 ? 0 : (100 * report.changed.length) / report.pages;
  const lines = [`${report.changed.length} of ${report.pages} pages changed in meaning (${percent.toFixed(1)}%)`];
  const causes = [...report.causes].sort((x, y) => y[1].pages - x[1].pages || y[1].occurrences - x[1].occurrences);
  for (const [cause, { occurrences, pages }] of causes) lines.push(`  ${cause}: ${occurrences} occurrences on ${pages} pages`);
  return lines.join('\n');
}
