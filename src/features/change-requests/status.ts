import type { Static } from 'typebox';
import type { ChangeRequestStatus } from './schemas.ts';

type Status = Static<typeof ChangeRequestStatus>;

/**
 * Which status a change request may move to by PATCH. `merged` is reached only by merging, and nothing leaves it.
 * Returns the reason when the move is refused.
 */
export function statusMoveRefusal(from: Status, to: Exclude<Status, 'merged'>): string | undefined {
  if (from === to) return undefined;
  if (from === 'merged') return `Change request is merged; its status cannot change to "${to}"`;
  if (from === 'archived' && to === 'draft') return 'An archived change request can only be reopened (status "open")';
  return undefined;
}
