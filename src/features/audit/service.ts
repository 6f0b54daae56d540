import type { Static } from 'typebox';
import { deleteInBatches } from '../../platform/batched-delete.ts';
import { isoNow } from '../../platform/clock.ts';
import type { AppContext, Caller } from '../../platform/context.ts';
import { badRequest, forbidden, notFound } from '../../platform/errors.ts';
import { OrgAccess } from '../access/service.ts';
import { assertOrganizationVisible } from '../organizations/policy.ts';
import { AUDIT_ACTIONS, DEFAULT_RETENTION_DAYS, retentionCutoff, type AuditAction } from './actions.ts';
import { auditPolicy } from './policy.ts';
import { presentAuditAction, presentAuditEvent, presentAuditEventDetails } from './present.ts';
import type { AuditEventsQuery, UpdateAuditSettingsBody } from './schemas.ts';
import {
  countAuditEvents,
  deleteAuditEventsBefore,
  findAuditEvent,
  findRetentionDays,
  listAuditEvents,
  retentionsInUse,
  upsertRetentionDays,
} from './store.ts';
import { recordAudit } from './record.ts';

async function auditAccess(ctx: AppContext, caller: Caller, organizationId: string, action: 'view' | 'configure', doing: string): Promise<OrgAccess> {
  const access = await OrgAccess.load(ctx.db, organizationId, caller);
  assertOrganizationVisible(access);
  if (caller.kind !== 'user') throw forbidden(`${doing} is for organization admins: an integration installation token cannot call it`);
  auditPolicy.assert(access, action, doing);
  return access;
}

export async function listOrganizationAuditEvents(ctx: AppContext, caller: Caller, organizationId: string, query: Static<typeof AuditEventsQuery>) {
  await auditAccess(ctx, caller, organizationId, 'view', 'Reading the audit log');
  if (query.from !== undefined && query.to !== undefined && Date.parse(query.from) > Date.parse(query.to)) {
    throw badRequest('querystring/from must not be after querystring/to');
  }
  const filter = {
    organizationId,
    action: query.action,
    actor: query.actor,
    target: query.target,
    // Stored timestamps are ISO strings in UTC: the bounds are compared in the same form.
    from: query.from === undefined ? undefined : new Date(query.from).toISOString(),
    to: query.to === undefined ? undefined : new Date(query.to).toISOString(),
  };
  const listKey = `audit-events:${organizationId}:${JSON.stringify([filter.action, filter.actor, filter.target, filter.from, filter.to])}`;
  const page = ctx.cursors.open(listKey, query, 20);
  const [rows, count] = await Promise.all([listAuditEvents(ctx.db, filter, page), countAuditEvents(ctx.db, filter)]);
  return ctx.cursors.close(listKey, page, rows, count, (row) => [row.created_at, row.id], (row) => presentAuditEvent(ctx.config, row));
}

export async function getOrganizationAuditEvent(ctx: AppContext, caller: Caller, organizationId: string, auditEventId: string) {
  await auditAccess(ctx, caller, organizationId, 'view', 'Reading the audit log');
  const row = await findAuditEvent(ctx.db, organizationId, auditEventId);
  if (!row) throw notFound(`No audit event ${auditEventId} in this organization`);
  return presentAuditEventDetails(ctx.config, row);
}

export async function listOrganizationAuditEventActions(ctx: AppContext, caller: Caller, organizationId: string) {
  await auditAccess(ctx, caller, organizationId, 'view', 'Reading the audit log');
  return { items: (Object.keys(AUDIT_ACTIONS) as AuditAction[]).map(presentAuditAction) };
}

export async function getAuditSettings(ctx: AppContext, caller: Caller, organizationId: string) {
  await auditAccess(ctx, caller, organizationId, 'view', 'Reading the audit log settings');
  return { object: 'audit-settings' as const, retentionDays: (await findRetentionDays(ctx.db, organizationId)) ?? DEFAULT_RETENTION_DAYS };
}

export async function updateAuditSettings(ctx: AppContext, caller: Caller, organizationId: string, body: Static<typeof UpdateAuditSettingsBody>) {
  await auditAccess(ctx, caller, organizationId, 'configure', 'Changing the audit log settings');
  await ctx.db.transaction().execute(async (trx) => {
    const before = (await findRetentionDays(trx, organizationId)) ?? DEFAULT_RETENTION_DAYS;
    await upsertRetentionDays(trx, organizationId, body.retentionDays, isoNow(ctx.clock));
    await recordAudit(ctx, trx, organizationId, caller, {
      action: 'audit.retention_changed',
      target: { type: 'organization', id: organizationId },
      details: { retentionDays: { from: before, to: body.retentionDays } },
    });
  });
  return { object: 'audit-settings' as const, retentionDays: body.retentionDays };
}

const PRUNE_BATCH = 500;
const PRUNE_BATCHES_PER_RUN = 20;

/**
 * Deletes the events each organization no longer keeps (its retention, 365 days unless set), in bounded batches: a
 * sweep of the job worker, idempotent, that any process may run. Answers how many were deleted.
 */
export async function pruneAuditLog(ctx: AppContext, batchSize = PRUNE_BATCH): Promise<number> {
  const now = ctx.clock.now();
  let deleted = 0;
  const retentions = new Set([DEFAULT_RETENTION_DAYS, ...(await retentionsInUse(ctx.db))]);
  for (const days of retentions) {
    const cutoff = retentionCutoff(now, days);
    const isDefault = days === DEFAULT_RETENTION_DAYS;
    deleted += await deleteInBatches((limit) => deleteAuditEventsBefore(ctx.db, days, isDefault, cutoff, limit), batchSize, PRUNE_BATCHES_PER_RUN);
  }
  return deleted;
}
