import { useQuery } from '@tanstack/react-query';
import { meQuery, memberQuery } from '../../api/queries.ts';

/** Whether the signed-in person is an admin of the organization (the API answers 403 to others' changes). */
export function useIsAdmin(orgId: string): boolean {
  const me = useQuery(meQuery());
  const member = useQuery({ ...memberQuery(orgId, me.data?.id ?? ''), enabled: !!orgId && !!me.data?.id });
  return member.data?.role === 'admin';
}
