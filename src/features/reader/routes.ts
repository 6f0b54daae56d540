import fastifyCookie from '@fastify/cookie';
import type { FastifyReply } from 'fastify';
import type { Document } from '../content/document/types.ts';
import { readPublishedDocument } from '../content/service.ts';
import { specsFingerprint } from '../openapi-specs/queries.ts';
import { SHARE_KEY_COOKIE, SHARE_KEY_PARAM, SITES_PREFIX, VISITOR_TOKEN_COOKIE, VISITOR_TOKEN_PARAM } from '../sites/urls.ts';
import { resolveVisitor, siteAt } from '../sites/visitor-access.ts';
import type { App } from '../../platform/app-type.ts';
import { notFound } from '../../platform/errors.ts';
import { readerAssets } from './assets.ts';
import { notFoundPage, renderPage } from './layout.tsx';
import { indexable, llmsTxt, pageMarkdown, robotsTxt, sitemapXml, type ListedVariant } from './machine-readable.ts';
import { cachedRender, matchesEtag, renderKey } from './render-cache.ts';
import { chromeOf, linksOf, locatePage, noindexOf, pageModel, pagesOfVariant, viewOfSite, type SiteView } from './service.ts';
import { listedTree, readingOrder } from './site-view.ts';

/*
 * Published sites as web pages, outside /v1 and without an API token: a site's visibility decides who reads it
 * (sites/visitor-access.ts). URLs are those of sites/urls.ts:
 *   /sites/<site>/[<section>/][<variant>/][<page path>]   a page (HTML), or its markdown with `.md` appended
 *   /sites/<site>/sitemap.xml, robots.txt, llms.txt, llms-full.txt
 *   /_quire/assets/<fingerprinted name>                   the reader's stylesheet and script
 */

const ASSET_CACHE = 'public, max-age=31536000, immutable';
const MACHINE_FILES = new Set(['sitemap.xml', 'robots.txt', 'llms.txt', 'llms-full.txt', 'search.json']);
const SEARCH_LIMIT = 20;

export async function readerRoutes(app: App) {
  await app.register(fastifyCookie);
  const ctx = app.ctx;

  app.get('/_quire/assets/:name', { config: { public: true }, schema: { hide: true } }, async (request, reply) => {
    const asset = readerAssets.get((request.params as { name: string }).name);
    if (!asset) throw notFound('No such reader asset: its name changes with its content, reload the page');
    reply.header('content-type', asset.contentType).header('cache-control', ASSET_CACHE).header('etag', asset.etag);
    if (matchesEtag(request.headers['if-none-match'], asset.etag)) return reply.status(304).send();
    return reply.send(asset.body);
  });

  app.get(`${SITES_PREFIX}*`, { config: { public: true }, schema: { hide: true } }, async (request, reply) => {
    const path = request.url.split('?')[0]!;
    // From the raw URL, decoded once here (the router's decoded parameter would be decoded twice).
    const segments = decodeSegments(path.slice(SITES_PREFIX.length));
    if (!segments || !segments[0]) return sendNotFound(reply);
    const [siteSegment, ...rest] = segments;
    // The site's root is a folder: relative links and the cookie path need its trailing slash.
    if (rest.length === 0 && !path.endsWith('/')) return reply.redirect(`${path}/${request.url.slice(path.length)}`, 301);

    const site = await siteAt(ctx.db, siteSegment);
    if (!site) return sendNotFound(reply);
    const query = request.query as Record<string, unknown>;
    const access = await resolveVisitor(ctx, site, { query, cookies: request.cookies });
    if (!access.allowed) {
      if (access.reason === 'visitor-auth' && access.loginUrl) return reply.redirect(loginRedirect(access.loginUrl, `${ctx.config.publicUrl}${request.url}`), 302);
      return sendNotFound(reply);
    }
    // What opened the site travels in a cookie afterwards, so links need not carry the secret.
    const cookiePath = `${SITES_PREFIX}${encodeURIComponent(siteSegment)}/`;
    const cookieOptions = { path: cookiePath, httpOnly: true, sameSite: 'lax' as const, secure: ctx.config.publicUrl.startsWith('https:') };
    if (access.shareKey && query[SHARE_KEY_PARAM] !== undefined) reply.setCookie(SHARE_KEY_COOKIE, access.shareKey, cookieOptions);
    if (access.token && query[VISITOR_TOKEN_PARAM] !== undefined) reply.setCookie(VISITOR_TOKEN_COOKIE, access.token, cookieOptions);
    const open = site.visibility === 'public' || site.visibility === 'unlisted';
    reply.header('cache-control', open ? 'public, max-age=0, must-revalidate' : 'private, no-cache').header('vary', 'cookie');

    const view = await viewOfSite(ctx, site, access.visitor);
    const last = rest[rest.length - 1] ?? '';
    if (rest.length === 1 && MACHINE_FILES.has(last)) return sendMachineFile(reply, view, last, query);

    const markdown = last.endsWith('.md') && last.length > 3;
    const pageSegments = markdown ? [...rest.slice(0, -1), last.slice(0, -3)] : rest;
    const located = await locatePage(ctx, view, pageSegments);
    if (!located) return sendNotFound(reply, view);

    const noindex = noindexOf(site, located.node);
    if (noindex) reply.header('x-robots-tag', 'noindex');
    const key = renderKey([
      markdown ? 'md' : 'html',
      ctx.config.publicUrl,
      site.id,
      site.updated_at,
      view.fingerprint,
      located.variant.id,
      located.variant.revisionId,
      located.node.page.id,
      access.visitor.claims,
      // Pages may render the organization's OpenAPI specs (render-openapi.tsx): a new version renders anew.
      await specsFingerprint(ctx.db, site.organization_id),
    ]);
    const etag = `"${key}"`;
    reply.header('etag', etag).header('content-type', markdown ? 'text/markdown; charset=utf-8' : 'text/html; charset=utf-8');
    if (matchesEtag(request.headers['if-none-match'], etag)) return reply.status(304).send();
    const body = await cachedRender(ctx.db, key, async () => {
      if (!markdown) return renderPage(await pageModel(ctx, view, located));
      const document = (await readPublishedDocument(ctx, located.node.page.documentId)) as Document | undefined;
      return pageMarkdown(located.node, document, linksOf(located.pages), view.holds, new URL(ctx.config.publicUrl).origin);
    });
    return reply.send(body);
  });

  /** The styled 404: in the site's chrome when the visitor may read the site, else a bare one naming nothing. */
  async function sendNotFound(reply: FastifyReply, view?: SiteView) {
    const chrome = view ? chromeOf(view, { page: () => null, file: () => null, anchor: () => null }) : undefined;
    const html = await notFoundPage(chrome ? { ...chrome, tree: [] } : { site: { title: 'Documentation', href: '/' }, customization: {}, header: { links: [] }, tree: [] });
    return reply.status(404).header('content-type', 'text/html; charset=utf-8').header('cache-control', 'no-store').header('x-robots-tag', 'noindex').send(html);
  }

  async function sendMachineFile(reply: FastifyReply, view: SiteView, name: string, query: Record<string, unknown>) {
    const sitePath = new URL(view.baseUrl).pathname;
    const variants: (ListedVariant & { nodes: Awaited<ReturnType<typeof listedNodes>> })[] = [];
    const listedNodes = async (variant: SiteView['visible']['sections'][number]['variants'][number]) => {
      const pages = await pagesOfVariant(ctx, view, variant);
      return { pages, order: readingOrder(listedTree(pages.visible)) };
    };
    for (const section of view.visible.sections) {
      for (const variant of section.variants) {
        const nodes = await listedNodes(variant);
        const title = section.id === null ? variant.title : section.variants.length > 1 ? `${section.title}: ${variant.title}` : section.title;
        const pages = nodes.order.map((node) => ({
          title: node.page.title,
          url: `${new URL(ctx.config.publicUrl).origin}${variant.url}${node.path.split('/').map(encodeURIComponent).join('/')}`,
          ...(node.page.attributes.description ? { description: node.page.attributes.description } : {}),
        }));
        variants.push({ title, pages, nodes });
      }
    }
    const origin = new URL(ctx.config.publicUrl).origin;
    if (name === 'robots.txt') {
      const disallowed = variants.flatMap((v) => v.nodes.order.filter((n) => n.page.attributes.noRobotsIndex).map((n) => v.nodes.pages.url(n)));
      return reply.type('text/plain; charset=utf-8').send(robotsTxt(view.site, sitePath, disallowed, `${view.baseUrl}sitemap.xml`));
    }
    if (name === 'sitemap.xml') {
      const urls = view.site.visibility === 'public' ? variants.flatMap((v) => v.nodes.order.filter(indexable).map((n) => `${origin}${v.nodes.pages.url(n)}`)) : [];
      return reply.type('application/xml; charset=utf-8').send(sitemapXml([...new Set(urls)]));
    }
    if (name === 'search.json') {
      // Titles and descriptions of the pages this visitor sees; the site search engine (issue of search) will
      // answer here with full-text results in the same shape: { items: [{ title, href, excerpt? }] }.
      const words = (typeof query.query === 'string' ? query.query : '').toLowerCase().split(/\s+/).filter(Boolean);
      const items =
        words.length === 0
          ? []
          : variants
              .flatMap((v) => v.nodes.order.map((n) => ({ node: n, href: v.nodes.pages.url(n) })))
              .filter(({ node }) => words.every((w) => `${node.page.title} ${node.page.attributes.description ?? ''}`.toLowerCase().includes(w)))
              .slice(0, SEARCH_LIMIT)
              .map(({ node, href }) => ({ title: node.page.title, href, ...(node.page.attributes.description ? { excerpt: node.page.attributes.description } : {}) }));
      return reply.header('cache-control', 'private, no-cache').send({ items });
    }
    if (name === 'llms.txt') {
      return reply.type('text/markdown; charset=utf-8').send(llmsTxt(view.customization.title ?? view.site.title, undefined, variants));
    }
    const parts: string[] = [];
    for (const v of variants) {
      for (const node of v.nodes.order) {
        const document = (await readPublishedDocument(ctx, node.page.documentId)) as Document | undefined;
        parts.push(pageMarkdown(node, document, linksOf(v.nodes.pages), view.holds, origin));
      }
    }
    return reply.type('text/markdown; charset=utf-8').send(parts.join('\n---\n\n'));
  }
}

/** The URL's segments after `/sites/`, decoded; undefined when one is not valid percent-encoding. */
function decodeSegments(raw: string): string[] | undefined {
  try {
    return raw.split('/').map((segment) => decodeURIComponent(segment));
  } catch {
    return undefined;
  }
}

/** The site's login URL with where the visitor was going, so it can send them back with a token. */
function loginRedirect(loginUrl: string, location: string): string {
  try {
    const url = new URL(loginUrl);
    url.searchParams.set('location', location);
    return url.toString();
  } catch {
    return loginUrl;
  }
}
