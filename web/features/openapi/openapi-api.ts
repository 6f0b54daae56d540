import { queryOptions } from '@tanstack/react-query';
import { allPages } from '../../api/client.ts';
import { keys } from '../../api/queries.ts';
import type { OpenAPISpec } from '../../api/types.ts';

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
