/*
 * How long a deleted space can still be restored, as a person reads it: the API says until when
 * (`restorableUntil`, 7 days after the deletion); the trash screen says how many days are left.
 */
const DAY_MS = 24 * 3600 * 1000;

/** Whole days left before the space is gone, counting a started day (so the last day shows "1 day left"). */
export function daysLeft(restorableUntil: string, now: number): number {
  return Math.max(0, Math.ceil((Date.parse(restorableUntil) - now) / DAY_MS));
}

export function daysLeftLabel(restorableUntil: string, now: number): string {
  const days = daysLeft(restorableUntil, now);
  return days === 0 ? 'No longer restorable' : days === 1 ? '1 day left' : `${days} days left`;
}
