import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Caller, RequestOrigin } from './context.ts';
import { forbidden, unauthorized } from './errors.ts';

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

/**
 * Who a browser's session cookie belongs to (features/sessions), with `csrfOk`: whether the request proves it
 * comes from a page of ours (its X-CSRF-Token header holds the session's token). Null without a live session.
 */
export type AuthenticateBrowser = (request: FastifyRequest) => Promise<{ caller: Caller; csrfOk: boolean } | null>;

const SAFE_METHODS = new Set(['GET', 'HEAD']);

/**
 * Resolves `Authorization: Bearer <token>` into the request's caller before any handler runs; without that
 * header, a browser's session cookie. A cookie is sent by the browser whoever asks it to, so a request that
 * changes something (any method but GET and HEAD) with a session must also carry the session's CSRF token; a
 * bearer token is never sent by a browser on its own and needs none.
 */
export function registerAuth(app: FastifyInstance, authenticate: Authenticate, authenticateBrowser?: AuthenticateBrowser): void {
  app.decorateRequest('caller', null);
  app.addHook('onRequest', async (request) => {
    // A CORS preflight (OPTIONS) never carries the token; the request it announces does.
    if (request.is404 || request.method === 'OPTIONS') return;
    // Fastify builds routeOptions afresh at each read: read once.
    const route = request.routeOptions;
    if (route.config?.public || route.url?.startsWith('/v1/docs')) return;
    const header = request.headers.authorization;
    if (!header) {
      const browser = request.headers.cookie && authenticateBrowser ? await authenticateBrowser(request) : null;
      if (!browser) throw unauthorized();
      if (!SAFE_METHODS.has(request.method) && !browser.csrfOk) {
        throw forbidden('A request that changes something with a session cookie must carry the X-CSRF-Token header (the quire_csrf cookie)');
      }
      request.caller = { ...browser.caller, origin: originOf(request, 'ui') };
      return;
    }
    const match = BEARER.exec(header);
    if (!match) throw unauthorized('The Authorization header must be "Bearer <token>"');
    const caller = await authenticate(match[1]!);
    if (!caller) throw unauthorized('The API token is not valid or has been revoked');
    if (caller.kind === 'user' && caller.onlyOperations) {
      const operationId = (route.schema as { operationId?: string } | undefined)?.operationId;
      if (!operationId || !caller.onlyOperations.includes(operationId)) throw forbidden(`This token may call only ${caller.onlyOperations.join(', ')}`);
    }
    request.caller = { ...caller, origin: originOf(request, 'api') };
  });
}

/** The address and user agent of a request, for the audit log; the address is Fastify's request.ip. */
export function originOf(request: FastifyRequest, via: RequestOrigin['via']): RequestOrigin {
  const agent = request.headers['user-agent'];
  return { ipAddress: request.ip || null, userAgent: agent ? agent.slice(0, 512) : null, via };
}

/** The authenticated caller of a route that is not public. */
export function callerOf(request: FastifyRequest): Caller {
  if (!request.caller) throw unauthorized();
  return request.caller;
}
