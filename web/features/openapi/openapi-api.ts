import { queryOptions } from '@tanstack/react-query';
import { allPages, api } from '../../api/client.ts';
import { keys } from '../../api/queries.ts';
import type { OpenAPISpec } from '../../api/types.ts';
import { buildReference, type ApiReference } from '../../../src/features/openapi-specs/reference.ts';
import type { SpecSource } from '../editor/nodes/openapi-operations.ts';

/** listOpenAPISpecs and listOpenAPISpecVersions; a spec being processed is read again until it is complete. */
export interface SpecVersion {
  id: string;
  createdAt: string;
  url: string;
}

export const specsQuery = (orgId: string) =>
  queryOptions({
    queryKey: [...keys.organization(orgId), 'openapi'] as const,
    queryFn: ({ signal }) => allPages<OpenAPISpec>(`/orgs/${orgId}/openapi`, {}, signal),
    refetchInterval: (query) => (query.state.data?.some((spec) => spec.processingState !== 'complete') ? 2000 : false),
  });

export const specVersionsQuery = (orgId: string, slug: string) =>
  queryOptions({
    queryKey: [...keys.openApiSpec(orgId, slug), 'versions'] as const,
    queryFn: ({ signal }) => allPages<SpecVersion>(`/orgs/${orgId}/openapi/${slug}/versions`, {}, signal),
  });

/** A source as the API takes it: the document's URL, or its text (pasted, or read from a chosen file). */
export type SpecSourceInput = { url: string } | { text: string };

export function sourceOf(kind: 'url' | 'text', url: string, text: string): SpecSourceInput {
  return kind === 'url' ? { url: url.trim() } : { text };
}

/**
 * The reference of a spec's latest version (getLatestOpenAPISpecVersionContent: its parsed entry document), built as
 * the reader builds it (openapi-specs/reference.ts), so the editor and the page view show the operations readers see.
 */
export async function readSpecReference(organizationId: string, slug: string): Promise<ApiReference> {
  const content = await api<{ filesystem: Record<string, { isEntrypoint?: boolean; specification?: unknown }> }>(
    'GET',
    `/orgs/${organizationId}/openapi/${encodeURIComponent(slug)}/versions/latest/content`,
  );
  const files = Object.values(content.filesystem);
  const entry = files.find((file) => file?.isEntrypoint) ?? files[0];
  const specification = entry?.specification;
  if (!specification || typeof specification !== 'object') throw new Error(`The OpenAPI spec "${slug}" has no document`);
  return buildReference(specification as Record<string, unknown>);
}

/**
 * The reference of the spec a `swagger` block names by its address, found as the reader finds it: the organization's
 * spec whose source is that URL (the server fetched it, through its fetch guard, when it was added).
 */
export async function readSpecReferenceByUrl(organizationId: string, url: string): Promise<ApiReference | null> {
  const specs = await allPages<OpenAPISpec>(`/orgs/${organizationId}/openapi`);
  const spec = specs.find((s) => s.sourceURL === url);
  if (!spec) return null;
  if (!spec.lastVersion) throw new Error(`the specification “${spec.slug}” fetched from this address is not processed yet (${spec.processingState})`);
  return readSpecReference(organizationId, spec.slug);
}

/**
 * The reference of an OpenAPI block's spec, as the page view reads it (the editor asks the same through its host,
 * editor/api-blocks.ts): by slug, or by the address it is fetched from. A spec file of the space is not read, as
 * the reader does not read one.
 */
export const specReferenceQuery = (orgId: string, source: SpecSource) =>
  queryOptions({
    queryKey: [...keys.organization(orgId), 'openapi-reference', source] as const,
    queryFn: async (): Promise<ApiReference> => {
      if ('spec' in source) return readSpecReference(orgId, source.spec);
      if ('file' in source) throw new Error('a spec file of the space is not read as an API reference');
      const reference = await readSpecReferenceByUrl(orgId, source.url);
      if (!reference) throw new Error(`no API specification of the organization is fetched from ${source.url}`);
      return reference;
    },
    retry: false,
  });
