import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { spaceQuery } from '../../api/queries.ts';

/**
 * The organization a screen is in: named by the URL (`/o/<org>/…`), or, for a space's own URLs
 * (`/s/<space>/…`), the space's organization once the space has loaded.
 */
export function useOrganizationId(): { orgId: string | undefined; error: unknown } {
  const { orgId, spaceId } = useParams();
  const space = useQuery({ ...spaceQuery(spaceId ?? ''), enabled: !orgId && !!spaceId });
  return { orgId: orgId ?? space.data?.organization, error: orgId ? null : space.error };
}
