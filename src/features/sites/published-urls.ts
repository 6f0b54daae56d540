import type { Config } from '../../config.ts';
import type { Executor } from '../../db/types.ts';
import { presentTree } from './present.ts';
import { findShareLinkByKey, findSite, groupsOfSite, publishedPlacesOfSpace, sectionsOfSite, siteSpacesOfSite } from './store.ts';

/**
 * Where a space can be read: the URL of its site-space in the first published site that has it (or, given a
 * share key, in the site that key opens). A query module for the spaces feature (`urls.published` of a
 * Space); it imports nothing of spaces, so the two features do not depend on each other in a cycle.
 */
export async function publishedUrlOfSpace(db: Executor, config: Pick<Config, 'publicUrl'>, spaceId: string, shareKey?: string): Promise<string | undefined> {
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
  const presented = presentTree(config as Config, { site, sections, groups, siteSpaces }, () => null, key);
  return presented.siteSpaces.get(place.site_space_id)?.urls.published;
}
