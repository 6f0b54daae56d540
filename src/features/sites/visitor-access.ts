import type { Executor } from '../../db/types.ts';
import type { AppContext } from '../../platform/context.ts';
import { visitorContext, type VisitorContext } from '../adaptive/conditions.ts';
import { unsignedClaimsFromQuery, verifyVisitorToken, type VisitorAuthSettings } from '../adaptive/visitor.ts';
import { findShareLinkByKey, findSite, findSiteByBasename, findSiteByHostname, type SiteRow } from './store.ts';
import { sessionFromCookies, sessionMemberOf } from '../sessions/service.ts';
import { PREVIEW_COOKIE, PREVIEW_PARAM, previewAudience, SHARE_KEY_COOKIE, SHARE_KEY_PARAM, VISITOR_TOKEN_COOKIE, VISITOR_TOKEN_PARAM } from './urls.ts';

/** What the reader knows of a visitor's request. */
export interface VisitorRequest {
  query: Record<string, unknown>;
  cookies: Record<string, string | undefined>;
  /** The raw Cookie header, for the member session (features/sessions) that opens non-public sites to members. */
  cookieHeader?: string;
}

/**
 * Who the visitor is and whether they may read the site:
 * - `allowed: true` with their claims (`visitor.claims`, unsigned claims under `unsigned`), and what opened the
 *   site to them: the share key or the token to keep in a cookie, so the next page needs no query parameter;
 * - `allowed: false` with why: `unpublished` (the reader answers 404), `share-link` (no active key: 404 too,
 *   a secret URL must not be guessable), `visitor-auth` (no valid token: send them to `loginUrl`, the site's
 *   fallback URL, when there is one).
 */
export type VisitorAccess =
  | { allowed: true; visitor: VisitorContext; shareKey?: string; token?: string; preview?: string }
  | { allowed: false; reason: 'unpublished' | 'share-link' | 'visitor-auth'; loginUrl?: string };

function single(value: unknown): string | undefined {
  const last = Array.isArray(value) ? value[value.length - 1] : value;
  return typeof last === 'string' && last.length > 0 ? last : undefined;
}

/** How a site's visitor tokens are checked: with its JWKS when one is set, else with its signing secret. */
export function visitorAuthSettings(site: SiteRow): VisitorAuthSettings {
  return site.visitor_auth_jwks_url ? { jwksUrl: site.visitor_auth_jwks_url, audience: site.id } : { secret: site.visitor_auth_secret, audience: site.id };
}

/** The site a published URL names by its first segment: a basename, else an id. */
export async function siteAt(db: Executor, segment: string): Promise<SiteRow | undefined> {
  return (await findSiteByBasename(db, segment)) ?? (await findSite(db, segment));
}

/** The site whose custom hostname this is (a Host header's name, see urls.ts `hostOf`). */
export async function siteOfHostname(db: Executor, hostname: string): Promise<SiteRow | undefined> {
  return hostname ? findSiteByHostname(db, hostname) : undefined;
}

export async function resolveVisitor(ctx: AppContext, site: SiteRow, request: VisitorRequest): Promise<VisitorAccess> {
  const unsigned = unsignedClaimsFromQuery(request.query);
  // A preview (sites/preview.ts) opens the site, published or not, whatever its visibility, until it expires,
  // as the visitor its claims describe.
  const preview = single(request.query[PREVIEW_PARAM]) ?? single(request.cookies[PREVIEW_COOKIE]);
  const previewed = preview ? await verifyVisitorToken(ctx, { secret: site.visitor_auth_secret, audience: previewAudience(site.id) }, preview) : null;
  if (preview && previewed) {
    const claims = previewed.claims && typeof previewed.claims === 'object' && !Array.isArray(previewed.claims) ? (previewed.claims as Record<string, unknown>) : {};
    return { allowed: true, visitor: visitorContext(claims, unsigned), preview };
  }
  if (site.published !== 1) return { allowed: false, reason: 'unpublished' };
  const token = single(request.query[VISITOR_TOKEN_PARAM]) ?? single(request.cookies[VISITOR_TOKEN_COOKIE]);
  // A token is optional on other sites, but when one is valid its claims still drive adaptive content.
  const claims = token ? await verifyVisitorToken(ctx, visitorAuthSettings(site), token) : null;
  // A member of the site's organization signed in through SSO reads its share-link and visitor-auth sites too.
  if (site.visibility === 'share-link' || site.visibility === 'visitor-auth') {
    const browser = await sessionFromCookies(ctx, request.cookieHeader);
    if (browser && (await sessionMemberOf(ctx.db, browser.session, site.organization_id))) return { allowed: true, visitor: visitorContext(claims, unsigned) };
  }

  if (site.visibility === 'share-link') {
    const key = single(request.query[SHARE_KEY_PARAM]) ?? single(request.cookies[SHARE_KEY_COOKIE]);
    const link = key ? await findShareLinkByKey(ctx.db, site.id, key) : undefined;
    if (!key || !link || link.active !== 1) return { allowed: false, reason: 'share-link' };
    return { allowed: true, visitor: visitorContext(claims, unsigned), shareKey: key, ...(claims && token ? { token } : {}) };
  }
  if (site.visibility === 'visitor-auth') {
    if (!claims || !token) return { allowed: false, reason: 'visitor-auth', ...(site.visitor_auth_fallback_url ? { loginUrl: site.visitor_auth_fallback_url } : {}) };
    return { allowed: true, visitor: visitorContext(claims, unsigned), token };
  }
  return { allowed: true, visitor: visitorContext(claims, unsigned), ...(claims && token ? { token } : {}) };
}
