import type { Executor, OrganizationsTable } from '../../db/types.ts';
import { keysetPage } from '../../db/keyset.ts';
import { ownsTeamIn } from '../access/queries.ts';
import type { PageRequest } from '../../platform/pagination.ts';

export type OrganizationRow = OrganizationsTable;

export async function findOrganization(db: Executor, id: string): Promise<OrganizationRow | undefined> {
  return db.selectFrom('organizations').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findOrganizationByHostname(db: Executor, hostname: string): Promise<OrganizationRow | undefined> {
  return db.selectFrom('organizations').selectAll().where('hostname', '=', hostname).executeTakeFirst();
}

/**
 * The organizations whose `emailDomains` name the domain, and the caller's membership of each (null: none).
 * The list is JSON text: LIKE finds the candidates (a domain holds no LIKE wildcard: callers pass a checked
 * domain name), and the caller of this parses the list to be exact.
 */
export async function organizationsNamingEmailDomain(db: Executor, domain: string, userId: string) {
  return db
    .selectFrom('organizations')
    .leftJoin('members', (join) => join.onRef('members.organization_id', '=', 'organizations.id').on('members.user_id', '=', userId))
    .selectAll('organizations')
    .select(['members.user_id as member_user_id', 'members.disabled as member_disabled'])
    .where('organizations.email_domains', 'like', `%${JSON.stringify(domain)}%`)
    .orderBy('organizations.created_at')
    .orderBy('organizations.id')
    .execute();
}

export async function insertOrganization(db: Executor, row: OrganizationRow): Promise<void> {
  await db.insertInto('organizations').values(row).execute();
}

export async function updateOrganization(db: Executor, id: string, changes: Partial<OrganizationRow>): Promise<void> {
  await db.updateTable('organizations').set(changes).where('id', '=', id).execute();
}

/** The organizations a user belongs to (guests included), in the order they joined. */
/** `only`: the one organization a caller reaches (an identity provider's session or token), when it is limited. */
export async function listOrganizationsOfUser(db: Executor, userId: string, page: PageRequest, only?: string) {
  let query = db
    .selectFrom('members')
    .innerJoin('organizations', 'organizations.id', 'members.organization_id')
    .selectAll('organizations')
    .select(['members.role as member_role', 'members.joined_at'])
    .select((eb) => ownsTeamIn(eb, userId, { column: 'organizations.id' }))
    .where('members.user_id', '=', userId)
    .where('members.disabled', '=', 0);
  if (only !== undefined) query = query.where('members.organization_id', '=', only);
  return keysetPage(query, ['members.joined_at', 'organizations.id'], 'asc', page).execute();
}

export async function countOrganizationsOfUser(db: Executor, userId: string, only?: string): Promise<number> {
  let query = db.selectFrom('members').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', userId).where('disabled', '=', 0);
  if (only !== undefined) query = query.where('organization_id', '=', only);
  const row = await query.executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Every organization with its member count, oldest first (the `org list` command of operators). */
export async function listAllOrganizations(db: Executor) {
  return db
    .selectFrom('organizations')
    .leftJoin('members', 'members.organization_id', 'organizations.id')
    .select((eb) => ['organizations.id', 'organizations.title', 'organizations.created_at', eb.fn.count<number | string>('members.user_id').as('members')])
    .groupBy(['organizations.id', 'organizations.title', 'organizations.created_at'])
    .orderBy('organizations.created_at')
    .orderBy('organizations.id')
    .execute();
}
