import { posix } from 'node:path';
import { documentToMarkdown } from '../content/document/to-markdown.ts';
import type { ContentRef, Document } from '../content/document/types.ts';
import { joinPageMarkdown } from '../content/markdown.ts';
import type { PageRecord } from '../content/pages.ts';
import { buildTree, type PageNode } from '../content/tree.ts';
import type { ReusableContentRecord } from '../content/reusable-contents.ts';
import { includePaths, writeInclude } from './includes.ts';
import { DEFAULT_CONFIG, keepGitbookYaml, writeSummary, type GitbookConfig, type Summary, type SummaryEntry } from './layout.ts';

/*
 * A revision written as a Git Sync repository, the layout GitBook writes: SUMMARY.md (groups as `##` headings,
 * link pages as link entries), one markdown file per page (`<slug>.md`, or `<slug>/README.md` for a page with
 * sub-pages; the first page is README.md), front matter for the page's settings and its title as `# heading`,
 * files in `.gitbook/assets/` (or where the repository had them), links written as paths relative to the file, and
 * `.gitbook.yaml` with the redirects — the repository's own, kept, with its root and structure names; reusable
 * contents in `.gitbook/includes/`, included by a path relative to the page's file. Pure: the caller reads the documents and the files' bytes. The same content always gives the same
 * bytes, so an export of an import of an export is the export.
 */

export interface ExportFile {
  id: string;
  name: string;
}

export interface ExportRedirect {
  source: string;
  destination: string;
  pageId: string | null;
  anchor: string | null;
}

export interface ExportInput {
  pages: readonly PageRecord[];
  /** Written to `.gitbook/includes/` (includes.ts); pages include them by their path from the page's file. */
  reusableContents?: readonly ReusableContentRecord[];
  documents: ReadonlyMap<string, unknown>;
  files: readonly ExportFile[];
  redirects: readonly ExportRedirect[];
  /** The repository's `.gitbook.yaml` (written back with the redirects replaced), or undefined for Quire's own. */
  gitbookYaml?: string | undefined;
  /** Where the content is and what the readme and summary files are called (`.gitbook.yaml`'s). */
  config?: Pick<GitbookConfig, 'root' | 'readme' | 'summary'>;
  /** File id -> its path in the repository (relative to the content root), where an import found it. */
  filePaths?: ReadonlyMap<string, string>;
}

export interface ExportLayout {
  /** Text files by path relative to the project directory: `.gitbook.yaml`, and the content under its root. */
  texts: Map<string, string>;
  /** Each file id -> its path (`<root>/.gitbook/assets/<name>`, or its own); the caller writes the bytes there. */
  assets: Map<string, string>;
}

export function exportLayout(input: ExportInput): ExportLayout {
  const tree = buildTree(input.pages);
  const texts = new Map<string, string>();
  const assets = new Map<string, string>();
  const config = input.config ?? DEFAULT_CONFIG;

  // A file goes back to the path it came from (its folder, with its current name) while no other file has taken
  // it; the others go to the assets folder, with names unique there, case-insensitively (checkouts on macOS and
  // Windows).
  const sorted = [...input.files].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id < b.id ? -1 : 1));
  const takenPaths = new Set<string>();
  for (const file of sorted) {
    const stored = input.filePaths?.get(file.id);
    if (!stored || !isContentPath(stored)) continue;
    const folder = posix.dirname(stored);
    const path = folder === '.' ? safeName(file.name) : `${folder}/${safeName(file.name)}`;
    if (takenPaths.has(path.toLowerCase())) continue;
    takenPaths.add(path.toLowerCase());
    assets.set(file.id, path);
  }
  const takenAssets = new Set([...takenPaths].filter((p) => posix.dirname(p) === '.gitbook/assets').map((p) => posix.basename(p)));
  for (const file of sorted) {
    if (assets.has(file.id)) continue;
    const path = `.gitbook/assets/${uniqueName(safeName(file.name), takenAssets)}`;
    takenAssets.add(posix.basename(path).toLowerCase());
    assets.set(file.id, path);
  }

  // Every document page's file, decided before any page is written (links point anywhere): where the page came
  // from (Git Sync remembers it) while no other page holds that path, else from its slug under its parent's folder.
  const fileOfInclude = includePaths(input.reusableContents ?? []);
  const fileOfPage = new Map<string, string>();
  const usedPaths = new Set<string>([config.summary.toLowerCase(), '.gitbook.yaml', ...takenPaths]);
  const claim = (path: string) => usedPaths.add(path.toLowerCase());
  const firstDocument = tree.find((n) => n.page.kind === 'document');
  for (const node of flatten(tree)) {
    const stored = node.page.kind === 'document' ? node.page.attributes.git?.path : undefined;
    if (stored && isPagePath(stored) && !usedPaths.has(stored.toLowerCase())) {
      fileOfPage.set(node.page.id, stored);
      claim(stored);
    }
  }
  const place = (nodes: readonly PageNode[], folder: string) => {
    for (const node of nodes) {
      const { page } = node;
      if (page.kind === 'link') continue;
      const hasChildren = node.children.length > 0;
      if (page.kind === 'group') {
        place(node.children, uniqueFolder(folder, page.slug || 'group', usedPaths));
        continue;
      }
      let file = fileOfPage.get(page.id);
      if (!file) {
        if (node === firstDocument && !hasChildren && !usedPaths.has(config.readme.toLowerCase())) file = config.readme;
        else {
          const sub = uniqueFolder(folder, page.slug || 'page', usedPaths);
          file = hasChildren ? `${sub}/README.md` : `${sub}.md`;
        }
        fileOfPage.set(page.id, file);
        claim(file);
      }
      place(node.children, /(^|\/)README\.md$/i.test(file) ? posix.dirname(file).replace(/^\.$/, '') : file.replace(/\.md$/i, ''));
    }
  };
  place(tree, '');

  const linkFrom = (from: string) => (ref: ContentRef): string => {
    switch (ref.kind) {
      case 'url':
        return ref.url;
      case 'file': {
        const to = assets.get(ref.file);
        return to ? relativeHref(from, to) : `/files/${ref.file}`;
      }
      case 'page': {
        const to = fileOfPage.get(ref.page);
        return to ? pageHref(from, to) : `/pages/${ref.page}`;
      }
      case 'anchor': {
        // An anchor of a named page names its file even on that page (`inline.md#top`), as GitBook writes it;
        // only an anchor with no page is `#top`.
        if (!ref.page) return `#${ref.anchor}`;
        const to = fileOfPage.get(ref.page);
        if (!to) return `/pages/${ref.page}#${ref.anchor}`;
        return `${pageHref(from, to)}#${ref.anchor}`;
      }
      case 'reusable-content': {
        const to = typeof ref.reusableContent === 'string' ? fileOfInclude.get(ref.reusableContent) : undefined;
        return to ? relativeHref(from, to) : '';
      }
      default:
        return '';
    }
  };

  for (const node of flatten(tree)) {
    const file = fileOfPage.get(node.page.id);
    if (!file) continue;
    const document = node.page.documentId ? (input.documents.get(node.page.documentId) as Document | undefined) : undefined;
    const body = document ? documentToMarkdown(document, linkFrom(file)).trim() : '';
    // Page settings and every other front matter key the page came with (kept by the import) go back on top.
    // The file's own heading where it differed from the SUMMARY title, until the page is renamed.
    const heading = node.page.attributes.git?.heading;
    const title = heading && heading.title === node.page.title ? heading.text : node.page.title;
    texts.set(file, joinPageMarkdown({ title, attributes: node.page.attributes }, body));
  }

  for (const content of input.reusableContents ?? []) {
    const file = fileOfInclude.get(content.id)!;
    const document = content.documentId ? (input.documents.get(content.documentId) as Document | undefined) : undefined;
    texts.set(file, writeInclude(content.title, document ? documentToMarkdown(document, linkFrom(file)).trim() : ''));
  }

  const entry = (node: PageNode): SummaryEntry | undefined => {
    const { page } = node;
    if (page.kind === 'link') {
      const target = (page.attributes.target ?? { kind: 'url', url: '' }) as ContentRef;
      return { title: page.title, href: linkFrom(config.summary)(target), children: [] };
    }
    const file = fileOfPage.get(page.id);
    if (!file) return undefined;
    return { title: page.title, href: relativeHref(config.summary, file), children: node.children.flatMap((c) => entry(c) ?? []) };
  };
  const summary: Summary = { entries: [], groups: [] };
  for (const node of tree) {
    if (node.page.kind === 'group') summary.groups.push({ title: node.page.title, entries: node.children.flatMap((c) => entry(c) ?? []) });
    else if (summary.groups.length > 0) summary.groups[summary.groups.length - 1]!.entries.push(...(entry(node) ? [entry(node)!] : []));
    else summary.entries.push(...(entry(node) ? [entry(node)!] : []));
  }
  texts.set(config.summary, writeSummary(summary));

  const redirects: Record<string, string> = {};
  for (const redirect of input.redirects) {
    const file = redirect.pageId ? fileOfPage.get(redirect.pageId) : undefined;
    redirects[redirect.source] = file ? `${file}${redirect.anchor ? `#${redirect.anchor}` : ''}` : redirect.destination;
  }
  // The content sits under the root the repository declares; `.gitbook.yaml` stays where it was read.
  const under = (path: string) => (config.root ? `${config.root}/${path}` : path);
  const placed = new Map([...texts].map(([path, text]) => [under(path), text]));
  placed.set('.gitbook.yaml', keepGitbookYaml(input.gitbookYaml, redirects));
  return { texts: placed, assets: new Map([...assets].map(([id, path]) => [id, under(path)])) };
}

/** A path from one file to another. */
function relativeHref(from: string, to: string): string {
  return encodePath(posix.relative(posix.dirname(from), to) || posix.basename(to));
}

/**
 * A path as GitBook writes it: spaces, parentheses and other letters as they are (the writers put the href in
 * `<…>` or quotes where markdown needs it); only what would change how it is read is percent-encoded — `%`
 * (an import decodes), `#` and `?` (an anchor, a query), `<` and `>`, control characters.
 */
function encodePath(path: string): string {
  return path.replace(/[%#?<>\p{Cc}]/gu, (c) => encodeURIComponent(c));
}

/**
 * A link to a page's file as GitBook writes it: a folder's README is the folder (`site-structure/`, `./`,
 * `../`), any other page its file. The content's own README keeps its name: its folder is the root.
 */
function pageHref(from: string, to: string): string {
  const readme = /^(.+)\/README\.md$/i.exec(to);
  if (!readme) return relativeHref(from, to);
  const folder = posix.relative(posix.dirname(from), readme[1]!);
  if (folder === '') return './';
  return `${encodePath(folder)}/`;
}

/** A markdown file path inside the content: relative, no `..`, ends with `.md`. */
function isPagePath(path: string): boolean {
  return /\.md$/i.test(path) && isContentPath(path) && !path.startsWith('.gitbook/');
}

/** A path inside the content: relative, no `..`, `.` or empty segment. */
function isContentPath(path: string): boolean {
  return !path.startsWith('/') && !path.split('/').some((s) => s === '..' || s === '' || s === '.');
}

/** `<folder>/<name>`, numbered when a page already has that file or folder name. */
function uniqueFolder(folder: string, name: string, used: ReadonlySet<string>): string {
  const at = (n: string) => (folder ? `${folder}/${n}` : n);
  const free = (n: string) => !used.has(`${at(n)}.md`.toLowerCase()) && !used.has(`${at(n)}/readme.md`.toLowerCase());
  if (free(name)) return at(name);
  for (let i = 2; ; i += 1) if (free(`${name}-${i}`)) return at(`${name}-${i}`);
}

function flatten(nodes: readonly PageNode[]): PageNode[] {
  return nodes.flatMap((n) => [n, ...flatten(n.children)]);
}

/** A file name a repository can hold: no slashes, no control characters, not `.` or `..`. */
function safeName(name: string): string {
  const clean = name.replace(/[/\\\p{Cc}]/gu, '_').trim();
  return clean === '' || clean === '.' || clean === '..' ? 'file' : clean;
}

/** `name`, or `name (1)`, `name (2)`… before the extension, whichever is not taken (case-insensitively). */
function uniqueName(name: string, taken: ReadonlySet<string>, extension?: string): string {
  if (!taken.has(name.toLowerCase())) return name;
  const dot = extension ?? (name.lastIndexOf('.') > 0 ? name.slice(name.lastIndexOf('.')) : '');
  const stem = dot ? name.slice(0, -dot.length) : name;
  for (let i = 1; ; i += 1) {
    const candidate = `${stem} (${i})${dot}`;
    if (!taken.has(candidate.toLowerCase())) return candidate;
  }
}
