import type { FastifyInstance } from 'fastify';
import { badRequest } from './errors.ts';

/** What every request must be before a route sees it; refused up front, with the error shape and the place named. */
export function registerRequestGuards(app: FastifyInstance): void {
  // The API speaks JSON only. Fastify also parses text/plain by default, which would reach a body schema as a
  // string ("body must be object") instead of answering 415 like every other content type.
  app.removeContentTypeParser('text/plain');

  // Checked after validation, so that a wrongly typed field is reported as such first. A hook with a callback,
  // not a promise: every request passes here.
  app.addHook('preHandler', (request, _reply, done) => {
    const refusal = findRefused(request.params, 'params') ?? findRefused(request.query, 'querystring') ?? findRefused(request.body, 'body');
    done(refusal ? badRequest(`${refusal.path} ${refusal.rule}`) : undefined);
  });
}

/**
 * - PostgreSQL text cannot hold U+0000: a NUL in an id, a filter or a title would fail deep in a query as a
 *   500. SQLite would store it, and both dialects must answer the same input the same way.
 * - Ajv coerces the query strings "Infinity" and "1e400" to Infinity and then skips minimum and maximum for
 *   non-finite numbers, so `limit=1e400` passes its schema. JSON bodies cannot carry such numbers.
 * An explicit stack rather than recursion: a hostile body nested thousands deep must not overflow the call stack.
 */
function findRefused(root: unknown, rootPath: string): { path: string; rule: string } | undefined {
  // Nearly every request passes: a first look builds no paths, and only a refusal is looked for again with them.
  if (root === undefined || root === null || !holdsRefused(root)) return undefined;
  const stack: [unknown, string][] = [[root, rootPath]];
  while (stack.length > 0) {
    const [value, path] = stack.pop()!;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return { path, rule: 'must not contain the NUL character (U+0000)' };
    } else if (typeof value === 'number') {
      if (!Number.isFinite(value)) return { path, rule: 'must be a finite number' };
    } else if (value !== null && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) {
        if (key.includes('\u0000')) return { path, rule: 'must not have a key containing the NUL character (U+0000)' };
        stack.push([child, `${path}/${key}`]);
      }
    }
  }
  return undefined;
}

/** Whether `root` holds something findRefused refuses, found without building paths. */
function holdsRefused(root: unknown): boolean {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return true;
    } else if (typeof value === 'number') {
      if (!Number.isFinite(value)) return true;
    } else if (value !== null && typeof value === 'object') {
      for (const key of Object.keys(value)) {
        if (key.includes('\u0000')) return true;
        stack.push((value as Record<string, unknown>)[key]);
      }
    }
  }
  return false;
}
