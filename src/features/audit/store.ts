import type { AuditEventsTable, Executor } from '../../db/types.ts';
import { keysetPage } from '../../db/keyset.ts';
import type { PageRequest } from '../../platform/pagination.ts';

export type AuditEventRow = AuditEventsTable;

/** The filters of listOrganizationAuditEvents; `from` and `to` are inclusive ISO timestamps. */
export interface AuditEventFilter {
  organizationId: string;
  action?: string | undefined;
  actor?: string | undefined;
  target?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

export async function insertAuditEvents(db: Executor, rows: AuditEventRow[]): Promise<void> {
  if (rows.length > 0) await db.insertInto('audit_events').values(rows).execute();
}

function filtered(db: Executor, filter: AuditEventFilter) {
  let query = db.selectFrom('audit_events').where('organization_id', '=', filter.organizationId);
  if (filter.action !== undefined) query = query.where('action', '=', filter.action);
  if (filter.actor !== undefined) query = query.where('actor_id', '=', filter.actor);
  if (filter.target !== undefined) query = query.where('target_id', '=', filter.target);
  if (filter.from !== undefined) query = query.where('created_at', '>=', filter.from);
  if (filter.to !== undefined) query = query.where('created_at', '<=', filter.to);
  return query;
}

/** Newest first; events of one millisecond in the order of their ids. */
export async function listAuditEvents(db: Executor, filter: AuditEventFilter, page: PageRequest): Promise<AuditEventRow[]> {
  return keysetPage(filtered(db, filter).selectAll(), ['created_at', 'id'], 'desc', page).execute();
}

export async function countAuditEvents(db: Executor, filter: AuditEventFilter): Promise<number> {
  const row = await filtered(db, filter).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function findAuditEvent(db: Executor, organizationId: string, id: string): Promise<AuditEventRow | undefined> {
  return db.selectFrom('audit_events').selectAll().where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst();
}

/** The display names of these users, captured as the actor's label when an event is recorded. */
export async function userLabels(db: Executor, userIds: readonly string[]): Promise<Map<string, string>> {
  if (userIds.length === 0) return new Map();
  const rows = await db.selectFrom('users').select(['id', 'display_name']).where('id', 'in', [...userIds]).execute();
  return new Map(rows.map((row) => [row.id, row.display_name]));
}

/** The organizations a person is a member of: where their sign-ins are recorded. */
export async function organizationsOfUser(db: Executor, userId: string): Promise<string[]> {
  const rows = await db.selectFrom('members').select('organization_id').where('user_id', '=', userId).execute();
  return rows.map((row) => row.organization_id);
}

/** The retention an admin set; undefined when none was (the default applies). */
export async function findRetentionDays(db: Executor, organizationId: string): Promise<number | undefined> {
  const row = await db.selectFrom('audit_settings').select('retention_days').where('organization_id', '=', organizationId).executeTakeFirst();
  return row?.retention_days;
}

export async function upsertRetentionDays(db: Executor, organizationId: string, days: number, now: string): Promise<void> {
  await db
    .insertInto('audit_settings')
    .values({ organization_id: organizationId, retention_days: days, updated_at: now })
    .onConflict((oc) => oc.column('organization_id').doUpdateSet({ retention_days: days, updated_at: now }))
    .execute();
}

/** The retentions admins have set: the prune deletes per retention, a handful of statements. */
export async function retentionsInUse(db: Executor): Promise<number[]> {
  const rows = await db.selectFrom('audit_settings').select('retention_days').distinct().execute();
  return rows.map((row) => row.retention_days);
}

/**
 * Deletes up to `limit` events older than `cutoff` of the organizations keeping them `days` days (with
 * `isDefault`, also those that set no retention); answers how many.
 */
export async function deleteAuditEventsBefore(db: Executor, days: number, isDefault: boolean, cutoff: string, limit: number): Promise<number> {
  const doomed = db
    .selectFrom('audit_events')
    .select('id')
    .where('created_at', '<', cutoff)
    .where((eb) => {
      const setTo = eb('organization_id', 'in', eb.selectFrom('audit_settings').select('organization_id').where('retention_days', '=', days));
      return isDefault ? eb.or([setTo, eb('organization_id', 'not in', eb.selectFrom('audit_settings').select('organization_id'))]) : setTo;
    })
    .limit(limit);
  const result = await db.deleteFrom('audit_events').where('id', 'in', doomed).executeTakeFirst();
  return Number(result.numDeletedRows);
}
