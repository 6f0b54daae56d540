import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../../platform/app-type.ts';
import { notFound } from '../../platform/errors.ts';
import { loadBuiltApp, type AppFile } from './built-app.ts';
import { firstReads, withPreloads } from './first-reads.ts';

/*
 * The members' web app under /app (docs/web-app.md): its hashed assets, cached for good, and for every other
 * path under /app that a browser opens as a page, index.html (never cached, so a new release is picked up at
 * once), where the app's router takes over: deep links and shared URLs work. The app signs in and reads
 * through the public API (/v1) like any client; these routes hold no data and need no session.
 */

const PREFIX = '/app';
const IMMUTABLE = 'public, max-age=31536000, immutable';

export async function webAppRoutes(app: App) {
  const built = loadBuiltApp();
  let indexText: string | undefined;
  if (!built) app.log.warn('the web app is not built (dist/web is missing): run `npm run build` to serve /app');

  const send = (request: FastifyRequest, reply: FastifyReply, file: AppFile, cacheControl: string) => {
    reply.header('content-type', file.contentType).header('cache-control', cacheControl).header('vary', 'accept-encoding');
    if (file.gzipped && /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''))) return reply.header('content-encoding', 'gzip').send(file.gzipped);
    return reply.send(file.body);
  };

  app.get(`${PREFIX}/assets/:name`, { config: { public: true }, schema: { hide: true } }, async (request, reply) => {
    const file = built?.asset((request.params as { name: string }).name);
    if (!file) throw notFound('No such file of the web app: its name changes with each release, reload the page');
    return send(request, reply, file, IMMUTABLE);
  });

  const page = async (request: FastifyRequest, reply: FastifyReply) => {
    // Only a browser opening a page gets the app; anything else asking for a missing path gets the API's 404.
    if (!String(request.headers.accept ?? '').includes('text/html')) throw notFound(`No route ${request.method} ${request.url.split('?')[0]}`);
    if (!built) throw notFound('The web app is not built on this server: run `npm run build`');
    // The screen's first API reads start with the page (first-reads.ts); the page is under 2 KB, sent as it is.
    const html = withPreloads(indexText ??= built.index.body.toString('utf8'), firstReads(request.url));
    return send(request, reply, { body: Buffer.from(html), contentType: built.index.contentType }, 'no-cache');
  };
  app.get(PREFIX, { config: { public: true }, schema: { hide: true } }, page);
  app.get(`${PREFIX}/*`, { config: { public: true }, schema: { hide: true } }, page);
}
