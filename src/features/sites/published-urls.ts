import type { Config } from '../../config.ts';
import type { Executor } from '../../db/types.ts';
import { cachedRead, readCache } from '../../platform/read-cache.ts';
import { presentTree } from './present.ts';
import { externalLinksOfSite, findShareLinkByKey, findSite, groupsOfSite, publishedPlacesOfSpace, sectionsOfSite, siteSpacesOfSite } from './store.ts';

/**
 * Where a space can be read: the URL of its site-space in the first published site that has it (or, given a
 * share key, in the site that key opens). A query module for the spaces feature (`urls.published` of a
 * Space); it imports nothing of spaces, so the two features do not depend on each other in a cycle.
 */
export function publishedUrlOfSpace(db: Executor, config: Pick<Config, 'publicUrl'>, spaceId: string, shareKey?: string): Promise<string | undefined> {
  // Read with every GET of a space, changed only by site edits: cached (platform/read-cache.ts), unpublished
  // spaces too (most are).
  const cache = readCache<string | undefined>(db, 'sites:published-url', {
    max: 10_000,
    ttlMs: 'shared',
    dependsOn: ['sites', 'site_spaces', 'site_sections', 'site_section_groups', 'site_share_links', 'spaces'],
  });
  return cachedRead(cache, `${spaceId} ${shareKey ?? ''}`, () => readPublishedUrl(db, config, spaceId, shareKey));
}

/**
 * Every URL the space is read at: its site-space's in each published site that has it, in the order
 * publishedUrlOfSpace picks from (so the first is the space's `urls.published`). Cached as that one is.
 */
export function publishedUrlsOfSpace(db: Executor, config: Pick<Config, 'publicUrl'>, spaceId: string): Promise<string[]> {
  const cache = readCache<string[]>(db, 'sites:published-urls', {
    max: 10_000,
    ttlMs: 'shared',
    dependsOn: ['sites', 'site_spaces', 'site_sections', 'site_section_groups', 'spaces'],
  });
  return cachedRead(cache, spaceId, () => readPublishedUrls(db, config, spaceId));
}

async function readPublishedUrls(db: Executor, config: Pick<Config, 'publicUrl'>, spaceId: string): Promise<string[]> {
  const places = await publishedPlacesOfSpace(db, spaceId);
  const urls: string[] = [];
  const trees = new Map<string, ReturnType<typeof presentTree> | undefined>();
  for (const place of places) {
    if (!trees.has(place.site_id)) {
      const site = await findSite(db, place.site_id);
      if (!site) trees.set(place.site_id, undefined);
      else {
        const [sections, groups, links, siteSpaces] = await Promise.all([sectionsOfSite(db, site.id), groupsOfSite(db, site.id), externalLinksOfSite(db, site.id), siteSpacesOfSite(db, site.id)]);
        trees.set(place.site_id, presentTree(config as Config, { site, sections, groups, links, siteSpaces }, () => null));
      }
    }
    const url = trees.get(place.site_id)?.siteSpaces.get(place.site_space_id)?.urls.published;
    if (url) urls.push(url);
  }
  return urls;
}

async function readPublishedUrl(db: Executor, config: Pick<Config, 'publicUrl'>, spaceId: string, shareKey: string | undefined): Promise<string | undefined> {
  const places = await publishedPlacesOfSpace(db, spaceId);
  if (places.length === 0) return undefined;
  let place = places[0]!;
  let key: string | undefined;
  if (shareKey) {
    for (const candidate of places) {
      const link = await findShareLinkByKey(db, candidate.site_id, shareKey);
      if (link && link.active === 1) {
        place = candidate;
        key = shareKey;
        break;
      }
    }
  }
  const site = await findSite(db, place.site_id);
  if (!site) return undefined;
  const [sections, groups, siteSpaces] = await Promise.all([sectionsOfSite(db, site.id), groupsOfSite(db, site.id), siteSpacesOfSite(db, site.id)]);
  // External links hold no site-space: a URL does not depend on them.
  const presented = presentTree(config as Config, { site, sections, groups, links: [], siteSpaces }, () => null, key);
  return presented.siteSpaces.get(place.site_space_id)?.urls.published;
}
