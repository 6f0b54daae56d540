import { buttonHtml, iconHtml } from '../content/document/html.ts';
import { ICON_SHORTCODE, iconOfShortcode, nearestIcon } from './icon-names.ts';
import { BADGE, badgeText, settingHeading } from './material-badges.ts';
import { annotationList, footnoteDefinition, markAnnotations } from './material-annotations.ts';
import { cardsTable, definitionOf, linkDefinitions } from './material-grids.ts';
import { CODE_INCLUDE, includedCode } from './code-includes.ts';
import { BLOCK_HEADER, blocksAsMaterial } from './pymdown-blocks.ts';
import { schemeFigure, schemeImage } from './scheme-images.ts';
import { htmlBlocksAsMarkdown } from './html-blocks.ts';
import { HINT_STYLE_OF, closingFence, codeLines, escapeHtml, outsideCodeSpans, fenceCode, indentedBlock, fenceOpening, isFence, lineNumbers, listConstructs, plainToGitbook, type CodeHighlight, type Converted } from './source-markdown.ts';

/*
 * MkDocs (Material) markdown as GitBook writes it, before the GitBook reader sees it: admonitions (`!!!`, and
 * pymdownx.blocks' `/// note`) become hints and collapsible ones (`???`, `/// details`) expandables, content tabs
 * (`=== "Tab"`, `/// tab | Tab`) tabs, a fence's `title` and `linenums` a `{% code %}` block, and `--8<--`
 * snippets the text of the file they name. Pure and line-based; code blocks are copied untouched. What has no
 * GitBook form is kept as written and named in `notes`.
 */

/** `!!! note`, perhaps modifiers (`annotate`, `inline end`), perhaps a title. */
const ADMONITION = /^(!!!|\?\?\?\+?)[ \t]+([\w-]+)((?:[ \t]+(?:annotate|inline|end))*)(?:[ \t]+(?:"([^"]*)"|'([^']*)'))?[ \t]*$/;
const ANNOTATE = /^[ \t]*\{[^}\n]*\.annotate\b[^}\n]*\}[ \t]*$/;
const TAB = /^===\+?[ \t]+(?:"([^"]*)"|'([^']*)')[ \t]*$/;
const SNIPPET = /^([ \t]*)-{1,}8<-{1,}[ \t]+(?:"([^"]+)"|'([^']+)')[ \t]*$/;
const LIST_ITEM = /^(?:[-*+]|\d{1,9}[.)])[ \t]+\S/;
const FENCE_OPTIONS = /^([ \t]*)(`{3,}|~{3,})[ \t]*\{?[ \t]*\.?([\w+#.-]*)([^`]*?)\}?[ \t]*$/;

/** Constructs of MkDocs' extensions that the converter keeps as written: each named once per page in the notes. */
const KEPT = [
  { name: 'abbreviation (*[…]: …)', pattern: /^\*\[[^\]]+\]:/m },
  // Not a TeX group (`\sum_{k=0}`, `x^{2}`), which reads alike; after bold's `__` it is one.
  { name: 'attribute list ({ … })', pattern: /(?<!(?:^|[^_])_|[\^\\])(?:\{[ \t]*[#.][\w-][^}\n]*\}|\{[ \t]*\w+=[^}\n]*\})/ },
  { name: 'icon shortcode with no icon of its name in Quire’s set (:name:)', pattern: /:(?:material|fontawesome|octicons|simple)-[\w-]+:/ },
  { name: 'insert (^^…^^), underlined: GitBook has no underline', pattern: /\^\^[^^\s][^^\n]*\^\^/ },
  { name: 'annotations (.annotate) with no list of notes after their block', pattern: /\.annotate\b/ },
  { name: 'block (/// …)', pattern: /^\/\/\/[ \t]*\w/m },
] as const;

export interface MkdocsOptions {
  /** A snippet's text by the path written after `--8<--`, or undefined when it is not there. */
  readSnippet: (path: string) => string | undefined;
  /** A snippet's file as a path relative to the page (an SVG drawing is shown as an image of it), or undefined. */
  snippetFile?: (path: string) => string | undefined;
  /** The site runs Material's shortcodes hook: its `<!-- md:… -->` badges show words (material-badges.ts). */
  materialBadges?: boolean;
  /**
   * The path, relative to the page, of the site's own file of an icon (`simple-materialformkdocs` ->
   * `.icons/simple/materialformkdocs.svg` under the theme's `custom_dir`, or the theme's own in Material's
   * repository), or undefined when the repository has none.
   */
  iconFile?: (shortcode: string) => string | undefined;
  /** The site's hooks (`mkdocs.yml` `hooks`): Python that MkDocs runs on each page, and that may write into it. */
  hooks?: readonly string[];
}

export function mkdocsToGitbook(markdown: string, options: MkdocsOptions): Converted {
  const notes = new Set<string>();
  const highlights: CodeHighlight[] = [];
  const lines = markdown.split(/\r?\n/);
  const found: Found = { notes, highlights, badges: options.materialBadges === true, definitions: linkDefinitions(lines), footnotes: [], footnoteLabels: new Map(), ...(options.iconFile ? { iconFile: options.iconFile } : {}) };
  const converted = convertLines(abbreviations(lines, found), options, found, 0);
  // Annotations and tooltips the conversion made footnotes of: their definitions end the page, as GitBook writes them.
  if (found.footnotes.length > 0) converted.push('', ...found.footnotes);
  const html = htmlBlocksAsMarkdown(plainToGitbook(converted.join('\n')));
  const body = html.markdown;
  for (const note of html.notes) notes.add(note);
  for (const name of listConstructs(body, KEPT)) notes.add(`${name}: kept as written`);
  return { markdown: body, notes: [...notes], highlights };
}

const MAX_NESTING = 16;

const SVG_SNIPPETS = 'drawings inlined from an SVG file (--8<-- "….svg"): an image of the file, where links inside the drawing are not followed';

const ABBREVIATION = /^\*\[([^\]\n]+)\]:[ \t]*(.*)$/;

/**
 * Python-Markdown's abbreviations (`*[HTML]: Hyper Text Markup Language`) show their expansion over every use of the
 * word: GitBook's annotation is that, set once, on the word's first use in the page's prose (a footnote's marker
 * after it). The definitions themselves show nothing and are taken out; one the page never uses showed nothing.
 */
function abbreviations(lines: string[], found: Found): string[] {
  const terms = new Map<string, string>();
  const inCode = codeLines(lines);
  const kept = lines.filter((line, i) => {
    const definition = inCode[i] ? null : ABBREVIATION.exec(line);
    if (definition && !terms.has(definition[1]!)) terms.set(definition[1]!, definition[2]!.trim());
    return !definition;
  });
  if (terms.size === 0) return lines;
  found.notes.add(ABBREVIATIONS);
  const code = codeLines(kept);
  for (const [term, expansion] of terms) {
    const word = new RegExp(`(?<![\\w-])${term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w-])`);
    for (let i = 0; i < kept.length; i++) {
      const line = kept[i]!;
      // Not in code, a heading, a title (admonition, tab), a link definition or HTML, where a marker would be text.
      if (code[i] || /^[ \t]*(?:#|!!!|\?\?\?|===|<|\[[^\]]+\]:)/.test(line)) continue;
      const at = firstUse(line, word);
      if (at === undefined) continue;
      kept[i] = `${line.slice(0, at)}[^${footnote([expansion], found)}]${line.slice(at)}`;
      break;
    }
  }
  return kept;
}

/** Where the first use of the word ends in the line, outside code spans and a link's text or target. */
function firstUse(line: string, word: RegExp): number | undefined {
  let offset = 0;
  for (const piece of line.split(/(`+[^`]*`+)/)) {
    const m = piece.startsWith('`') ? null : word.exec(piece);
    if (m) {
      const before = line.slice(0, offset + m.index);
      const open = (before.match(/\[/g) ?? []).length - (before.match(/\]/g) ?? []).length + (before.match(/\(/g) ?? []).length - (before.match(/\)/g) ?? []).length;
      if (open <= 0) return offset + m.index + m[0].length;
    }
    offset += piece.length;
  }
  return undefined;
}

const CODE_INCLUDES = 'code files included with markdown-include-variants ({* file hl[…] *}) as code blocks, their highlighted lines kept';
const CODE_PREVIEWS_LEFT_OUT =
  'code includes’ other versions and full-file previews, which the site folds under the code shown ({* … *}): left out, the recommended version (_an) shown';

const ABBREVIATIONS = 'abbreviations (*[…]: …) as GitBook’s annotation of the word’s first use (a definition the page never uses showed nothing)';

const MARKDOWN_WRAPPER = /^[ \t]*<(div|section|article|span|p)\b[^>]*\bmarkdown(?:=["']?(?:1|block|span)["']?)?[^>]*>[ \t]*$/;

/** What the conversion of a page gathers besides its lines. */
interface Found {
  notes: Set<string>;
  highlights: CodeHighlight[];
  badges: boolean;
  /** The page's link reference definitions, for the targets of cards (material-grids.ts). */
  definitions: ReadonlyMap<string, string>;
  /** Footnote definitions of the annotations and tooltips made here (material-annotations.ts), and their labels by their text. */
  footnotes: string[];
  footnoteLabels: Map<string, string>;
  iconFile?: MkdocsOptions['iconFile'];
}

function convertLines(written: string[], options: MkdocsOptions, found: Found, depth: number): string[] {
  const { notes } = found;
  // pymdownx.blocks (`/// note | Title` … `///`) as the admonitions, details and tabs read below.
  const lines = blocksAsMaterial(written, notes);
  const out: string[] = [];
  let fence: string | undefined;
  // md_in_html wrappers (`<div class="grid cards" markdown>`) open: their content is markdown, read as such.
  const wrappers: string[] = [];
  // Where the item of the last definition ends in `out`: a definition right after it is the same term's.
  let definitionEnd = -1;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (fence !== undefined) {
      out.push(line);
      if (isFence(line, fence)) fence = undefined;
      continue;
    }
    // `&nbsp;` under which an attribute list sets an id and a style that hides it: a place a link scrolls to (the
    // theme's feedback widget's), showing nothing. GitBook sets anchors on headings only.
    if (line.trim() === '&nbsp;' && EMPTY_ANCHOR.test(lines[i + 1] ?? '') && (out.length === 0 || out[out.length - 1]!.trim() === '')) {
      notes.add(EMPTY_ANCHORS);
      i++;
      continue;
    }
    // `###### <div align="center">`: a heading holding only tags that show nothing (a wrapper opened in it, an
    // empty anchor) is an empty heading on the site; the words after it are a paragraph of their own.
    if (EMPTY_HEADING.test(line)) {
      notes.add(EMPTY_HEADINGS);
      continue;
    }
    // `<!-- hooks/translations.py -->`: where one of the site's hooks writes content when MkDocs builds (a list it
    // computes from the theme's files). The comment is kept; what the hook would write is not there to import.
    const hook = HOOK_COMMENT.exec(line);
    if (hook && options.hooks?.some((h) => h === hook[1] || h.endsWith(`/${hook[1]}`))) notes.add(`content the site’s hook ${hook[1]} writes when MkDocs builds the page: not imported, Quire runs no MkDocs hooks`);
    const figure = FIGURE_OPEN.test(line) ? materialFigure(lines, i, found) : undefined;
    if (figure) {
      out.push(figure.html);
      i = figure.end;
      continue;
    }
    const wrapper = MARKDOWN_WRAPPER.exec(line);
    const classes = wrapper ? (/\bclass=["']([^"']*)["']/.exec(line)?.[1]?.trim().split(/\s+/) ?? []) : [];
    if (wrapper && depth < MAX_NESTING && classes.includes('grid') && classes.includes('cards')) {
      const end = closingTag(lines, i, wrapper[1]!.toLowerCase());
      const table = end === undefined ? undefined : cardsTable(convertLines(lines.slice(i + 1, end), options, found, depth + 1), found.definitions);
      if (table) {
        notes.add(CARDS);
        out.push('', table, '');
        i = end!;
        continue;
      }
    }
    const annotatedWrapper = wrapper && depth < MAX_NESTING && classes.includes('annotate') ? closingTag(lines, i, wrapper[1]!.toLowerCase()) : undefined;
    const wrapped = annotatedWrapper === undefined ? undefined : annotated(convertLines(lines.slice(i + 1, annotatedWrapper), options, found, depth + 1), lines, annotatedWrapper + 1, options, found, depth);
    if (wrapped) {
      out.push('', ...wrapped.lines, '');
      i = wrapped.next - 1;
      continue;
    }
    if (wrapper) {
      wrappers.push(wrapper[1]!.toLowerCase());
      notes.add(wrapperNote(wrapper[1]!, classes, line));
      out.push('');
      continue;
    }
    if (wrappers.length > 0 && line.trim().toLowerCase() === `</${wrappers[wrappers.length - 1]}>`) {
      wrappers.pop();
      out.push('');
      continue;
    }
    // `{ .annotate }` under a paragraph: the paragraph's markers open the notes of the list after it.
    if (ANNOTATE.test(line) && depth < MAX_NESTING) {
      let start = out.length;
      while (start > 0 && out[start - 1]!.trim() !== '') start--;
      const block = start < out.length ? annotated(out.slice(start), lines, i + 1, options, found, depth) : undefined;
      if (block) {
        out.splice(start, out.length - start, ...block.lines);
        i = block.next - 1;
        continue;
      }
    }
    const snippet = SNIPPET.exec(line);
    if (snippet) {
      const path = snippet[2] ?? snippet[3]!;
      // An SVG snippet draws its picture in the page: GitBook shows a picture as an image, of the same file. In an
      // HTML block (a `<details>` body of HTML) an image is an `<img>`, which the block's conversion reads.
      const drawing = /\.svg$/i.test(path) ? options.snippetFile?.(path) : undefined;
      if (drawing !== undefined) {
        notes.add(SVG_SNIPPETS);
        out.push(snippet[1] + (/^[ \t]*<\/?\w/.test(out[out.length - 1] ?? '') ? `<img src="${escapeHtml(drawing)}" alt="">` : `![](<${drawing}>)`));
        continue;
      }
      const text = depth < MAX_NESTING ? options.readSnippet(path) : undefined;
      if (text === undefined) {
        notes.add(`snippet ${path}: not found, kept as written`);
        out.push(line);
      } else {
        out.push(...convertLines(text.replace(/\n$/, '').split(/\r?\n/), options, found, depth + 1).map((l) => (l ? snippet[1] + l : l)));
      }
      continue;
    }
    if (CODE_INCLUDE.test(line)) {
      const included = includedCode(line, options.readSnippet);
      if (!included) {
        notes.add(`code file ${CODE_INCLUDE.exec(line)![2]}: not found, kept as written`);
        out.push(line);
        continue;
      }
      notes.add(CODE_INCLUDES);
      if (included.variantShown || included.partial) notes.add(CODE_PREVIEWS_LEFT_OUT);
      if (included.highlighted.length > 0) found.highlights.push({ code: included.code, lines: included.highlighted });
      out.push(...included.lines);
      continue;
    }
    const options_ = FENCE_OPTIONS.exec(line);
    if (options_ && fenceOpening(line) && (options_[4]!.trim() !== '' || line.includes('{'))) {
      const [, indent, marks, language, rest] = options_;
      const attrs = fenceAttributes(rest!);
      const code: string[] = [];
      if (attrs.title) code.push(`title="${attrs.title.replace(/"/g, '&quot;')}"`);
      if (attrs.linenums) code.push('lineNumbers="true"');
      const end = closingFence(lines, i + 1, marks!);
      const inner = lines.slice(i + 1, end + 1);
      if (attrs.hl_lines) {
        const code = lines.slice(i + 1, isFence(lines[end]!, marks!) ? end : end + 1);
        const highlighted = lineNumbers(attrs.hl_lines, code.length);
        if (highlighted.length > 0) found.highlights.push({ code: fenceCode(code, indent!), lines: highlighted });
      }
      if (code.length > 0) out.push(`${indent}{% code ${code.join(' ')} %}`);
      out.push(`${indent}${marks}${language}`, ...inner);
      if (code.length > 0) out.push(`${indent}{% endcode %}`);
      i = end;
      continue;
    }
    const opening = fenceOpening(line);
    if (opening) {
      fence = opening;
      out.push(line);
      continue;
    }
    // A list item's content is indented under it, as Python-Markdown nests it: admonitions, tabs and fence options
    // there are converted like any (the item's text is copied, its content put back under it).
    const item = depth < MAX_NESTING && LIST_ITEM.test(line) ? indentedBlock(lines, i + 1) : undefined;
    if (item && item.lines.some((inner) => ADMONITION.test(inner) || TAB.test(inner) || BLOCK_HEADER.test(inner) || (FENCE_OPTIONS.test(inner) && /\w=/.test(inner)))) {
      out.push(inlineSyntax(line, found), ...convertLines(item.lines, options, found, depth + 1).map((inner) => (inner.trim() === '' ? '' : `    ${inner}`)));
      i = item.next - 1;
      continue;
    }
    // A definition (`:   text` under its term, Python-Markdown's def_list): GitBook has no definition list. The
    // term leads an item of a bulleted list, in bold, and the definition's blocks (an admonition in one is a hint)
    // are that item's content; a term's further definitions join its item.
    const definition = depth < MAX_NESTING ? DEFINITION.exec(line) : null;
    const term = definition ? definitionTerm(out, definitionEnd) : undefined;
    if (definition && term) {
      const { lines: inner, next } = indentedBlock(lines, i + 1);
      notes.add(DEFINITIONS);
      const content = trimBlank(convertLines([definition[1]!, ...inner], options, found, depth + 1)).map((l) => (l.trim() === '' ? '' : `    ${l}`));
      let start = term.start;
      while (start > 1 && out[start - 1]!.trim() === '' && out[start - 2]!.trim() === '') start--;
      out.splice(start, out.length - start, ...(term.lines.length > 0 ? [`- ${term.lines.map(boldTerm).join(' / ')}`] : []), '', ...content);
      definitionEnd = out.length;
      i = next - 1;
      continue;
    }
    if (definition && out.some((l) => l.trim() !== '')) {
      // After something that is no paragraph (a heading, a list): no term to lead an item; the blocks follow it.
      const { lines: inner, next } = indentedBlock(lines, i + 1);
      notes.add(DEFINITIONS_WITHOUT_TERM);
      out.push(...convertLines([definition[1]!, ...inner], options, found, depth + 1));
      i = next - 1;
      continue;
    }
    const admonition = depth < MAX_NESTING ? ADMONITION.exec(line) : null;
    if (admonition) {
      const { lines: inner, next } = indentedBlock(lines, i + 1);
      const content = convertLines(inner, options, found, depth + 1);
      const kind = admonition[2]!.toLowerCase();
      const title = admonition[4] ?? admonition[5];
      const modifiers = admonition[3]!.trim().split(/\s+/).filter(Boolean);
      const start = out.length;
      if (admonition[1] === '!!!') {
        const style = HINT_STYLE_OF[kind] ?? 'info';
        if (!(kind in HINT_STYLE_OF)) notes.add(`admonitions of the site’s own types (${kind}) as info hints: Material draws a type it has no style for as a note`);
        // A hint has no title: an explicit one leads its text in bold; an empty one ("") asks for none.
        const heading = title === undefined ? capitalize(kind) : title;
        out.push(`{% hint style="${style}" %}`, ...(heading ? [`**${icons(heading, found)}**`, ''] : []), ...trimBlank(content), '{% endhint %}', '');
      } else {
        // `???+` is shown open: GitBook's `<details open>` (the expandable's defaultExpanded).
        out.push(admonition[1] === '???+' ? '<details open>' : '<details>', '', `<summary>${escapeHtml(title ?? capitalize(kind))}</summary>`, '', ...trimBlank(content), '', '</details>', '');
      }
      // `inline` and `inline end` float the admonition beside the text that follows: a hint is in the text's flow.
      if (modifiers.includes('inline')) notes.add(INLINE_ADMONITIONS);
      const block = modifiers.includes('annotate') ? annotated(out.slice(start), lines, next, options, found, depth) : undefined;
      if (block) out.splice(start, out.length - start, ...block.lines, '');
      i = (block?.next ?? next) - 1;
      continue;
    }
    const tab = depth < MAX_NESTING ? TAB.exec(line) : null;
    if (tab) {
      out.push('{% tabs %}');
      let at = i;
      for (;;) {
        const current = TAB.exec(lines[at] ?? '');
        if (!current) break;
        const { lines: inner, next } = indentedBlock(lines, at + 1);
        const { title, icon } = tabTitle(current[1] ?? current[2]!, found);
        out.push(`{% tab title="${title.replace(/"/g, '&quot;')}"${icon ? ` icon="${icon}"` : ''} %}`, ...trimBlank(convertLines(inner, options, found, depth + 1)), '{% endtab %}', '');
        at = next;
        while (at < lines.length && lines[at]!.trim() === '' && TAB.test(lines[nextNonBlank(lines, at)] ?? '')) at++;
      }
      if (out[out.length - 1] === '') out.pop();
      out.push('{% endtabs %}', '');
      i = at - 1;
      continue;
    }
    const setting = found.badges ? settingHeading(line) : undefined;
    if (setting) {
      notes.add(BADGES);
      out.push(...setting.map((l) => inlineSyntax(l, found)));
      continue;
    }
    // A light and a dark image, on one line or two of one paragraph: one image with a dark variant.
    const scheme = line.includes('![') ? (schemeImage(line, found.definitions) ?? (lines[i + 1]?.trim() ? schemeImage(`${line} ${lines[i + 1]}`, found.definitions) : undefined)) : undefined;
    if (scheme) {
      out.push(`${/^[ \t]*/.exec(line)![0]}${schemeFigure(scheme)}`);
      if (!schemeImage(line, found.definitions)) i++;
      continue;
    }
    const image = IMAGE_WITH_ATTRIBUTES.exec(line);
    if (image) {
      out.push(imageFigure(image, notes));
      continue;
    }
    out.push(inlineSyntax(line, found));
  }
  return out;
}

/**
 * A block with annotation markers and the list of notes after it (from line `from`): the block with footnote
 * markers, the notes (converted like any content, so a note may hold annotations of its own) given to the page's
 * footnotes. Undefined when no list follows or its markers do not match it.
 */
function annotated(block: string[], lines: readonly string[], from: number, options: MkdocsOptions, found: Found, depth: number): { lines: string[]; next: number } | undefined {
  const list = annotationList(lines, from);
  if (!list || !markAnnotations(block, list.notes.length, () => '')) return undefined;
  const labels = list.notes.map((note) => footnote(trimBlank(convertLines(note, options, found, depth + 1)), found));
  found.notes.add(ANNOTATIONS);
  return { lines: markAnnotations(block, list.notes.length, (n) => labels[n - 1]!)!, next: list.next };
}

/**
 * The label of a footnote of these lines, made here. One note written twice is one footnote, as GitBook writes
 * it (to-markdown.ts): the same label, so that its number is the same however often it is referred to.
 */
function footnote(note: string[], found: Found): string {
  const key = note.join('\n');
  let label = found.footnoteLabels.get(key);
  if (label === undefined) {
    label = `annotation-${found.footnoteLabels.size + 1}`;
    found.footnoteLabels.set(key, label);
    found.footnotes.push(...footnoteDefinition(label, note));
  }
  return label;
}

const ANNOTATIONS = 'annotations ((1) and the list of notes after the block marked annotate) as GitBook’s annotations';
const INLINE_ADMONITIONS = 'admonitions set beside the text (inline, inline end) as hints in the text’s flow';

const CARDS = 'grids of cards (<div class="grid cards" markdown>) as GitBook’s cards: each item’s icon and title, text and link; the rules between them left out';

/** The line that closes the `tag` opened on line `at`, tags of the same name opened and closed between counted. */
function closingTag(lines: readonly string[], at: number, tag: string): number | undefined {
  let open = 0;
  for (let i = at; i < lines.length; i++) {
    open += (lines[i]!.match(new RegExp(`<${tag}\\b`, 'gi')) ?? []).length - (lines[i]!.match(new RegExp(`</${tag}>`, 'gi')) ?? []).length;
    if (open === 0) return i;
  }
  return undefined;
}

/**
 * What becomes of a wrapper whose content is kept and the wrapper left out. Material's reference pages show a
 * markdown example's rendering in `<div class="result" markdown>`, a box around content kept whole;
 * mkdocs-material's own `mdx-columns` flows a list into columns to save room; a grid (`grid`, or `grid cards`
 * whose items are more than a card holds: code, admonitions) sets its blocks side by side, and a style
 * (`opacity`, a tooltip's width) changes how the content looks: the same content in one column, in the
 * text's own look. A wrapper of other classes lays out or styles its content as the site's own CSS says.
 */
function wrapperNote(tag: string, classes: readonly string[], line: string): string {
  const attributes = [...line.matchAll(/\s([\w-]+)(?==)/g)].map((m) => m[1]!.toLowerCase());
  if (classes.join(' ') === 'result') return 'HTML wrapper of an example’s result (<div class="result" markdown>): its content kept, the box left out';
  if (classes.join(' ') === 'mdx-columns') return 'HTML wrapper that flows a list into columns (<div class="mdx-columns" markdown>): the list kept, in one column';
  if (classes.includes('grid') && classes.every((c) => c === 'grid' || c === 'cards')) return 'grids (<div class="grid" markdown>, and grids of cards holding more than a card can) laid out in one column: their blocks kept, in order';
  if (classes.length === 0 && attributes.length > 0 && attributes.every((a) => a === 'style')) return 'HTML wrapper that styles its content (<div style="…" markdown>, an opacity, a width): its content kept, in the text’s own look';
  return `HTML wrapper with markdown inside (<${tag} markdown>): its content kept, the wrapper and its classes left out`;
}

const HOOK_COMMENT = /^[ \t]*<!--[ \t]*([\w./-]+\.py)[ \t]*-->[ \t]*$/;

const EMPTY_ANCHOR = /^[ \t]*\{[ \t]*#[\w-]+(?:[ \t]+style=(?:"[^"]*"|'[^']*'))?[ \t]*\}[ \t]*$/;
const EMPTY_ANCHORS = 'empty paragraphs that only place an anchor (&nbsp; with { #id }): left out, GitBook anchors headings only';

/** An ATX heading of tags alone that draw nothing by themselves (not an image's): no words, nothing to show. */
const EMPTY_HEADING = /^ {0,3}#{1,6}[ \t]+(?:<\/?(?:div|span|p|section|center|a|br)\b[^>]*>[ \t]*)+#*[ \t]*$/i;
const EMPTY_HEADINGS = 'empty headings holding only HTML tags that show nothing (###### <div align="center">): left out';

const DEFINITION = /^:[ \t]{1,3}(\S.*)$/;
const DEFINITIONS = 'definition lists (a term, then `:   definition`) as a bulleted list: each term in bold leads its item, its definition’s blocks under it';

const DEFINITIONS_WITHOUT_TERM = 'definitions (`:   definition`) after a block that is no term: their blocks follow it, not set apart';

/** A line that opens a block other than a paragraph, so no term of a definition. */
const NOT_A_TERM = /^[ \t]*(?:#{1,6}[ \t]|[-*+][ \t]|\d{1,9}[.)][ \t]|>|\{%|<|\||`{3,}|~{3,}|\[[^\]]+\]:)|^(?: {4}|\t)/;

/**
 * The term of a definition starting now: the paragraph the output ends with (blank lines after it allowed), as
 * Python-Markdown's def_list reads it, each of its lines a term. No lines (a start but no term) when the output
 * ends with the item of the definition before (`definitionEnd`): a term's next definition joins that item.
 * Undefined when what precedes is no paragraph: the definition is read as text then.
 */
function definitionTerm(out: readonly string[], definitionEnd: number): { start: number; lines: string[] } | undefined {
  let end = out.length;
  while (end > 0 && out[end - 1]!.trim() === '') end--;
  if (end > 0 && out.length >= definitionEnd && end <= definitionEnd && out.slice(definitionEnd).every((l) => l.trim() === '')) return { start: end, lines: [] };
  let start = end;
  while (start > 0 && out[start - 1]!.trim() !== '') start--;
  const lines = out.slice(start, end);
  if (lines.length === 0 || lines.some((l) => NOT_A_TERM.test(l))) return undefined;
  return { start, lines: lines.map((l) => l.trim()) };
}

/** A term in bold, unless it has bold of its own. */
function boldTerm(term: string): string {
  return /\*\*|__/.test(term) ? term : `**${term}**`;
}

const FIGURE_OPEN = /^[ \t]*<figure\b[^>]*\bmarkdown\b[^>]*>[ \t]*$/;
const IMAGE_LINE = /^([ \t]*)!\[([^\]]*)\]\(<?([^\s)>]+)>?(?:[ \t]+"[^"]*")?\)(?:\{([^}\n]*)\})?[ \t]*$/;

/**
 * Material's captioned image: `<figure markdown>`, an image line (or a light and a dark one, scheme-images.ts),
 * `<figcaption>…</figcaption>`, `</figure>` — GitBook's `<figure><img><figcaption>`. Anything else inside is not
 * this shape: undefined, and the wrapper is read as any.
 */
function materialFigure(lines: readonly string[], at: number, found: Found): { html: string; end: number } | undefined {
  const { notes } = found;
  let image: RegExpExecArray | undefined;
  let caption: string | undefined;
  const imageLines: string[] = [];
  for (let i = at + 1; i < lines.length && i < at + 12; i++) {
    const line = lines[i]!;
    if (line.trim() === '') continue;
    const scheme = imageLines.length === 2 ? schemeImage(imageLines.join(' '), found.definitions) : undefined;
    if (/^[ \t]*<\/figure>[ \t]*$/.test(line) && scheme) return { html: schemeFigure(scheme, caption && captionLinks(caption, found.definitions)), end: i };
    if (/^[ \t]*<\/figure>[ \t]*$/.test(line)) {
      if (!image || imageLines.length !== 1) return undefined;
      const [indent, alt, src, list] = [image[1]!, image[2]!, image[3]!, image[4] ?? ''];
      const figure = imageFigure(Object.assign([image[0], indent, alt, src, list], { index: 0, input: image.input }) as RegExpExecArray, notes);
      return { html: figure.replace('<figcaption></figcaption>', `<figcaption>${caption ?? ''}</figcaption>`).trimStart(), end: i };
    }
    const matched = IMAGE_LINE.exec(line) ?? (line.trim().startsWith('![') ? undefined : null);
    const captionLine = /^[ \t]*<figcaption(?:[ \t]+markdown)?>(.*)<\/figcaption>[ \t]*$/.exec(line);
    if (matched !== null && imageLines.length < 2 && caption === undefined) {
      imageLines.push(line.trim());
      image ??= matched;
    } else if (captionLine && caption === undefined) caption = captionLine[1]!.trim();
    else return undefined;
  }
  return undefined;
}

/** A caption's links (`[roadmap]`, `[text](href)`) as the `<a>`s of its HTML; undefined when it has none. */
function captionLinks(caption: string, definitions: ReadonlyMap<string, string>): string | undefined {
  let linked = false;
  const html = caption.replace(/\[([^[\]\n]+)\](?:\(<?([^)\s>]+)>?\)|\[([^\]\n]*)\])?/g, (whole, text: string, inline: string | undefined, reference: string | undefined) => {
    const href = inline ?? definitionOf(definitions, reference || text);
    if (href === undefined) return whole;
    linked = true;
    return `<a href="${escapeAttribute(href)}">${text}</a>`;
  });
  return linked ? html : undefined;
}

/** An image alone on its line with an attribute list: `![alt](src "title"){ width="300" loading=lazy }`. */
const IMAGE_WITH_ATTRIBUTES = /^([ \t]*)!\[([^\]]*)\]\(<?([^\s)>]+)>?(?:[ \t]+"[^"]*")?\)\{([^}\n]*)\}[ \t]*$/;

/**
 * GitBook writes an image of a given width as a `<figure>`; `{ width="300" }` is that. `loading=lazy` is how the
 * browser fetches it (the reader decides that), and alignment has no place on a lone image: both are dropped
 * silently. A width in another unit than pixels, or other attributes, keep the image and are named.
 */
function imageFigure(image: RegExpExecArray, notes: Set<string>): string {
  const [, indent, alt, src, list] = image;
  const attrs = fenceAttributes(list!);
  const width = attrs.width?.replace(/px$/, '');
  const others = Object.keys(attrs).filter((name) => !['width', 'loading', 'align'].includes(name));
  const classes = [...list!.matchAll(/(?:^|\s)([.#][\w-]+)/g)].map((m) => m[1]!).filter((c) => c !== '.skip-lightbox' && c !== '.on-glb');
  if (others.length > 0 || classes.length > 0 || (width !== undefined && !/^\d+$/.test(width))) notes.add('image attributes other than a width in pixels: left out');
  const widthAttr = width !== undefined && /^\d+$/.test(width) ? ` width="${width}"` : '';
  return `${indent}<figure><img src="${escapeAttribute(src!)}" alt="${escapeAttribute(alt!)}"${widthAttr}><figcaption></figcaption></figure>`;
}

const HEADING_ID = /^(#{1,6}[ \t].*?)[ \t]*\{[ \t]*(?:#([\w.-]+)|id=["']?([\w.-]+)["']?)(?:[ \t][^}]*)?\}[ \t]*$/;

/** A heading's `{ #id }` as GitBook's pinned anchor, keys (`++ctrl+alt+del++`) as `<kbd>`s, and icon shortcodes as icons. */
function inlineSyntax(line: string, found: Found): string {
  line = titledWords(underlines(badges(smallPrint(line, found), found), found), found);
  const heading = HEADING_ID.exec(line);
  const written = heading ? `${heading[1]} <a href="#${heading[2] ?? heading[3]}" id="${heading[2] ?? heading[3]}"></a>` : line;
  return attributeLists(icons(buttons(highlights(written, found), found), found), found).replace(/\+\+([\w-]+(?:\+[\w-]+)*)\+\+/g, (_, keys: string) =>
    keys
      .split('+')
      .map((key) => `<kbd>${key.charAt(0).toUpperCase()}${key.slice(1)}</kbd>`)
      .join('+'),
  );
}

/**
 * Words HTML gives a title (`<abbr title="Object-Relational Mapper">ORM</abbr>`, `<dfn title="…">linter</dfn>`,
 * FastAPI's docs): the title shows over the words, which a GitBook annotation is, its marker after them. A heading
 * holds no annotation: there the words stay, and the title is named as left out.
 */
function titledWords(line: string, found: Found): string {
  if (!/<(?:abbr|dfn)\b/i.test(line)) return line;
  const heading = /^[ \t]*#{1,6}[ \t]/.test(line);
  return outsideCodeSpans(line, (prose) =>
    prose.replace(/<(abbr|dfn)\s+title=(?:"([^"]*)"|'([^']*)')\s*>([^<]*)<\/\1>/gi, (_, _tag: string, double: string | undefined, single: string | undefined, words: string) => {
      const title = (double ?? single ?? '').trim();
      if (!title) return words;
      if (heading) {
        found.notes.add(TITLED_WORDS_IN_HEADINGS);
        return words;
      }
      found.notes.add(TITLED_WORDS);
      return `${words}[^${footnote([title], found)}]`;
    }),
  );
}

const TITLED_WORDS = 'words with a title (<abbr title>, <dfn title>) as GitBook’s annotations';
const TITLED_WORDS_IN_HEADINGS = 'titles of words in a heading (<abbr title>, <dfn title>): left out, a heading holds no annotation';

/**
 * Material's highlight (`==words==`, pymdownx.mark) is text on a coloured ground, drawn yellow by its theme:
 * GitBook's colour mark with a yellow background, as GitBook writes it (`<mark style="background-color:yellow;">`).
 */
function highlights(line: string, found: Found): string {
  if (!line.includes('==')) return line;
  return outsideCodeSpans(line, (prose) =>
    prose.replace(/(?<![={])==(?=[^=\s])([^=\n]*[^=\s])==(?![=}])/g, (_, words: string) => {
      found.notes.add(HIGHLIGHTS);
      return `<mark style="background-color:yellow;">${words}</mark>`;
    }),
  );
}

const HIGHLIGHTS = 'highlights (==…==) as GitBook’s yellow background colour';

/**
 * Underlined words (`^^inserted^^`, pymdownx.caret, and HTML's `<u>`) stress them: GitBook has no underline, and
 * its emphasis is italic. (In the document a `<u>` would keep only its words.)
 */
function underlines(line: string, found: Found): string {
  if (!line.includes('^^') && !/<u>/i.test(line)) return line;
  return outsideCodeSpans(line, (prose) =>
    prose.replace(/\^\^(?=[^^\s])([^^\n]*[^^\s])\^\^|<u>([^<\n]*)<\/u>/gi, (_, caret: string | undefined, html: string | undefined) => {
      found.notes.add(UNDERLINES);
      return `*${caret ?? html}*`;
    }),
  );
}

const UNDERLINES = 'underlines (^^…^^, <u>) as emphasis, in italic: GitBook has no underline';

/**
 * Icon shortcodes outside code spans as GitBook's icons (`<i class="fa-check">:check:</i>`) where the reader's set has
 * an icon of the name or the nearest one (icon-names.ts). One it has none for is left out when it is decoration:
 * the first thing of a line, list item, table cell, heading or link text, with words after it that say what it
 * stands for (`:fontawesome-brands-chrome: Chrome`, `- :material-rabbit: __Fast__`, `:material-arrow-top-left:
 * \`start top\``), perhaps set apart by a dash (`- :material-material-design: – [Material Design]`), which goes
 * with it. Any other (alone, or a word of a sentence: `Adding a :simple-materialformkdocs: badge`) means
 * something: it stays as written, and is named.
 */
function icons(line: string, found: Found): string {
  if (!line.includes(':')) return line;
  return iconsOutOfLinks(line, found)
    .split(/(`+[^`]*`+)/)
    .map((piece, i, pieces) =>
      i % 2 === 1
        ? piece
        : piece.replace(ICON_WITH_CLASSES, (written: string, name: string, classes: string | undefined, dash: string | undefined, at: number) => {
            const icon = nearestIcon(name);
            if (icon) {
              found.notes.add(icon.exact ? ICONS_DRAWN : ICONS_NEAREST);
              return iconHtml(icon.icon) + (classes ?? '') + (dash ?? '');
            }
            // The code spans around the piece count: a cell's words may be code (`start top`).
            const before = pieces.slice(0, i).join('') + piece.slice(0, at);
            const after = piece.slice(at + written.length) + pieces.slice(i + 1).join('');
            if (isDecoration(before, after)) {
              found.notes.add(ICONS_LEFT_OUT);
              return LEFT_OUT;
            }
            // A word of its sentence (`Adding a :simple-materialformkdocs: badge`): the site's own icon file, where
            // the repository has it, is that word's image.
            const file = found.iconFile?.(name);
            if (!file) return written;
            found.notes.add(ICONS_FROM_FILES);
            return `![${name.replace(/^(?:material|octicons|simple|fontawesome-(?:solid|regular|brands))-/, '')}](<${file}>)`;
          }),
    )
    .join('')
    // The space that set a left-out icon apart from its words goes with it: `[Netlify]`, not `[ Netlify]`.
    .replace(new RegExp(`${LEFT_OUT}(?:[ \\t]|&nbsp;)*`, 'g'), '');
}

/** Where a decorative icon was, until the spaces after it are taken out too. */
const LEFT_OUT = '\u0000';

/**
 * A shortcode, the attribute list that styles it (`:material-rabbit:{ .lg .middle }`), and a dash between spaces
 * that sets the words after it apart (`:material-git: – \`git\``): an en or em dash, or a hyphen.
 */
const ICON_WITH_CLASSES = new RegExp(`${ICON_SHORTCODE.source}(\\{[^}\\n]*\\})?([ \\t]+[–—-](?=[ \\t]))?`, 'g');

/** Before a decorative icon: only the marks that open its line, cell, list item, heading, quote, link text or bold. */
const LEADS = /(?:^|\|)[ \t]*(?:(?:[-*+]|\d{1,9}[.)]|#{1,6}|>)[ \t]+)*(?:\[|\*\*|__)?[ \t]*$/;
/** After it: a space, then a word or a code span (perhaps in bold, perhaps a link's). */
const FOLLOWED_BY_WORDS = /^(?:[ \t]|&nbsp;)+(?:\*\*|__)?\[?(?:[\p{L}\p{N}]|`+[^`\n]+`)/u;

function isDecoration(before: string, after: string): boolean {
  return LEADS.test(before) && FOLLOWED_BY_WORDS.test(after.replace(/^\{[^}\n]*\}/, ''));
}

const ICONS_NEAREST = 'icon shortcodes drawn with the nearest Font Awesome icon (Material’s magnify as magnifying-glass)';
const ICONS_FROM_FILES = 'icons no Font Awesome set has, words of their sentence, as images of the site’s own icon files (.icons/…)';
const ICONS_LEFT_OUT = 'icons without a Font Awesome match before the words they stand beside: left out as decoration';

/** Material's badges (`<!-- md:version 9.2.0 -->`) as their words, where the site's hook shows them (material-badges.ts). */
function badges(line: string, found: Found): string {
  if (!found.badges || !line.includes('<!--')) return line;
  return line.replace(BADGE, (comment, kind: string, args: string) => {
    const words = badgeText(kind, args);
    if (words === undefined) return comment;
    found.notes.add(BADGES);
    return words;
  });
}

const BADGES = 'Material’s badges (<!-- md:… -->, shown by its shortcodes hook) as their words: the box, its icon and its link left out';

/**
 * `<small>` (Material's docs put a default, a date or "optional" beside a heading in it) is text in smaller
 * type: GitBook has no smaller type, the words are kept as text of the line.
 */
function smallPrint(line: string, found: Found): string {
  if (!line.includes('<small>')) return line;
  // Code spans are read past whole: a `<small>` in one is code, and the small print may hold one.
  return line.replace(/(`+)[^`]*?\1|<small>((?:[^<`]|`[^`]*`)*)<\/small>/g, (whole, ticks: string | undefined, words: string) => {
    if (ticks) return whole;
    found.notes.add(SMALL_PRINT);
    return words;
  });
}

const SMALL_PRINT = 'small print (<small>…</small>) as text of its line: GitBook has no smaller type';

/**
 * Material's buttons, a link with the class `md-button` (and `md-button--primary`), as GitBook's buttons: a
 * secondary or a primary one, its icon a shortcode the label holds.
 */
function buttons(line: string, found: Found): string {
  if (!line.includes('md-button')) return line;
  // Inline (`[label](href)`) and reference (`[label][name]`, `[label][]`, `[label]`) links alike.
  const button = /\[([^\]\n]+)\](?:\(<?([^)\s>]+)>?\)|\[([^\]\n]*)\])?\{[ \t]*((?:\.[\w-]+[ \t]*)+)\}/g;
  return line.replace(button, (whole, label: string, inline: string | undefined, reference: string | undefined, classes: string) => {
    const names = classes.split(/\s+/).filter(Boolean);
    if (!names.includes('.md-button') || names.some((name) => name !== '.md-button' && name !== '.md-button--primary')) return whole;
    const href = inline ?? definitionOf(found.definitions, reference || label);
    if (href === undefined) return whole;
    const shortcode = new RegExp(ICON_SHORTCODE.source).exec(label);
    const icon = shortcode ? iconOfShortcode(shortcode[1]!) : undefined;
    if (shortcode && !icon) return whole;
    found.notes.add(BUTTONS);
    // A label's `&nbsp;` spaces its icon from its words: the button draws them apart itself.
    const text = label.replace(ICON_SHORTCODE, '').replace(/&nbsp;/g, ' ').replace(/\s+/g, ' ').trim();
    return buttonHtml(text, names.includes('.md-button--primary') ? 'primary' : 'secondary', href, icon);
  });
}

const BUTTONS = 'buttons (md-button) as GitBook’s buttons';

/** Classes that mean something GitBook has its own way to say: kept, so the page names them. */
const MEANINGFUL_CLASSES = new Set(['.annotate', '.md-button', '.md-button--primary']);

/**
 * Attribute lists of classes only (`{ .lg .middle }` after an icon, `{ .card }` under a grid's item,
 * `{ data-preview }` on a link): styles of Material's theme, which GitBook has no classes for. Left out and named;
 * lists that set anything else (`style`, an `id` outside a heading) stay as written, and are named too.
 */
function attributeLists(line: string, found: Found): string {
  if (!line.includes('{')) return line;
  const styling = (list: string) => {
    const names = list.trim().split(/\s+/);
    return names.length > 0 && names.every((name) => (/^\.[\w-]+$/.test(name) && !MEANINGFUL_CLASSES.has(name)) || name === 'data-preview');
  };
  if (/^[ \t]*\{[^}\n]*\}[ \t]*$/.test(line) && styling(line.trim().slice(1, -1))) {
    found.notes.add(CLASSES_LEFT_OUT);
    return '';
  }
  // Under a paragraph, a style that only places it (`{ style="display: inline" }` runs two paragraphs on one line).
  if (BLOCK_PLACEMENT.test(line)) {
    found.notes.add(PLACEMENT_LEFT_OUT);
    return '';
  }
  return outsideCodeSpans(line, (prose) =>
    prose.replace(/(\)|\]|:|<\/i>|\*\*|__)\{([^}\n]*)\}/g, (whole, before: string, list: string) => {
      // A drawn icon's colour (a green check, a red cross): the icon's shape says it, in the text's colour.
      if (before === '</i>' && /^[ \t]*style=["']color:[^"';]*;?["'][ \t]*$/.test(list)) {
        found.notes.add(ICON_COLOURS_LEFT_OUT);
        return before;
      }
      const title = /^[ \t]*title=(?:"([^"]*)"|'([^']*)')[ \t]*$/.exec(list);
      if (title) return before + tooltip(title[1] ?? title[2]!, found);
      // An id set on words (`**\`locale\`**{ #mkdocs-locale }`): a place a link scrolls to, which GitBook has on headings only.
      if (/^[ \t]*#[\w-]+[ \t]*$/.test(list)) {
        found.notes.add(WORD_ANCHORS_LEFT_OUT);
        return before;
      }
      if (!styling(list)) return whole;
      found.notes.add(CLASSES_LEFT_OUT);
      return before;
    }),
  );
}

/**
 * A `title` (`__Update__{ title="August 21, 2024" }`) is a tooltip: words shown over what they are set on, which a
 * GitBook annotation is. Its footnote's marker follows the words (or the icon, or the link, whose own number it then annotates).
 */
function tooltip(title: string, found: Found): string {
  found.notes.add(TOOLTIPS);
  return `[^${footnote([title], found)}]`;
}

const TOOLTIPS = 'tooltips ({ title="…" }) as GitBook’s annotations';
const BLOCK_PLACEMENT = /^[ \t]*\{[ \t]*style=["'](?:[ \t]*(?:display|margin(?:-\w+)?|padding(?:-\w+)?)[ \t]*:[^;"']*;?)+["'][ \t]*\}[ \t]*$/;
const PLACEMENT_LEFT_OUT = 'styles that place a block ({ style="display: inline" }, margins): left out, GitBook places blocks itself';
const ICON_COLOURS_LEFT_OUT = 'colours of icons ({ style="color: …" }): left out, the icon drawn in the colour of its text';
const CLASSES_LEFT_OUT = 'attribute lists of classes ({ .name }): left out, GitBook has no classes to style with';
const WORD_ANCHORS_LEFT_OUT = 'anchors set on words ({ #id } after a link or bold text): left out, GitBook anchors headings only';

/**
 * A link holds text only (the spec's link inline), so icons written in a link's text (`[:octicons-tag-24: 9.2.0](…)`)
 * are put just before the link, where they still show beside its text.
 */
function iconsOutOfLinks(line: string, found: Found): string {
  if (!line.includes('](') && !line.includes('][')) return line;
  // Inline (`[…](…)`) and reference (`[…][…]`) links alike.
  return line.replace(/(^|[^!\]])\[([^[\]\n]*)\]([([])/g, (whole, before: string, label: string, opening: string) => {
    const moved: string[] = [];
    const rest = label.replace(ICON_SHORTCODE, (shortcode, name: string) => {
      if (!iconOfShortcode(name) || label.includes('`')) return shortcode;
      moved.push(shortcode);
      return '';
    });
    if (moved.length === 0) return whole;
    found.notes.add(ICONS_BESIDE_LINKS);
    return `${before}${moved.join(' ')} [${rest.replace(/\s+/g, ' ').trim()}]${opening}`;
  });
}

const ICONS_BESIDE_LINKS = 'icons in a link’s text put before the link (a link holds text only)';

/**
 * Icons that draw a character of text (an ellipsis, a chevron) as that character, where an icon cannot go: a
 * tab's title is text (`blog/2024/:material-dots-horizontal:/`, the path of any day's posts).
 */
const ICON_CHARACTERS: Record<string, string> = {
  'material-dots-horizontal': '…', 'material-chevron-right': '›', 'material-chevron-left': '‹', 'material-chevron-double-right': '»',
  'material-chevron-double-left': '«', 'material-arrow-right': '→', 'material-arrow-left': '←',
};

/** A content tab's title, a leading icon shortcode taken out as the tab's icon (GitBook's tab has one). */
function tabTitle(written: string, found: Found): { title: string; icon?: string } {
  const text = written.replace(/(?<=\S[ \t]*):([a-z0-9-]+):/g, (shortcode, name: string) => {
    const character = ICON_CHARACTERS[name];
    if (character) found.notes.add(ICONS_AS_CHARACTERS);
    return character ?? shortcode;
  });
  const leading = /^[ \t]*:([a-z0-9-]+):[ \t]*/.exec(text);
  const icon = leading ? nearestIcon(leading[1]!) : undefined;
  if (!leading) return { title: text };
  const title = text.slice(leading[0].length);
  if (icon) {
    found.notes.add(icon.exact ? ICONS_DRAWN : ICONS_NEAREST);
    return { title, icon: icon.icon };
  }
  // A tab titled by an icon and words: the words say it (`:material-apple: macOS`).
  if (!new RegExp(`^${ICON_SHORTCODE.source}$`).test(`:${leading[1]}:`) || !/[\p{L}\p{N}]/u.test(title)) return { title: text };
  found.notes.add(ICONS_LEFT_OUT);
  return { title };
}

const ICONS_DRAWN = 'icon shortcodes drawn with the Font Awesome icon of the same name';
const ICONS_AS_CHARACTERS = 'icons in a tab’s title written as the character they draw (…, ›, »)';

function fenceAttributes(text: string): Record<string, string> {
  const attrs: Record<string, string> = {};
  for (const m of text.matchAll(/([\w-]+)=(?:"([^"]*)"|'([^']*)'|(\S+))/g)) attrs[m[1]!] = m[2] ?? m[3] ?? m[4]!;
  return attrs;
}


function nextNonBlank(lines: readonly string[], from: number): number {
  let i = from;
  while (i < lines.length && lines[i]!.trim() === '') i++;
  return i;
}

function trimBlank(lines: string[]): string[] {
  let start = 0;
  let end = lines.length;
  while (start < end && lines[start]!.trim() === '') start++;
  while (end > start && lines[end - 1]!.trim() === '') end--;
  return lines.slice(start, end);
}

const capitalize = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);
const escapeAttribute = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
