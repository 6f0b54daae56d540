import type { Executor, SessionsTable } from '../../db/types.ts';

export type SessionRow = SessionsTable;

export async function insertSession(db: Executor, row: SessionRow): Promise<void> {
  await db.insertInto('sessions').values(row).execute();
}

export async function findSession(db: Executor, id: string): Promise<SessionRow | undefined> {
  return db.selectFrom('sessions').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function touchSession(db: Executor, id: string, now: string): Promise<void> {
  await db.updateTable('sessions').set({ last_seen_at: now }).where('id', '=', id).execute();
}

export async function revokeSessionRow(db: Executor, id: string, now: string): Promise<void> {
  await db.updateTable('sessions').set({ revoked_at: now }).where('id', '=', id).where('revoked_at', 'is', null).execute();
}

export async function revokeSessionsOf(db: Executor, organizationId: string, userId: string, now: string): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('organization_id', '=', organizationId)
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .execute();
}

export async function revokeSessionOfUser(db: Executor, userId: string, id: string, now: string): Promise<boolean> {
  const result = await db.updateTable('sessions').set({ revoked_at: now }).where('id', '=', id).where('user_id', '=', userId).where('revoked_at', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function revokeSessionsOfUser(db: Executor, userId: string, now: string, keep?: string): Promise<void> {
  let query = db.updateTable('sessions').set({ revoked_at: now }).where('user_id', '=', userId).where('revoked_at', 'is', null);
  if (keep) query = query.where('id', '!=', keep);
  await query.execute();
}

/** A person's sessions not yet revoked, newest first (ended ones are swept at each sign-in, so few). */
export async function listSessionsOfUser(db: Executor, userId: string): Promise<SessionRow[]> {
  return db.selectFrom('sessions').selectAll().where('user_id', '=', userId).where('revoked_at', 'is', null).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(500).execute();
}

/**
 * What decides whether a session opened through another organization's identity provider reaches this one:
 * the member's standing here (null when not a member or disabled), the organization's `sso` switch (SSO
 * enforced organization-wide) and the member's own `sso` flag.
 */
export async function ssoStandingIn(db: Executor, organizationId: string, userId: string) {
  return db
    .selectFrom('members')
    .innerJoin('organizations', 'organizations.id', 'members.organization_id')
    .select(['members.role', 'members.disabled', 'members.sso as member_sso', 'organizations.sso as organization_sso'])
    .where('members.organization_id', '=', organizationId)
    .where('members.user_id', '=', userId)
    .executeTakeFirst();
}

/** Sessions past their absolute end open nothing any more (revoked ones end by then too). */
export async function deleteEndedSessions(db: Executor, now: string): Promise<void> {
  await db.deleteFrom('sessions').where('expires_at', '<', now).execute();
}
