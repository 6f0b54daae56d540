import { Type } from 'typebox';
import { literalUnion, OrganizationIdParams } from '../../platform/schemas.ts';
import { MAX_RETENTION_DAYS, MIN_RETENTION_DAYS } from './actions.ts';

// The official AuditEvent, AuditEventDetails and AuditEventAction, and the queries of their operations (0.202.0).
const ActorType = literalUnion(['user', 'integration', 'installation', 'system', 'support']);
const Source = literalUnion(['ui', 'api', 'integration', 'webhook', 'workflow', 'script', 'support']);

export const AuditEvent = Type.Object({
  object: Type.Literal('audit-event'),
  id: Type.String({ format: 'uuid' }),
  occurredAt: Type.String({ format: 'date-time' }),
  action: Type.String({ description: 'Stable action name (listOrganizationAuditEventActions)' }),
  actor: Type.Object(
    { type: ActorType, id: Type.String(), label: Type.Optional(Type.String()) },
    { description: 'Who did it: a person, an integration installation, or the server itself' },
  ),
  source: Source,
  target: Type.Object({ type: Type.String(), id: Type.String(), label: Type.Optional(Type.String()) }, { description: 'What the action was done to' }),
  ipAddress: Type.Optional(Type.String({ description: "Quire's addition: the address the request came from" })),
  urls: Type.Object({ location: Type.String({ format: 'uri' }) }),
});

export const AuditEventDetails = Type.Object({
  ...AuditEvent.properties,
  schemaVersion: Type.Integer({ minimum: 1 }),
  payload: Type.Record(Type.String(), Type.Unknown(), { description: 'Details of the action, and the request it came from (address, user agent)' }),
});

export const AuditEventAction = Type.Object({ object: Type.Literal('audit-event-action'), id: Type.String(), label: Type.String() });
export const AuditEventActionList = Type.Object({ items: Type.Array(AuditEventAction) });

export const AuditEventsQuery = Type.Object({
  page: Type.Optional(Type.String({ description: 'Opaque cursor: next.page of the previous response' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Number of events to return, up to 100' })),
  from: Type.Optional(Type.String({ format: 'date-time', description: 'Events at or after this time' })),
  to: Type.Optional(Type.String({ format: 'date-time', description: 'Events at or before this time' })),
  action: Type.Optional(Type.String({ maxLength: 100, description: 'An exact action name' })),
  actor: Type.Optional(Type.String({ maxLength: 100, description: "An exact actor id (a user's, an installation's)" })),
  target: Type.Optional(Type.String({ maxLength: 200, description: 'An exact target id' })),
});

export const AuditEventParams = Type.Object({ ...OrganizationIdParams.properties, auditEventId: Type.String({ minLength: 1, maxLength: 100 }) });

/** Quire's own: how long the organization's audit log keeps events. */
export const AuditSettings = Type.Object({
  object: Type.Literal('audit-settings'),
  retentionDays: Type.Integer({ minimum: MIN_RETENTION_DAYS, maximum: MAX_RETENTION_DAYS, description: 'Days an event is kept before the job worker deletes it' }),
});
export const UpdateAuditSettingsBody = Type.Object({
  retentionDays: Type.Integer({ minimum: MIN_RETENTION_DAYS, maximum: MAX_RETENTION_DAYS, description: 'Days an event is kept (default 365)' }),
});
