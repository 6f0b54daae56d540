import type { BadgeTone } from '../../ui/badge.tsx';

/** A change request's status as a Badge's tone: open ones stand out, merged ones are done, the rest are quiet. */
export function statusTone(status: string): BadgeTone {
  return status === 'open' ? 'success' : status === 'merged' ? 'info' : 'neutral';
}
