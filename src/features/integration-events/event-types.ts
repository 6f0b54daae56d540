/**
 * Which outbox rows become integration events, and their payloads in the official shapes (the spec's `Event`
 * schemas). Pure: the outbox processor (outbox.ts) asks, per row, what to send and to whom.
 *
 * Only types the official `Event` union names are delivered. Integrations written against `@gitbook/runtime`
 * dispatch on `type`, and `IntegrationEvent.payload` is that closed union, so an event of our own naming would
 * break clients that read the events list; the outbox types with no official counterpart (comments, change
 * requests other than a merge, sites, members, teams…) are marked processed and not delivered
 * (docs/integration-events.md lists them). A merged change request updates the space's primary content, so
 * it is delivered as `space_content_updated` with the merge revision.
 */
export type EventScope =
  /** Every installation of the organization (installation lifecycle: only the installation it names). */
  | { kind: 'installation'; installationId: string; integrationId: string }
  /** Installations of the organization on this space (or with space selection `all`). */
  | { kind: 'space'; spaceId: string }
  | { kind: 'site'; siteId: string };

export interface PlannedEvent {
  type: string;
  scope: EventScope;
  /** The payload without `eventId` and `installationId`, which each installation's copy gets. */
  body: Record<string, unknown>;
}

type Payload = Record<string, unknown>;

const str = (value: unknown): string | undefined => (typeof value === 'string' && value.length > 0 ? value : undefined);

function installationLifecycle(type: string, payload: Payload): PlannedEvent | null {
  const installationId = str(payload.installationId);
  const integrationId = str(payload.integrationId);
  if (!installationId || !integrationId) return null;
  const status = str(payload.status) ?? 'active';
  const previous = payload.previous && typeof payload.previous === 'object' ? (payload.previous as Payload) : undefined;
  const scope: EventScope = { kind: 'installation', installationId, integrationId };
  const spaceId = str(payload.spaceId);
  const siteId = str(payload.siteId);
  switch (type) {
    case 'installation_setup':
      return { type, scope, body: { status, ...(previous ? { previous: setupPrevious(previous) } : {}) } };
    case 'installation_deleted':
      return { type, scope, body: { previous: deletedPrevious(previous) } };
    case 'space_installation_setup':
      return spaceId ? { type, scope, body: { spaceId, status, ...(previous ? { previous: setupPrevious(previous) } : {}) } } : null;
    case 'space_installation_deleted':
      return spaceId ? { type, scope, body: { spaceId, previous: deletedPrevious(previous) } } : null;
    case 'site_installation_setup':
      return siteId ? { type, scope, body: { siteId, status, ...(previous ? { previous: setupPrevious(previous) } : {}) } } : null;
    case 'site_installation_deleted':
      return siteId ? { type, scope, body: { siteId, previous: deletedPrevious(previous) } } : null;
    default:
      return null;
  }
}

function setupPrevious(previous: Payload) {
  return { status: str(previous.status) ?? 'active', ...(isObject(previous.configuration) ? { configuration: previous.configuration } : {}) };
}

function deletedPrevious(previous: Payload | undefined) {
  return previous && isObject(previous.configuration) ? { configuration: previous.configuration } : {};
}

function isObject(value: unknown): value is Payload {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The integration event an outbox row becomes, or null when it has no official counterpart. */
export function planIntegrationEvent(outboxType: string, payload: Payload): PlannedEvent | null {
  const spaceId = str(payload.spaceId);
  switch (outboxType) {
    case 'space_content_updated':
    case 'change_request_merged': {
      const revisionId = str(payload.revisionId);
      if (!spaceId || !revisionId) return null;
      return { type: 'space_content_updated', scope: { kind: 'space', spaceId }, body: { spaceId, revisionId } };
    }
    case 'space_gitsync_started': {
      // The official shape needs the revision and commit, which an operation only knows when it ends; Quire
      // records the start before either exists, so only the completion is delivered.
      return null;
    }
    case 'space_gitsync_completed': {
      if (!spaceId) return null;
      const state = payload.state === 'complete' || payload.state === 'success' ? 'success' : 'failure';
      return {
        type: 'space_gitsync_completed',
        scope: { kind: 'space', spaceId },
        body: { spaceId, state, revisionId: str(payload.revisionId) ?? '', commitId: str(payload.commit) ?? '' },
      };
    }
    default:
      return installationLifecycle(outboxType, payload);
  }
}
