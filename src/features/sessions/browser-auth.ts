import type { FastifyRequest } from 'fastify';
import type { AppContext, Caller } from '../../platform/context.ts';
import { callerOfSession, CSRF_HEADER, csrfTokenMatches, sessionFromCookies } from './service.ts';

/**
 * The API's second way in (platform/auth.ts): a browser's session cookie. A request that changes something
 * must carry the session's CSRF token in `X-CSRF-Token`; an `Origin` header naming another origin than this
 * server's (PUBLIC_URL) is refused too, a second line should a token leak. `Origin: null` is what browsers send
 * for our own pages' POSTs under their `Referrer-Policy: no-referrer`: the token decides then.
 */
export async function authenticateBrowser(ctx: AppContext, request: FastifyRequest): Promise<{ caller: Caller; csrfOk: boolean } | null> {
  const browser = await sessionFromCookies(ctx, request.headers.cookie);
  if (!browser) return null;
  const header = request.headers[CSRF_HEADER];
  const origin = request.headers.origin;
  const sameOrigin = origin === undefined || origin === 'null' || origin === new URL(ctx.config.publicUrl).origin;
  return { caller: callerOfSession(browser.session), csrfOk: sameOrigin && csrfTokenMatches(browser, typeof header === 'string' ? header : undefined) };
}
