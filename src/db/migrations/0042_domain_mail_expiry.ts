import { sql, type Kysely } from 'kysely';

/**
 * When a domain's mailed verification link stops opening gets a column of its own (`mail_expires_at`); until
 * now `mailed_to` held '<address> until <expiry>', which every reader had to take apart.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('organization_domains').addColumn('mail_expires_at', 'text').execute();
  const { rows } = await sql<{ id: string; mailed_to: string }>`select id, mailed_to from organization_domains where mailed_to like ${'% until %'}`.execute(db);
  for (const row of rows) {
    const at = row.mailed_to.lastIndexOf(' until ');
    await sql`update organization_domains set mailed_to = ${row.mailed_to.slice(0, at)}, mail_expires_at = ${row.mailed_to.slice(at + ' until '.length)} where id = ${row.id}`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`update organization_domains set mailed_to = mailed_to || ${' until '} || mail_expires_at where mailed_to is not null and mail_expires_at is not null`.execute(db);
  await db.schema.alterTable('organization_domains').dropColumn('mail_expires_at').execute();
}
