import { posix } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { LayoutError } from './layout.ts';
import type { OutlineEntry } from './repository.ts';

/*
 * `mkdocs.yml`: where the pages are (`docs_dir`, default `docs`) and, when it has one, the `nav` that orders them:
 * `- Title: page.md`, `- page.md` (the page's own title), `- Title: https://…` (a link) and `- Section: [ … ]`.
 */

export interface MkdocsConfig {
  docsDir: string;
  /** The nav, with repository paths; undefined when mkdocs.yml has none (the folders give the tree). */
  nav?: OutlineEntry[];
  /** `hooks`: Python files MkDocs runs on each page, as written. */
  hooks: string[];
  /** The theme's `custom_dir`, where a site's own icons are (`.icons/`), from the repository's root. */
  customDir?: string;
}

const MAX_NAV_DEPTH = 16;

export function readMkdocsConfig(text: string, project: string): MkdocsConfig {
  let data: unknown;
  try {
    // `!ENV` and `!!python/name:` tags are MkDocs' own: their values are not needed here, only read past.
    data = parseYaml(text, { logLevel: 'silent', maxAliasCount: 100, customTags: [], strict: false });
  } catch (error) {
    throw new LayoutError(`mkdocs.yml is not valid YAML (${error instanceof Error ? error.message.split('\n')[0] : 'parse error'})`);
  }
  const config = (data && typeof data === 'object' ? data : {}) as Record<string, unknown>;
  const docsDir = join(project, typeof config.docs_dir === 'string' ? config.docs_dir.replace(/^\.?\/+|\/+$/g, '') : 'docs');
  const hooks = Array.isArray(config.hooks) ? config.hooks.filter((hook): hook is string => typeof hook === 'string') : [];
  const theme = config.theme as { features?: unknown; custom_dir?: unknown } | undefined;
  const customDir = typeof theme?.custom_dir === 'string' ? { customDir: join(project, theme.custom_dir.replace(/^\.?\/+|\/+$/g, '')) } : {};
  if (!Array.isArray(config.nav)) return { docsDir, hooks, ...customDir };
  const nav = navEntries(config.nav, docsDir, 0);
  return { docsDir, hooks, ...customDir, nav: Array.isArray(theme?.features) && theme.features.includes('navigation.indexes') ? withIndexPages(nav) : nav };
}

/** Material's `navigation.indexes`: a section's first page, when it is the folder's `index.md`, is the section's page. */
function withIndexPages(entries: OutlineEntry[]): OutlineEntry[] {
  return entries.map((entry) => {
    const children = withIndexPages(entry.children);
    const first = children[0];
    if (entry.file === undefined && entry.url === undefined && first?.file && /(^|\/)index\.md$/i.test(first.file) && first.children.length === 0) {
      return { title: entry.title, file: first.file, children: children.slice(1) };
    }
    return { ...entry, children };
  });
}

function navEntries(items: readonly unknown[], docsDir: string, depth: number): OutlineEntry[] {
  if (depth > MAX_NAV_DEPTH) return [];
  const entries: OutlineEntry[] = [];
  for (const item of items) {
    if (typeof item === 'string') entries.push(target('', item, docsDir));
    else if (item && typeof item === 'object' && !Array.isArray(item)) {
      for (const [title, value] of Object.entries(item)) {
        if (typeof value === 'string') entries.push(target(title, value, docsDir));
        else if (Array.isArray(value)) entries.push({ title, children: navEntries(value, docsDir, depth + 1) });
      }
    }
  }
  return entries;
}

function target(title: string, value: string, docsDir: string): OutlineEntry {
  if (/^[a-z][a-z0-9+.-]*:|^\/\//i.test(value)) return { title, url: value, children: [] };
  const file = posix.normalize(join(docsDir, value.replace(/^\.?\//, '')));
  return { title, file: /\.md$/i.test(file) ? file : posix.join(file, 'index.md'), children: [] };
}

function join(...parts: string[]): string {
  return parts.filter((p) => p !== '' && p !== '.').join('/');
}
