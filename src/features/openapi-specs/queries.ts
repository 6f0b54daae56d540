import type { Executor } from '../../db/types.ts';
import type { ApiReference } from './reference.ts';
import { latestReferences, latestReferencesBySource, specsChangeMarks } from './store.ts';

/*
 * What the reader reads of an organization's specs (reader/service.ts): the API references of the latest
 * versions of the specs a page's blocks name, and a fingerprint that changes whenever any of them may have.
 */

/** The references of the specs named by slug or by source URL, under `spec:<slug>` and `url:<source URL>`. */
export async function referencesOfSpecs(db: Executor, organizationId: string, names: { slugs: readonly string[]; urls: readonly string[] }): Promise<Map<string, ApiReference>> {
  const [bySlug, bySource] = await Promise.all([latestReferences(db, organizationId, names.slugs), latestReferencesBySource(db, organizationId, names.urls)]);
  const out = new Map<string, ApiReference>();
  for (const row of bySlug) out.set(`spec:${row.slug}`, JSON.parse(row.reference) as ApiReference);
  for (const row of bySource) if (row.source_url) out.set(`url:${row.source_url}`, JSON.parse(row.reference) as ApiReference);
  return out;
}

/** Changes when a spec of the organization is created, changed, processed or deleted: part of a page's cache key. */
export async function specsFingerprint(db: Executor, organizationId: string): Promise<string> {
  const { count, versions, lastUpdate } = await specsChangeMarks(db, organizationId);
  return `${count}:${versions}:${lastUpdate ?? ''}`;
}
