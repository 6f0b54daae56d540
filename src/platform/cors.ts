import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';

/**
 * Browser pages on the origins of CORS_ORIGINS may call the API (none by default; `*` allows any): preflight
 * `OPTIONS` requests are answered 204 with the allowed methods and headers, and responses carry
 * `Access-Control-Allow-Origin`. Credentials are bearer tokens sent by the page, never cookies.
 */
export async function registerCors(app: FastifyInstance, config: Config): Promise<void> {
  if (config.corsOrigins.length === 0) return;
  const any = config.corsOrigins.includes('*');
  await app.register(cors, {
    origin: any ? '*' : config.corsOrigins,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: ['Authorization', 'Content-Type', 'If-Match', 'If-None-Match', 'X-Requested-With'],
    exposedHeaders: ['ETag', 'Location', 'Retry-After', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'RateLimit-Policy'],
    maxAge: 600,
    strictPreflight: false,
  });
}
