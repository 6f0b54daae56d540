import { useQuery } from '@tanstack/react-query';
import { useContext } from 'react';
import { blockPointerOf, OPERATION_BLOCK_KINDS, pointerOf, type SpecSource } from '../editor/nodes/openapi-operations.ts';
import { specReferenceQuery } from '../openapi/openapi-api.ts';
import { OperationBlockDrawing, SchemasBlockDrawing, type SpecLoad } from '../openapi/reference-blocks.tsx';
import { SpecsOrganizationContext } from './specs-organization.ts';

/*
 * OpenAPI blocks in the page view, as the editor draws them (openapi/reference-blocks.tsx) and the reader does
 * (reader/render-openapi.tsx): an operation, a webhook or schemas, from the reference of the spec's latest version,
 * read through the public API as the editor's host reads it. Their specs are the organization's: the screens of
 * an organization name it (SpecsOrganizationContext); where none does, a block says its spec is not available.
 */

export const isOpenAPIBlock = (type: string) => type === 'openapi-schemas' || Object.hasOwn(OPERATION_BLOCK_KINDS, type);

export function OpenAPIBlockView({ type, data }: { type: string; data: Record<string, unknown> | undefined }) {
  const pointer = blockPointerOf(type, data);
  // A schemas block names its spec by slug only (as the reader and the editor read it).
  const slug = pointerOf(data).spec;
  const loaded = useSpecReference(type === 'openapi-schemas' ? (slug ? { spec: slug } : null) : pointer.source);
  if (type !== 'openapi-schemas') return <OperationBlockDrawing pointer={pointer} loaded={loaded} />;
  const names = Array.isArray(data?.schemas) ? data.schemas.filter((n): n is string => typeof n === 'string') : [];
  return <SchemasBlockDrawing names={names} loaded={loaded} />;
}

/** The reference of a block's spec as far as it is loaded; null for a block that names none. */
function useSpecReference(source: SpecSource | null): SpecLoad {
  const organizationId = useContext(SpecsOrganizationContext);
  const query = useQuery({ ...specReferenceQuery(organizationId ?? '', source ?? { spec: '' }), enabled: Boolean(organizationId && source) });
  if (!source || !organizationId) return null;
  if (query.isPending) return { state: 'loading' };
  if (query.isError) return { state: 'failed', reason: query.error.message };
  return { state: 'ready', value: query.data };
}
