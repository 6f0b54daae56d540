import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Caller } from './context.ts';
import { unauthorized } from './errors.ts';

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller | null;
  }
  interface FastifyContextConfig {
    /** Routes that answer without a token (API information, the OpenAPI document). */
    public?: boolean;
  }
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** Who a token value belongs to; null when it is unknown or revoked. The tokens feature provides it (app.ts). */
export type Authenticate = (token: string) => Promise<Caller | null>;

/** Resolves `Authorization: Bearer <token>` into the request's caller before any handler runs. */
export function registerAuth(app: FastifyInstance, authenticate: Authenticate): void {
  app.decorateRequest('caller', null);
  app.addHook('onRequest', async (request) => {
    // A CORS preflight (OPTIONS) never carries the token; the request it announces does.
    if (request.is404 || request.method === 'OPTIONS') return;
    // Fastify builds routeOptions afresh at each read: read once.
    const route = request.routeOptions;
    if (route.config?.public || route.url?.startsWith('/v1/docs')) return;
    const header = request.headers.authorization;
    if (!header) throw unauthorized();
    const match = BEARER.exec(header);
    if (!match) throw unauthorized('The Authorization header must be "Bearer <token>"');
    const caller = await authenticate(match[1]!);
    if (!caller) throw unauthorized('The API token is not valid or has been revoked');
    request.caller = caller;
  });
}

/** The authenticated caller of a route that is not public. */
export function callerOf(request: FastifyRequest): Caller {
  if (!request.caller) throw unauthorized();
  return request.caller;
}
