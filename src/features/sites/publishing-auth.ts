import type { AppContext, Caller } from '../../platform/context.ts';
import { badRequest } from '../../platform/errors.ts';
import { isoNow } from '../../platform/clock.ts';
import { recordEvent } from '../../platform/events.ts';
import { recordAudit } from '../audit/record.ts';
import { loadSite, newSigningSecret } from './service.ts';
import { updateSite, type SiteRow } from './store.ts';

/**
 * The visitor authentication settings of a site (GitBook's "publishing auth"): the private key that signs
 * visitor tokens (HS256), the fallback URL a visitor without a valid token is sent to, and, as an extension,
 * a JWKS URL whose public keys verify tokens instead of the private key. The key is a secret: admins only.
 */
function present(site: SiteRow) {
  return {
    object: 'publishing-auth' as const,
    backend: 'custom' as const,
    privateKey: site.visitor_auth_secret,
    ...(site.visitor_auth_fallback_url ? { fallbackURL: site.visitor_auth_fallback_url } : {}),
    ...(site.visitor_auth_jwks_url ? { jwksUrl: site.visitor_auth_jwks_url } : {}),
  };
}

function httpUrl(value: string, field: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw badRequest(`${field} must be an absolute URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw badRequest(`${field} must be an http(s) URL`);
  return url.toString();
}

export async function getPublishingAuth(ctx: AppContext, caller: Caller, organizationId: string, siteId: string) {
  const { site } = await loadSite(ctx, caller, organizationId, siteId, 'manage', 'Reading the visitor authentication settings');
  return present(site);
}

export async function updatePublishingAuth(
  ctx: AppContext,
  caller: Caller,
  organizationId: string,
  siteId: string,
  body: { backend?: string | undefined; fallbackURL?: string | null | undefined; jwksUrl?: string | null | undefined },
) {
  const { site } = await loadSite(ctx, caller, organizationId, siteId, 'manage', 'Changing the visitor authentication settings');
  if (body.backend === 'integration') throw badRequest('body/backend: this server has no authentication integrations; use "custom"');
  const changes: Partial<SiteRow> = { updated_at: isoNow(ctx.clock) };
  if (body.fallbackURL !== undefined) changes.visitor_auth_fallback_url = body.fallbackURL === null ? null : httpUrl(body.fallbackURL, 'body/fallbackURL');
  if (body.jwksUrl !== undefined) changes.visitor_auth_jwks_url = body.jwksUrl === null ? null : httpUrl(body.jwksUrl, 'body/jwksUrl');
  await ctx.db.transaction().execute(async (trx) => {
    await updateSite(trx, site.id, changes);
    await recordEvent(trx, ctx.clock, 'site_visitor_auth_updated', organizationId, { siteId });
    // Which settings changed, never their values' secrets (the URLs are not secret).
    await recordAudit(ctx, trx, site.organization_id, caller, {
      action: 'site.visitor_auth_changed',
      target: { type: 'site', id: site.id, label: site.title },
      details: { ...(body.fallbackURL !== undefined ? { fallbackURL: body.fallbackURL } : {}), ...(body.jwksUrl !== undefined ? { jwksUrl: body.jwksUrl } : {}) },
    });
  });
  return present({ ...site, ...changes });
}

/** A new private key: tokens signed with the old one stop working at once. */
export async function regeneratePublishingAuth(ctx: AppContext, caller: Caller, organizationId: string, siteId: string) {
  const { site } = await loadSite(ctx, caller, organizationId, siteId, 'manage', 'Regenerating the visitor authentication key');
  const changes = { visitor_auth_secret: newSigningSecret(), updated_at: isoNow(ctx.clock) };
  await ctx.db.transaction().execute(async (trx) => {
    await updateSite(trx, site.id, changes);
    await recordEvent(trx, ctx.clock, 'site_visitor_auth_updated', organizationId, { siteId, regenerated: true });
    await recordAudit(ctx, trx, site.organization_id, caller, { action: 'site.visitor_auth_changed', target: { type: 'site', id: site.id, label: site.title }, details: { privateKey: 'regenerated' } });
  });
  return present({ ...site, ...changes });
}
