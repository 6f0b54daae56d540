import type { Executor, OrganizationDomainsTable } from '../../db/types.ts';

export type DomainRow = OrganizationDomainsTable;

export async function listDomains(db: Executor, organizationId: string): Promise<DomainRow[]> {
  return db.selectFrom('organization_domains').selectAll().where('organization_id', '=', organizationId).orderBy('domain').execute();
}

export async function findDomain(db: Executor, organizationId: string, id: string): Promise<DomainRow | undefined> {
  return db.selectFrom('organization_domains').selectAll().where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst();
}

export async function findDomainByName(db: Executor, organizationId: string, domain: string): Promise<DomainRow | undefined> {
  return db.selectFrom('organization_domains').selectAll().where('organization_id', '=', organizationId).where('domain', '=', domain).executeTakeFirst();
}

export async function findDomainByMailToken(db: Executor, tokenHash: string): Promise<DomainRow | undefined> {
  return db.selectFrom('organization_domains').selectAll().where('mail_token_hash', '=', tokenHash).executeTakeFirst();
}

export async function insertDomain(db: Executor, row: DomainRow): Promise<void> {
  await db.insertInto('organization_domains').values(row).execute();
}

export async function updateDomain(db: Executor, id: string, changes: Partial<DomainRow>): Promise<void> {
  await db.updateTable('organization_domains').set(changes).where('id', '=', id).execute();
}

export async function deleteDomain(db: Executor, organizationId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('organization_domains').where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Whether the organization proved it holds `domain` (the part of an e-mail address after the @). */
export async function isDomainVerified(db: Executor, organizationId: string, domain: string): Promise<boolean> {
  const row = await db
    .selectFrom('organization_domains')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('domain', '=', domain)
    .where('verified_at', 'is not', null)
    .executeTakeFirst();
  return row !== undefined;
}
