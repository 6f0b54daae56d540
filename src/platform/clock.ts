/** Time as the server sees it. Injected so tests can move it (space purge after 7 days, tokens, jobs). */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock that only moves when told to; for tests. */
export class ManualClock implements Clock {
  private current: number;
  constructor(start: Date = new Date()) {
    this.current = start.getTime();
  }
  now(): Date {
    return new Date(this.current);
  }
  advance(ms: number): void {
    this.current += ms;
  }
  set(date: Date): void {
    this.current = date.getTime();
  }
}

export const DAY_MS = 24 * 60 * 60 * 1000;

export function isoNow(clock: Clock): string {
  return clock.now().toISOString();
}
