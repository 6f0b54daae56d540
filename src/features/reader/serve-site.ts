import { Readable } from 'node:stream';
import { parse as parseCookies, serialize as serializeCookie } from 'cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { PageNode } from '../content/tree.ts';
import { contentDisposition, printPages } from '../pdf/service.ts';
import { redirectStatus } from '../sites/redirect-paths.ts';
import { PREVIEW_COOKIE, PREVIEW_LIFETIME_SECONDS, PREVIEW_PARAM, SHARE_KEY_COOKIE, SHARE_KEY_PARAM, VISITOR_TOKEN_COOKIE, VISITOR_TOKEN_PARAM, siteUrl } from '../sites/urls.ts';
import { resolveVisitor } from '../sites/visitor-access.ts';
import type { AppContext } from '../../platform/context.ts';
import { notFoundPage, renderPage } from './layout.tsx';
import { indexable, llmsTxt, pageMarkdown, robotsTxt, sitemapXml, type ListedVariant } from './machine-readable.ts';
import { answerMcp, MCP_PATH, type SiteAgent } from './mcp.ts';
import { cachedRender, matchesEtag, preferredEncoding, renderKey, type Rendered } from './render-cache.ts';
import { HighlightBudget } from './highlight-budget.ts';
import { chromeOf, customizationOfVariant, documentOfPage, linksOf, locatePage, noindexOf, pageModel, pagesOfVariant, PDF_PATH, ASK_PATH, ASK_FEEDBACK_PATH, redirectedPageUrl, siteRedirectUrl, sitePagesOf, viewOfSite, type LocatedPage, type SiteView } from './service.ts';
import type { SiteState } from './site-state.ts';
import { listedTree, readingOrder } from './site-view.ts';
import { searchVisibleSite } from './visitor-search.ts';
import { sendAskFeedback, sendVisitorAsk } from './visitor-ask.ts';

/*
 * One request to a published site, whichever way it came: under `PUBLIC_URL/sites/<site>/` (routes.ts) or on
 * the site's custom hostname (routes.ts, `siteHostRouting`). `rest` is the URL's path below the site's root,
 * decoded, in segments:
 *   [<section>/][<variant>/][<page path>]   a page (HTML), or its markdown with `.md` appended
 *   sitemap.xml, robots.txt, llms.txt, llms-full.txt, search.json
 *   ~gitbook/mcp                            the site's MCP endpoint (mcp.ts), when agentsContext is included
 *   ~gitbook/pdf?page=<id>[&only=yes]       a PDF of what this visitor reads, when customization.pdf.enabled
 *   ~gitbook/pdf[?variant=<site-space id>]
 *   ~gitbook/ask?question=<text>[&previous=<answer id>]   the site's Ask, streamed (visitor-ask.ts), when a model is configured
 *   ~gitbook/ask/feedback                   POST { answer, rating }: a reader's thumbs up (1) or down (-1)
 */

const MACHINE_FILES = new Set(['sitemap.xml', 'robots.txt', 'llms.txt', 'llms-full.txt', 'search.json']);
const SEARCH_LIMIT = 20;

/** How this request addresses the site: the path of its root here, and the origin of its URLs. */
export interface SiteMount {
  /** '/sites/<segment>/' under PUBLIC_URL, '/' on a custom hostname. */
  root: string;
  origin: string;
}

export async function serveSite(ctx: AppContext, request: FastifyRequest, reply: FastifyReply, state: SiteState, rest: string[], mount: SiteMount) {
  const { site } = state;
  const query = request.query as Record<string, unknown>;
  // Parsed here, not by a cookie plugin: its hooks would run on every API request too (the host routing sees them all).
  const cookies = request.headers.cookie ? parseCookies(request.headers.cookie) : {};
  const mcp = rest.length === MCP_PATH.length && rest.every((segment, i) => segment === MCP_PATH[i]);
  const askFeedback = rest.length === ASK_FEEDBACK_PATH.length && rest.every((segment, i) => segment === ASK_FEEDBACK_PATH[i]);
  if (request.method !== 'GET' && request.method !== 'HEAD' && !mcp && !(askFeedback && request.method === 'POST')) return sendNotFound(reply);
  // An agent may carry its visitor token as a bearer token rather than in the URL.
  const bearer = mcp ? /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1] : undefined;
  const access = await resolveVisitor(ctx, site, { query: bearer && query[VISITOR_TOKEN_PARAM] === undefined ? { ...query, [VISITOR_TOKEN_PARAM]: bearer } : query, cookies, cookieHeader: request.headers.cookie });
  if (!access.allowed) {
    if (mcp) return sendMcpNotFound(reply);
    if (access.reason === 'visitor-auth' && access.loginUrl) return reply.redirect(loginRedirect(access.loginUrl, `${mount.origin}${request.url}`), 302);
    return sendNotFound(reply);
  }
  // What opened the site travels in a cookie afterwards, so links need not carry the secret.
  const cookieOptions = { path: mount.root, httpOnly: true, sameSite: 'lax' as const, secure: mount.origin.startsWith('https:') };
  if (access.shareKey && query[SHARE_KEY_PARAM] !== undefined) reply.header('set-cookie', serializeCookie(SHARE_KEY_COOKIE, access.shareKey, cookieOptions));
  if (access.token && query[VISITOR_TOKEN_PARAM] !== undefined) reply.header('set-cookie', serializeCookie(VISITOR_TOKEN_COOKIE, access.token, cookieOptions));
  // A preview's cookie lasts as long as its token (sites/preview.ts); what it shows is for its holder only.
  if (access.preview && query[PREVIEW_PARAM] !== undefined) reply.header('set-cookie', serializeCookie(PREVIEW_COOKIE, access.preview, { ...cookieOptions, maxAge: PREVIEW_LIFETIME_SECONDS }));
  const open = !access.preview && site.published === 1 && (site.visibility === 'public' || site.visibility === 'unlisted');
  reply.header('cache-control', open ? 'public, max-age=0, must-revalidate' : 'private, no-cache').header('vary', 'cookie');
  if (access.preview) reply.header('x-robots-tag', 'noindex');

  const view = viewOfSite(ctx, state, access.visitor);
  if (mcp) return site.agents_context === 'included' ? sendMcp(ctx, request, reply, view, mount) : sendMcpNotFound(reply);
  const last = rest[rest.length - 1] ?? '';
  if (rest.length === 1 && MACHINE_FILES.has(last)) return sendMachineFile(ctx, reply, view, last, query);
  if (rest.length === PDF_PATH.length && rest.every((segment, i) => segment === PDF_PATH[i])) return sendPdf(ctx, reply, view, query);
  if (rest.length === ASK_PATH.length && rest.every((segment, i) => segment === ASK_PATH[i])) return sendVisitorAsk(ctx, request, reply, view, query);
  if (askFeedback) return request.method === 'POST' ? sendAskFeedback(ctx, request, reply, view) : sendNotFound(reply);

  const markdown = last.endsWith('.md') && last.length > 3;
  const pageSegments = markdown ? [...rest.slice(0, -1), last.slice(0, -3)] : rest;
  const located = await locatePage(ctx, view, pageSegments);
  if (!located) {
    // A site redirect (set through the API, and so changeable) answers 302 unless made permanent
    // (redirect-paths.ts); a page moved away (a `.gitbook.yaml` redirect kept by Git Sync, which moves with the
    // content) 301 to where it went.
    const redirected = await siteRedirectUrl(ctx, view, rest);
    if (redirected) return reply.redirect(redirected.url, redirectStatus(redirected.permanent, open));
    const moved = await redirectedPageUrl(ctx, view, pageSegments);
    return moved ? reply.redirect(moved, 301) : sendNotFound(reply, view);
  }

  if (noindexOf(site, located.node)) reply.header('x-robots-tag', 'noindex');
  // Everything the page is made of: the site's state (its settings, structure and published revisions), the
  // page, the visitor's claims (adaptive content) and the format.
  const key = pageKeyOf(view, `${markdown ? 'md' : 'html'} ${located.variant.id} ${located.node.page.id}`);
  const wanted = preferredEncoding(request.headers['accept-encoding']);
  reply.header('vary', 'cookie, accept-encoding').header('content-type', markdown ? 'text/markdown; charset=utf-8' : 'text/html; charset=utf-8');
  // Any representation the client holds of this key is the same page (a short page is never compressed).
  for (const etag of [`"${key}"`, ...(wanted ? [`"${key}-${wanted}"`] : [])]) {
    if (matchesEtag(request.headers['if-none-match'], etag)) return reply.header('etag', etag).status(304).send();
  }
  const { body, encoding, cached } = await cachedRender(ctx.db, key, () => (markdown ? renderMarkdown(ctx, view, located) : renderHtml(ctx, view, located)), wanted);
  // A page whose code is still being highlighted is not the page: no ETag to revalidate it by, nothing kept.
  if (cached) reply.header('etag', `"${key}${encoding ? `-${encoding}` : ''}"`);
  else reply.header('cache-control', 'no-store');
  if (encoding) reply.header('content-encoding', encoding);
  return reply.send(body);
}

/** Keys of a view's pages, computed once per view (a view is one site state and one set of claims). */
const pageKeys = new WeakMap<SiteView, Map<string, string>>();
const PAGE_KEYS_PER_VIEW = 10_000;

function pageKeyOf(view: SiteView, page: string): string {
  let keys = pageKeys.get(view);
  if (!keys) pageKeys.set(view, (keys = new Map()));
  let key = keys.get(page);
  if (key === undefined) {
    key = renderKey(`${view.version} ${page} ${JSON.stringify(view.visitor.claims)}`);
    if (keys.size < PAGE_KEYS_PER_VIEW) keys.set(page, key);
  }
  return key;
}

/** The page's HTML; incomplete when the highlighting budget left code blocks plain (highlight-budget.ts). */
async function renderHtml(ctx: AppContext, view: SiteView, located: LocatedPage): Promise<Rendered> {
  const highlighting = new HighlightBudget();
  const text = await renderPage(await pageModel(ctx, view, located, highlighting));
  return { text, complete: highlighting.complete };
}

async function renderMarkdown(ctx: AppContext, view: SiteView, located: LocatedPage): Promise<Rendered> {
  return { text: await markdownOf(ctx, view, located), complete: true };
}

async function markdownOf(ctx: AppContext, view: SiteView, located: LocatedPage): Promise<string> {
  const document = await documentOfPage(ctx, located.pages, located.node);
  const links = linksOf(await sitePagesOf(ctx, view, located.pages, located.section));
  return pageMarkdown(located.node, document, links, view.holds, new URL(view.baseUrl).origin);
}

/** The styled 404: in the site's chrome when the visitor may read the site, else a bare one naming nothing. */
export async function sendNotFound(reply: FastifyReply, view?: SiteView) {
  const chrome = view ? chromeOf(view, { page: () => null, file: () => null, anchor: () => null }) : undefined;
  const html = await notFoundPage(chrome ? { ...chrome, tree: [] } : { site: { title: 'Documentation', href: '/' }, customization: {}, header: { links: [] }, tree: [] });
  return reply.status(404).header('content-type', 'text/html; charset=utf-8').header('cache-control', 'no-store').header('x-robots-tag', 'noindex').send(html);
}

/** An agent is answered in JSON, in the API's error shape; it names nothing of the site either. */
function sendMcpNotFound(reply: FastifyReply) {
  return reply
    .status(404)
    .header('cache-control', 'no-store')
    .send({ error: { code: 404, message: 'No MCP endpoint here: the site is not published to this visitor, or not open to agents (agentsContext)' } });
}

/** The pages each visible variant lists, in reading order, with their absolute URLs. */
async function listedVariants(ctx: AppContext, view: SiteView) {
  const origin = new URL(view.baseUrl).origin;
  const variants: (ListedVariant & { pages: ListedVariant['pages']; nodes: { pages: Awaited<ReturnType<typeof pagesOfVariant>>; order: ReturnType<typeof readingOrder> } })[] = [];
  for (const section of view.visible.sections) {
    for (const variant of section.variants) {
      const pages = await pagesOfVariant(ctx, view, variant);
      const order = readingOrder(listedTree(pages.visible));
      const title = section.id === null ? variant.title : section.variants.length > 1 ? `${section.title}: ${variant.title}` : section.title;
      const listed = order.map((node) => ({
        title: node.page.title,
        url: `${origin}${variant.url}${node.path.split('/').map(encodeURIComponent).join('/')}`,
        ...(node.page.attributes.description ? { description: node.page.attributes.description } : {}),
      }));
      variants.push({ title, pages: listed, nodes: { pages, order } });
    }
  }
  return variants;
}

async function sendMachineFile(ctx: AppContext, reply: FastifyReply, view: SiteView, name: string, query: Record<string, unknown>) {
  if (name === 'search.json') {
    const text = typeof query.query === 'string' ? query.query : '';
    const items = await searchVisibleSite(ctx, view, text, SEARCH_LIMIT);
    return reply.header('cache-control', 'private, no-cache').send({ items });
  }
  const sitePath = new URL(view.baseUrl).pathname;
  const origin = new URL(view.baseUrl).origin;
  const variants = await listedVariants(ctx, view);
  if (name === 'robots.txt') {
    const disallowed = variants.flatMap((v) => v.nodes.order.filter((n) => n.page.attributes.noRobotsIndex).map((n) => v.nodes.pages.url(n)));
    return reply.type('text/plain; charset=utf-8').send(robotsTxt(view.site, sitePath, disallowed, `${view.baseUrl}sitemap.xml`));
  }
  if (name === 'sitemap.xml') {
    const urls = view.site.visibility === 'public' ? variants.flatMap((v) => v.nodes.order.filter(indexable).map((n) => `${origin}${v.nodes.pages.url(n)}`)) : [];
    return reply.type('application/xml; charset=utf-8').send(sitemapXml([...new Set(urls)]));
  }
  if (name === 'llms.txt') {
    return reply.type('text/markdown; charset=utf-8').send(llmsTxt(view.customization.title ?? view.site.title, undefined, variants));
  }
  const parts: string[] = [];
  for (const v of variants) {
    for (const node of v.nodes.order) {
      const document = await documentOfPage(ctx, v.nodes.pages, node);
      parts.push(pageMarkdown(node, document, linksOf(v.nodes.pages), view.holds, origin));
    }
  }
  return reply.type('text/markdown; charset=utf-8').send(parts.join('\n---\n\n'));
}

/**
 * A PDF of what this visitor may read (no API token: the site's visibility admitted them): a page with its
 * listed sub-pages (or alone with `only=yes`), else every listed page of a variant (the default one unless
 * `variant` names another). Pages and content whose condition fails, and hidden pages, are left out, as in
 * the sidebar; a hidden page asked for by its id prints, as its URL shows it.
 */
async function sendPdf(ctx: AppContext, reply: FastifyReply, view: SiteView, query: Record<string, unknown>) {
  // Nothing to print on a site where no variant has PDF export on: answered before any page is read.
  if (![view.customization, ...view.variantCustomizations.values()].some((c) => c.pdf.enabled === true)) return sendNotFound(reply, view);
  const pageId = typeof query.page === 'string' && query.page ? query.page : undefined;
  const variantId = typeof query.variant === 'string' && query.variant ? query.variant : undefined;
  const only = query.only === 'yes' || query.only === 'true' || query.only === '1';
  const variants = view.visible.sections.flatMap((section) => section.variants);
  let scope: { roots: PageNode[]; pages: Awaited<ReturnType<typeof pagesOfVariant>> } | undefined;
  if (pageId) {
    for (const variant of variants) {
      const pages = await pagesOfVariant(ctx, view, variant);
      const node = pages.byId.get(pageId);
      if (node) {
        scope = { pages, roots: [{ ...node, children: only ? [] : listedTree(node.children) }] };
        break;
      }
    }
  } else {
    const defaultSection = view.visible.sections.find((s) => s.isDefault) ?? view.visible.sections[0];
    const variant = variantId ? variants.find((v) => v.id === variantId) : (defaultSection?.variants.find((v) => v.isDefault) ?? defaultSection?.variants[0]);
    if (variant) {
      const pages = await pagesOfVariant(ctx, view, variant);
      scope = { pages, roots: listedTree(pages.visible) };
    }
  }
  // The variant printed decides, by its customization (its own override, else the site's).
  const customization = scope ? customizationOfVariant(view, scope.pages.variant.id) : undefined;
  if (!scope || customization?.pdf.enabled !== true) return sendNotFound(reply, view);
  const title = customization.title ?? view.site.title;
  const subtitle = variants.length > 1 ? scope.pages.variant.title : undefined;
  const doc = printPages(ctx, { content: scope.pages.content, roots: scope.roots, title, subtitle, evaluateCondition: view.holds });
  return reply
    .header('content-type', 'application/pdf')
    .header('content-disposition', contentDisposition(`${title}.pdf`))
    .header('x-robots-tag', 'noindex')
    .send(doc);
}

/** The tools of the MCP endpoint, acting for this visitor. */
function agentOf(ctx: AppContext, view: SiteView): SiteAgent {
  const origin = new URL(view.baseUrl).origin;
  const sitePath = new URL(view.baseUrl).pathname;
  const markdownOfNode = async (located: LocatedPage) => markdownOf(ctx, view, located);
  return {
    title: view.customization.title ?? view.site.title,
    absolute: (href) => (href.startsWith('/') ? `${origin}${href}` : href),
    search: (text) => searchVisibleSite(ctx, view, text, SEARCH_LIMIT),
    listPages: async () => llmsTxt(view.customization.title ?? view.site.title, undefined, await listedVariants(ctx, view)),
    async readPage({ path, id }) {
      if (path !== undefined) {
        const segments = pathBelowSite(path, origin, sitePath);
        if (!segments) return undefined;
        const last = segments[segments.length - 1] ?? '';
        if (last.endsWith('.md')) segments[segments.length - 1] = last.slice(0, -3);
        const located = await locatePage(ctx, view, segments);
        return located ? markdownOfNode(located) : undefined;
      }
      for (const section of view.visible.sections) {
        for (const variant of section.variants) {
          const pages = await pagesOfVariant(ctx, view, variant);
          const node = id ? pages.byId.get(id) : undefined;
          if (node) return markdownOfNode({ section, variant, pages, node });
        }
      }
      return undefined;
    },
  };
}

/** A page's URL or path as segments below the site's root; undefined for a URL of another site or host. */
function pathBelowSite(path: string, origin: string, sitePath: string): string[] | undefined {
  let below = path.trim();
  if (/^https?:\/\//i.test(below)) {
    let url: URL;
    try {
      url = new URL(below);
    } catch {
      return undefined;
    }
    if (url.origin !== origin || !url.pathname.startsWith(sitePath)) return undefined;
    below = url.pathname.slice(sitePath.length);
  } else if (below.startsWith(sitePath)) {
    below = below.slice(sitePath.length);
  }
  below = below.split(/[?#]/)[0]!;
  try {
    return below.split('/').filter(Boolean).map((segment) => decodeURIComponent(segment));
  } catch {
    return undefined;
  }
}

async function sendMcp(ctx: AppContext, request: FastifyRequest, reply: FastifyReply, view: SiteView, mount: SiteMount) {
  // Stateless: no session to end, and no stream for the server to push on (clients expect a 405 then).
  if (request.method !== 'POST') {
    return reply.status(405).header('allow', 'POST').header('cache-control', 'no-store').send({ error: { code: 405, message: 'The MCP endpoint takes POST requests only (stateless streamable HTTP)' } });
  }
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  const url = `${mount.origin}${request.url}`;
  // Under /sites/ Fastify has read the JSON body; on a custom hostname (answered before parsing) the stream is whole.
  const parsed = request.body !== undefined;
  const hasBody = request.method === 'POST';
  const webRequest = new Request(url, {
    method: request.method,
    headers,
    ...(hasBody && !parsed ? { body: Readable.toWeb(request.raw) as ReadableStream, duplex: 'half' } : {}),
  } as RequestInit);
  const response = await answerMcp(webRequest, agentOf(ctx, view), parsed ? request.body : undefined);
  reply.status(response.status).header('cache-control', 'no-store');
  response.headers.forEach((value, name) => void reply.header(name, value));
  const body = await response.text();
  return reply.send(body === '' ? undefined : body);
}

/** Where a `/sites/<site>/…` request goes when the site has a custom hostname: the same place there. */
export function customHostLocation(ctx: AppContext, site: SiteState['site'], rest: readonly string[], requestUrl: string): string {
  const search = requestUrl.includes('?') ? requestUrl.slice(requestUrl.indexOf('?')) : '';
  return `${siteUrl(ctx.config, site)}${rest.map(encodeURIComponent).join('/')}${search}`;
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
