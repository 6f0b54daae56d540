import { hostOf, SITES_PREFIX } from '../sites/urls.ts';
import type { App } from '../../platform/app-type.ts';
import { notFound } from '../../platform/errors.ts';
import { readerAssets } from './assets.ts';
import { preloadHighlighter } from './highlight.ts';
import { highlightAheadOfReaders } from './highlight-ahead.ts';
import { matchesEtag } from './render-cache.ts';
import { customHostLocation, sendNotFound, serveSite } from './serve-site.ts';
import { siteStateAt, siteStateOfHost } from './site-state.ts';

/*
 * Published sites as web pages, outside /v1 and without an API token: a site's visibility decides who reads it
 * (sites/visitor-access.ts). URLs are those of sites/urls.ts:
 *   /sites/<site>/…                      a site without a custom hostname (serve-site.ts says what is below)
 *   <scheme>://<site hostname>/…         a site with one; its /sites/<site>/… URLs redirect there
 *   /_quire/assets/<fingerprinted name>  the reader's stylesheet and script (on every host)
 */

const ASSET_CACHE = 'public, max-age=31536000, immutable';
const ASSETS_PREFIX = '/_quire/assets/';

/**
 * Before authentication and the API's routes: a request whose Host is a site's custom hostname is that site's,
 * whatever its path (an API path there is a page path), except the reader's assets. Every other request passes
 * on after one comparison with PUBLIC_URL's host (or a cached lookup, for another host).
 */
export async function siteHostRouting(app: App) {
  const ctx = app.ctx;
  // PUBLIC_URL may be set after start (tests listening on a random port): its host is derived again then.
  let publicUrl = '';
  let publicHost = '';
  app.addHook('onRequest', async (request, reply) => {
    if (ctx.config.publicUrl !== publicUrl) publicHost = new URL((publicUrl = ctx.config.publicUrl)).hostname.toLowerCase();
    const host = hostOf(request.headers.host);
    if (host === publicHost || host === '' || request.url.startsWith(ASSETS_PREFIX)) return;
    const state = await siteStateOfHost(ctx, host);
    if (!state) return;
    const path = request.url.split('?')[0]!;
    const segments = decodeSegments(path.slice(1));
    if (!segments) return sendNotFound(reply);
    await serveSite(ctx, request, reply, state, segments, { root: '/', origin: `${new URL(ctx.config.publicUrl).protocol}//${host}` });
    return reply;
  });
}

export async function readerRoutes(app: App) {
  const ctx = app.ctx;
  // A server that listens will render pages: grammars load then, in the background, not in a first reader's
  // request (tests that only inject never pay for them).
  app.addHook('onListen', async () => {
    void preloadHighlighter().catch((error: unknown) => app.log.warn({ err: error }, 'syntax highlighting grammars did not preload'));
  });
  const stopHighlightingAhead = highlightAheadOfReaders(ctx, (error) => app.log.warn({ err: error }, 'the code of a publication was not highlighted ahead'));
  app.addHook('onClose', async () => stopHighlightingAhead());

  app.get(`${ASSETS_PREFIX}:name`, { config: { public: true }, schema: { hide: true } }, async (request, reply) => {
    const asset = readerAssets.get((request.params as { name: string }).name);
    if (!asset) throw notFound('No such reader asset: its name changes with its content, reload the page');
    reply.header('content-type', asset.contentType).header('cache-control', ASSET_CACHE).header('etag', asset.etag);
    if (matchesEtag(request.headers['if-none-match'], asset.etag)) return reply.status(304).send();
    return reply.send(asset.body);
  });

  // POST and DELETE reach the MCP endpoint only; elsewhere they are 404s.
  app.route({
    method: ['GET', 'POST', 'DELETE'],
    url: `${SITES_PREFIX}*`,
    config: { public: true },
    schema: { hide: true },
    handler: async (request, reply) => {
      const path = request.url.split('?')[0]!;
      // From the raw URL, decoded once here (the router's decoded parameter would be decoded twice).
      const segments = decodeSegments(path.slice(SITES_PREFIX.length));
      if (!segments || !segments[0]) return sendNotFound(reply);
      const [siteSegment, ...rest] = segments;
      // The site's root is a folder: relative links and the cookie path need its trailing slash.
      if (rest.length === 0 && !path.endsWith('/') && request.method === 'GET') return reply.redirect(`${path}/${request.url.slice(path.length)}`, 301);

      const state = await siteStateAt(ctx, siteSegment!);
      if (!state) return sendNotFound(reply);
      // A site on its own domain is read there; 308 keeps an agent's POST a POST.
      if (state.site.hostname) return reply.redirect(customHostLocation(ctx, state.site, rest, request.url), 308);
      const root = `${SITES_PREFIX}${encodeURIComponent(siteSegment!)}/`;
      return serveSite(ctx, request, reply, state, rest, { root, origin: originOf(ctx.config.publicUrl) });
    },
  });
}

let lastPublicUrl = '';
let lastOrigin = '';
/** PUBLIC_URL's origin, parsed again only when the setting changes (tests set it after start). */
function originOf(publicUrl: string): string {
  if (publicUrl !== lastPublicUrl) lastOrigin = new URL((lastPublicUrl = publicUrl)).origin;
  return lastOrigin;
}

/** A URL path's segments, decoded; undefined when one is not valid percent-encoding. */
function decodeSegments(raw: string): string[] | undefined {
  if (!raw.includes('%')) return raw.split('/');
  try {
    return raw.split('/').map((segment) => decodeURIComponent(segment));
  } catch {
    return undefined;
  }
}
