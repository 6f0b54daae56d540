/**
 * Guessing passwords is slowed per e-mail address and per IP address: after `perKey` failures for an e-mail
 * (or `perAddress` from an address) within the window, further attempts are refused until the window of the
 * first failure ends. The check comes before the password is looked at, so a refused attempt tells nothing.
 * Kept in this process, like AUTH_FAILURE_LIMIT's counters (several processes each keep their own).
 */
export const SIGN_IN_WINDOW_MS = 15 * 60_000;
export const FAILURES_PER_EMAIL = 5;
export const FAILURES_PER_ADDRESS = 20;

interface Count {
  failures: number;
  resetAt: number;
}

export class SignInThrottle {
  private readonly counts = new Map<string, Count>();

  constructor(
    private readonly limits = { perEmail: FAILURES_PER_EMAIL, perAddress: FAILURES_PER_ADDRESS, windowMs: SIGN_IN_WINDOW_MS },
  ) {}

  /** Milliseconds to wait before another attempt for this e-mail from this address, or 0 when one may be made. */
  waitMs(email: string, address: string, now: number): number {
    return Math.max(this.wait(`e:${email}`, this.limits.perEmail, now), this.wait(`a:${address}`, this.limits.perAddress, now));
  }

  failed(email: string, address: string, now: number): void {
    this.count(`e:${email}`, now);
    this.count(`a:${address}`, now);
  }

  /** A right password clears the e-mail's failures (not the address's: a guesser may know one account). */
  succeeded(email: string): void {
    this.counts.delete(`e:${email}`);
  }

  private wait(key: string, limit: number, now: number): number {
    const count = this.counts.get(key);
    if (!count) return 0;
    if (count.resetAt <= now) {
      this.counts.delete(key);
      return 0;
    }
    return count.failures >= limit ? count.resetAt - now : 0;
  }

  private count(key: string, now: number): void {
    const count = this.counts.get(key);
    if (count && count.resetAt > now) count.failures += 1;
    else {
      // Bounded memory: a flood of distinct keys drops the expired ones first, then the oldest.
      if (this.counts.size >= 100_000) {
        for (const [k, c] of this.counts) if (c.resetAt <= now) this.counts.delete(k);
        if (this.counts.size >= 100_000) this.counts.delete(this.counts.keys().next().value!);
      }
      this.counts.set(key, { failures: 1, resetAt: now + this.limits.windowMs });
    }
  }
}
