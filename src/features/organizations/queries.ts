import type { Executor } from '../../db/types.ts';
import { cachedRead, readCache } from '../../platform/read-cache.ts';
import { findOrganization as readOrganization, type OrganizationRow } from './store.ts';

/**
 * Whether an organization exists, for the features whose lists and creations live inside one: read by every
 * list of spaces, so cached (platform/read-cache.ts). The row is shared between requests: never change it.
 */
export function findOrganization(db: Executor, id: string): Promise<OrganizationRow | undefined> {
  const cache = readCache<OrganizationRow | undefined>(db, 'organizations:rows', { max: 10_000, ttlMs: 'shared', dependsOn: ['organizations'], keep: (row) => row !== undefined });
  return cachedRead(cache, id, () => readOrganization(db, id));
}
/** Merge rules name members only (spaces check their own rules the same way). */
export { assertMergeRuleUsers } from './merge-rules.ts';
/** An organization named by its hostname (subdomain), for bodies that accept an id or a subdomain. */
export { findOrganizationByHostname } from './store.ts';
