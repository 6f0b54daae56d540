import type { ContentGrantsTable, Executor } from '../../db/types.ts';
import { keysetPage } from '../../db/keyset.ts';
import type { PageRequest } from '../../platform/pagination.ts';

export type GrantRow = ContentGrantsTable;
export type GrantTarget = { type: 'space' | 'collection'; id: string; organizationId: string };
export type GrantSubject = 'user' | 'team';

/** Gives `role` to a user or team on a space or collection, replacing what they had there. */
export async function upsertGrant(db: Executor, target: GrantTarget, subject: GrantSubject, subjectId: string, role: string, now: string): Promise<void> {
  await db
    .insertInto('content_grants')
    .values({
      organization_id: target.organizationId,
      target_type: target.type,
      target_id: target.id,
      subject_type: subject,
      subject_id: subjectId,
      role,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.columns(['target_id', 'subject_type', 'subject_id']).doUpdateSet({ role, updated_at: now, organization_id: target.organizationId }))
    .execute();
}

export async function deleteGrant(db: Executor, targetId: string, subject: GrantSubject, subjectId: string): Promise<boolean> {
  const result = await db
    .deleteFrom('content_grants')
    .where('target_id', '=', targetId)
    .where('subject_type', '=', subject)
    .where('subject_id', '=', subjectId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/**
 * Forgets every grant on these spaces and collections, and on the spaces directly in those collections: a
 * transfer leaves the old organization's grants behind for good (kept, they came back on a transfer back).
 */
export async function deleteGrantsOnTransferred(db: Executor, targets: { spaceIds?: readonly string[]; collectionIds?: readonly string[] }): Promise<void> {
  const spaceIds = targets.spaceIds ?? [];
  const collectionIds = targets.collectionIds ?? [];
  if (spaceIds.length > 0) await db.deleteFrom('content_grants').where('target_type', '=', 'space').where('target_id', 'in', spaceIds).execute();
  if (collectionIds.length === 0) return;
  await db.deleteFrom('content_grants').where('target_type', '=', 'collection').where('target_id', 'in', collectionIds).execute();
  await db
    .deleteFrom('content_grants')
    .where('target_type', '=', 'space')
    .where('target_id', 'in', (eb) => eb.selectFrom('spaces').select('id').where('parent_id', 'in', collectionIds))
    .execute();
}

function grantsOn(db: Executor, target: GrantTarget, subject: GrantSubject) {
  return db
    .selectFrom('content_grants')
    .where('content_grants.target_id', '=', target.id)
    .where('content_grants.subject_type', '=', subject)
    // Grants given before a transfer belong to the old organization (a transfer deletes them; see deleteGrantsOnTransferred).
    .where('content_grants.organization_id', '=', target.organizationId);
}

/** The users granted a role on a target, with their user record, in the order they were granted. */
export async function listUserGrants(db: Executor, target: GrantTarget, page: PageRequest) {
  const query = grantsOn(db, target, 'user')
    .innerJoin('users', 'users.id', 'content_grants.subject_id')
    .select(['content_grants.role', 'content_grants.created_at', 'content_grants.subject_id', 'users.id', 'users.display_name', 'users.email', 'users.photo_url']);
  return keysetPage(query, ['content_grants.created_at', 'content_grants.subject_id'], 'asc', page).execute();
}

/** The teams granted a role on a target, with the team record, in the order they were granted. */
export async function listTeamGrants(db: Executor, target: GrantTarget, page: PageRequest) {
  const query = grantsOn(db, target, 'team')
    .innerJoin('teams', 'teams.id', 'content_grants.subject_id')
    .selectAll('teams')
    .select(['content_grants.role', 'content_grants.created_at as granted_at', 'content_grants.subject_id']);
  return keysetPage(query, ['content_grants.created_at', 'content_grants.subject_id'], 'asc', page).execute();
}

export async function countGrants(db: Executor, target: GrantTarget, subject: GrantSubject): Promise<number> {
  // Counted through the same join as the list, so a grant whose subject is gone is not counted.
  const row =
    subject === 'user'
      ? await grantsOn(db, target, subject)
          .innerJoin('users', 'users.id', 'content_grants.subject_id')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      : await grantsOn(db, target, subject)
          .innerJoin('teams', 'teams.id', 'content_grants.subject_id')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Every grant given to the given teams in an organization. */
export async function listGrantsOfTeams(db: Executor, organizationId: string, teamIds: readonly string[]) {
  if (teamIds.length === 0) return [];
  return db
    .selectFrom('content_grants')
    .select(['subject_id', 'target_type', 'target_id'])
    .where('organization_id', '=', organizationId)
    .where('subject_type', '=', 'team')
    .where('subject_id', 'in', teamIds)
    .execute();
}
