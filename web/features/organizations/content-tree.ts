import type { Collection, Space } from '../../api/types.ts';

/*
 * The sidebar's tree: collections hold collections and spaces, in the order the API lists them (their
 * positions). Pure; a collection whose parent is not in the list (not visible to this person) sits at the top.
 */
export interface CollectionNode { kind: 'collection'; collection: Collection; children: TreeNode[] }
export interface SpaceNode { kind: 'space'; space: Space }
export type TreeNode = CollectionNode | SpaceNode;

export function contentTree(collections: readonly Collection[], spaces: readonly Space[]): TreeNode[] {
  const nodes = new Map<string, CollectionNode>(collections.map((collection) => [collection.id, { kind: 'collection', collection, children: [] }]));
  const top: TreeNode[] = [];
  const into = (parent: string | undefined) => (parent && nodes.has(parent) ? nodes.get(parent)!.children : top);
  for (const collection of collections) {
    // A cycle cannot come from the API; a parent that is the node itself would hide it, so it goes to the top.
    into(collection.parent !== collection.id ? collection.parent : undefined).push(nodes.get(collection.id)!);
  }
  for (const space of spaces) into(space.parent).push({ kind: 'space', space });
  return top;
}

/** The collections a thing may move into: all but itself and what is below it (a collection cannot hold its parent). */
export function moveTargets(collections: readonly Collection[], moving: { kind: 'space' | 'collection'; id: string }): Collection[] {
  if (moving.kind === 'space') return [...collections];
  const below = new Set([moving.id]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const c of collections) {
      if (c.parent && below.has(c.parent) && !below.has(c.id)) {
        below.add(c.id);
        grew = true;
      }
    }
  }
  return collections.filter((c) => !below.has(c.id));
}
