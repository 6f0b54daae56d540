import { hash } from 'node:crypto';
import rateLimit from '@fastify/rate-limit';
import { Redis } from 'ioredis';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import { ApiError } from './errors.ts';

/**
 * Operations that cost far more than a read (a website crawl, a search, a PDF, fetching a page to embed): a
 * stricter bucket of their own, RATE_LIMIT_EXPENSIVE_MAX per window, besides the general one.
 */
// Asking a model is the most expensive of all (askInOrganization, streamAskInSite, the recommended questions).
const EXPENSIVE = /import|search|pdf|embed|^ask|streamask|recommendedquestions/i;

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** Counters are kept per token (hashed: the key may sit in Redis), per IP address without a token. */
function limitKey(request: FastifyRequest): string {
  const token = BEARER.exec(request.headers.authorization ?? '')?.[1];
  return token ? `t:${hash('sha256', token, 'base64url').slice(0, 32)}` : `ip:${request.ip}`;
}

function seconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}

/**
 * Failed authentications per IP address: after AUTH_FAILURE_LIMIT of them in a window, that address is
 * answered 429 until the window ends, before its token is even looked up, so guessing tokens is slow.
 * Kept in this process (a guesser spread over several processes gets a limit per process).
 */
function registerAuthFailureLimit(app: FastifyInstance, config: Config): void {
  if (config.authFailureLimit === 0) return;
  const failures = new Map<string, { count: number; resetAt: number }>();
  app.addHook('onRequest', async (request, reply) => {
    const entry = failures.get(request.ip);
    if (!entry) return;
    const now = Date.now();
    if (entry.resetAt <= now) return void failures.delete(request.ip);
    if (entry.count >= config.authFailureLimit) {
      void reply.header('retry-after', String(seconds(entry.resetAt - now)));
      throw new ApiError(429, `Too many failed authentications from this address; retry in ${seconds(entry.resetAt - now)} s`);
    }
  });
  app.addHook('onResponse', async (request, reply) => {
    if (reply.statusCode !== 401) return;
    const now = Date.now();
    const entry = failures.get(request.ip);
    if (entry && entry.resetAt > now) entry.count += 1;
    else {
      // Bounded memory: a flood from many addresses drops expired entries first.
      if (failures.size >= 100_000) for (const [ip, e] of failures) if (e.resetAt <= now) failures.delete(ip);
      failures.set(request.ip, { count: 1, resetAt: now + config.rateLimitWindowMs });
    }
  });
}

/**
 * Request rate limits (@fastify/rate-limit): RATE_LIMIT_MAX requests per token (per IP address without one)
 * in each RATE_LIMIT_WINDOW_MS, and RATE_LIMIT_EXPENSIVE_MAX on expensive operations. Answers carry the
 * IETF draft headers (`RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset`); a refused request gets
 * 429 in the API's error shape with `Retry-After`. With REDIS_URL, every process shares the counters; if
 * Redis does not answer, requests are let through (an outage of Redis must not take the API down).
 * Must be registered before the routes (it attaches to each route as it is added).
 */
export async function registerRateLimits(app: FastifyInstance, config: Config): Promise<void> {
  registerAuthFailureLimit(app, config);
  if (config.rateLimitMax === 0 && config.rateLimitExpensiveMax === 0) return;

  // Before the plugin's own onRoute hook (hooks run in the order added): give each route its bucket.
  app.addHook('onRoute', (route) => {
    if (route.config?.probe) {
      route.config = { ...route.config, rateLimit: false };
      return;
    }
    const operationId = (route.schema as { operationId?: string } | undefined)?.operationId ?? '';
    if (config.rateLimitExpensiveMax > 0 && (EXPENSIVE.test(operationId) || /\/(search|pdf)(\/|$)/.test(route.url))) {
      route.config = { ...route.config, rateLimit: { max: config.rateLimitExpensiveMax, groupId: 'expensive' } };
    } else if (config.rateLimitMax === 0) {
      route.config = { ...route.config, rateLimit: false };
    }
  });

  const redis = config.redisUrl
    ? new Redis(config.redisUrl, { connectTimeout: 1_000, maxRetriesPerRequest: 1, lazyConnect: false })
    : undefined;
  // A Redis that is down is reported by ioredis as an error event; without a listener Node would crash.
  redis?.on('error', (error) => app.log.warn({ err: error }, 'Redis for rate limits is unavailable; requests are not limited'));
  await app.register(rateLimit, {
    global: true,
    max: config.rateLimitMax || Number.MAX_SAFE_INTEGER,
    timeWindow: config.rateLimitWindowMs,
    keyGenerator: limitKey,
    enableDraftSpec: true,
    skipOnError: true,
    ...(redis ? { redis, nameSpace: 'quire-rate-limit:' } : {}),
    errorResponseBuilder: (_request, context) =>
      new ApiError(context.statusCode, `Rate limit exceeded: at most ${context.max} requests per ${seconds(config.rateLimitWindowMs)} s; retry in ${context.after}`),
  });
  if (redis) app.addHook('onClose', async () => void (await redis.quit().catch(() => redis.disconnect())));
}
