import { posix } from 'node:path';
import { newId } from '../../platform/ids.ts';
import { ApiError } from '../../platform/errors.ts';
import { parseMarkdownDocument, splitPageMarkdown, type FrontMatter } from '../content/markdown.ts';
import type { ImportedPage } from '../content/imported-content.ts';
import type { ContentRef, Document } from '../content/document/types.ts';
import type { PageAttributes } from '../content/pages.ts';
import { slugify, uniqueSlug } from '../content/tree.ts';
import { applyCodeHighlights } from './code-highlights.ts';
import { isIncludePath, readInclude } from './includes.ts';
import { isExternalHref, LayoutError, resolveRepoPath, splitHref } from './layout.ts';
import { readRepository, titleOfName, type RepoPage } from './repository.ts';
import { readSourceLayout, type SourceLayout, type SourceLayoutName } from './source-layout.ts';

/*
 * A repository's files turned into what the content writer takes: pages with their documents (links between
 * files resolved to the pages and files they name, anchors kept), the local files they use and every file of
 * `.gitbook/assets` as files, and the redirects of `.gitbook.yaml` pointed at their pages. Page and file ids
 * are those of the content being replaced where the path (or the file's name) is the same, so a re-import keeps
 * the same pages and writes only what changed.
 */

/**
 * What the content has now, to keep ids: `<kind>:<path>` -> page id, file name -> file id, a reusable content's
 * file (relative to the content root) -> its id.
 */
export interface ExistingContent {
  pages: Map<string, string>;
  files: Map<string, string>;
  reusableContents?: Map<string, string>;
}

/** A reusable content read from its file of `.gitbook/includes` (includes.ts). */
export interface PreparedReusableContent {
  id: string;
  title: string;
  document: unknown | null;
  /** Its file, relative to the content root. */
  path: string;
}

export interface PreparedFile {
  id: string;
  name: string;
  /** Its path in the repository. */
  path: string;
  bytes: Buffer;
}

export interface PreparedRedirect {
  source: string;
  destination: string;
  pageId: string | null;
  anchor: string | null;
}

export interface PreparedImport {
  pages: ImportedPage[];
  reusableContents: PreparedReusableContent[];
  files: PreparedFile[];
  redirects: PreparedRedirect[];
  /** The layout the files were read as, and what could not be carried over exactly. */
  report: ImportReport;
  /** What an export needs to write the repository back as it was: its `.gitbook.yaml`, each file's path (relative to the content root). */
  gitLayout: { gitbookYaml: string | undefined; filePaths: Map<string, string> };
}

export interface ImportReport {
  layout: SourceLayoutName;
  /** About the repository as a whole (its configuration). */
  notes: string[];
  /** Per page (its file as imported), each construct not carried over exactly. */
  pages: { file: string; title: string; notes: string[] }[];
}

/** A code block whose highlighted lines were read but is not found in the page's document (its markdown did not read as a code block). */
const MISSED_HIGHLIGHTS = 'highlighted lines of code: their block is not a code block of the page, not kept';

/** Longest markdown file read as a page. */
export const MAX_PAGE_FILE_BYTES = 2_000_000;

export async function prepareRepositoryImport(
  source: ReadonlyMap<string, Buffer>,
  options: { projectDirectory?: string; existing?: ExistingContent; maxPages?: number },
): Promise<PreparedImport> {
  let layout: SourceLayout;
  try {
    layout = readSourceLayout(source, options.projectDirectory ?? '');
  } catch (error) {
    if (error instanceof LayoutError) throw new ApiError(422, error.message);
    throw error;
  }
  const files = layout.files;
  const texts = new Map<string, string>();
  const readText = (path: string) => {
    if (texts.has(path)) return texts.get(path);
    const bytes = files.get(path);
    if (!bytes) return undefined;
    if (bytes.length > MAX_PAGE_FILE_BYTES) throw new ApiError(422, `${path} is larger than the ${MAX_PAGE_FILE_BYTES} bytes a page's file may have`);
    const text = bytes.toString('utf8');
    texts.set(path, text);
    return text;
  };
  let content;
  try {
    content = readRepository(files, readText, options.projectDirectory ?? '', layout.outline);
  } catch (error) {
    if (error instanceof LayoutError) throw new ApiError(422, error.message);
    throw error;
  }
  const existing: ExistingContent = options.existing ?? { pages: new Map(), files: new Map() };
  const maxPages = options.maxPages ?? 10_000;

  // Ids first (documents link to pages anywhere in the tree), with each page's file and front matter read.
  interface Planned {
    page: RepoPage;
    id: string;
    parentId: string | null;
    title: string;
    slug: string;
    body: string;
    front: FrontMatter;
  }
  const planned: Planned[] = [];
  const idOfFile = new Map<string, string>();
  const plan = (list: readonly RepoPage[], parentId: string | null, parentPath: string) => {
    const taken = new Set<string>();
    for (const page of list) {
      if (planned.length >= maxPages) throw new ApiError(422, `The repository has more than ${maxPages} pages, the most one import writes`);
      let body = '';
      let front: FrontMatter = { attributes: {} };
      const text = page.file ? readText(page.file) : undefined;
      if (text !== undefined) {
        try {
          ({ body, front } = splitPageMarkdown(text, page.file!));
        } catch {
          // Front matter that is not YAML is kept as text of the page rather than failing the import.
          body = text;
        }
      }
      const title = (page.title || front.title || fallbackTitle(page)).slice(0, 500);
      let slug = '';
      if (page.kind !== 'link') {
        slug = uniqueSlug(page.slug || slugify(title), taken);
        taken.add(slug);
      }
      const path = page.kind === 'link' ? `${parentPath}#${title}` : parentPath ? `${parentPath}/${slug}` : slug;
      const id = existing.pages.get(`${page.kind}:${path}`) ?? newId();
      if (page.file) idOfFile.set(page.file, id);
      planned.push({ page, id, parentId, title, slug, body, front });
      plan(page.children, id, page.kind === 'link' ? parentPath : path);
    }
  };
  plan(content.pages, null, '');

  // Files: every asset, and any other local file a page names, once per path.
  const prepared = new Map<string, PreparedFile>();
  const usedNames = new Set<string>();
  const fileIdOf = (path: string): string => {
    const known = prepared.get(path);
    if (known) return known.id;
    const name = posix.basename(path).slice(0, 256) || 'file';
    const reused = usedNames.has(name) ? undefined : existing.files.get(name);
    usedNames.add(name);
    const file = { id: reused ?? newId(), name, path, bytes: files.get(path)! };
    prepared.set(path, file);
    return file.id;
  };
  const assets = [...files.keys()].filter((p) => isAsset(p, content.root)).sort();
  for (const path of assets) fileIdOf(path);

  // Reusable contents: each file of the content root's `.gitbook/includes`, keeping the id it had by its path.
  const relative = (path: string) => (content.root ? path.slice(content.root.length + 1) : path);
  const idOfInclude = new Map<string, string>();
  for (const path of [...files.keys()].sort()) {
    if (content.root && !path.startsWith(`${content.root}/`)) continue;
    if (isIncludePath(relative(path))) idOfInclude.set(path, existing.reusableContents?.get(relative(path)) ?? newId());
  }

  const pageIdOf = (path: string): string | undefined =>
    idOfFile.get(path) ?? idOfFile.get(`${path}/README.md`) ?? idOfFile.get(`${path}/index.md`) ?? idOfFile.get(`${path}.md`);
  const resolverFor = (file: string) => async (href: string): Promise<ContentRef> => {
    if (isExternalHref(href)) return { kind: 'url', url: href };
    const { path, anchor } = splitHref(href);
    if (path === '' && anchor) return { kind: 'anchor', anchor };
    const target = resolveRepoPath(file, content.root, path);
    if (target === undefined) return { kind: 'url', url: href };
    const page = pageIdOf(target);
    if (page) return anchor ? { kind: 'anchor', anchor, page } : { kind: 'page', page };
    const reusableContent = idOfInclude.get(target);
    if (reusableContent) return { kind: 'reusable-content', reusableContent };
    // A markdown file is a page, unless it is an asset (`.gitbook/assets/SKILL.md`, offered for download).
    if (files.has(target) && (!/\.md$/i.test(target) || isAsset(target, content.root))) return { kind: 'file', file: fileIdOf(target) };
    return { kind: 'url', url: href };
  };

  const pages: ImportedPage[] = [];
  const missedHighlights = new Set<string>();
  for (const item of planned) {
    const { page } = item;
    let document: unknown | null = null;
    if (page.kind === 'document' && item.body.trim() !== '' && page.file) {
      try {
        document = await parseMarkdownDocument(item.body, resolverFor(page.file));
      } catch (error) {
        throw new ApiError(422, `${page.file}: ${error instanceof Error ? error.message : String(error)}`);
      }
      // Highlighted code lines of MkDocs and Docusaurus travel beside the markdown (code-highlights.ts).
      const highlighted = applyCodeHighlights(document as Document, layout.highlightsByFile.get(page.file) ?? []);
      document = highlighted.document;
      if (highlighted.missed.length > 0) missedHighlights.add(page.file);
    }
    const attributes: PageAttributes = { ...item.front.attributes };
    if (page.kind === 'document' && page.file) {
      attributes.git = { path: content.root ? page.file.slice(content.root.length + 1) : page.file };
      if (item.front.title && item.front.title !== item.title) attributes.git.heading = { text: item.front.title, title: item.title };
      else if (!item.front.title) attributes.git.heading = { text: '', title: item.title };
    }
    if (page.kind === 'link' && page.link) attributes.target = linkTarget(page.link, pageIdOf);
    pages.push({ id: item.id, parentId: item.parentId, kind: page.kind, title: item.title, slug: item.slug, document, attributes });
  }

  const reusableContents: PreparedReusableContent[] = [];
  for (const [path, id] of idOfInclude) {
    const { title, body } = readInclude(readText(path) ?? '', path);
    let document: unknown | null = null;
    try {
      document = body.trim() === '' ? null : await parseMarkdownDocument(body, resolverFor(path));
    } catch (error) {
      throw new ApiError(422, `${path}: ${error instanceof Error ? error.message : String(error)}`);
    }
    reusableContents.push({ id, title, document, path: relative(path) });
  }

  const redirects: PreparedRedirect[] = Object.entries(content.config.redirects).map(([source, destination]) => {
    if (isExternalHref(destination)) return { source, destination, pageId: null, anchor: null };
    const { path, anchor } = splitHref(destination);
    const target = resolveRepoPath(`${content.root ? `${content.root}/` : ''}x`, content.root, path);
    return { source, destination, pageId: (target !== undefined && pageIdOf(target)) || null, anchor: anchor ?? null };
  });
  const filePaths = new Map<string, string>();
  for (const file of prepared.values()) if (!content.root || file.path.startsWith(`${content.root}/`)) filePaths.set(file.id, content.root ? file.path.slice(content.root.length + 1) : file.path);
  const project = (options.projectDirectory ?? '').replace(/^\.?\/+|\/+$/g, '');
  const report: ImportReport = { layout: layout.layout, notes: layout.notes, pages: [] };
  for (const item of planned) {
    const file = item.page.file;
    const notes = [...((file && layout.notesByFile.get(file)) || []), ...(file && missedHighlights.has(file) ? [MISSED_HIGHLIGHTS] : [])];
    if (notes.length > 0) report.pages.push({ file: file!, title: item.title, notes });
  }
  return { pages, reusableContents, files: [...prepared.values()], redirects, report, gitLayout: { gitbookYaml: readText(project ? `${project}/.gitbook.yaml` : '.gitbook.yaml'), filePaths } };
}

function linkTarget(link: NonNullable<RepoPage['link']>, pageIdOf: (path: string) => string | undefined): Record<string, unknown> {
  if ('url' in link) return { kind: 'url', url: link.url };
  const page = pageIdOf(link.file);
  if (!page) return { kind: 'url', url: link.file + (link.anchor ? `#${link.anchor}` : '') };
  return link.anchor ? { kind: 'anchor', anchor: link.anchor, page } : { kind: 'page', page };
}

function fallbackTitle(page: RepoPage): string {
  if (!page.file) return page.title || 'Untitled';
  const name = /(^|\/)(?:README|index)\.md$/i.test(page.file) ? posix.basename(posix.dirname(page.file)) : posix.basename(page.file);
  return titleOfName(name === '.' ? 'Home' : name);
}

/** Files of `.gitbook/assets` (of the content root or the repository's). */
function isAsset(path: string, root: string): boolean {
  return path.startsWith(root ? `${root}/.gitbook/assets/` : '.gitbook/assets/') || path.startsWith('.gitbook/assets/');
}
