import { posix } from 'node:path';
import { readDocusaurusTree } from './docusaurus.ts';
import { docusaurusToGitbook } from './docusaurus-markdown.ts';
import { readMkdocsConfig } from './mkdocs.ts';
import { mkdocsToGitbook } from './mkdocs-markdown.ts';
import type { SourceOutline } from './repository.ts';
import { htmlBlocksAsMarkdown } from './html-blocks.ts';
import { plainToGitbook, type CodeHighlight } from './source-markdown.ts';

/*
 * Which tool a repository was written for, told by its files: a `SUMMARY.md` or `.gitbook.yaml` is GitBook's,
 * an `mkdocs.yml` MkDocs', a `docusaurus.config.*` Docusaurus', anything else plain folders of markdown. MkDocs
 * and Docusaurus pages are turned into GitBook's markdown here, and their tree into an outline, so that the Git
 * Sync reader imports every layout the same way; what could not be carried over is kept per file.
 */

export type SourceLayoutName = 'gitbook' | 'mkdocs' | 'docusaurus' | 'folders';

export interface SourceLayout {
  layout: SourceLayoutName;
  /** The files to import: the repository's, with MkDocs' and Docusaurus' pages in GitBook's markdown (`.mdx` as `.md`). */
  files: ReadonlyMap<string, Buffer>;
  /** The tree the tool's configuration gives, when it gives one. */
  outline?: SourceOutline;
  /** Notes about the whole repository (its configuration), then per file (as imported): what was not carried over. */
  notes: string[];
  notesByFile: Map<string, string[]>;
  /** Per file (as imported), the highlighted lines of its code blocks, which its GitBook markdown cannot say. */
  highlightsByFile: Map<string, CodeHighlight[]>;
}

const DOCUSAURUS_CONFIGS = ['docusaurus.config.js', 'docusaurus.config.ts', 'docusaurus.config.mjs', 'docusaurus.config.cjs'];

export function detectLayout(files: ReadonlyMap<string, unknown>, project: string): SourceLayoutName {
  const at = (name: string) => files.has(join(project, name));
  if (at('SUMMARY.md') || at('.gitbook.yaml')) return 'gitbook';
  if (at('mkdocs.yml') || at('mkdocs.yaml')) return 'mkdocs';
  if (DOCUSAURUS_CONFIGS.some(at)) return 'docusaurus';
  return 'folders';
}

/**
 * Where the site's configuration is, when the repository does not say (no project directory given): its root,
 * or the one folder a level down that holds a Docusaurus or MkDocs configuration — Docusaurus sites often live in
 * `website/` beside the code, with their docs in `../docs`. The root otherwise.
 */
export function findProjectDirectory(files: ReadonlyMap<string, unknown>): string {
  if (detectLayout(files, '') !== 'folders') return '';
  const configs = new Set<string>();
  for (const path of files.keys()) {
    const parts = path.split('/');
    if (parts.length === 2 && (DOCUSAURUS_CONFIGS.includes(parts[1]!) || parts[1] === 'mkdocs.yml' || parts[1] === 'mkdocs.yaml')) configs.add(parts[0]!);
  }
  return configs.size === 1 ? [...configs][0]! : '';
}

export function readSourceLayout(files: ReadonlyMap<string, Buffer>, projectDirectory = ''): SourceLayout {
  const given = projectDirectory.trim().replace(/^\.?\/+|\/+$/g, '');
  const project = given || findProjectDirectory(files);
  const layout = detectLayout(files, project);
  const notesByFile = new Map<string, string[]>();
  const highlightsByFile = new Map<string, CodeHighlight[]>();
  const text = (path: string) => files.get(path)?.toString('utf8');
  if (layout === 'mkdocs') {
    const configPath = join(project, files.has(join(project, 'mkdocs.yml')) ? 'mkdocs.yml' : 'mkdocs.yaml');
    const config = readMkdocsConfig(text(configPath) ?? '', project);
    const converted = new Map(files);
    // Material's own site (and those that copy its hook) writes badges the hook shows (material-badges.ts).
    const materialBadges = config.hooks.some((hook) => /(?:^|\/)shortcodes\.py$/.test(hook));
    const iconPath = siteIcons(files, project, config.customDir);
    for (const [path, bytes] of files) {
      if (!path.startsWith(`${config.docsDir}/`) || !/\.md$/i.test(path)) continue;
      // Snippets are found beside the page, under docs_dir, or from the project's root, as pymdownx.snippets' base paths.
      // A `..` in the name is resolved (`../../docs_src/app.py` from the configuration's folder); never above the repository.
      const snippetPath = (name: string) =>
        [posix.join(posix.dirname(path), name), join(config.docsDir, name), join(project, name)]
          .map((candidate) => posix.normalize(candidate))
          .filter((candidate) => !candidate.startsWith('../') && !posix.isAbsolute(candidate))
          .find((candidate) => files.has(candidate));
      const readSnippet = (name: string) => {
        const found = snippetPath(name);
        return found === undefined ? undefined : text(found);
      };
      const snippetFile = (name: string) => {
        const found = snippetPath(name);
        return found === undefined ? undefined : posix.relative(posix.dirname(path), found);
      };
      const iconFile = (shortcode: string) => {
        const found = iconPath(shortcode);
        return found && posix.relative(posix.dirname(path), found);
      };
      const result = mkdocsToGitbook(bytes.toString('utf8'), { readSnippet, snippetFile, materialBadges, iconFile, hooks: config.hooks });
      converted.set(path, Buffer.from(result.markdown));
      if (result.notes.length > 0) notesByFile.set(path, result.notes);
      if (result.highlights.length > 0) highlightsByFile.set(path, result.highlights);
    }
    return { layout, files: converted, outline: { root: config.docsDir, entries: config.nav ?? [] }, notes: [], notesByFile, highlightsByFile };
  }
  if (layout === 'docusaurus') {
    const configPath = DOCUSAURUS_CONFIGS.map((name) => join(project, name)).find((path) => files.has(path))!;
    const tree = readDocusaurusTree(files, text, project, text(configPath) ?? '');
    const converted = new Map<string, Buffer>();
    const renamed = (path: string) => path.replace(/\.mdx$/i, '.md');
    for (const [path, bytes] of files) {
      if (!path.startsWith(`${tree.docsDir}/`) || !/\.mdx?$/i.test(path)) {
        converted.set(path, bytes);
        continue;
      }
      // Files and folders named `_…` are partials and drafts Docusaurus never makes pages of (its docs plugin's
      // default exclude): a partial reaches the pages that import it, below, and is no page of its own.
      if (path.slice(tree.docsDir.length + 1).split('/').some((segment) => segment.startsWith('_'))) continue;
      // A partial is read relative to the page that imports it (one a partial imports, relative to that page too).
      const result = docusaurusToGitbook(bytes.toString('utf8'), { readRelative: (name) => text(posix.join(posix.dirname(path), name)) });
      // Links name `.mdx` files by their name; they are `.md` files now.
      converted.set(renamed(path), Buffer.from(result.markdown.replace(/(\]\([^)\s]*?)\.mdx(#[^)\s]*)?\)/g, '$1.md$2)')));
      if (result.notes.length > 0) notesByFile.set(renamed(path), result.notes);
      if (result.highlights.length > 0) highlightsByFile.set(renamed(path), result.highlights);
    }
    const rename = (entries: SourceOutline['entries']): SourceOutline['entries'] =>
      entries.map((e) => ({ ...e, ...(e.file ? { file: renamed(e.file) } : {}), children: rename(e.children) }));
    return { layout, files: converted, outline: { root: tree.docsDir, entries: rename(tree.entries) }, notes: tree.notes, notesByFile, highlightsByFile };
  }
  if (layout === 'folders') {
    const converted = new Map(files);
    for (const [path, bytes] of files) {
      if (!/\.md$/i.test(path)) continue;
      const result = htmlBlocksAsMarkdown(plainToGitbook(bytes.toString('utf8')));
      converted.set(path, Buffer.from(result.markdown));
      if (result.notes.length > 0) notesByFile.set(path, result.notes);
    }
    return { layout, files: converted, notes: [], notesByFile, highlightsByFile };
  }
  return { layout, files, notes: [], notesByFile, highlightsByFile };
}

/**
 * A Material shortcode's SVG file in the repository: under the theme's `custom_dir` (`.icons/simple/x.svg` for
 * `simple-x`, `.icons/fontawesome/brands/x.svg` for `fontawesome-brands-x`), else under Material's own theme
 * folder when the repository is Material itself (`material/templates/.icons`).
 */
function siteIcons(files: ReadonlyMap<string, Buffer>, project: string, customDir: string | undefined): (shortcode: string) => string | undefined {
  const folders = [customDir && join(customDir, '.icons'), join(project, 'material/templates/.icons')].filter((f): f is string => !!f);
  return (shortcode) => {
    const m = /^(material|octicons|simple|fontawesome)-(?:(solid|regular|brands)-)?([a-z0-9-]+)$/.exec(shortcode);
    if (!m || (m[1] === 'fontawesome') !== (m[2] !== undefined)) return undefined;
    const file = [m[1], m[2], `${m[3]}.svg`].filter(Boolean).join('/');
    return folders.map((folder) => join(folder, file)).find((path) => files.has(path));
  };
}

function join(...parts: string[]): string {
  return parts.filter((p) => p !== '' && p !== '.').join('/');
}
