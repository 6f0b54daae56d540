import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix, relative } from 'node:path';
import type { ContentRef, RefResolver, RefWriter } from '../../src/features/content/document/types.ts';

/**
 * The real GitBook documentation (markdown, as Git Sync writes it), used as a corpus a person knows what to
 * expect from: the relevance test and the search bench import it through the content API.
 */
export const CORPUS_DIR =
  [join(import.meta.dirname, '../../../shared/corpus/gitbook-public-docs'), '/work/shared/corpus/gitbook-public-docs'].find((dir) => existsSync(dir)) ??
  '/work/shared/corpus/gitbook-public-docs';

/** An excerpt of another real GitBook repository (Elsa Workflows' documentation, MIT), kept in the checkout. */
export const ELSA_CORPUS_DIR = join(import.meta.dirname, '../fixtures/corpus-elsa');

export interface CorpusPage {
  /** Path of the file in the corpus, e.g. `publish/seo.md`. */
  file: string;
  title: string;
  markdown: string;
}

export function corpusPages(dir = CORPUS_DIR): CorpusPage[] {
  const pages: CorpusPage[] = [];
  const walk = (folder: string) => {
    for (const name of readdirSync(folder).sort()) {
      const full = join(folder, name);
      if (name.startsWith('.') || name === 'skill') continue;
      if (statSync(full).isDirectory()) walk(full);
      else if (name.endsWith('.md') && name !== 'SUMMARY.md') {
        const markdown = readFileSync(full, 'utf8');
        const title = /^# (.+)$/m.exec(markdown)?.[1]?.trim() ?? name.replace(/\.md$/, '');
        pages.push({ file: relative(dir, full), title, markdown });
      }
    }
  };
  walk(dir);
  return pages;
}

/** insert_page changes for these pages, flat at the root of a space. */
export function corpusChanges(pages: readonly CorpusPage[]) {
  return pages.map((p) => ({ operation: 'insert_page', title: p.title, document: { markdown: p.markdown } }));
}

/** Every link and image source kept as the URL it is written as: for tests that need no page tree. */
export const urlRefs: RefResolver = (href) => ({ kind: 'url', url: href });

const ABSOLUTE = /^(?:[a-z][a-z0-9+.-]*:|\/\/|\/(?:pages|files)\/)/i;

/**
 * A resolver and its writer for one page file of a Git Sync layout, as an importer and an exporter would pair
 * them: a relative `.md` path becomes a page reference (an anchor reference when it has one), an asset path a
 * file reference, and the writer gives back the path as written. The "ids" are the paths, normalised against
 * the page's folder, so links survive a round trip exactly when the converter hands them over unchanged.
 */
export function corpusRefs(pageFile: string): { resolve: RefResolver; write: RefWriter } {
  const folder = posix.dirname(pageFile);
  const resolve: RefResolver = (href, usage) => {
    if (href === '' || ABSOLUTE.test(href)) return { kind: 'url', url: href };
    const hash = href.indexOf('#');
    const path = hash < 0 ? href : href.slice(0, hash);
    const anchor = hash < 0 ? undefined : href.slice(hash + 1);
    if (path === '' && anchor !== undefined) return { kind: 'anchor', anchor };
    if (usage === 'image' || /(^|\/)\.gitbook\/assets\//.test(path)) return { kind: 'file', file: `${folder}|${path}` };
    const page = `${folder}|${path}`;
    return anchor !== undefined ? { kind: 'anchor', anchor, page } : { kind: 'page', page };
  };
  const back = (id: string) => id.slice(id.indexOf('|') + 1);
  const write: RefWriter = (ref: ContentRef) => {
    switch (ref.kind) {
      case 'url':
        return ref.url;
      case 'file':
        return back(ref.file);
      case 'page':
        return back(ref.page);
      case 'anchor':
        return ref.page ? `${back(ref.page)}#${ref.anchor}` : `#${ref.anchor}`;
      case 'reusable-content':
        return String(ref.reusableContent ?? '');
      case 'openapi':
        return String(ref.spec ?? '');
      default:
        return '';
    }
  };
  return { resolve, write };
}
