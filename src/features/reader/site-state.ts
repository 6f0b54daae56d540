import { createHash } from 'node:crypto';
import type { SiteTree } from '../sites/present.ts';
import { specsFingerprint } from '../openapi-specs/queries.ts';
import { readTree } from '../sites/service.ts';
import { siteAt, siteOfHostname } from '../sites/visitor-access.ts';
import type { SitesTable as SiteRow } from '../../db/types.ts';
import type { AppContext } from '../../platform/context.ts';
import { cachedRead, readCache, type ReadCacheOptions } from '../../platform/read-cache.ts';

/*
 * A published site as the reader's requests start from: its row and its structure (sections, groups,
 * site-spaces with their spaces' published revisions), read once and then held in this process's read cache.
 * A write to one of those tables in this process empties the cache at once (platform/read-cache.ts); a write
 * by another process is seen within CACHE_TTL_MS. So a warm page view reads nothing from the database: the
 * state's `version` names everything the site's pages are made of apart from the page and the visitor, and the
 * render cache (render-cache.ts) is keyed by it.
 */

export interface SiteState {
  site: SiteRow;
  tree: SiteTree;
  /**
   * Changes when the site (settings, customization, publishing: its `updated_at`), its structure (a variant's
   * customization override too), or the revision one of its spaces publishes does.
   */
  version: string;
}

// The organization's OpenAPI specs too: pages may render them as API references (render-openapi.tsx).
const SITE_FACTS = { dependsOn: ['sites', 'site_sections', 'site_section_groups', 'site_external_links', 'site_spaces', 'spaces', 'openapi_specs', 'openapi_spec_versions'], ttlMs: 'shared' } as const;
const SITES_AT: ReadCacheOptions<SiteState | null> = { ...SITE_FACTS, max: 2_000, keep: (state) => state !== null };
const SITES_OF_HOST: ReadCacheOptions<SiteState | null> = { ...SITE_FACTS, max: 1_000 };

async function stateOf(ctx: AppContext, site: SiteRow | undefined): Promise<SiteState | null> {
  if (!site) return null;
  const tree = await readTree(ctx.db, site);
  const structure = [
    ctx.config.publicUrl,
    site.id,
    site.updated_at,
    site.hostname,
    site.basename,
    tree.sections.map((s) => [s.id, s.path, s.title, s.position, s.is_default, s.condition, s.icon, s.group_id]),
    tree.groups.map((g) => [g.id, g.position]),
    tree.links.map((l) => [l.id, l.title, l.url, l.icon, l.position, l.group_id, l.draft, l.condition]),
    tree.siteSpaces.map((s) => [s.id, s.path, s.position, s.is_default, s.condition, s.section_id, s.space.title, s.space.revision_id, s.customization]),
    await specsFingerprint(ctx.db, site.organization_id),
  ];
  const version = createHash('sha256').update(JSON.stringify(structure)).digest('base64url').slice(0, 24);
  return { site, tree, version };
}

/** The site a `/sites/<segment>/` URL names (its basename, else its id), or null. */
export function siteStateAt(ctx: AppContext, segment: string): Promise<SiteState | null> {
  const cache = readCache<SiteState | null>(ctx.db, 'reader:site-at', SITES_AT);
  // The state's URLs are PUBLIC_URL's: tests change it after start (listening on a random port).
  return cachedRead(cache, `${ctx.config.publicUrl} ${segment}`, async () => stateOf(ctx, await siteAt(ctx.db, segment)));
}

/**
 * The site whose custom hostname `host` is, or null. Misses are kept too (in their own bounded cache): every
 * request whose Host is not PUBLIC_URL's asks here, and most such hosts are no site's.
 */
export function siteStateOfHost(ctx: AppContext, host: string): Promise<SiteState | null> {
  const cache = readCache<SiteState | null>(ctx.db, 'reader:site-of-host', SITES_OF_HOST);
  return cachedRead(cache, `${ctx.config.publicUrl} ${host}`, async () => stateOf(ctx, await siteOfHostname(ctx.db, host)));
}
