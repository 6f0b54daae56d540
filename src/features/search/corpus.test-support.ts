import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * The real GitBook documentation (markdown, as Git Sync writes it), used as a corpus a person knows what to
 * expect from: the relevance test and the search bench import it through the content API.
 */
export const CORPUS_DIR = '/work/shared/corpus/gitbook-public-docs';

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
