import { HINT_STYLE_OF, closingFence, fenceOpening, isFence, plainToGitbook, withoutCode, type Converted } from './source-markdown.ts';

/*
 * Docusaurus markdown (MDX) as GitBook writes it, before the GitBook reader sees it: admonitions (`:::note Title`
 * … `:::`) become hints, `<Tabs>`/`<TabItem label="…">` tabs, `<details>` expandables, and a fence's `title` and
 * `showLineNumbers` a `{% code %}` block. Pure and line-based; code blocks are copied untouched. `import` lines
 * and components we have no block for stay on the page as text and are named in `notes`, never dropped silently;
 * the imports of the components converted here (`@theme/Tabs`, `@theme/TabItem`) are left out, and said so.
 */

const ADMONITION = /^[ \t]*(:{3,})[ \t]*(\w+)(?:\[([^\]]*)\]|[ \t]+(.*?))?[ \t]*(?:\{[^}]*\})?[ \t]*$/;
const FENCE = /^([ \t]*)(`{3,}|~{3,})[ \t]*([\w+#.-]*)[ \t]+(.+?)[ \t]*$/;
const CONVERTED_IMPORT = /^import\s+\w+\s+from\s+['"](?:@theme\/(?:Tabs|TabItem|Details)|@docusaurus\/useBaseUrl)['"];?\s*$/;
const TAB_TAG = /<\/?(?:Tabs|TabItem)\b[^>]*>/g;

export function docusaurusToGitbook(markdown: string): Converted {
  const notes = new Set<string>();
  const out: string[] = [];
  const lines = tagsOnTheirLines(markdown.split(/\r?\n/));
  const open: { kind: 'hint' | 'tabs' | 'tab'; marks?: string }[] = [];
  let fence: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (fence !== undefined) {
      out.push(line);
      if (isFence(line, fence)) fence = undefined;
      continue;
    }
    const code = FENCE.exec(line);
    if (code && fenceOpening(line)) {
      const [, indent, marks, language, meta] = code;
      const attrs: string[] = [];
      const title = /title=(?:"([^"]*)"|'([^']*)'|(\S+))/.exec(meta!);
      if (title) attrs.push(`title="${(title[1] ?? title[2] ?? title[3]!).replace(/"/g, '&quot;')}"`);
      if (/\bshowLineNumbers\b/.test(meta!)) attrs.push('lineNumbers="true"');
      if (/\{[\d,\s-]+\}/.test(meta!)) notes.add('highlighted lines of code ({1,3-4}): not kept');
      if (attrs.length > 0) out.push(`${indent}{% code ${attrs.join(' ')} %}`);
      out.push(`${indent}${marks}${language}`);
      const end = closingFence(lines, i + 1, marks!);
      out.push(...lines.slice(i + 1, end + 1));
      if (attrs.length > 0) out.push(`${indent}{% endcode %}`);
      i = end;
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
    const details = /^[ \t]*<details\b[^>]*>[ \t]*(?:<summary>(.*?)<\/summary>)?[ \t]*$/.exec(line);
    if (details) {
      out.push('', '<details>', '');
      if (details[1] !== undefined) out.push(`<summary>${details[1]}</summary>`, '');
      continue;
    }
    const summary = /^[ \t]*<summary>(.*?)<\/summary>[ \t]*$/.exec(line);
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
  const body = plainToGitbook(out.join('\n')).replace(/\n{3,}/g, '\n\n');
  const prose = withoutCode(body);
  for (const m of prose.matchAll(/^import\s.+$|^export\s.+$/gm)) notes.add(`MDX ${m[0].startsWith('import') ? 'import' : 'export'}: kept as text (${m[0].trim().slice(0, 80)})`);
  // A component's tag is its name then a space, `/` or `>`: `<BigInt, String>` is a type in a sentence, and an
  // upper-case name with underscores (`<PUBLIC_SERVER_API_URL>`) a placeholder to fill in; both are text, as kept.
  for (const m of prose.matchAll(/<([A-Z][\w.]*)(?=[\s/>])/g)) if (!/^[A-Z0-9_]+$/.test(m[1]!) || !m[1]!.includes('_')) notes.add(`MDX component <${m[1]}>: kept as text`);
  if (/^\{\/\*[\s\S]*?\*\/\}$/m.test(prose)) notes.add('MDX comment ({/* … */}): kept as text');
  return { markdown: body, notes: [...notes] };
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
    .replace(/src=\{useBaseUrl\((["'])([^"']*)\1\)\}/g, (_, _q, path: string) => `src="${path.startsWith('/') || /^[a-z]+:/i.test(path) ? path : `/${path}`}"`)
    .replace(/src=\{require\((["'])([^"']*)\1\)(?:\.default)?\}/g, (_, _q, path: string) => `src="${path}"`)
    .replace(/(<img\b[^>]*?)\s*>\s*<\/img>/g, (_, img: string) => {
      return `${img}>`;
    });
}

