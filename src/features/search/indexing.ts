import type { Executor } from '../../db/types.ts';
import type { Document } from '../content/document/types.ts';
import { contentHash, documentSections, embeddedText } from './sections.ts';
import { copySpaceSections, deletePageSections, insertSections, type IndexedSection } from './store.ts';

/**
 * Keeping the index in step with each space's main line. Content calls these in the transaction that writes a
 * main-line revision (content/commit-revision.ts) or starts a duplicated space's branch, so the index always
 * holds exactly the current revision: nothing to catch up after a crash, and a change request's revisions are
 * never indexed.
 */

export interface IndexedPage {
  id: string;
  title: string;
  kind: string;
  document: Document | undefined;
}

/** Replaces the sections of the pages a revision changed; `removed` pages leave the index. */
export async function reindexPages(db: Executor, spaceId: string, pages: readonly IndexedPage[], removed: readonly string[]): Promise<void> {
  await deletePageSections(db, spaceId, [...pages.map((p) => p.id), ...removed]);
  const rows: IndexedSection[] = [];
  for (const page of pages) {
    // A link page has no content of its own: it is found through the page it points to; a reusable content
    // (stored as a page version) is no page to find.
    if (page.kind === 'link' || page.kind === 'reusable-content') continue;
    documentSections(page.document).forEach((section, ordinal) =>
      rows.push({
        space_id: spaceId,
        page_id: page.id,
        anchor: section.anchor,
        ordinal,
        title: page.title,
        heading: section.heading,
        body: section.body,
        content_hash: contentHash(embeddedText(page.title, section.heading, section.body)),
      }),
    );
  }
  await insertSections(db, rows);
}

export async function copySpaceIndex(db: Executor, fromSpaceId: string, toSpaceId: string): Promise<void> {
  await copySpaceSections(db, fromSpaceId, toSpaceId);
}
