import { useQuery } from '@tanstack/react-query';
import { Link, useParams, useSearchParams } from 'react-router';
import { isNotFound } from '../../api/client.ts';
import { changeRequestsQuery, spaceQuery } from '../../api/queries.ts';
import { EmptyState, ErrorNote, NotFound, Skeleton } from '../../ui/states.tsx';
import { useTitle } from '../../ui/title.ts';
import { SpaceHeader } from '../spaces/space-header.tsx';
import { Badge } from '../../ui/badge.tsx';
import { ToggleGroup } from '../../ui/toggle-group.tsx';
import { statusTone } from './status-tone.ts';

const STATUSES = ['open', 'draft', 'merged', 'archived', 'all'] as const;

/** A space's change requests, filtered by status (the filter is in the URL: shared links and back keep it). */
export default function ChangeRequestsScreen() {
  const { spaceId = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const status = STATUSES.find((s) => s === params.get('status')) ?? 'open';
  const space = useQuery(spaceQuery(spaceId));
  const list = useQuery(changeRequestsQuery(spaceId, status));
  useTitle(space.data ? `Change requests · ${space.data.title}` : 'Change requests');
  if (isNotFound(space.error)) return <main id="main" className="app-main"><NotFound what="space" /></main>;
  return (
    <main id="main" className="app-main">
      <SpaceHeader spaceId={spaceId} space={space.data} />
      <h1>Change requests</h1>
      <ToggleGroup
        label="Status"
        items={STATUSES.map((s) => ({ value: s, label: s[0]!.toUpperCase() + s.slice(1) }))}
        value={status}
        onValueChange={(s) => setParams(s === 'open' ? {} : { status: s })}
      />
      {list.isPending ? <Skeleton lines={4} /> : null}
      <ErrorNote error={list.error} />
      {list.data && list.data.items.length === 0 ? (
        <EmptyState title={`No ${status === 'all' ? '' : `${status} `}change request yet`}>
          <p>A change request holds edits to the space until they are reviewed and merged. Editing the space starts one.</p>
        </EmptyState>
      ) : null}
      {list.data && list.data.items.length > 0 ? (
        <ul className="row-list">
          {list.data.items.map((cr) => (
            <li key={cr.id}>
              <Link to={`/s/${spaceId}/~/changes/${cr.number}`}>#{cr.number} {cr.subject || 'Untitled change request'}</Link>
              <Badge tone={statusTone(cr.status)}>{cr.status}</Badge>
              <span className="muted">{cr.createdBy?.displayName} · {new Date(cr.createdAt).toLocaleDateString()}</span>
            </li>
          ))}
        </ul>
      ) : null}
    </main>
  );
}
