import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../api/client.ts';
import { keys } from '../../api/queries.ts';
import { ErrorNote, Skeleton } from '../../ui/states.tsx';
import { installationEventQuery, installationEventsQuery, type InstallationEvent } from './integrations-api.ts';
import { Button } from '../../ui/button.tsx';
import { Badge, type BadgeTone } from '../../ui/badge.tsx';

const STATE_TONES: Record<InstallationEvent['delivery']['state'], BadgeTone> = { pending: 'info', success: 'success', failed: 'danger', skipped: 'neutral' };

const STATE_WORDS: Record<InstallationEvent['delivery']['state'], string> = {
  pending: 'Pending',
  success: 'Delivered',
  failed: 'Failed',
  skipped: 'Not sent',
};

/** The events sent for this installation, newest first, with each delivery's log, and "Retry" for a failed one. */
export function InstallationEvents({ orgId, integrationName, installationId }: { orgId: string; integrationName: string; installationId: string }) {
  const events = useQuery(installationEventsQuery(orgId, integrationName, installationId));
  return (
    <section className="panel" aria-labelledby="events-title">
      <h2 id="events-title">Events</h2>
      {events.isPending ? <Skeleton lines={3} label="Loading events" /> : null}
      <ErrorNote error={events.error} />
      {events.data ? (
        events.data.items.length === 0 ? <p className="muted">No event was sent for this installation yet.</p> : (
          <table className="events-table">
            <caption className="sr-only">Events sent for this installation</caption>
            <thead><tr><th scope="col">Event</th><th scope="col">When</th><th scope="col">Delivery</th><th scope="col"><span className="sr-only">Actions</span></th></tr></thead>
            <tbody>
              {events.data.items.map((event) => <EventRow key={event.id} orgId={orgId} integrationName={integrationName} installationId={installationId} event={event} />)}
            </tbody>
          </table>
        )
      ) : null}
    </section>
  );
}

function EventRow({ orgId, integrationName, installationId, event }: { orgId: string; integrationName: string; installationId: string; event: InstallationEvent }) {
  const [open, setOpen] = useState(false);
  const queryClient = useQueryClient();
  const retry = useMutation({
    mutationFn: () => api('POST', `/integrations/${integrationName}/installations/${installationId}/events/${event.id}/retry`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [...keys.installation(orgId, integrationName), installationId, 'events'] }),
  });
  const state = event.delivery.state;
  return (
    <>
      <tr>
        <td><code>{event.payload.type}</code></td>
        <td><time dateTime={event.createdAt}>{new Date(event.createdAt).toLocaleString()}</time></td>
        <td>
          <Badge tone={STATE_TONES[state]}>{STATE_WORDS[state]}</Badge>{' '}
          <span className="muted">{event.delivery.attempts} {event.delivery.attempts === 1 ? 'attempt' : 'attempts'}</span>
        </td>
        <td>
          <Button variant="ghost" size="sm" aria-expanded={open} onClick={() => setOpen(!open)}>{open ? 'Hide log' : 'Log'}</Button>{' '}
          {state === 'failed' ? (
            <Button disabled={retry.isPending} onClick={() => retry.mutate()} aria-label={`Retry ${event.payload.type}`}>Retry</Button>
          ) : null}
          <ErrorNote error={retry.error} />
        </td>
      </tr>
      {open ? (
        <tr>
          <td colSpan={4}><EventLog orgId={orgId} integrationName={integrationName} installationId={installationId} eventId={event.id} attempts={event.delivery.attempts} /></td>
        </tr>
      ) : null}
    </>
  );
}

function EventLog({ orgId, integrationName, installationId, eventId, attempts }: { orgId: string; integrationName: string; installationId: string; eventId: string; attempts: number }) {
  const base = installationEventQuery(orgId, integrationName, installationId, eventId);
  // The attempts count is part of the key: a new attempt reads the log again.
  const detail = useQuery({ ...base, queryKey: [...base.queryKey, attempts] as unknown as typeof base.queryKey });
  if (detail.isPending) return <Skeleton lines={2} label="Loading the log" />;
  if (detail.error) return <ErrorNote error={detail.error} />;
  const logs = detail.data?.trace.logs ?? [];
  return logs.length === 0 ? <p className="muted">No attempt yet.</p> : (
    <ol className="event-logs" aria-label="Delivery log">
      {logs.map((log, index) => <li key={index}><span className="muted">{new Date(log.timestamp).toLocaleTimeString()} {log.level}</span> {log.message}</li>)}
    </ol>
  );
}
