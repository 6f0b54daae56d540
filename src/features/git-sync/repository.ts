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

/** Most pages read from one repository. */
export const MAX_REPOSITORY_PAGES = 10_000;

export function readRepository(files: ReadonlyMap<string, unknown>, readText: (path: string) => string | undefined, projectDirectory = ''): RepositoryContent {
  const project = trimSlashes(projectDirectory);
  const config = parseGitbookYaml(readText(join(project, '.gitbook.yaml')));
  const root = join(project, config.root);
  const pageByFile = new Map<string, RepoPage>();
  const isMarkdown = (path: string) => /\.md$/i.test(path) && files.has(path);
  const summaryPath = join(root, config.summary);
  const readmePath = join(root, config.readme);

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
  const summaryText = readText(summaryPath);
  if (summaryText !== undefined) {
    const summary = parseSummary(summaryText);
    pages = summary.entries.map(fromEntry);
    if (isMarkdown(readmePath) && !pageByFile.has(readmePath)) pages.unshift(documentPage(readmePath, ''));
    for (const group of summary.groups) pages.push({ kind: 'group', title: group.title, slug: slugify(group.title), children: group.entries.map(fromEntry) });
  } else {
    pages = isMarkdown(readmePath) ? [documentPage(readmePath, '')] : [];
  }

  // Markdown files no entry names, folder by folder, each under its folder's README page when there is one.
  const unlisted = [...files.keys()]
    .filter((path) => isMarkdown(path) && isWithin(path, root) && path !== summaryPath && !pageByFile.has(path) && !isHidden(path, root))
    .sort(compareFilePaths);
  for (const file of unlisted) {
    if (pageByFile.size >= MAX_REPOSITORY_PAGES) break;
    if (pageByFile.has(file)) continue;
    const parent = folderPage(posix.dirname(file), root, pageByFile, files, pages, documentPage, readmePath);
    // A folder's README is the folder's page, made by folderPage.
    if (pageByFile.has(file)) continue;
    (parent ? parent.children : pages).push(documentPage(file, ''));
  }
  return { config, root, pages, pageByFile };
}

/** The page files of a folder nest under: its README (made a page if needed), else its parent folder's, else the root. */
function folderPage(
  dir: string,
  root: string,
  pageByFile: Map<string, RepoPage>,
  files: ReadonlyMap<string, unknown>,
  pages: RepoPage[],
  documentPage: (file: string, title: string) => RepoPage,
  readmePath: string,
): RepoPage | undefined {
  const clean = dir === '.' ? '' : dir;
  if (clean === root || !isWithin(clean, root)) return undefined;
  const readme = join(clean, 'README.md');
  if (readme === readmePath) return undefined;
  const known = pageByFile.get(readme);
  if (known) return known;
  const parent = folderPage(posix.dirname(clean), root, pageByFile, files, pages, documentPage, readmePath);
  const page: RepoPage = files.has(readme) ? documentPage(readme, '') : { kind: 'document', title: titleOfName(posix.basename(clean)), slug: slugify(posix.basename(clean)), children: [] };
  (parent ? parent.children : pages).push(page);
  return page;
}

/** By path, a folder's README before the rest of the folder (folder pages are made as their files need them). */
function compareFilePaths(a: string, b: string): number {
  const key = (p: string) => p.replace(/(^|\/)README\.md$/i, '$1\u0000');
  const ka = key(a);
  const kb = key(b);
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}

/** A page's slug: its file's name without `.md`, a README its folder's name; the content's readme takes its title's. */
export function slugOfFile(file: string, root: string, readmePath: string): string {
  if (file === readmePath) return '';
  const name = /(^|\/)README\.md$/i.test(file) ? posix.basename(posix.dirname(file)) : posix.basename(file).replace(/\.md$/i, '');
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
