import { HINT_STYLE_OF, closingFence, indentedBlock, fenceOpening, isFence, listConstructs, plainToGitbook, type Converted } from './source-markdown.ts';

/*
 * MkDocs (Material) markdown as GitBook writes it, before the GitBook reader sees it: admonitions (`!!!`) become
 * hints and collapsible ones (`???`) expandables, content tabs (`=== "Tab"`) tabs, a fence's `title` and
 * `linenums` a `{% code %}` block, and `--8<--` snippets the text of the file they name. Pure and line-based; code
 * blocks are copied untouched. What has no GitBook form is kept as written and named in `notes`.
 */

const ADMONITION = /^(!!!|\?\?\?\+?)[ \t]+([\w-]+)(?:[ \t]+(?:"([^"]*)"|'([^']*)'))?[ \t]*$/;
const TAB = /^===\+?[ \t]+(?:"([^"]*)"|'([^']*)')[ \t]*$/;
const SNIPPET = /^([ \t]*)-{1,}8<-{1,}[ \t]+(?:"([^"]+)"|'([^']+)')[ \t]*$/;
const FENCE_OPTIONS = /^([ \t]*)(`{3,}|~{3,})[ \t]*\{?[ \t]*\.?([\w+#.-]*)([^`]*?)\}?[ \t]*$/;

/** Constructs of MkDocs' extensions that the converter keeps as written: each named once per page in the notes. */
const KEPT = [
  { name: 'footnote', pattern: /\[\^[^\]\s]+\]/ },
  { name: 'abbreviation (*[…]: …)', pattern: /^\*\[[^\]]+\]:/m },
  { name: 'attribute list ({ … })', pattern: /\{[ \t]*[#.][\w-][^}\n]*\}|\{[ \t]*\w+=[^}\n]*\}/ },
  { name: 'icon or emoji shortcode (:name:)', pattern: /:(?:material|fontawesome|octicons|simple)-[\w-]+:/ },
  { name: 'mark or insert (==…==, ^^…^^)', pattern: /==[^=\s][^=\n]*==|\^\^[^^\s][^^\n]*\^\^/ },
  { name: 'code annotation (.annotate)', pattern: /\.annotate\b/ },
  { name: 'block (/// …)', pattern: /^\/\/\/[ \t]*\w/m },
] as const;

export interface MkdocsOptions {
  /** A snippet's text by the path written after `--8<--`, or undefined when it is not there. */
  readSnippet: (path: string) => string | undefined;
}

export function mkdocsToGitbook(markdown: string, options: MkdocsOptions): Converted {
  const notes = new Set<string>();
  const body = plainToGitbook(convertLines(markdown.split(/\r?\n/), options, notes, 0).join('\n'));
  for (const name of listConstructs(body, KEPT)) notes.add(`${name}: kept as written`);
  return { markdown: body, notes: [...notes] };
}

const MAX_NESTING = 16;

const MARKDOWN_WRAPPER = /^[ \t]*<(div|section|article|span|p)\b[^>]*\bmarkdown(?:=["']?(?:1|block|span)["']?)?[^>]*>[ \t]*$/;

function convertLines(lines: string[], options: MkdocsOptions, notes: Set<string>, depth: number): string[] {
  const out: string[] = [];
  let fence: string | undefined;
  // md_in_html wrappers (`<div class="grid cards" markdown>`) open: their content is markdown, read as such.
  const wrappers: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (fence !== undefined) {
      out.push(line);
      if (isFence(line, fence)) fence = undefined;
      continue;
    }
    const figure = FIGURE_OPEN.test(line) ? materialFigure(lines, i, notes) : undefined;
    if (figure) {
      out.push(figure.html);
      i = figure.end;
      continue;
    }
    const wrapper = MARKDOWN_WRAPPER.exec(line);
    if (wrapper) {
      wrappers.push(wrapper[1]!.toLowerCase());
      notes.add(`HTML wrapper with markdown inside (<${wrapper[1]} markdown>): its content kept, the wrapper and its classes left out`);
      out.push('');
      continue;
    }
    if (wrappers.length > 0 && line.trim().toLowerCase() === `</${wrappers[wrappers.length - 1]}>`) {
      wrappers.pop();
      out.push('');
      continue;
    }
    const snippet = SNIPPET.exec(line);
    if (snippet) {
      const path = snippet[2] ?? snippet[3]!;
      const text = depth < MAX_NESTING ? options.readSnippet(path) : undefined;
      if (text === undefined) {
        notes.add(`snippet ${path}: not found, kept as written`);
        out.push(line);
      } else {
        out.push(...convertLines(text.replace(/\n$/, '').split(/\r?\n/), options, notes, depth + 1).map((l) => (l ? snippet[1] + l : l)));
      }
      continue;
    }
    const options_ = FENCE_OPTIONS.exec(line);
    if (options_ && fenceOpening(line) && (options_[4]!.trim() !== '' || line.includes('{'))) {
      const [, indent, marks, language, rest] = options_;
      const attrs = fenceAttributes(rest!);
      const code: string[] = [];
      if (attrs.title) code.push(`title="${attrs.title.replace(/"/g, '&quot;')}"`);
      if (attrs.linenums) code.push('lineNumbers="true"');
      if (attrs.hl_lines) notes.add('highlighted lines of code (hl_lines): not kept');
      const end = closingFence(lines, i + 1, marks!);
      const inner = lines.slice(i + 1, end + 1);
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
    const admonition = depth < MAX_NESTING ? ADMONITION.exec(line) : null;
    if (admonition) {
      const { lines: inner, next } = indentedBlock(lines, i + 1);
      const content = convertLines(inner, options, notes, depth + 1);
      const kind = admonition[2]!.toLowerCase();
      const title = admonition[3] ?? admonition[4];
      if (admonition[1] === '!!!') {
        const style = HINT_STYLE_OF[kind] ?? 'info';
        if (!(kind in HINT_STYLE_OF)) notes.add(`admonition type ${kind}: an info hint`);
        // A hint has no title: an explicit one leads its text in bold; an empty one ("") asks for none.
        const heading = title === undefined ? capitalize(kind) : title;
        out.push(`{% hint style="${style}" %}`, ...(heading ? [`**${heading}**`, ''] : []), ...trimBlank(content), '{% endhint %}', '');
      } else {
        // `???+` is shown open: GitBook's `<details open>` (the expandable's defaultExpanded).
        out.push(admonition[1] === '???+' ? '<details open>' : '<details>', '', `<summary>${escapeHtml(title ?? capitalize(kind))}</summary>`, '', ...trimBlank(content), '', '</details>', '');
      }
      i = next - 1;
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
        out.push(`{% tab title="${(current[1] ?? current[2]!).replace(/"/g, '&quot;')}" %}`, ...trimBlank(convertLines(inner, options, notes, depth + 1)), '{% endtab %}', '');
        at = next;
        while (at < lines.length && lines[at]!.trim() === '' && TAB.test(lines[nextNonBlank(lines, at)] ?? '')) at++;
      }
      if (out[out.length - 1] === '') out.pop();
      out.push('{% endtabs %}', '');
      i = at - 1;
      continue;
    }
    const image = IMAGE_WITH_ATTRIBUTES.exec(line);
    if (image) {
      out.push(imageFigure(image, notes));
      continue;
    }
    out.push(inlineSyntax(line));
  }
  return out;
}

const FIGURE_OPEN = /^[ \t]*<figure\b[^>]*\bmarkdown\b[^>]*>[ \t]*$/;
const IMAGE_LINE = /^([ \t]*)!\[([^\]]*)\]\(<?([^\s)>]+)>?(?:[ \t]+"[^"]*")?\)(?:\{([^}\n]*)\})?[ \t]*$/;

/**
 * Material's captioned image: `<figure markdown>`, an image line, `<figcaption>…</figcaption>`, `</figure>` — GitBook's
 * `<figure><img><figcaption>`. Anything else inside is not this shape: undefined, and the wrapper is read as any.
 */
function materialFigure(lines: readonly string[], at: number, notes: Set<string>): { html: string; end: number } | undefined {
  let image: RegExpExecArray | undefined;
  let caption: string | undefined;
  for (let i = at + 1; i < lines.length && i < at + 12; i++) {
    const line = lines[i]!;
    if (line.trim() === '') continue;
    if (/^[ \t]*<\/figure>[ \t]*$/.test(line)) {
      if (!image) return undefined;
      const [indent, alt, src, list] = [image[1]!, image[2]!, image[3]!, image[4] ?? ''];
      const figure = imageFigure(Object.assign([image[0], indent, alt, src, list], { index: 0, input: image.input }) as RegExpExecArray, notes);
      return { html: figure.replace('<figcaption></figcaption>', `<figcaption>${caption ?? ''}</figcaption>`).trimStart(), end: i };
    }
    const matched = IMAGE_LINE.exec(line);
    const captionLine = /^[ \t]*<figcaption>(.*)<\/figcaption>[ \t]*$/.exec(line);
    if (matched && !image) image = matched;
    else if (captionLine && caption === undefined) caption = captionLine[1]!.trim();
    else return undefined;
  }
  return undefined;
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

/** A heading's `{ #id }` as GitBook's pinned anchor, and keys (`++ctrl+alt+del++`) as `<kbd>`s. */
function inlineSyntax(line: string): string {
  const heading = HEADING_ID.exec(line);
  const written = heading ? `${heading[1]} <a href="#${heading[2] ?? heading[3]}" id="${heading[2] ?? heading[3]}"></a>` : line;
  return written.replace(/\+\+([\w-]+(?:\+[\w-]+)*)\+\+/g, (_, keys: string) =>
    keys
      .split('+')
      .map((key) => `<kbd>${key.charAt(0).toUpperCase()}${key.slice(1)}</kbd>`)
      .join('+'),
  );
}

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
const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
