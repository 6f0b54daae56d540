import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { AppContext } from '../../platform/context.ts';
import { ApiError } from '../../platform/errors.ts';
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

/** `project`: the folder of the site's configuration in the checkout (Git Sync's project directory), when not its root. */
export async function importPath(ctx: AppContext, spaceId: string, path: string, project?: string) {
  const where = resolve(path);
  const info = await stat(where).catch(() => undefined);
  if (!info) throw new ApiError(404, `No file or folder at ${where}`);
  const files = info.isDirectory()
    ? await readFiles(where, ctx.config.gitSyncMaxBytes)
    : unzipArchive(await readFile(where), where, { maxBytes: ctx.config.gitSyncMaxBytes, maxFiles: 100_000 });
  return importFiles(ctx, spaceId, null, files, { ...(project ? { projectDirectory: project } : {}), event: { import: { source: 'cli', path: where } } });
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
