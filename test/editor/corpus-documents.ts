import { markdownToDocument } from '../../src/features/content/document/to-document.ts';
import type { Document } from '../../src/features/content/document/types.ts';
import { splitPageMarkdown } from '../../src/features/content/markdown.ts';
import { CORPUS_DIR, corpusPages, corpusRefs, ELSA_CORPUS_DIR } from '../corpus/pages.ts';

/** Every page of the shared corpus (and the Elsa excerpt) as the document the API stores for it (keys included). */
export function corpusDocuments(): { file: string; document: Document }[] {
  const read = (dir: string, prefix: string) =>
    corpusPages(dir).map((page) => {
      const { body } = splitPageMarkdown(page.markdown, page.file);
      return { file: `${prefix}${page.file}`, document: markdownToDocument(body, corpusRefs(page.file).resolve) };
    });
  let pages: { file: string; document: Document }[] = [];
  try {
    pages = read(CORPUS_DIR, '');
  } catch {
    // the shared corpus is not on this machine: the excerpt kept in the checkout still runs
  }
  return [...pages, ...read(ELSA_CORPUS_DIR, 'elsa/')];
}
