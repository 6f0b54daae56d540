import { posix } from 'node:path';
import { slugify } from '../content/tree.ts';
import { isExternalHref, parseGitbookYaml, parseSummary, resolveRepoPath, splitHref, type GitbookConfig, type SummaryEntry } from './layout.ts';

/*
 * The page tree a Git Sync repository describes, from its files alone (no I/O): `.gitbook.yaml` says where the
 * content is; SUMMARY.md gives the order, the nesting, the groups and the link entries; a `README.md` of a folder
 * is the page its sibling files nest under; markdown files the summary does not list are appended, as GitBook
 * does, under their folder's page when it has one, else at the end. Without a SUMMARY.md the folders give the tree.
 */

export interface RepoPage {
  kind: 'document' | 'group' | 'link';
  /** The summary's title; '' when the page's own file decides (front matter `title`, its `# heading`, its name). */
  title: string;
  /** The page's slug, from its file name (a README takes its folder's name); '' to take it from the title. */
  slug: string;
  /** Documents: the markdown file, as a repository path (undefined for a summary entry whose file is missing). */
  file?: string;
  /** Links: where they point, a page's file (with an anchor) or a URL. */
  link?: { file: string; anchor?: string } | { url: string };
  children: RepoPage[];
}

export interface RepositoryContent {
  config: GitbookConfig;
  /** The content folder, as a repository path ('' = the root). */
  root: string;
  pages: RepoPage[];
  /** Each document's file -> its page. */
  pageByFile: Map<string, RepoPage>;
}

/**
 * The tree another tool's configuration gives (MkDocs' `nav`, Docusaurus' sidebars), in place of a SUMMARY.md:
 * `file` is a repository path, `title` '' when the page's own file decides. An entry with neither file nor URL is
 * a section: a group at the top level, else a page without content holding its children.
 */
export interface SourceOutline {
  root: string;
  entries: OutlineEntry[];
}
export interface OutlineEntry {
  title: string;
  file?: string;
  url?: string;
  children: OutlineEntry[];
}

/** Most pages read from one repository. */
export const MAX_REPOSITORY_PAGES = 10_000;

export function readRepository(
  files: ReadonlyMap<string, unknown>,
  readText: (path: string) => string | undefined,
  projectDirectory = '',
  outline?: SourceOutline,
): RepositoryContent {
  const project = trimSlashes(projectDirectory);
  const config = parseGitbookYaml(outline ? undefined : readText(join(project, '.gitbook.yaml')));
  const root = outline ? outline.root : join(project, config.root);
  const pageByFile = new Map<string, RepoPage>();
  const isMarkdown = (path: string) => /\.md$/i.test(path) && files.has(path);
  const summaryPath = join(root, config.summary);
  const summaryText = outline ? undefined : readText(summaryPath);
  // Without a summary, a folder of markdown files may name its first page `index.md`, as MkDocs and others do.
  let readmePath = join(root, config.readme);
  if (summaryText === undefined && !isMarkdown(readmePath)) readmePath = folderIndex(root, files) ?? readmePath;

  const documentPage = (file: string, title: string): RepoPage => {
    const page: RepoPage = { kind: 'document', title, slug: slugOfFile(file, root, readmePath), file, children: [] };
    pageByFile.set(file, page);
    return page;
  };

  /** The file an href of the summary names: a folder means its README. */
  const fileOf = (repoPath: string): string => (files.has(repoPath) ? repoPath : files.has(join(repoPath, 'README.md')) ? join(repoPath, 'README.md') : repoPath);

  const fromEntry = (entry: SummaryEntry): RepoPage => {
    const href = entry.href ?? '';
    if (isExternalHref(href)) return { kind: 'link', title: entry.title, slug: '', link: { url: href }, children: entry.children.map(fromEntry) };
    const { path, anchor } = splitHref(href);
    const resolved = resolveRepoPath(summaryPath, root, path);
    if (resolved === undefined) return { kind: 'link', title: entry.title, slug: '', link: { url: href }, children: entry.children.map(fromEntry) };
    const file = fileOf(resolved);
    // An entry naming a page listed before, or a place in a page, is a link to it.
    if (anchor !== undefined || pageByFile.has(file)) {
      return { kind: 'link', title: entry.title, slug: '', link: { file, ...(anchor ? { anchor } : {}) }, children: entry.children.map(fromEntry) };
    }
    const page = isMarkdown(file) ? documentPage(file, entry.title) : { kind: 'document' as const, title: entry.title, slug: slugOfFile(file, root, readmePath), children: [] };
    page.children = entry.children.map(fromEntry);
    return page;
  };

  let pages: RepoPage[];
  if (summaryText !== undefined) {
    const summary = parseSummary(summaryText);
    pages = summary.entries.map(fromEntry);
    if (isMarkdown(readmePath) && !pageByFile.has(readmePath)) pages.unshift(documentPage(readmePath, ''));
    for (const group of summary.groups) pages.push({ kind: 'group', title: group.title, slug: slugify(group.title), children: group.entries.map(fromEntry) });
  } else if (outline) {
    const fromOutline = (entry: OutlineEntry, top: boolean): RepoPage => {
      const children = () => entry.children.map((child) => fromOutline(child, false));
      if (entry.url !== undefined) return { kind: 'link', title: entry.title, slug: '', link: { url: entry.url }, children: children() };
      if (entry.file === undefined || !isMarkdown(entry.file)) {
        return { kind: top ? 'group' : 'document', title: entry.title || 'Untitled', slug: slugify(entry.title), children: children() };
      }
      if (pageByFile.has(entry.file)) return { kind: 'link', title: entry.title, slug: '', link: { file: entry.file }, children: children() };
      const page = documentPage(entry.file, entry.title);
      page.children = children();
      return page;
    };
    pages = outline.entries.map((entry) => fromOutline(entry, true));
  } else {
    pages = isMarkdown(readmePath) ? [documentPage(readmePath, '')] : [];
  }

  // Markdown files no entry names, folder by folder, each under its folder's README page when there is one.
  const unlisted = [...files.keys()]
    .filter((path) => isMarkdown(path) && isWithin(path, root) && path !== summaryPath && !pageByFile.has(path) && !isHidden(path, root))
    .sort(compareFilePaths);
  const folders = new Map<string, RepoPage>();
  const folderPage = (dir: string): RepoPage | undefined => {
    const clean = dir === '.' ? '' : dir;
    if (clean === root || !isWithin(clean, root)) return undefined;
    const known = folders.get(clean);
    if (known) return known;
    const index = folderIndex(clean, files);
    if (index === readmePath) return undefined;
    // `guide.md` beside a folder `guide/` without its own page is the folder's page (MkDocs and plain folders).
    let page = pageByFile.get(index ?? `${clean}.md`);
    if (!page) {
      // Only a folder page made here needs its parent: one already placed (by the summary) stays where it is.
      const parent = folderPage(posix.dirname(clean));
      const name = posix.basename(clean);
      // A folder without a README or index page: a group at the top level (GitBook nests no groups), else an
      // empty page; either way one page for the whole folder, titled from its name.
      page = index ? documentPage(index, '') : { kind: parent ? 'document' : 'group', title: titleOfName(name), slug: slugify(name), children: [] };
      (parent ? parent.children : pages).push(page);
    }
    folders.set(clean, page);
    return page;
  };
  for (const file of unlisted) {
    if (pageByFile.size >= MAX_REPOSITORY_PAGES) break;
    if (pageByFile.has(file)) continue;
    const parent = folderPage(posix.dirname(file));
    // A folder's README is the folder's page, made by folderPage.
    if (pageByFile.has(file)) continue;
    (parent ? parent.children : pages).push(documentPage(file, ''));
  }
  return { config, root, pages, pageByFile };
}

/**
 * The files of a repository that Git Sync manages, which an export replaces: `.gitbook.yaml`, the summary, every
 * page's markdown file, the content's `.gitbook/assets/` folder (an import uploads it whole, an export writes the
 * space's files there) and its `.gitbook/includes/` folder (the reusable contents, read and written whole). Anything else — files outside the content root, source code, a LICENSE, CI workflows, images
 * of other folders that no longer hold a file of the space — is the repository's own and stays as it is.
 */
export function managedFiles(files: ReadonlyMap<string, unknown>, readText: (path: string) => string | undefined, projectDirectory = ''): Set<string> {
  const content = readRepository(files, readText, projectDirectory);
  const assets = `${join(content.root, '.gitbook/assets')}/`;
  const includes = `${join(content.root, '.gitbook/includes')}/`;
  const managed = new Set<string>([join(trimSlashes(projectDirectory), '.gitbook.yaml'), join(content.root, content.config.summary), ...content.pageByFile.keys()]);
  for (const path of files.keys()) if (path.startsWith(assets) || (path.startsWith(includes) && /\.md$/i.test(path))) managed.add(path);
  return managed;
}

/** A folder's own page file: its README, else its `index.md` (as MkDocs and Docusaurus name it). */
function folderIndex(dir: string, files: ReadonlyMap<string, unknown>): string | undefined {
  for (const name of ['README.md', 'readme.md', 'index.md', 'INDEX.md']) if (files.has(join(dir, name))) return join(dir, name);
  return undefined;
}

/** By path, a folder's README or index before the rest of the folder (folder pages are made as their files need them). */
function compareFilePaths(a: string, b: string): number {
  const key = (p: string) => p.replace(/(^|\/)(?:README|index)\.md$/i, '$1\u0000');
  const ka = key(a);
  const kb = key(b);
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}

/** A page's slug: its file's name without `.md`, a README its folder's name; the content's readme takes its title's. */
export function slugOfFile(file: string, root: string, readmePath: string): string {
  if (file === readmePath) return '';
  const name = /(^|\/)(?:README|index)\.md$/i.test(file) ? posix.basename(posix.dirname(file)) : posix.basename(file).replace(/\.md$/i, '');
  return slugify(name) || slugify(name.normalize('NFKD')) || '';
}

/** A title from a file or folder name: `getting-started` -> `Getting started`. */
export function titleOfName(name: string): string {
  const words = name.replace(/\.md$/i, '').replace(/[-_]+/g, ' ').trim();
  return words ? words[0]!.toUpperCase() + words.slice(1) : 'Untitled';
}

function isHidden(path: string, root: string): boolean {
  const inside = root ? path.slice(root.length + 1) : path;
  return inside.split('/').some((segment) => segment.startsWith('.') || segment === 'node_modules');
}

function isWithin(path: string, root: string): boolean {
  return root === '' || path === root || path.startsWith(`${root}/`);
}

function join(...parts: string[]): string {
  return parts.filter((p) => p !== '').join('/').replace(/\/+/g, '/');
}

function trimSlashes(path: string): string {
  return path.trim().replace(/^\.?\/+|\/+$/g, '');
}
