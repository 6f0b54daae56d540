import type { Config } from '../../config.ts';
import { apiUrl } from '../../platform/urls.ts';
import { AUDIT_ACTIONS, type AuditAction } from './actions.ts';
import type { AuditEventRow } from './store.ts';

type ActorType = 'user' | 'integration' | 'installation' | 'system' | 'support';
type Source = 'ui' | 'api' | 'integration' | 'webhook' | 'workflow' | 'script' | 'support';

const labelled = <T extends { type: string; id: string }>(base: T, label: string | null) => (label === null ? base : { ...base, label });

/** The official AuditEvent, with `ipAddress` (ours: the official object leaves room for it) for the app's table. */
export function presentAuditEvent(config: Config, row: AuditEventRow) {
  return {
    object: 'audit-event' as const,
    id: row.id,
    occurredAt: row.created_at,
    action: row.action,
    actor: labelled({ type: row.actor_type as ActorType, id: row.actor_id }, row.actor_label),
    source: row.source as Source,
    target: labelled({ type: row.target_type, id: row.target_id }, row.target_label),
    ...(row.ip_address === null ? {} : { ipAddress: row.ip_address }),
    urls: { location: apiUrl(config, `/orgs/${row.organization_id}/audit-events/${row.id}`) },
  };
}

/** The official AuditEventDetails: the event, its allowlisted details, and where the request came from. */
export function presentAuditEventDetails(config: Config, row: AuditEventRow) {
  const details = JSON.parse(row.payload) as Record<string, unknown>;
  return {
    ...presentAuditEvent(config, row),
    schemaVersion: 1,
    payload: { ...details, request: { ipAddress: row.ip_address, userAgent: row.user_agent } },
  };
}

export function presentAuditAction(id: AuditAction) {
  return { object: 'audit-event-action' as const, id, label: AUDIT_ACTIONS[id] };
}
