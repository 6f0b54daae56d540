import { posix } from 'node:path';
import { parse as parseYaml, parseDocument, stringify as stringifyYaml } from 'yaml';

/*
 * The Git Sync layout, read and written without I/O: `.gitbook.yaml` (where the content is, which files are the
 * readme and the summary, the redirects) and SUMMARY.md (the table of contents: page entries nested by
 * indentation, `## Group` headings, entries that are links). GitBook's own format, as its documentation and the
 * repositories it writes show it.
 */

export interface GitbookConfig {
  /** Folder of the content, relative to the repository's root, without leading or trailing slash ('' = root). */
  root: string;
  /** The first page's file, relative to `root`. */
  readme: string;
  /** The table of contents, relative to `root`. */
  summary: string;
  /** Old path (relative to the site, no leading slash) -> file path relative to `root`. */
  redirects: Record<string, string>;
}

export const DEFAULT_CONFIG: GitbookConfig = { root: '', readme: 'README.md', summary: 'SUMMARY.md', redirects: {} };

/** Most redirects kept from one `.gitbook.yaml`. */
export const MAX_REDIRECTS = 5000;

export class LayoutError extends Error {}

/** Reads `.gitbook.yaml`; an absent file is the defaults. Invalid YAML or shapes name the key that is wrong. */
export function parseGitbookYaml(text: string | undefined): GitbookConfig {
  if (text === undefined || text.trim() === '') return { ...DEFAULT_CONFIG, redirects: {} };
  let data: unknown;
  try {
    data = parseYaml(text, { maxAliasCount: 100 });
  } catch (error) {
    throw new LayoutError(`.gitbook.yaml is not valid YAML (${error instanceof Error ? error.message.split('\n')[0] : 'parse error'})`);
  }
  if (data === null || data === undefined) return { ...DEFAULT_CONFIG, redirects: {} };
  if (typeof data !== 'object' || Array.isArray(data)) throw new LayoutError('.gitbook.yaml must be a mapping of keys (root, structure, redirects)');
  const d = data as Record<string, unknown>;
  const config: GitbookConfig = { ...DEFAULT_CONFIG, redirects: {} };
  if (d.root !== undefined) {
    if (typeof d.root !== 'string') throw new LayoutError('.gitbook.yaml: "root" must be a folder path');
    config.root = cleanFolder(d.root, 'root');
  }
  if (d.structure !== undefined && d.structure !== null) {
    if (typeof d.structure !== 'object' || Array.isArray(d.structure)) throw new LayoutError('.gitbook.yaml: "structure" must be a mapping (readme, summary)');
    const s = d.structure as Record<string, unknown>;
    for (const key of ['readme', 'summary'] as const) {
      if (s[key] === undefined) continue;
      if (typeof s[key] !== 'string' || s[key].trim() === '') throw new LayoutError(`.gitbook.yaml: "structure.${key}" must be a file path`);
      config[key] = cleanFile(s[key], `structure.${key}`);
    }
  }
  if (d.redirects !== undefined && d.redirects !== null) {
    if (typeof d.redirects !== 'object' || Array.isArray(d.redirects)) throw new LayoutError('.gitbook.yaml: "redirects" must be a mapping of old path to file');
    const entries = Object.entries(d.redirects as Record<string, unknown>);
    if (entries.length > MAX_REDIRECTS) throw new LayoutError(`.gitbook.yaml: more than ${MAX_REDIRECTS} redirects`);
    for (const [source, destination] of entries) {
      if (typeof destination !== 'string' || destination.trim() === '') throw new LayoutError(`.gitbook.yaml: redirect "${source}" must name a file`);
      const from = redirectSource(source);
      // A URL is a URL: normalising it as a path would make `https://x` `https:/x`.
      if (from) config.redirects[from] = isExternalHref(destination.trim()) ? destination.trim() : cleanFile(destination, `redirects.${source}`);
    }
  }
  return config;
}

/** `.gitbook.yaml` as Quire writes it: the structure always, redirects when there are some, keys in a fixed order. */
export function writeGitbookYaml(config: Pick<GitbookConfig, 'redirects'> & Partial<GitbookConfig>): string {
  const out: Record<string, unknown> = { root: `./${config.root ?? ''}`.replace(/\/?$/, '/') };
  out.structure = { readme: config.readme ?? DEFAULT_CONFIG.readme, summary: config.summary ?? DEFAULT_CONFIG.summary };
  const sources = Object.keys(config.redirects).sort();
  if (sources.length > 0) out.redirects = Object.fromEntries(sources.map((s) => [s, config.redirects[s]]));
  return stringifyYaml(out, { lineWidth: 0 });
}

/**
 * `.gitbook.yaml` as the repository had it, with Quire's redirects: the text itself when they are the same (an
 * export changes no byte it need not), else the same document — its root, structure, comments and any key Quire
 * does not read — with the `redirects` mapping replaced. Without a text, Quire's own (`writeGitbookYaml`).
 */
export function keepGitbookYaml(text: string | undefined, redirects: Record<string, string>): string {
  if (text === undefined || text.trim() === '') return writeGitbookYaml({ redirects });
  const current = parseGitbookYaml(text).redirects;
  const same = (a: Record<string, string>, b: Record<string, string>) => Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([k, v]) => b[k] === v);
  if (same(current, redirects)) return text;
  const document = parseDocument(text);
  const sources = Object.keys(redirects).sort();
  if (sources.length === 0) document.delete('redirects');
  else document.set('redirects', document.createNode(Object.fromEntries(sources.map((s) => [s, redirects[s]]))));
  return document.toString({ lineWidth: 0 });
}

/** A redirect's source path as the reader compares it: no leading or trailing slash, no `.md`. */
export function redirectSource(source: string): string {
  return source.trim().replace(/^\/+|\/+$/g, '');
}

function cleanFolder(value: string, key: string): string {
  const normal = posix.normalize(`/${value.trim().replace(/\\/g, '/')}`);
  if (posix.normalize(value.trim().replace(/\\/g, '/')).startsWith('..')) throw new LayoutError(`.gitbook.yaml: "${key}" leaves the repository`);
  return normal.replace(/^\/+|\/+$/g, '');
}

function cleanFile(value: string, key: string): string {
  const normal = posix.normalize(value.trim().replace(/\\/g, '/')).replace(/^\.\/|^\/+/g, '');
  if (normal.startsWith('..') || normal === '.' || normal === '') throw new LayoutError(`.gitbook.yaml: "${key}" must be a file inside the repository`);
  return normal;
}

/** One line of the table of contents. */
export interface SummaryEntry {
  title: string;
  /** As written between the parentheses (decoded from `<…>`), or undefined for a group heading. */
  href: string | undefined;
  children: SummaryEntry[];
}

/** The table of contents: entries before the first group heading, then each group with its entries. */
export interface Summary {
  entries: SummaryEntry[];
  groups: { title: string; entries: SummaryEntry[] }[];
}

/** Deepest nesting kept from SUMMARY.md; deeper entries join the deepest level. */
export const MAX_SUMMARY_DEPTH = 50;

const ITEM = /^([ \t]*)[*+-][ \t]+(.*)$/;
const GROUP = /^#{2,6}[ \t]+(.*?)[ \t]*#*[ \t]*$/;

/** Parses SUMMARY.md. Lines that are neither entries nor headings (text, rules, the `# Table of contents` title) are skipped. */
export function parseSummary(text: string): Summary {
  const summary: Summary = { entries: [], groups: [] };
  let target = summary.entries;
  // Open entries by indentation: each level's indent and the entry whose children the next deeper level fills.
  let stack: { indent: number; entry: SummaryEntry }[] = [];
  for (const raw of text.replace(/^\uFEFF/, '').split(/\r?\n/)) {
    const group = GROUP.exec(raw);
    if (group) {
      const title = headingText(group[1]!);
      summary.groups.push({ title, entries: [] });
      target = summary.groups[summary.groups.length - 1]!.entries;
      stack = [];
      continue;
    }
    const item = ITEM.exec(raw);
    if (!item) continue;
    const link = parseLinkText(item[2]!);
    if (!link) continue;
    const indent = item[1]!.replace(/\t/g, '    ').length;
    while (stack.length > 0 && stack[stack.length - 1]!.indent >= indent) stack.pop();
    const entry: SummaryEntry = { title: link.title, href: link.href, children: [] };
    const parent = stack.length > 0 ? stack[Math.min(stack.length, MAX_SUMMARY_DEPTH) - 1]!.entry : undefined;
    (parent ? parent.children : target).push(entry);
    stack.push({ indent, entry });
  }
  return summary;
}

/** A heading's text without the inline HTML anchors GitBook adds (`<a href="#x" id="x"></a>`). */
function headingText(raw: string): string {
  return unescapeMarkdown(raw.replace(/<a\b[^>]*>\s*<\/a>/gi, '').replace(/<[^>]+>/g, '')).trim();
}

/** `[title](href)` with backslash escapes in the title and `<…>` or balanced parentheses in the href. */
export function parseLinkText(text: string): { title: string; href: string } | undefined {
  if (!text.startsWith('[')) return undefined;
  let i = 1;
  let title = '';
  let depth = 0;
  for (; i < text.length; i += 1) {
    const ch = text[i]!;
    if (ch === '\\' && i + 1 < text.length) {
      title += text[i + 1];
      i += 1;
      continue;
    }
    if (ch === '[') depth += 1;
    if (ch === ']') {
      if (depth === 0) break;
      depth -= 1;
    }
    title += ch;
  }
  if (text[i] !== ']' || text[i + 1] !== '(') return undefined;
  i += 2;
  let href = '';
  if (text[i] === '<') {
    const end = text.indexOf('>', i);
    if (end < 0) return undefined;
    href = text.slice(i + 1, end);
    i = end + 1;
  } else {
    let parens = 0;
    for (; i < text.length; i += 1) {
      const ch = text[i]!;
      if (ch === '\\' && i + 1 < text.length) {
        href += text[i + 1];
        i += 1;
        continue;
      }
      if (ch === '(') parens += 1;
      if (ch === ')') {
        if (parens === 0) break;
        parens -= 1;
      }
      if (ch === ' ' && parens === 0) break;
      href += ch;
    }
  }
  return { title: title.trim(), href: href.trim() };
}

function unescapeMarkdown(text: string): string {
  return text.replace(/\\([\\`*_{}[\]()#+\-.!<>|])/g, '$1');
}

/** Writes SUMMARY.md as GitBook does: a title, the entries, then each group under its `##` heading. */
export function writeSummary(summary: Summary): string {
  const lines = ['# Table of contents', ''];
  const write = (entries: readonly SummaryEntry[], depth: number) => {
    for (const entry of entries) {
      lines.push(`${'  '.repeat(depth)}* [${escapeTitle(entry.title)}](${writeHref(entry.href ?? '')})`);
      write(entry.children, depth + 1);
    }
  };
  write(summary.entries, 0);
  for (const group of summary.groups) {
    if (lines[lines.length - 1] !== '') lines.push('');
    lines.push(`## ${escapeHeading(group.title)}`, '');
    write(group.entries, 0);
  }
  return `${lines.join('\n').replace(/\n+$/, '')}\n`;
}

function escapeTitle(title: string): string {
  return title.replace(/[\\[\]]/g, (c) => `\\${c}`);
}

function escapeHeading(title: string): string {
  return title.replace(/^([#>*+-])/, '\\$1').replace(/[\\<]/g, (c) => `\\${c}`);
}

/** An href SUMMARY.md can hold: paths with spaces or parentheses go between `<…>`. */
export function writeHref(href: string): string {
  return /[\s()<>]/.test(href) ? `<${href.replace(/[<>]/g, encodeURIComponent)}>` : href;
}

/** A markdown link's target as a path: percent-decoding where it is valid, the anchor split off. */
export function splitHref(href: string): { path: string; anchor: string | undefined } {
  const hash = href.indexOf('#');
  const rawPath = hash < 0 ? href : href.slice(0, hash);
  const anchor = hash < 0 ? undefined : href.slice(hash + 1) || undefined;
  let path = rawPath;
  try {
    path = decodeURIComponent(rawPath);
  } catch {
    // kept as written
  }
  return { path, anchor };
}

/** Whether an href leaves the repository: a URL with a scheme, or protocol-relative. */
export function isExternalHref(href: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('//');
}

/**
 * The repository path a relative href points to from a file, or undefined when it leaves the repository.
 * A leading `/` is the content root.
 */
export function resolveRepoPath(fromFile: string, root: string, hrefPath: string): string | undefined {
  if (hrefPath === '') return fromFile;
  const base = hrefPath.startsWith('/') ? root : posix.dirname(fromFile);
  const joined = posix.normalize(posix.join(base === '.' ? '' : base, hrefPath.replace(/^\/+/, '')));
  if (joined.startsWith('..') || joined.startsWith('/')) return undefined;
  return joined === '.' ? '' : joined.replace(/\/+$/, '');
}
