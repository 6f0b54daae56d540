/*
 * The pages a change request changes, one row each, from its semantic changes (getChangeRequestChanges): added,
 * edited (its document or settings), renamed (title or slug), moved (another parent) or deleted.
 */

export type PageChangeKind = 'added' | 'edited' | 'renamed' | 'moved' | 'deleted';

export interface ChangedPage {
  id: string;
  title: string;
  kinds: PageChangeKind[];
  /** In words, what changed besides the document (the old title, the new parent). */
  detail?: string;
}

interface Change {
  type: string;
  page?: { id: string; title: string };
  attributes?: Record<string, { before?: unknown; after?: unknown }>;
  parent?: { before?: { title: string }; after?: { title: string } };
}

export function changedPages(changes: readonly Change[]): ChangedPage[] {
  const byId = new Map<string, ChangedPage>();
  const row = (page: { id: string; title: string }) => {
    let found = byId.get(page.id);
    if (!found) byId.set(page.id, (found = { id: page.id, title: page.title, kinds: [] }));
    return found;
  };
  const add = (target: ChangedPage, kind: PageChangeKind, detail?: string) => {
    if (!target.kinds.includes(kind)) target.kinds.push(kind);
    if (detail) target.detail = target.detail ? `${target.detail}; ${detail}` : detail;
  };
  for (const change of changes) {
    if (!change.page) continue;
    const target = row(change.page);
    if (change.type === 'page_created') add(target, 'added');
    else if (change.type === 'page_deleted') add(target, 'deleted');
    else if (change.type === 'page_moved') add(target, 'moved', `moved to ${change.parent?.after?.title ?? 'the top level'}`);
    else if (change.type === 'page_edited') {
      const attributes = change.attributes ?? {};
      if (attributes.title || attributes.slug) {
        const before = attributes.title?.before;
        add(target, 'renamed', typeof before === 'string' ? `was “${before}”` : undefined);
      }
      if (Object.keys(attributes).some((name) => name !== 'title' && name !== 'slug')) add(target, 'edited');
    }
  }
  return [...byId.values()];
}
