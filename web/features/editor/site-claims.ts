import { allPages, api } from '../../api/client.ts';
import { claimsOf, mergeClaims, type Claim } from './nodes/conditions.ts';

/*
 * The claims a condition of this space can test: those of the adaptive schemas of the sites that publish the
 * space (`GET /orgs/{org}/sites?space=`, then each site's `adaptive-schema`). Asked each time a condition is
 * edited, so a schema changed meanwhile is seen; a site whose schema this person cannot read adds nothing.
 */
export async function spaceClaims(spaceId: string, signal?: AbortSignal): Promise<Claim[]> {
  const space = await api<{ organization?: string }>('GET', `/spaces/${encodeURIComponent(spaceId)}`, { signal });
  if (!space.organization) return [];
  const org = encodeURIComponent(space.organization);
  const sites = await allPages<{ id: string }>(`/orgs/${org}/sites`, { space: spaceId }, signal);
  const schemas = await Promise.all(
    sites.map((site) =>
      api<{ jsonSchema?: unknown }>('GET', `/orgs/${org}/sites/${encodeURIComponent(site.id)}/adaptive-schema`, { signal }).then(
        (found) => claimsOf(found.jsonSchema),
        () => [],
      ),
    ),
  );
  return mergeClaims(schemas);
}
