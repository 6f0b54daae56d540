import type { Document } from '../../../src/features/content/document/types.ts';
import { api } from '../../api/client.ts';
import type { Revision } from '../../api/types.ts';
import type { EditorReusableContents } from '../editor/contract.ts';
import { pagesIncluding } from '../editor/reusable/reusable-model.ts';
import type { AppLinks } from '../pages/links.ts';
import type { EditTarget } from './edit-target.ts';
import { readTargetRevision, writeChanges } from './editing-api.ts';

type TreePage = { id: string; title: string; type?: string; documentId?: string; pages?: TreePage[] };

/** The revision's document pages, in the tree's order (a group's pages in their place). */
function documentPages(pages: readonly TreePage[]): TreePage[] {
  return pages.flatMap((page) => [...(page.type === 'document' ? [page] : []), ...documentPages(page.pages ?? [])]);
}

/**
 * The space's reusable contents for the editor (contract.ts), read from and written to where the page's edits go
 * (the live space or the change request). Where one is used is found in the documents of the target's pages
 * (read by document id, which never changes content, so each is read once); the page being edited counts as it is
 * now (`editing`), saved or not.
 */
export function reusableContentsOf(spaceId: string, target: EditTarget, links: AppLinks, editing: () => { id: string; title: string; document: Document }): EditorReusableContents {
  const documents = new Map<string, Promise<Document | undefined>>();
  const documentOf = (documentId: string) => {
    let found = documents.get(documentId);
    if (!found) {
      found = api<Document>('GET', `/spaces/${spaceId}/documents/${encodeURIComponent(documentId)}`).catch(() => undefined);
      documents.set(documentId, found);
    }
    return found;
  };
  // Blocks shown together ask together: one read of the revision serves those in flight at once.
  let reading: Promise<Revision> | undefined;
  const revision = () =>
    (reading ??= readTargetRevision(spaceId, target).finally(() => {
      reading = undefined;
    }));
  return {
    links,
    async list() {
      return (await revision()).reusableContents.map(({ id, title }) => ({ id, title }));
    },
    async read(id) {
      const current: Revision = await revision();
      const found = current.reusableContents.find((content) => content.id === id);
      if (!found) return null;
      const document = await api<Document>('GET', `/spaces/${spaceId}/revisions/${current.id}/reusable-contents/${encodeURIComponent(id)}/document`);
      return { id, title: found.title, document };
    },
    async create(title, document) {
      const answer = await writeChanges(spaceId, target, [{ operation: 'insert_reusable_content', title, document: { document } }]);
      const created = (answer.changes as { object: string; reusableContent?: string }[]).find((change) => change.object === 'created_reusable_content');
      if (!created?.reusableContent) throw new Error('The server stored no reusable content');
      return { id: created.reusableContent, title };
    },
    async update(id, document) {
      await writeChanges(spaceId, target, [{ operation: 'update_reusable_content', reusableContent: id, document: { document } }]);
    },
    async usedIn(id) {
      const page = editing();
      const pages = documentPages((await revision()).pages as unknown as TreePage[]);
      // A few at a time: a space of hundreds of pages is read without flooding the server.
      const read: { id: string; title: string; document: Document | undefined }[] = [];
      for (let i = 0; i < pages.length; i += 6) {
        const some = pages.slice(i, i + 6);
        read.push(...(await Promise.all(some.map(async (p) => ({ id: p.id, title: p.title, document: p.id === page.id ? page.document : p.documentId ? await documentOf(p.documentId) : undefined })))));
      }
      return pagesIncluding(read, id).map(({ id: pageId, title }) => ({ id: pageId, title }));
    },
  };
}
