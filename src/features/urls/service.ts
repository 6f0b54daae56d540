import { createHash } from 'node:crypto';
import type { AppContext, Caller } from '../../platform/context.ts';
import { badRequest, notFound } from '../../platform/errors.ts';
import { visitorContext, type VisitorContext } from '../adaptive/conditions.ts';
import { pagesOfVariant, redirectedPageUrl, siteRedirectUrl, viewOfSite } from '../reader/service.ts';
import { siteStateAt, siteStateOfHost } from '../reader/site-state.ts';
import { siteUrl, VISITOR_TOKEN_PARAM } from '../sites/urls.ts';
import { resolveVisitor } from '../sites/visitor-access.ts';
import { signSiteReadToken } from './read-token.ts';
import { basePathOf, placeOf, siteAddressOf } from './site-address.ts';
import type { PublishedSiteContentLookup } from './schemas.ts';

/** What a caller asks to resolve: the URL, and the visitor it is resolved for. */
export interface PublishedUrlRequest {
  url: string;
  /** Where the URL is in the request, for the message of a 400. */
  field: string;
  visitorToken?: string | undefined;
  unsignedClaims?: Record<string, unknown> | undefined;
  redirectOnError?: boolean | undefined;
}

export function parseUrl(text: string, field: string): URL {
  if (!URL.canParse(text)) throw badRequest(`${field} must be an absolute URL (e.g. https://docs.example.com/guide/)`);
  return new URL(text);
}

/**
 * getPublishedContentByUrl / resolvePublishedContentByUrl: the site, section, variant and space a published URL
 * reaches, as the reader would answer it to this visitor (the URL's share key, visitor token and `visitor.*`
 * claims, or the ones given beside it), with a read token for the content of the site's spaces this visitor
 * is shown. The caller's own rights change nothing: what a visitor may read is the site's visibility's
 * decision. A site this visitor may not read is a 404, as the reader's; with `redirectOnError`, a site with
 * visitor authentication sends them to its login URL instead.
 */
export async function resolvePublishedUrl(ctx: AppContext, _caller: Caller, request: PublishedUrlRequest): Promise<PublishedSiteContentLookup> {
  const url = parseUrl(request.url, request.field);
  const address = siteAddressOf(url, ctx.config.publicUrl);
  const unknown = () => notFound(`No published content at ${url.href}: it is no URL of a site published by this server`);
  if (!address) throw unknown();
  const state = address.kind === 'path' ? await siteStateAt(ctx, address.segment) : await siteStateOfHost(ctx, address.host);
  if (!state) throw unknown();
  const { site } = state;
  // The reader answers such a URL with a redirect to the site's domain; so does this.
  if (address.kind === 'path' && site.hostname) {
    return { target: 'content', redirect: `${siteUrl(ctx.config, site)}${address.rest.map(encodeURIComponent).join('/')}${url.search}` };
  }

  const query: Record<string, unknown> = Object.fromEntries(url.searchParams);
  if (request.visitorToken) query[VISITOR_TOKEN_PARAM] = request.visitorToken;
  const access = await resolveVisitor(ctx, site, { query, cookies: {} });
  if (!access.allowed) {
    if (access.reason === 'visitor-auth' && access.loginUrl && request.redirectOnError) return { target: 'external', site: site.id, redirect: loginRedirect(access.loginUrl, url.href) };
    if (access.reason === 'visitor-auth') throw notFound(`No published content at ${url.href} for this visitor: the site needs a valid visitor token (visitor authentication)`);
    throw unknown();
  }
  const visitor = withUnsignedClaims(access.visitor, request.unsignedClaims);
  const view = viewOfSite(ctx, state, visitor);
  const place = placeOf(view.visible, address.rest);
  if (!place) throw notFound(`No published content at ${url.href}: the site shows nothing to this visitor`);

  const pages = await pagesOfVariant(ctx, view, place.variant);
  const node = place.pagePath === '' ? pages.first : pages.byPath.get(place.pagePath);
  if (!node) {
    // A path that names no page: where the reader would send the visitor, if anywhere (a site redirect first).
    const redirected = (await siteRedirectUrl(ctx, view, address.rest))?.url ?? (await redirectedPageUrl(ctx, view, address.rest));
    if (redirected) return { target: 'content', redirect: new URL(redirected, view.baseUrl).toString() };
  }
  const origin = new URL(view.baseUrl).origin;
  const canonical = new URL(node ? pages.url(node) : `${place.variant.url}${place.pagePath.split('/').map(encodeURIComponent).join('/')}`, origin);
  const spaceIds = [...new Set(view.visible.sections.flatMap((section) => section.variants.map((variant) => variant.spaceId)))];
  const apiToken = await signSiteReadToken(ctx, { siteId: site.id, organizationId: site.organization_id, spaceIds, ...(access.preview ? { preview: true } : {}) });
  return {
    site: site.id,
    ...(place.section.id !== null ? { siteSection: place.section.id } : {}),
    siteSpace: place.variant.id,
    space: place.variant.spaceId,
    pathname: place.pagePath,
    basePath: basePathOf(address.root, place.consumed),
    siteBasePath: address.root,
    apiToken,
    organization: site.organization_id,
    ...(access.shareKey ? { shareKey: access.shareKey } : {}),
    complete: place.complete,
    // Changes with the claims that adaptive content reads, so a renderer's cache keyed by it follows them.
    ...(access.token ? { contextId: createHash('sha256').update(JSON.stringify(visitor.claims)).digest('base64url').slice(0, 24) } : {}),
    canonicalUrl: canonical.toString(),
    ...(access.preview ? { preview: true } : {}),
  };
}

/** Claims given beside the URL join those of its `visitor.*` parameters (the given ones win). */
function withUnsignedClaims(visitor: VisitorContext, given: Record<string, unknown> | undefined): VisitorContext {
  if (!given || Object.keys(given).length === 0) return visitor;
  const { unsigned, ...signed } = visitor.claims;
  return visitorContext(signed, { ...(unsigned as Record<string, unknown> | undefined), ...given });
}

/** The site's login URL with where the visitor was going, as the reader sends them there. */
function loginRedirect(loginUrl: string, location: string): string {
  if (!URL.canParse(loginUrl)) return loginUrl;
  const url = new URL(loginUrl);
  url.searchParams.set('location', location);
  return url.toString();
}
