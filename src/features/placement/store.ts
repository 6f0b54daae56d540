import type { Executor } from '../../db/types.ts';

export interface Sibling {
  kind: 'space' | 'collection';
  id: string;
  position: string;
}

/** Spaces (not deleted) and collections directly under one parent (null: the organization's top level). */
export async function listSiblings(db: Executor, organizationId: string, parentId: string | null): Promise<Sibling[]> {
  const spaces = db
    .selectFrom('spaces')
    .select(['id', 'position'])
    .where('organization_id', '=', organizationId)
    .where('deleted_at', 'is', null)
    .where('parent_id', parentId === null ? 'is' : '=', parentId);
  const collections = db
    .selectFrom('collections')
    .select(['id', 'position'])
    .where('organization_id', '=', organizationId)
    .where('parent_id', parentId === null ? 'is' : '=', parentId);
  const [s, c] = await Promise.all([spaces.execute(), collections.execute()]);
  const all: Sibling[] = [
    ...s.map((r) => ({ kind: 'space' as const, id: r.id, position: r.position })),
    ...c.map((r) => ({ kind: 'collection' as const, id: r.id, position: r.position })),
  ];
  // Byte order, as the database's bytewise columns compare.
  return all.sort((a, b) => (a.position < b.position ? -1 : a.position > b.position ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

export async function findPlacementOf(db: Executor, kind: 'space' | 'collection', id: string) {
  if (kind === 'space') {
    return db.selectFrom('spaces').select(['organization_id', 'parent_id', 'position']).where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();
  }
  return db.selectFrom('collections').select(['organization_id', 'parent_id', 'position']).where('id', '=', id).executeTakeFirst();
}
