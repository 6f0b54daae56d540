import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { isNotFound } from '../../api/client.ts';
import { collectionQuery, spacesQuery } from '../../api/queries.ts';
import { ErrorNote, NotFound, Skeleton } from '../../ui/states.tsx';
import { useTitle } from '../../ui/title.ts';
import { ShareButton } from '../sharing/share-dialog.tsx';
import { shareTargetOf } from '../sharing/share-target.ts';

/** A collection: its description and the spaces directly in it. */
export default function CollectionScreen() {
  const { orgId = '', collectionId = '' } = useParams();
  const collection = useQuery(collectionQuery(collectionId));
  const spaces = useQuery(spacesQuery(orgId));
  useTitle(collection.data?.title);
  if (isNotFound(collection.error) || (collection.data && collection.data.organization !== orgId)) return <main id="main" className="app-main"><NotFound what="collection" /></main>;
  const inside = (spaces.data ?? []).filter((s) => s.parent === collectionId);
  return (
    <main id="main" className="app-main">
      {collection.isPending ? <Skeleton lines={2} /> : <h1>{collection.data?.title}</h1>}
      {collection.data?.permissions.admin ? <ShareButton target={shareTargetOf('collection', collection.data)} /> : null}
      <ErrorNote error={collection.error ?? spaces.error} />
      {collection.data?.description ? <p>{collection.data.description}</p> : null}
      <h2>Spaces</h2>
      {spaces.isPending ? <Skeleton lines={3} /> : inside.length === 0 ? <p>No space in this collection yet.</p> : (
        <ul className="card-list">
          {inside.map((space) => <li key={space.id}><Link className="card" to={`/o/${orgId}/s/${space.id}`}>{space.title}</Link></li>)}
        </ul>
      )}
    </main>
  );
}
