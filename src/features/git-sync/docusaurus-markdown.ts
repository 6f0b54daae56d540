import { htmlBlocksAsMarkdown } from './html-blocks.ts';
import { componentPaths, detailsWrapper, importedNames, wrapperTitle, type DetailsWrapper } from './docusaurus-components.ts';
import { HINT_STYLE_OF, closingFence, codeLines, escapeHtml, fenceCode, fenceOpening, isFence, lineNumbers, plainToGitbook, withoutCode, type CodeHighlight, type Converted } from './source-markdown.ts';

/*
 * Docusaurus markdown (MDX) as GitBook writes it, before the GitBook reader sees it: admonitions (`:::note Title`
 * … `:::`) become hints, `<Tabs>`/`<TabItem label="…">` tabs, `<details>` expandables, a fence's `title` and
 * `showLineNumbers` a `{% code %}` block, and its highlighted lines (`{1,3-4}`, `// highlight-next-line`) the
 * document's highlighted code lines. Pure and line-based; code blocks are copied untouched otherwise.
 *
 * MDX is read as a reader of the site sees it: `import` lines are code that shows nothing, so they are left out;
 * a markdown partial (`import Note from './_note.md'`, then `<Note />`) is its text, inlined; `<TOCInline />` is
 * the in-page table of contents Quire's reader shows beside every page, so it is left out; `<LiteYouTubeEmbed
 * id>` is an embed of the video. Every one of them is named in `notes`. Other components have no block here: they
 * stay on the page as text and are named in `notes`, never dropped silently.
 */

const ADMONITION = /^[ \t]*(:{3,})[ \t]*(\w+)(?:\[([^\]]*)\]|[ \t]+(.*?))?[ \t]*(?:\{[^}]*\})?[ \t]*$/;
const FENCE = /^([ \t]*)(`{3,}|~{3,})[ \t]*([\w+#.-]*)(?:[ \t]+(.+?))?[ \t]*$/;
const CONVERTED_IMPORT = /^import\s+\w+\s+from\s+['"](?:@theme\/(?:Tabs|TabItem|Details)|@docusaurus\/useBaseUrl)['"];?\s*$/;
const TAB_TAG = /<\/?(?:Tabs|TabItem)\b[^>]*>/g;
/** An import of one default export from a path, as MDX pages import partials and components. */
const DEFAULT_IMPORT = /^import\s+([A-Z]\w*)\s+from\s+(['"])([^'"]+)\2;?\s*$/;
/** An import statement on one line (`import X from 'y';`, `import './a.css';`): not a sentence that starts with "import". */
const IMPORT_LINE = /^import\s+(?:['"]|.*\bfrom\s*['"]).*['"];?\s*$/;
/** The first line of one written on several (`import {\n  a,\n} from 'x';`). */
const IMPORT_OPENING = /^import\s+(?:type\s+)?(?:\w+\s*,\s*)?\{[^}]*$/;
const SELF_CLOSING = /^[ \t]*<([A-Z]\w*)((?:\s+[^>]*?)?)\s*\/>[ \t]*$/;
/** Docusaurus' default magic comments, in the comment syntaxes of the languages it knows. */
const MAGIC_COMMENT = /^[ \t]*(?:\/\/|#|--|%|\/\*|\{\/\*|<!--)[ \t]*(highlight-next-line|highlight-start|highlight-end)[ \t]*(?:\*\/\}?|-->)?[ \t]*$/;
/** How deep partials may include partials. */
const MAX_PARTIALS = 8;

export interface DocusaurusOptions {
  /** A file's text by its path relative to the page, or undefined when it is not there (partials). */
  readRelative?: (path: string) => string | undefined;
}

export function docusaurusToGitbook(markdown: string, options: DocusaurusOptions = {}): Converted {
  return convertPage(markdown, options, 0);
}

function convertPage(markdown: string, options: DocusaurusOptions, depth: number): Converted {
  const notes = new Set<string>();
  const highlights: CodeHighlight[] = [];
  /** Partials imported by the page: component name -> the path it is imported from. */
  const partials = new Map<string, string>();
  /** The site's own components that draw a `<details>` around their children, by the name the page imports them as. */
  const wrappers = new Map<string, DetailsWrapper>();
  const out: string[] = [];
  const lines = elementsOnOneLine(tagsOnTheirLines(markdown.split(/\r?\n/)));
  const open: { kind: 'hint' | 'tabs' | 'tab'; marks?: string }[] = [];
  let fence: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (fence !== undefined) {
      out.push(line);
      if (isFence(line, fence)) fence = undefined;
      continue;
    }
    if (FENCE.test(line) && fenceOpening(line) && tabMeta(line) !== undefined) {
      const tabs = codeTabs(lines, i, { notes, highlights });
      out.push(...tabs.out);
      i = tabs.end;
      continue;
    }
    if (FENCE.test(line) && fenceOpening(line)) {
      const fence = convertFence(lines, i, { notes, highlights });
      out.push(...fence.out);
      i = fence.end;
      continue;
    }
    const opening = fenceOpening(line);
    if (opening) {
      fence = opening;
      out.push(line);
      continue;
    }
    if (CONVERTED_IMPORT.test(line)) {
      notes.add(`import of a component converted here: left out (${line.trim()})`);
      continue;
    }
    if (IMPORT_LINE.test(line) || IMPORT_OPENING.test(line)) {
      // An import is code the site runs, not text it shows: left out, and named.
      const partial = DEFAULT_IMPORT.exec(line);
      if (partial && /^\.{1,2}\/.*\.mdx?$/.test(partial[3]!)) partials.set(partial[1]!, partial[3]!);
      let last = i;
      while (!/['"];?\s*$/.test(lines[last]!) && last + 1 < lines.length && last - i < 50 && !/^\s*$/.test(lines[last + 1]!)) last++;
      for (const [name, wrapper] of siteDetailsWrappers(lines.slice(i, last + 1).join(' '), options)) wrappers.set(name, wrapper);
      notes.add(`MDX import: left out (${lines.slice(i, last + 1).map((l) => l.trim()).join(' ').slice(0, 80)})`);
      i = last;
      continue;
    }
    const wrapperOpening = /^[ \t]*<([A-Z]\w*)((?:\s[^>]*)?)>[ \t]*$/.exec(line);
    const wrapper = wrapperOpening && !wrapperOpening[2]!.trim().endsWith('/') ? wrappers.get(wrapperOpening[1]!) : undefined;
    if (wrapper) {
      notes.add(DETAILS_WRAPPERS);
      out.push('', '<details>', '', `<summary>${escapeHtml(wrapperTitle(wrapper, wrapperOpening![2]!) ?? wrapperOpening![1]!)}</summary>`, '');
      continue;
    }
    const wrapperClosing = /^[ \t]*<\/([A-Z]\w*)>[ \t]*$/.exec(line);
    if (wrapperClosing && wrappers.has(wrapperClosing[1]!)) {
      out.push('', '</details>', '');
      continue;
    }
    const element = SELF_CLOSING.exec(line);
    if (element?.[1] === 'TOCInline') {
      notes.add('in-page table of contents (<TOCInline>): left out, the reader’s “On this page” lists the page’s headings');
      continue;
    }
    if (element?.[1] === 'LiteYouTubeEmbed') {
      const id = /\bid=(?:"([\w-]+)"|'([\w-]+)')/.exec(element[2]!);
      if (id) {
        out.push('', `{% embed url="https://www.youtube.com/watch?v=${id[1] ?? id[2]}" %}`, '');
        continue;
      }
    }
    const partialPath = element && element[2]!.trim() === '' ? partials.get(element[1]!) : undefined;
    const partialText = partialPath !== undefined && depth < MAX_PARTIALS ? options.readRelative?.(partialPath) : undefined;
    if (partialPath !== undefined && partialText !== undefined) {
      // A partial's own front matter is not the page's.
      const included = convertPage(partialText.replace(/^---\r?\n[\s\S]*?\r?\n---[ \t]*(?:\r?\n|$)/, ''), options, depth + 1);
      notes.add(`MDX partial ${partialPath}: its text inlined`);
      for (const note of included.notes) notes.add(note);
      highlights.push(...included.highlights);
      out.push('', ...included.markdown.split('\n'), '');
      continue;
    }
    const admonition = ADMONITION.exec(line);
    if (admonition && admonition[2] && lines.slice(i + 1).some((l) => l.trim().startsWith(admonition[1]!))) {
      const kind = admonition[2].toLowerCase();
      const title = (admonition[3] ?? admonition[4] ?? '').trim();
      const style = HINT_STYLE_OF[kind] ?? 'info';
      if (!(kind in HINT_STYLE_OF)) notes.add(`admonition type ${kind}: an info hint`);
      out.push('', `{% hint style="${style}" %}`, ...(title ? [`**${title}**`, ''] : []));
      open.push({ kind: 'hint', marks: admonition[1] });
      continue;
    }
    const top = open[open.length - 1];
    if (top?.kind === 'hint' && /^[ \t]*:{3,}[ \t]*$/.test(line)) {
      open.pop();
      out.push('{% endhint %}', '');
      continue;
    }
    if (/^[ \t]*<Tabs\b[^>]*>[ \t]*$/.test(line)) {
      out.push('', '{% tabs %}');
      open.push({ kind: 'tabs' });
      if (/\bgroupId=/.test(line)) notes.add('tabs synchronised by groupId: independent');
      continue;
    }
    const tab = /^[ \t]*<TabItem\b([^>]*)>[ \t]*$/.exec(line);
    if (tab) {
      const label = /\blabel=(?:"([^"]*)"|'([^']*)'|\{["']([^"']*)["']\})/.exec(tab[1]!);
      const value = /\bvalue=(?:"([^"]*)"|'([^']*)')/.exec(tab[1]!);
      const name = label ? (label[1] ?? label[2] ?? label[3]!) : value ? (value[1] ?? value[2]!) : 'Tab';
      out.push(`{% tab title="${name.replace(/"/g, '&quot;')}" %}`, '');
      open.push({ kind: 'tab' });
      continue;
    }
    if (/^[ \t]*<\/TabItem>[ \t]*$/.test(line) && top?.kind === 'tab') {
      open.pop();
      out.push('', '{% endtab %}', '');
      continue;
    }
    if (/^[ \t]*<\/Tabs>[ \t]*$/.test(line) && top?.kind === 'tabs') {
      open.pop();
      out.push('{% endtabs %}', '');
      continue;
    }
    // `<summary markdown="span">` asks a markdown reader to read its content, as GitBook's summary is read anyway.
    const details = /^[ \t]*<details\b[^>]*>[ \t]*(?:<summary\b[^>]*>(.*?)<\/summary>)?[ \t]*$/.exec(line);
    if (details) {
      out.push('', '<details>', '');
      if (details[1] !== undefined) out.push(`<summary>${details[1]}</summary>`, '');
      continue;
    }
    const summary = /^[ \t]*<summary\b[^>]*>(.*?)<\/summary>[ \t]*$/.exec(line);
    if (summary) {
      out.push(`<summary>${summary[1]}</summary>`, '');
      continue;
    }
    if (/^[ \t]*<\/details>[ \t]*$/.test(line)) {
      out.push('', '</details>', '');
      continue;
    }
    out.push(imageSources(line));
  }
  for (const unclosed of open.reverse()) {
    notes.add(`${unclosed.kind === 'hint' ? 'admonition' : unclosed.kind === 'tabs' ? '<Tabs>' : '<TabItem>'} never closed: closed at the end of the page`);
    out.push(unclosed.kind === 'hint' ? '{% endhint %}' : unclosed.kind === 'tabs' ? '{% endtabs %}' : '{% endtab %}');
  }
  const html = htmlBlocksAsMarkdown(blankLinesCollapsed(plainToGitbook(out.join('\n'))));
  const body = html.markdown;
  for (const note of html.notes) notes.add(note);
  const prose = withoutCode(body);
  for (const m of prose.matchAll(/^export\s.+$/gm)) notes.add(`MDX export: kept as text (${m[0].trim().slice(0, 80)})`);
  // A component's tag is its name then a space, `/` or `>`: `<BigInt, String>` is a type in a sentence, and an
  // upper-case name with underscores (`<PUBLIC_SERVER_API_URL>`) a placeholder to fill in; both are text, as kept.
  // A tag's attributes (`{% code title="ConnectedProps<T> example" %}`) are text, not MDX.
  for (const m of prose.replace(/\{%.*?%\}/g, '').matchAll(/<([A-Z][\w.]*)(?=[\s/>])/g)) if (!/^[A-Z0-9_]+$/.test(m[1]!) || !m[1]!.includes('_')) notes.add(`MDX component <${m[1]}>: kept as text`);
  if (/^\{\/\*[\s\S]*?\*\/\}$/m.test(prose)) notes.add('MDX comment ({/* … */}): kept as text');
  return { markdown: body, notes: [...notes], highlights };
}

interface Found {
  notes: Set<string>;
  highlights: CodeHighlight[];
}

const DETAILS_WRAPPERS = 'site components that draw an expandable (a <details> with a summary around their content): expandables';

/** The components an import statement brings from the site's own files that draw a `<details>` (docusaurus-components.ts). */
function siteDetailsWrappers(statement: string, options: DocusaurusOptions): [string, DetailsWrapper][] {
  const imported = importedNames(statement);
  if (!imported || !imported.path.startsWith('.') || /\.mdx?$/.test(imported.path) || !options.readRelative) return [];
  const source = componentPaths(imported.path).map((path) => options.readRelative!(path)).find((text) => text !== undefined);
  const wrapper = source === undefined ? undefined : detailsWrapper(source);
  return wrapper ? imported.names.map((name) => [name.local, wrapper] as [string, DetailsWrapper]) : [];
}

/** Runs of blank lines as one, outside code: a code block keeps its blank lines as written (Docusaurus shows them). */
function blankLinesCollapsed(markdown: string): string {
  const lines = markdown.split('\n');
  const inCode = codeLines(lines);
  return lines.filter((line, i) => inCode[i] || line.trim() !== '' || i === 0 || lines[i - 1]!.trim() !== '' || inCode[i - 1]).join('\n');
}

/**
 * A component's tag written over several lines (`<LiteYouTubeEmbed` / `  id="…"` / `/>`) on one, as the line-based
 * reading below finds tags; only outside code, and only a tag that ends within a few lines.
 */
function elementsOnOneLine(lines: readonly string[]): string[] {
  const inCode = codeLines(lines);
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (!inCode[i] && /^[ \t]*<[A-Z]\w*(?:\s[^<>]*)?$/.test(line)) {
      let end = i + 1;
      while (end < lines.length && end - i <= 20 && !/>/.test(lines[end]!) && !/^[ \t]*$/.test(lines[end]!)) end++;
      if (end < lines.length && /^[^<>]*\/?>[ \t]*$/.test(lines[end]!)) {
        out.push(lines.slice(i, end + 1).map((l, k) => (k === 0 ? l.trimEnd() : l.trim())).join(' '));
        i = end;
        continue;
      }
    }
    out.push(line);
  }
  return out;
}

/**
 * The fenced code block opening at line `at`: its `title` and `showLineNumbers` a `{% code %}` block, its
 * highlighted lines gathered, `npm2yarn` named. `end` is its closing fence's line.
 */
function convertFence(lines: readonly string[], at: number, found: Found): { out: string[]; end: number } {
  const [, indent, marks, language, meta = ''] = FENCE.exec(lines[at]!)!;
  const out: string[] = [];
  const attrs: string[] = [];
  const title = /title=(?:"([^"]*)"|'([^']*)'|(\S+))/.exec(meta);
  if (title) attrs.push(`title="${(title[1] ?? title[2] ?? title[3]!).replace(/"/g, '&quot;')}"`);
  if (/\bshowLineNumbers\b/.test(meta)) attrs.push('lineNumbers="true"');
  if (/(?:^|\s)npm2yarn(?:\s|$)/.test(meta)) found.notes.add('npm2yarn tabs (npm, Yarn, pnpm): the npm command kept, the others left out');
  const end = closingFence(lines, at + 1, marks!);
  const closed = end > at && isFence(lines[end]!, marks!);
  const { lines: body, highlighted } = highlightedLines(lines.slice(at + 1, closed ? end : end + 1), /\{([\d,\s-]+)\}/.exec(meta)?.[1]);
  if (highlighted.length > 0) found.highlights.push({ code: fenceCode(body, indent!), lines: highlighted });
  if (attrs.length > 0) out.push(`${indent}{% code ${attrs.join(' ')} %}`);
  out.push(`${indent}${marks}${language}`, ...body, ...(closed ? [lines[end]!] : []));
  if (attrs.length > 0) out.push(`${indent}{% endcode %}`);
  return { out, end };
}

/** A fence's `tab` or `tab={"span":2}` (docusaurus-remark-plugin-tab-blocks), as the span and label it gives; undefined without one. */
function tabMeta(line: string): { span: number; label?: string } | undefined {
  const meta = FENCE.exec(line)?.[4] ?? '';
  const tab = /(?:^|\s)tab(?:=(\{[^}]*\}))?(?=\s|$)/.exec(meta);
  if (!tab) return undefined;
  let options: { span?: unknown; label?: unknown } = {};
  try {
    options = tab[1] ? (JSON.parse(tab[1]) as typeof options) : {};
  } catch {
    // Not JSON: a tab of one block, as the plugin's default.
  }
  const span = typeof options.span === 'number' && options.span >= 1 ? Math.min(Math.floor(options.span), 20) : 1;
  return { span, ...(typeof options.label === 'string' ? { label: options.label } : {}) };
}

const TAB_LABELS: Record<string, string> = { js: 'JavaScript', ts: 'TypeScript' };

/**
 * Consecutive code blocks marked `tab` as the tabs docusaurus-remark-plugin-tab-blocks makes of them: a tab per
 * block (or per `span` blocks), labelled by its `label` or its language (`js` JavaScript, `ts` TypeScript).
 */
function codeTabs(lines: readonly string[], at: number, found: Found): { out: string[]; end: number } {
  const out = ['', '{% tabs %}'];
  let i = at;
  let end = at;
  for (;;) {
    const meta = tabMeta(lines[i] ?? '');
    if (!meta || !fenceOpening(lines[i]!)) break;
    const language = FENCE.exec(lines[i]!)![3]!;
    out.push(`{% tab title="${(meta.label ?? TAB_LABELS[language] ?? language).replace(/"/g, '&quot;')}" %}`, '');
    for (let block = 0; block < meta.span; block++) {
      if (!FENCE.test(lines[i] ?? '') || !fenceOpening(lines[i]!)) break;
      const fence = convertFence(lines, i, found);
      out.push(...fence.out, '');
      end = fence.end;
      i = nextNonBlank(lines, fence.end + 1);
    }
    out.push('{% endtab %}', '');
  }
  out.push('{% endtabs %}', '');
  found.notes.add('code tabs synchronised across the page (tab blocks): independent');
  return { out, end };
}

function nextNonBlank(lines: readonly string[], from: number): number {
  let i = from;
  while (i < lines.length && lines[i]!.trim() === '') i++;
  return i;
}

/**
 * The code of a block without Docusaurus' magic comments, and the lines they highlight (1-based, in the code
 * returned); with a `{1,3-4}` range in the fence's meta the range says, and the code is kept as written (as
 * Docusaurus does: a range turns the comments off).
 */
function highlightedLines(code: string[], range: string | undefined): { lines: string[]; highlighted: number[] } {
  if (range !== undefined) return { lines: code, highlighted: lineNumbers(range, code.length) };
  const lines: string[] = [];
  const highlighted: number[] = [];
  let next = false;
  let block = false;
  for (const line of code) {
    const magic = MAGIC_COMMENT.exec(line)?.[1];
    if (magic === 'highlight-next-line') next = true;
    else if (magic === 'highlight-start') block = true;
    else if (magic === 'highlight-end') block = false;
    else {
      lines.push(line);
      if (next || block) highlighted.push(lines.length);
      next = false;
    }
  }
  return { lines, highlighted };
}

/** `<Tabs>` and `<TabItem>` tags that share a line with other text (`</div></TabItem>`), each put on a line of its own. */
function tagsOnTheirLines(lines: readonly string[]): string[] {
  const out: string[] = [];
  let fence: string | undefined;
  for (const line of lines) {
    if (fence !== undefined) {
      if (isFence(line, fence)) fence = undefined;
      out.push(line);
      continue;
    }
    const opening = fenceOpening(line);
    if (opening) fence = opening;
    if (opening || !TAB_TAG.test(line) || /^[ \t]*<\/?(?:Tabs|TabItem)\b[^>]*>[ \t]*$/.test(line)) {
      out.push(line);
      continue;
    }
    for (const piece of line.replace(TAB_TAG, (tag) => `\n${tag}\n`).split('\n')) if (piece.trim() !== '') out.push(piece);
  }
  return out;
}

/** JSX image sources (`src={useBaseUrl("img/a.png")}`, `src={require("./a.png").default}`) as the paths they name. */
function imageSources(line: string): string {
  return line
    .replace(/src\s*=\s*\{\s*useBaseUrl\((["'])([^"']*)\1\)\s*\}/g, (_, _q, path: string) => `src="${path.startsWith('/') || /^[a-z]+:/i.test(path) ? path : `/${path}`}"`)
    .replace(/src\s*=\s*\{\s*require\((["'])([^"']*)\1\)(?:\.default)?\s*\}/g, (_, _q, path: string) => `src="${path}"`)
    .replace(/(<img\b[^>]*?)\s*>\s*<\/img>/g, (_, img: string) => {
      return `${img}>`;
    });
}

