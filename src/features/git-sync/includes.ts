import { posix } from 'node:path';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { slugify } from '../content/tree.ts';
import { titleOfName } from './repository.ts';

/*
 * Reusable contents in a Git Sync repository, as GitBook writes them: one markdown file each under the content
 * root's `.gitbook/includes/`, its title in front matter, and pages include one with
 * `{% include "../.gitbook/includes/name.md" %}`, the path relative to the page's file. No I/O.
 */

/** The folder of reusable contents, relative to the content root. */
export const INCLUDES_FOLDER = '.gitbook/includes';

/** Whether a path (relative to the content root) is a reusable content's file. */
export function isIncludePath(path: string): boolean {
  return path.startsWith(`${INCLUDES_FOLDER}/`) && /\.md$/i.test(path) && !path.split('/').some((s) => s === '..' || s === '.' || s === '');
}

const FRONT_MATTER = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

/**
 * A reusable content's file: its title (front matter's `title`, else the file's name) and its markdown. Unlike
 * a page's file, a leading `# heading` is content, not the title: GitBook writes the title in front matter only.
 */
export function readInclude(text: string, path: string): { title: string; body: string } {
  let body = text.replace(/^\uFEFF/, '');
  let title: string | undefined;
  const fm = FRONT_MATTER.exec(body);
  if (fm) {
    try {
      const data = parseYaml(fm[1]!) as unknown;
      const value = data && typeof data === 'object' ? (data as Record<string, unknown>).title : undefined;
      if (typeof value === 'string' && value.trim()) title = value.trim();
      body = body.slice(fm[0].length);
    } catch {
      // Front matter that is not YAML stays text of the reusable content rather than failing the import.
    }
  }
  return { title: (title ?? titleOfName(posix.basename(path))).slice(0, 500), body: body.replace(/^\s*\n/, '') };
}

/** The reverse of readInclude. */
export function writeInclude(title: string, body: string): string {
  return `---\n${stringifyYaml({ title }, { lineWidth: 0 })}---\n\n${body ? `${body}\n` : ''}`;
}

/**
 * The file of each reusable content (relative to the content root): the one it was imported from while no other
 * holds it, else one named after its title, unique case-insensitively (checkouts on macOS and Windows).
 */
export function includePaths(contents: readonly { id: string; title: string; git?: { path: string } }[]): Map<string, string> {
  const paths = new Map<string, string>();
  const taken = new Set<string>();
  const sorted = [...contents].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  for (const content of sorted) {
    const stored = content.git?.path;
    if (!stored || !isIncludePath(stored) || taken.has(stored.toLowerCase())) continue;
    paths.set(content.id, stored);
    taken.add(stored.toLowerCase());
  }
  for (const content of sorted) {
    if (paths.has(content.id)) continue;
    const stem = slugify(content.title) || 'reusable-content';
    let path = `${INCLUDES_FOLDER}/${stem}.md`;
    for (let i = 2; taken.has(path.toLowerCase()); i += 1) path = `${INCLUDES_FOLDER}/${stem}-${i}.md`;
    paths.set(content.id, path);
    taken.add(path.toLowerCase());
  }
  return paths;
}
