import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, join, posix, resolve } from 'node:path';
import type { Config } from '../../config.ts';
import type { AppContext } from '../../platform/context.ts';
import { ApiError, badRequest } from '../../platform/errors.ts';
import { unzipArchive } from '../imports/documents.ts';
import { readFiles } from './git-client.ts';
import type { ImportReport } from './import-repository.ts';
import type { SourceLayoutName } from './source-layout.ts';
import { exportFiles, importFiles } from './service.ts';

/*
 * The operators' side of Git Sync (`quire import`, `quire export`): a repository's checkout, or a zip of one,
 * read from disk into a space; a space written to a folder in the same layout, to diff against the original or
 * to commit by hand.
 */

/** A checkout or zip read from disk for `quire import`, checked to hold something to import. */
export interface ImportSource {
  /** The absolute path given. */
  path: string;
  files: Map<string, Buffer>;
  /** The folder of the site's configuration in the checkout (Git Sync's project directory); '' for its root. */
  project: string;
}

/**
 * Reads PATH and refuses, naming it, what would replace a space's pages with nothing: a project folder that is
 * missing or empty, or no markdown file at all. (A layout that finds no page among the files is refused by the
 * import itself, before it writes.)
 */
export async function readImportSource(config: Pick<Config, 'gitSyncMaxBytes'>, path: string, project = ''): Promise<ImportSource> {
  const where = resolve(path);
  const folder = posix.normalize(project.trim() || '.').replace(/^\.\/|\/+$/g, '');
  const inside = folder === '.' ? '' : folder;
  if (inside.split('/').includes('..') || posix.isAbsolute(inside)) throw badRequest(`quire import: --project ${project} must be a folder inside ${where}`);
  const info = await stat(where).catch(() => undefined);
  if (!info) throw new ApiError(404, `quire import: no file or folder at ${where}`);
  const files = info.isDirectory()
    ? await readFiles(where, config.gitSyncMaxBytes)
    : unzipArchive(await readFile(where), where, { maxBytes: config.gitSyncMaxBytes, maxFiles: 100_000 });
  if (inside && ![...files.keys()].some((file) => file.startsWith(`${inside}/`))) {
    const onDisk = info.isDirectory() ? await stat(join(where, inside)).catch(() => undefined) : undefined;
    throw new ApiError(404, onDisk?.isDirectory() ? `quire import: --project ${project}: the folder ${join(where, inside)} is empty` : `quire import: --project ${project}: ${where} has no folder ${inside}`);
  }
  if (![...files.keys()].some((file) => /\.mdx?$/i.test(file))) throw new ApiError(422, `quire import: ${where} has no page: no markdown file (.md) in it`);
  return { path: where, files, project: inside };
}

/** Replaces a space's content with what `source` holds; files in which the layout finds no page are refused. */
export async function importSource(ctx: AppContext, spaceId: string, source: ImportSource) {
  return importFiles(ctx, spaceId, null, source.files, {
    ...(source.project ? { projectDirectory: source.project } : {}),
    event: { import: { source: 'cli', path: source.path } },
    ifNoPage: (layout) =>
      new ApiError(422, `quire import: ${source.path}${source.project ? ` (--project ${source.project})` : ''}, read as ${LAYOUT_NAMES[layout]}, has no page: its space keeps its content`),
  });
}

/** `project`: the folder of the site's configuration in the checkout (Git Sync's project directory), when not its root. */
export async function importPath(ctx: AppContext, spaceId: string, path: string, project?: string) {
  return importSource(ctx, spaceId, await readImportSource(ctx.config, path, project));
}

/** Writes the space's files under `to` (created if needed); files already there with other names are left. */
export async function exportToFolder(ctx: AppContext, spaceId: string, to: string): Promise<number> {
  const files = await exportFiles(ctx, spaceId);
  const root = resolve(to);
  for (const [path, bytes] of files) {
    const target = join(root, path);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, bytes);
  }
  return files.size;
}

export const LAYOUT_NAMES: Record<SourceLayoutName, string> = {
  gitbook: 'a GitBook repository (SUMMARY.md, .gitbook.yaml)',
  mkdocs: 'an MkDocs site (mkdocs.yml)',
  docusaurus: 'a Docusaurus site (docusaurus.config, sidebars)',
  folders: 'folders of markdown files',
};

/** The import report as lines for a terminal: what was not carried over exactly, per page. */
export function formatImportReport(report: ImportReport): string[] {
  const lines: string[] = [];
  for (const note of report.notes) lines.push(`  ${note}`);
  if (report.pages.length > 0) lines.push(`Not carried over exactly on ${report.pages.length} pages:`);
  for (const page of report.pages) {
    lines.push(`  ${page.file} (${page.title})`);
    for (const note of page.notes) lines.push(`    - ${note}`);
  }
  return lines;
}
