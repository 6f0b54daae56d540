import { SignJWT } from 'jose';
import type { AppContext, Caller } from '../../platform/context.ts';
import { badRequest } from '../../platform/errors.ts';
import { presentTree } from './present.ts';
import { parseRison, RisonError } from './rison.ts';
import { loadSite, readTree } from './service.ts';
import { PREVIEW_LIFETIME_SECONDS, PREVIEW_PARAM, previewAudience, siteUrl } from './urls.ts';

export interface PreviewQuery {
  siteSpace?: string | undefined;
  claims?: string | undefined;
  draft?: boolean | undefined;
  target?: string | undefined;
}

/**
 * getSitePublishingPreviewById: a URL that shows the site to whoever holds it for an hour, as a visitor with
 * `claims` (adaptive content) would see it: at the site-space asked for (else the default one), or at `target`,
 * a URL of the site. The URL carries a token signed with the site's visitor-auth key for a preview audience;
 * the reader lets it in whatever the site's visibility, and while the site is not published yet (its draft):
 * `draft=false` asks for the published site only, so an unpublished site has nothing to preview then.
 * Regenerating the site's visitor-auth key ends every preview URL given before. A preview lets its holder
 * read the whole site, as a share link does: organization admins (`manage`) only.
 */
export async function createSitePreview(ctx: AppContext, caller: Caller, organizationId: string, siteId: string, query: PreviewQuery) {
  const { site } = await loadSite(ctx, caller, organizationId, siteId, 'manage', 'Previewing a site');
  if (query.draft === false && site.published !== 1) throw badRequest('querystring/draft: the site is not published, and without its draft there is nothing to preview');
  const claims = query.claims === undefined ? {} : claimsOf(query.claims);
  const root = siteUrl(ctx.config, site);
  let url = root;
  if (query.siteSpace !== undefined) {
    // The URLs the site-spaces will have: those of the site as if it were published.
    const tree = presentTree(ctx.config, { ...(await readTree(ctx.db, site)), site: { ...site, published: 1 } }, () => null);
    const siteSpace = tree.siteSpaces.get(query.siteSpace);
    if (!siteSpace?.urls.published) throw badRequest(`querystring/siteSpace: no site-space ${query.siteSpace} in site ${site.id}`);
    url = siteSpace.urls.published;
  }
  if (query.target !== undefined) url = targetInSite(query.target, root);
  const now = Math.floor(ctx.clock.now().getTime() / 1000);
  const token = await new SignJWT({ claims })
    .setProtectedHeader({ alg: 'HS256' })
    .setAudience(previewAudience(site.id))
    .setIssuedAt(now)
    .setExpirationTime(now + PREVIEW_LIFETIME_SECONDS)
    .sign(new TextEncoder().encode(site.visitor_auth_secret));
  const preview = new URL(url);
  preview.searchParams.set(PREVIEW_PARAM, token);
  return { url: preview.toString() };
}

function claimsOf(text: string): Record<string, unknown> {
  let claims: unknown;
  try {
    claims = parseRison(text);
  } catch (error) {
    if (error instanceof RisonError) throw badRequest(`querystring/claims is not Rison: it ${error.message}`);
    throw error;
  }
  if (!claims || typeof claims !== 'object' || Array.isArray(claims)) throw badRequest('querystring/claims must be a Rison object, e.g. (role:admin)');
  return claims as Record<string, unknown>;
}

/** A target is a URL of the site (its origin, under its root path): a preview opens nothing else. */
function targetInSite(target: string, root: string): string {
  let url: URL;
  try {
    url = new URL(target, root);
  } catch {
    throw badRequest('querystring/target must be a URL of the site');
  }
  const base = new URL(root);
  if (url.origin !== base.origin || !`${url.pathname}/`.startsWith(base.pathname)) throw badRequest(`querystring/target must be a URL of the site (under ${root})`);
  return url.toString();
}
