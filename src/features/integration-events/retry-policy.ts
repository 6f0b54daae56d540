/**
 * What happens after a delivery attempt (pure: the delivery worker applies it). A 2xx is final and never
 * repeated. The receiver's own refusal (a 4xx other than 408 Request Timeout and 429 Too Many Requests) is
 * final too: sending the same body again would be refused again. Everything else (5xx, 408, 429, a timeout, a
 * network error) is retried with exponential back-off and full jitter, for at least 24 hours after the event
 * was created: the attempt that fails after that is the last.
 */
export const RETRY_WINDOW_MS = 24 * 60 * 60 * 1000;
const FIRST_DELAY_MS = 30_000;
const LONGEST_DELAY_MS = 60 * 60 * 1000;

export type AttemptOutcome = { kind: 'response'; status: number } | { kind: 'error' };

export type NextStep = { kind: 'delivered' } | { kind: 'failed'; reason: string } | { kind: 'retry'; at: Date };

export function isRetryable(outcome: AttemptOutcome): boolean {
  if (outcome.kind === 'error') return true;
  return outcome.status >= 500 || outcome.status === 408 || outcome.status === 429;
}

/** Delay before attempt `attempts + 1`: 30 s, 1 min, 2 min, … capped at an hour, scaled by `random` in [0.5, 1). */
export function retryDelayMs(attempts: number, random: number): number {
  const ceiling = Math.min(LONGEST_DELAY_MS, FIRST_DELAY_MS * 2 ** Math.max(0, attempts - 1));
  // Half fixed, half jitter: receivers that come back up are not hit by every queue at the same instant, and a
  // delay never shrinks to nothing.
  return Math.round(ceiling * (0.5 + random / 2));
}

export function nextStep(outcome: AttemptOutcome, attempts: number, createdAt: Date, now: Date, random: number = Math.random()): NextStep {
  if (outcome.kind === 'response' && outcome.status >= 200 && outcome.status < 300) return { kind: 'delivered' };
  if (!isRetryable(outcome)) return { kind: 'failed', reason: `the receiver refused it (HTTP ${(outcome as { status: number }).status}); not retried` };
  if (now.getTime() - createdAt.getTime() >= RETRY_WINDOW_MS) return { kind: 'failed', reason: `still undelivered after ${attempts} attempts over 24 hours; given up` };
  return { kind: 'retry', at: new Date(now.getTime() + retryDelayMs(attempts, random)) };
}

/**
 * Whether a person may ask for another attempt: only a delivery that ended in failure. A pending event is
 * already being retried, a delivered one is never sent twice, and a skipped one has nowhere to go until the
 * integration publishes a script or an endpoint (another attempt would be skipped again).
 */
export function retryRefusal(state: string): string | null {
  if (state === 'failed') return null;
  if (state === 'pending') return 'is still being delivered (it is retried by itself until it succeeds or fails)';
  if (state === 'success') return 'was delivered already; a delivered event is not sent again';
  return 'was not delivered because the integration has no development tunnel, script or endpoint; publish one first';
}
