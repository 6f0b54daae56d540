import helmet from 'helmet';
import type { FastifyInstance } from 'fastify';

/**
 * Security headers (Content-Security-Policy, X-Frame-Options, nosniff, Referrer-Policy, ...) on HTML responses:
 * the API reference page and the reader. JSON answers of the API stay as they are; those headers protect
 * documents a browser renders, and API clients ignore them.
 */
const HELMET_OPTIONS: Parameters<typeof helmet>[0] = {
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      // The API reference and the reader set styles inline; scripts stay same-origin only.
      styleSrc: ["'self'", "'unsafe-inline'"],
      // blob: an image being uploaded is shown from the file itself (only this origin's scripts make blob URLs).
      imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
      fontSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'self'"],
    },
  },
  crossOriginEmbedderPolicy: false,
};

type HeaderChange = readonly [name: string, value: string | undefined];

/**
 * What helmet does to a response with these options, recorded once: its headers do not depend on the request
 * (no nonces), so each HTML answer gets the same list without running the middleware per request.
 */
function helmetHeaders(): HeaderChange[] {
  const changes: [string, string | undefined][] = [];
  const response = {
    setHeader: (name: string, value: unknown) => void changes.push([name, String(value)]),
    removeHeader: (name: string) => void changes.push([name, undefined]),
  };
  let failure: unknown;
  helmet(HELMET_OPTIONS)({} as never, response as never, (error?: unknown) => void (failure = error));
  if (failure) throw failure;
  return changes;
}

export function registerSecurityHeaders(app: FastifyInstance): void {
  const changes = helmetHeaders();
  // A hook with a callback, not a promise: it runs on every answer and does nothing for JSON.
  app.addHook('onSend', (_request, reply, payload, done) => {
    const type = reply.getHeader('content-type');
    if (typeof type === 'string' && type.startsWith('text/html')) {
      // A header the route set itself wins (a sandboxed download keeps its own Content-Security-Policy).
      for (const [name, value] of changes) {
        if (value === undefined) reply.removeHeader(name);
        else if (!reply.hasHeader(name)) reply.header(name, value);
      }
    }
    done(null, payload);
  });
}
