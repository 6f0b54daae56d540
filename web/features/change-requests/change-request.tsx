import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { isNotFound } from '../../api/client.ts';
import { changeRequestQuery, spaceQuery } from '../../api/queries.ts';
import { ErrorNote, NotFound, Skeleton } from '../../ui/states.tsx';
import { useTitle } from '../../ui/title.ts';
import { SpaceHeader } from '../spaces/space-header.tsx';

/** One change request: subject, status, author and dates. (Reviewing and merging come with the editor.) */
export default function ChangeRequestScreen() {
  const { spaceId = '', number = '' } = useParams();
  const space = useQuery(spaceQuery(spaceId));
  const cr = useQuery(changeRequestQuery(spaceId, number));
  useTitle(cr.data ? `#${cr.data.number} ${cr.data.subject ?? ''}` : 'Change request');
  if (isNotFound(cr.error) || isNotFound(space.error)) return <main id="main" className="app-main"><NotFound what="change request" /></main>;
  return (
    <main id="main" className="app-main">
      <SpaceHeader spaceId={spaceId} space={space.data} />
      {cr.isPending ? <Skeleton lines={4} /> : null}
      <ErrorNote error={cr.error} />
      {cr.data ? (
        <>
          <h1>#{cr.data.number} {cr.data.subject || 'Untitled change request'}</h1>
          <dl className="facts">
            <dt>Status</dt><dd><span className={`badge badge-${cr.data.status}`}>{cr.data.status}</span></dd>
            <dt>Opened by</dt><dd>{cr.data.createdBy?.displayName}</dd>
            <dt>Opened</dt><dd>{new Date(cr.data.createdAt).toLocaleString()}</dd>
            <dt>Updated</dt><dd>{new Date(cr.data.updatedAt).toLocaleString()}</dd>
          </dl>
        </>
      ) : null}
      <p><Link to={`/s/${spaceId}/~/changes`}>All change requests</Link></p>
    </main>
  );
}
