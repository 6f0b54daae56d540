import { v7 as timeOrderedUuid } from 'uuid';
import type { Executor } from '../../db/types.ts';
import { isoNow } from '../../platform/clock.ts';
import type { AppContext, Caller, RequestOrigin } from '../../platform/context.ts';
import type { AuditAction } from './actions.ts';
import { insertAuditEvents, organizationsOfUser, userLabels, type AuditEventRow } from './store.ts';

/*
 * How every feature writes to the audit log. It imports no other feature, so any feature (sessions, members,
 * sites...) may call it from inside its own transaction without making a cycle.
 */

/**
 * Who did what is recorded: the request's caller; a person who has no caller yet (signing in, from a public
 * route, with the request's origin); or the server itself (a sweep; a limit tripping, with the origin of the
 * request that tripped it).
 */
export type AuditActor = Caller | { kind: 'person'; userId: string; origin?: RequestOrigin | undefined } | { kind: 'system'; origin?: RequestOrigin | undefined };

export interface AuditTarget {
  type: string;
  id: string;
  label?: string | null | undefined;
}

export interface AuditEntry {
  action: AuditAction;
  target: AuditTarget;
  /** What the action changed, by name (never a secret: a token's value, a certificate's key). */
  details?: Record<string, unknown>;
}

function sourceOf(actor: AuditActor): AuditEventRow['source'] {
  if (actor.kind === 'system') return actor.origin?.via ?? 'workflow';
  if (actor.kind === 'installation') return 'integration';
  // A call made inside the server without a request (the command line, a test) has no origin.
  return actor.origin?.via ?? 'script';
}

/**
 * Records an action in the audit log of each of `organizationIds`, inside `db`: the transaction of the action,
 * so that an action that rolls back leaves no event and a committed one always has its event.
 */
export async function recordAudit(ctx: AppContext, db: Executor, organizationIds: string | readonly string[], actor: AuditActor, entry: AuditEntry): Promise<void> {
  const organizations = typeof organizationIds === 'string' ? [organizationIds] : [...new Set(organizationIds)];
  if (organizations.length === 0) return;
  const personId = actor.kind === 'user' || actor.kind === 'person' ? actor.userId : undefined;
  // People are labelled by their name as it is now: the log keeps it when they change it or leave.
  const targetUser = entry.target.type === 'user' && entry.target.label === undefined ? entry.target.id : undefined;
  const labels = await userLabels(db, [personId, targetUser].filter((id) => id !== undefined));
  const origin = actor.origin;
  const createdAt = isoNow(ctx.clock);
  const base = {
    action: entry.action,
    actor_type: personId ? 'user' : actor.kind === 'installation' ? 'installation' : 'system',
    actor_id: personId ?? (actor.kind === 'installation' ? actor.installationId : 'system'),
    actor_label: personId ? (labels.get(personId) ?? null) : actor.kind === 'installation' ? actor.integrationId : null,
    source: sourceOf(actor),
    target_type: entry.target.type,
    target_id: entry.target.id,
    target_label: entry.target.label ?? (targetUser ? (labels.get(targetUser) ?? null) : null),
    ip_address: origin?.ipAddress ?? null,
    user_agent: origin?.userAgent ?? null,
    payload: JSON.stringify(entry.details ?? {}),
    created_at: createdAt,
  };
  // Time-ordered ids (UUID v7, monotonic in the process): events of one millisecond (or of a test's stopped clock)
  // list newest first by id, in the order they happened, where random ids shuffled them.
  await insertAuditEvents(
    db,
    organizations.map((organizationId) => ({ id: timeOrderedUuid(), organization_id: organizationId, ...base })),
  );
}

/** Records an action of a person in every organization they are a member of (signing in and out concern them all). */
export async function recordAuditForMember(ctx: AppContext, db: Executor, userId: string, actor: AuditActor, entry: AuditEntry): Promise<void> {
  await recordAudit(ctx, db, await organizationsOfUser(db, userId), actor, entry);
}

