import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { isNotFound } from '../../api/client.ts';
import { memberQuery } from '../../api/queries.ts';
import { ErrorNote, NotFound, Skeleton } from '../../ui/states.tsx';
import { useTitle } from '../../ui/title.ts';

/** One member of an organization. */
export default function MemberScreen() {
  const { orgId = '', userId = '' } = useParams();
  const member = useQuery(memberQuery(orgId, userId));
  useTitle(member.data?.user.displayName ?? 'Member');
  if (isNotFound(member.error)) return <main id="main" className="app-main"><NotFound what="member" /></main>;
  return (
    <main id="main" className="app-main">
      {member.isPending ? <Skeleton lines={4} /> : null}
      <ErrorNote error={member.error} />
      {member.data ? (
        <>
          <h1>{member.data.user.displayName}</h1>
          <dl className="facts">
            <dt>Email</dt><dd>{member.data.user.email}</dd>
            <dt>Role</dt><dd>{member.data.role ?? 'guest'}</dd>
            <dt>Joined</dt><dd>{new Date(member.data.joinedAt).toLocaleDateString()}</dd>
            <dt>Spaces</dt><dd>{member.data.spaces}</dd>
            <dt>Teams</dt><dd>{member.data.teams}</dd>
          </dl>
        </>
      ) : null}
      <p><Link to={`/o/${orgId}/members`}>All members</Link></p>
    </main>
  );
}
