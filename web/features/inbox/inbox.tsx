import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { EmptyState, ErrorNote, Skeleton } from '../../ui/states.tsx';
import { useTitle } from '../../ui/title.ts';
import { appPathOf, inboxApi, inboxKeys, notificationsQuery } from './inbox-api.ts';
import './inbox.css';
import { Button } from '../../ui/button.tsx';
import { Badge } from '../../ui/badge.tsx';
import { ToggleGroup } from '../../ui/toggle-group.tsx';

const KIND_LABELS = { review_requested: 'Review request', mention: 'Mention', reply: 'Reply' } as const;

/** The signed-in person's notifications: review requests, mentions and replies; opening one marks it read. */
export default function InboxScreen() {
  const [params, setParams] = useSearchParams();
  const unreadOnly = params.get('filter') === 'unread';
  const list = useQuery(notificationsQuery(unreadOnly));
  const queryClient = useQueryClient();
  useTitle('Inbox');
  const refresh = () => queryClient.invalidateQueries({ queryKey: inboxKeys.all });
  const setRead = useMutation({ mutationFn: ({ id, read }: { id: string; read: boolean }) => inboxApi.setRead(id, read), onSuccess: refresh });
  const readAll = useMutation({ mutationFn: inboxApi.readAll, onSuccess: refresh });
  return (
    <main id="main" className="app-main">
      <h1>Inbox</h1>
      <div className="inbox-filters">
        <ToggleGroup
          label="Show"
          items={[{ value: 'all', label: 'All' }, { value: 'unread', label: 'Unread' }]}
          value={unreadOnly ? 'unread' : 'all'}
          onValueChange={(shown) => setParams(shown === 'unread' ? { filter: 'unread' } : {})}
        />
        <Button disabled={readAll.isPending} onClick={() => readAll.mutate()}>Mark all read</Button>
      </div>
      <ErrorNote error={readAll.error ?? setRead.error} />
      {list.isPending ? <Skeleton lines={4} label="Loading your notifications" /> : null}
      <ErrorNote error={list.error} />
      {list.data && list.data.items.length === 0 ? (
        <EmptyState title={unreadOnly ? 'Nothing unread' : 'No notification yet'}>
          <p>Reviews asked of you, mentions of you and replies to your comments show here.</p>
        </EmptyState>
      ) : null}
      <ul className="row-list inbox-list">
        {(list.data?.items ?? []).map((n) => (
          <li key={n.id} className={n.read ? 'read' : 'unread'}>
            <Badge tone="info">{KIND_LABELS[n.kind]}</Badge>
            <Link to={appPathOf(n.urls.app)} onClick={() => (n.read ? undefined : setRead.mutate({ id: n.id, read: true }))}>
              {n.read ? n.title : <strong>{n.title}</strong>}
            </Link>
            <span className="muted">{new Date(n.createdAt).toLocaleString()}</span>
            <Button variant="ghost" size="sm" onClick={() => setRead.mutate({ id: n.id, read: !n.read })}>
              {n.read ? 'Mark unread' : 'Mark read'}
              <span className="sr-only">: {n.title}</span>
            </Button>
          </li>
        ))}
      </ul>
    </main>
  );
}
