import { resolve4, resolve6, resolveCname } from 'node:dns/promises';
import type { Config } from '../../config.ts';
import { isoNow } from '../../platform/clock.ts';
import type { AppContext, Caller } from '../../platform/context.ts';
import { conflict, isNotFound, notFound } from '../../platform/errors.ts';
import { apiUrl } from '../../platform/urls.ts';
import { recordEvent } from '../../platform/events.ts';
import { loadSite, type LoadedSite } from './service.ts';
import { findSiteByHostname, updateSite, type SiteRow } from './store.ts';
import { hostOf } from './urls.ts';

/*
 * The official custom-hostname operations on a site's custom domain (the `hostname` of updateSiteById): read it,
 * check its DNS again, take it away. A custom hostname of Quire is always a site's; an organization's `hostname`
 * is a name under this server, not a domain of its own.
 */

/** How DNS is asked: node's resolver, replaced by tests. */
export const hostnameDns = {
  resolveCname: (name: string): Promise<string[]> => resolveCname(name),
  resolveAddresses: async (name: string): Promise<string[]> => {
    const [v4, v6] = await Promise.allSettled([resolve4(name), resolve6(name)]);
    return [...(v4.status === 'fulfilled' ? v4.value : []), ...(v6.status === 'fulfilled' ? v6.value : [])];
  },
};

export type HostnameStatus = 'live' | 'dns_wrong_cname' | 'dns_no_cname';

const bare = (name: string) => name.toLowerCase().replace(/\.$/, '');

/**
 * Where the hostname's DNS leads: `live` when it names this server (a CNAME to PUBLIC_URL's host, or the same
 * addresses), `dns_wrong_cname` when its CNAME names another host, `dns_no_cname` when nothing leads here. TLS
 * is the operator's reverse proxy's work, outside what Quire can see: a name that leads here is live.
 */
export async function checkHostnameDns(config: Pick<Config, 'publicUrl'>, hostname: string): Promise<HostnameStatus> {
  const server = bare(new URL(config.publicUrl).hostname);
  const cnames = await hostnameDns.resolveCname(hostname).catch((): string[] => []);
  if (cnames.length > 0) return cnames.some((name) => bare(name) === server) ? 'live' : 'dns_wrong_cname';
  const [theirs, ours] = await Promise.all([hostnameDns.resolveAddresses(hostname).catch((): string[] => []), hostnameDns.resolveAddresses(server).catch((): string[] => [])]);
  return theirs.length > 0 && theirs.some((address) => ours.includes(address)) ? 'live' : 'dns_no_cname';
}

function presentHostname(config: Config, site: SiteRow) {
  return {
    object: 'custom-hostname' as const,
    hostname: site.hostname!,
    target: { type: 'site' as const, site: site.id },
    // The reader answers at the name for as long as the site is published.
    isActive: site.published === 1,
    ...(site.hostname_status ? { status: site.hostname_status as HostnameStatus } : {}),
    urls: { location: apiUrl(config, `/custom-hostnames/${encodeURIComponent(site.hostname!)}`) },
  };
}

/** The site whose custom hostname this is, loaded for `action`; 404 for whoever cannot see the site. */
async function loadHostnameSite(ctx: AppContext, caller: Caller, hostname: string, action: 'view' | 'manage', what: string): Promise<LoadedSite> {
  const missing = () => notFound(`No custom hostname ${hostname}`);
  const site = await findSiteByHostname(ctx.db, hostOf(hostname));
  if (!site) throw missing();
  try {
    return await loadSite(ctx, caller, site.organization_id, site.id, action, what);
  } catch (error) {
    if (isNotFound(error)) throw missing();
    throw error;
  }
}

export async function getCustomHostname(ctx: AppContext, caller: Caller, hostname: string) {
  const { site } = await loadHostnameSite(ctx, caller, hostname, 'view', 'Reading a custom hostname');
  return presentHostname(ctx.config, site);
}

/**
 * Checks the hostname's DNS again and records what it found. 409 while the site does not answer there (it is not
 * published): the official spec's 400 for an inactive hostname carries its 409 body, so the 409 says it.
 */
export async function revalidateCustomHostname(ctx: AppContext, caller: Caller, hostname: string): Promise<void> {
  const { site } = await loadHostnameSite(ctx, caller, hostname, 'manage', 'Checking the DNS of a custom hostname');
  if (site.published !== 1) throw conflict(`The custom hostname ${site.hostname} is inactive (its site is not published): publish the site to check its DNS`);
  const status = await checkHostnameDns(ctx.config, site.hostname!);
  await updateSite(ctx.db, site.id, { hostname_status: status, hostname_checked_at: isoNow(ctx.clock) });
}

/** Takes the hostname away from its site (which answers under PUBLIC_URL again); answers whether there was one to remove. */
export async function removeCustomHostname(ctx: AppContext, caller: Caller, hostname: string): Promise<boolean> {
  let loaded: LoadedSite;
  try {
    loaded = await loadHostnameSite(ctx, caller, hostname, 'view', 'Removing a custom hostname');
  } catch (error) {
    // What the caller cannot see is, for them, already gone.
    if (isNotFound(error)) return false;
    throw error;
  }
  const { site } = await loadSite(ctx, caller, loaded.site.organization_id, loaded.site.id, 'manage', 'Removing a custom hostname');
  const now = isoNow(ctx.clock);
  await ctx.db.transaction().execute(async (trx) => {
    await updateSite(trx, site.id, { hostname: null, hostname_status: null, hostname_checked_at: null, updated_at: now });
    await recordEvent(trx, ctx.clock, 'site_updated', site.organization_id, { siteId: site.id, fields: ['hostname'] });
  });
  return true;
}
