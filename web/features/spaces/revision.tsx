import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { api, isNotFound } from '../../api/client.ts';
import type { Revision } from '../../api/types.ts';
import { ErrorNote, NotFound, Skeleton } from '../../ui/states.tsx';
import { useTitle } from '../../ui/title.ts';

/** A revision of a space: when it was made, what kind, and its pages. */
export default function RevisionScreen() {
  const { spaceId = '', revisionId = '' } = useParams();
  const revision = useQuery({ queryKey: ['space', spaceId, 'revisions', revisionId], queryFn: ({ signal }) => api<Revision>('GET', `/spaces/${spaceId}/revisions/${revisionId}`, { signal }) });
  useTitle('Revision');
  if (isNotFound(revision.error)) return <main id="main" className="app-main"><NotFound what="revision" /></main>;
  return (
    <main id="main" className="app-main">
      <h1>Revision</h1>
      {revision.isPending ? <Skeleton lines={3} /> : null}
      <ErrorNote error={revision.error} />
      {revision.data ? (
        <dl className="facts">
          <dt>Id</dt><dd><code>{revision.data.id}</code></dd>
          <dt>Made</dt><dd>{new Date(revision.data.createdAt).toLocaleString()}</dd>
          <dt>Kind</dt><dd>{revision.data.type}</dd>
          <dt>Pages</dt><dd>{revision.data.pages.length} at the top level</dd>
        </dl>
      ) : null}
      <p><Link to={`/s/${spaceId}/`}>Open the space’s current content</Link></p>
    </main>
  );
}
