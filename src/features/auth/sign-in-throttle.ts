import { hash } from 'node:crypto';
import { Redis } from 'ioredis';

/**
 * Guessing passwords is slowed per e-mail address and per IP address: after `perEmail` failures for an e-mail
 * (or `perAddress` from an address) within the window, further attempts are refused until the window of the
 * first failure ends. The check comes before the password is looked at, so a refused attempt tells nothing.
 * With REDIS_URL every process shares the counters (a guesser spread over several processes gets one limit);
 * without it, each process keeps its own.
 */
export const SIGN_IN_WINDOW_MS = 15 * 60_000;
export const FAILURES_PER_EMAIL = 5;
export const FAILURES_PER_ADDRESS = 20;

export interface ThrottleLimits {
  perEmail: number;
  perAddress: number;
  windowMs: number;
}

const DEFAULT_LIMITS: ThrottleLimits = { perEmail: FAILURES_PER_EMAIL, perAddress: FAILURES_PER_ADDRESS, windowMs: SIGN_IN_WINDOW_MS };

export interface SignInThrottle {
  /** Milliseconds to wait before another attempt for this e-mail from this address, or 0 when one may be made. */
  waitMs(email: string, address: string, now: number): Promise<number>;
  failed(email: string, address: string, now: number): Promise<void>;
  /** A right password clears the e-mail's failures (not the address's: a guesser may know one account). */
  succeeded(email: string): Promise<void>;
  close(): Promise<void>;
}

interface Count {
  failures: number;
  resetAt: number;
}

/** The counters of this process, timed by the injected clock (tests move it). */
export class MemorySignInThrottle implements SignInThrottle {
  private readonly counts = new Map<string, Count>();

  constructor(private readonly limits: ThrottleLimits = DEFAULT_LIMITS) {}

  async waitMs(email: string, address: string, now: number): Promise<number> {
    return Math.max(this.wait(`e:${email}`, this.limits.perEmail, now), this.wait(`a:${address}`, this.limits.perAddress, now));
  }

  async failed(email: string, address: string, now: number): Promise<void> {
    this.count(`e:${email}`, now);
    this.count(`a:${address}`, now);
  }

  async succeeded(email: string): Promise<void> {
    this.counts.delete(`e:${email}`);
  }

  async close(): Promise<void> {}

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

/**
 * The counters in Redis, shared by every process: one key per e-mail and per address whose expiry is the end
 * of the window its first failure opened (Redis's clock, not the injected one). E-mails are hashed: the keys
 * name no one. When Redis does not answer, this process's own counters take over, so an outage of Redis never
 * leaves guessing unthrottled.
 */
export class RedisSignInThrottle implements SignInThrottle {
  private readonly fallback: MemorySignInThrottle;

  constructor(
    private readonly redis: Redis,
    private readonly limits: ThrottleLimits = DEFAULT_LIMITS,
    private readonly warn: (error: unknown) => void = () => {},
    private readonly prefix = 'quire-sign-in:',
  ) {
    this.fallback = new MemorySignInThrottle(limits);
  }

  async waitMs(email: string, address: string, now: number): Promise<number> {
    try {
      const replies = await this.redis
        .multi()
        .get(this.emailKey(email))
        .pttl(this.emailKey(email))
        .get(this.addressKey(address))
        .pttl(this.addressKey(address))
        .exec();
      const [emailCount, emailTtl, addressCount, addressTtl] = (replies ?? []).map(([error, value]) => {
        if (error) throw error;
        return Number(value ?? 0);
      });
      const wait = (count = 0, ttl = 0, limit: number) => (count >= limit && ttl > 0 ? ttl : 0);
      return Math.max(wait(emailCount, emailTtl, this.limits.perEmail), wait(addressCount, addressTtl, this.limits.perAddress), await this.fallback.waitMs(email, address, now));
    } catch (error) {
      this.warn(error);
      return this.fallback.waitMs(email, address, now);
    }
  }

  async failed(email: string, address: string, now: number): Promise<void> {
    try {
      const transaction = this.redis.multi();
      // NX: the first failure opens the window; later ones count inside it without moving its end.
      for (const key of [this.emailKey(email), this.addressKey(address)]) transaction.set(key, 0, 'PX', this.limits.windowMs, 'NX').incr(key);
      const replies = await transaction.exec();
      for (const [error] of replies ?? []) if (error) throw error;
    } catch (error) {
      this.warn(error);
      await this.fallback.failed(email, address, now);
    }
  }

  async succeeded(email: string): Promise<void> {
    await this.fallback.succeeded(email);
    try {
      await this.redis.del(this.emailKey(email));
    } catch (error) {
      this.warn(error);
    }
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }

  private emailKey(email: string): string {
    return `${this.prefix}e:${hash('sha256', email, 'base64url').slice(0, 32)}`;
  }

  private addressKey(address: string): string {
    return `${this.prefix}a:${address}`;
  }
}

/** The throttle for this server: shared through Redis when REDIS_URL is set, else this process's own. */
export function signInThrottle(redisUrl: string | undefined, warn: (error: unknown) => void): SignInThrottle {
  if (!redisUrl) return new MemorySignInThrottle();
  // One attempt per command: a sign-in waits at most about a second for a Redis that is down.
  const redis = new Redis(redisUrl, { connectTimeout: 1_000, maxRetriesPerRequest: 1 });
  // ioredis reports a Redis that is down as an error event; without a listener Node would crash.
  redis.on('error', warn);
  return new RedisSignInThrottle(redis, DEFAULT_LIMITS, warn);
}
