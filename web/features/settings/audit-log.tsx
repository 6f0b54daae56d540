import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { useParams } from 'react-router';
import { api, type ListPage } from '../../api/client.ts';
import { Button } from '../../ui/button.tsx';
import { Select } from '../../ui/select.tsx';
import { EmptyState, ErrorNote, Skeleton } from '../../ui/states.tsx';
import { TextField } from '../../ui/text-field.tsx';
import { useTitle } from '../../ui/title.ts';

interface AuditEvent {
  id: string;
  occurredAt: string;
  action: string;
  actor: { type: string; id: string; label?: string };
  target: { type: string; id: string; label?: string };
  ipAddress?: string;
}
interface AuditAction {
  id: string;
  label: string;
}

const ALL = 'all';
const PAGE = 25;

/**
 * The organization's audit log, for its admins: who did what, to what, from where, newest first, filtered by
 * action and by actor, page after page; and how many days events are kept.
 */
export default function AuditLogScreen() {
  useTitle('Audit log');
  const orgId = useParams().orgId ?? '';
  const [action, setAction] = useState<string>(ALL);
  const [actor, setActor] = useState('');
  const [actorFilter, setActorFilter] = useState('');
  const actions = useQuery({ queryKey: ['audit-actions', orgId], queryFn: () => api<{ items: AuditAction[] }>('GET', `/orgs/${orgId}/audit-event-actions`) });
  const labelOf = (id: string) => actions.data?.items.find((a) => a.id === id)?.label ?? id;
  const events = useInfiniteQuery({
    queryKey: ['audit-events', orgId, action, actorFilter],
    initialPageParam: '',
    queryFn: ({ pageParam }) =>
      api<ListPage<AuditEvent>>('GET', `/orgs/${orgId}/audit-events`, {
        query: { limit: PAGE, ...(pageParam ? { page: pageParam } : {}), ...(action !== ALL ? { action } : {}), ...(actorFilter ? { actor: actorFilter } : {}) },
      }),
    getNextPageParam: (last) => last.next?.page,
  });
  const filterActor = (event: FormEvent) => {
    event.preventDefault();
    setActorFilter(actor.trim());
  };
  const rows = events.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <main id="main" className="app-main">
      <h1>Audit log</h1>
      <p>Security-relevant actions in this organization: sign-ins, members and roles, tokens, single sign-on, sharing, integrations, deletions and moves.</p>
      <RetentionSetting orgId={orgId} />
      <section aria-labelledby="audit-events">
        <h2 id="audit-events">Events</h2>
        <form className="inline-form" onSubmit={filterActor}>
          <Select
            label="Action"
            options={[{ value: ALL, label: 'All actions' }, ...(actions.data?.items ?? []).map((a) => ({ value: a.id, label: a.label }))]}
            value={action}
            onValueChange={setAction}
          />
          <TextField label="Actor" hint="The id of a person or an installation" value={actor} onChange={(e) => setActor(e.target.value)} />
          <Button type="submit">Filter</Button>
        </form>
        {events.isPending ? <Skeleton lines={5} label="Loading the audit log" /> : null}
        <ErrorNote error={events.error ?? actions.error} />
        {events.data && rows.length === 0 ? (
          <EmptyState headingLevel={3} title={action !== ALL || actorFilter ? 'No matching event' : 'No event yet'}>
            <p>{action !== ALL || actorFilter ? 'No event matches this action and actor: change or clear the filter.' : 'Sign-ins, changes of members and roles, tokens and deletions show here as they happen.'}</p>
          </EmptyState>
        ) : null}
        {rows.length > 0 ? (
          <table className="members-table">
            <caption>Audit events, newest first</caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Who</th>
                <th scope="col">Action</th>
                <th scope="col">Target</th>
                <th scope="col">IP address</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((event) => (
                <tr key={event.id}>
                  <td><time dateTime={event.occurredAt}>{new Date(event.occurredAt).toLocaleString()}</time></td>
                  <td>{event.actor.label ?? (event.actor.type === 'system' ? 'Quire' : event.actor.id)}</td>
                  <td>{labelOf(event.action)}</td>
                  <td>{event.target.label ?? event.target.id} <span className="muted">({event.target.type})</span></td>
                  <td>{event.ipAddress ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : null}
        {events.hasNextPage ? (
          <Button onClick={() => void events.fetchNextPage()} loading={events.isFetchingNextPage}>Load more</Button>
        ) : null}
      </section>
    </main>
  );
}

/** How many days events are kept (365 unless set); the job worker deletes older ones. */
function RetentionSetting({ orgId }: { orgId: string }) {
  const queryClient = useQueryClient();
  const settings = useQuery({ queryKey: ['audit-settings', orgId], queryFn: () => api<{ retentionDays: number }>('GET', `/orgs/${orgId}/audit-settings`) });
  const [days, setDays] = useState('');
  useEffect(() => {
    if (settings.data) setDays(String(settings.data.retentionDays));
  }, [settings.data]);
  const save = useMutation({
    mutationFn: () => api<{ retentionDays: number }>('PATCH', `/orgs/${orgId}/audit-settings`, { body: { retentionDays: Number(days) } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['audit-settings', orgId] }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <section className="panel" aria-labelledby="audit-retention">
      <h2 id="audit-retention">Retention</h2>
      <form className="inline-form" onSubmit={submit}>
        <TextField label="Keep events for (days)" type="number" min={1} max={3650} required value={days} onChange={(e) => setDays(e.target.value)} />
        <Button variant="primary" type="submit" loading={save.isPending}>Save retention</Button>
      </form>
      {save.isSuccess ? <p role="status">Events are kept {save.data.retentionDays} days.</p> : null}
      <ErrorNote error={save.error ?? settings.error} />
    </section>
  );
}
