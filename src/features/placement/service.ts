import type { Executor } from '../../db/types.ts';
import { badRequest, conflict } from '../../platform/errors.ts';
import { positionAfter, positionAtEnd, positionBefore } from './positions.ts';
import { findPlacementOf, listSiblings } from './store.ts';

export type ContentPointer = { type: 'space'; space: string } | { type: 'collection'; collection: string };

export interface PlacementInput {
  /** undefined keeps the current parent (or the parent of the position's reference); null is the top level. */
  parent?: string | null | undefined;
  position?: { before?: ContentPointer | undefined; after?: ContentPointer | undefined } | undefined;
}

export interface Placement {
  parentId: string | null;
  position: string;
}

function pointerOf(p: ContentPointer): { kind: 'space' | 'collection'; id: string } {
  return p.type === 'space' ? { kind: 'space', id: p.space } : { kind: 'collection', id: p.collection };
}

/**
 * Where a space or collection goes inside an organization: its parent collection and its key among the
 * siblings. `item` is the thing being placed (absent when creating); `current` its present placement.
 * Answers 409 when a move would change nothing, 400 when the target does not make sense.
 */
export async function resolvePlacement(
  db: Executor,
  organizationId: string,
  item: { kind: 'space' | 'collection'; id: string; current: Placement } | undefined,
  input: PlacementInput,
  isForbiddenParent: (collectionId: string) => boolean = () => false,
): Promise<Placement> {
  const { before, after } = input.position ?? {};
  if (before && after) throw badRequest('body/position must name either before or after, not both');
  const reference = before ?? after;

  let parentId: string | null | undefined = input.parent;
  let ref: { kind: 'space' | 'collection'; id: string } | undefined;
  if (reference) {
    ref = pointerOf(reference);
    if (item && ref.kind === item.kind && ref.id === item.id) throw badRequest('body/position cannot refer to the item being moved');
    const refPlacement = await findPlacementOf(db, ref.kind, ref.id);
    if (!refPlacement || refPlacement.organization_id !== organizationId) {
      throw badRequest(`body/position: no ${ref.kind} ${ref.id} in this organization`);
    }
    if (parentId !== undefined && parentId !== refPlacement.parent_id) {
      throw badRequest(`body/position: ${ref.kind} ${ref.id} is not inside the parent given in body/parent`);
    }
    parentId = refPlacement.parent_id;
  }
  if (parentId === undefined) parentId = item ? item.current.parentId : null;

  if (parentId !== null) {
    const parent = await findPlacementOf(db, 'collection', parentId);
    if (!parent || parent.organization_id !== organizationId) throw badRequest(`body/parent: no collection ${parentId} in this organization`);
    if (isForbiddenParent(parentId)) throw badRequest('body/parent: a collection cannot be moved into itself or one of its descendants');
  }

  const siblings = await listSiblings(db, organizationId, parentId);
  const others = siblings.filter((s) => !(item && s.kind === item.kind && s.id === item.id));
  const keys = others.map((s) => s.position);

  let position: string;
  if (ref) {
    const index = others.findIndex((s) => s.kind === ref.kind && s.id === ref.id);
    position = before ? positionBefore(keys, index) : positionAfter(keys, index);
    if (item && item.current.parentId === parentId) {
      // Already right before (or after) the reference: nothing would change.
      const self = siblings.findIndex((s) => s.kind === item.kind && s.id === item.id);
      const refIndex = siblings.findIndex((s) => s.kind === ref.kind && s.id === ref.id);
      if ((before && self === refIndex - 1) || (after && self === refIndex + 1)) throw conflict('The move would not change anything');
    }
  } else {
    if (item && item.current.parentId === parentId) {
      const last = siblings[siblings.length - 1];
      if (last && last.kind === item.kind && last.id === item.id) throw conflict('The move would not change anything');
    }
    position = positionAtEnd(keys);
  }
  return { parentId, position };
}
