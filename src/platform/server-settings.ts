import type { Db } from '../db/types.ts';

/**
 * Facts a server records about itself when it starts, for the commands run beside it on the same database:
 * those run in a shell that may not have the server's environment (issue 40: an invitation printed with
 * http://localhost:8080 for a server serving elsewhere).
 */
export type ServerSettingName = 'public_url';

export async function recordServerSetting(db: Db, name: ServerSettingName, value: string, now: string): Promise<void> {
  await db
    .insertInto('server_settings')
    .values({ name, value, updated_at: now })
    .onConflict((oc) => oc.column('name').doUpdateSet({ value, updated_at: now }))
    .execute();
}

export async function readServerSetting(db: Db, name: ServerSettingName): Promise<string | undefined> {
  const row = await db.selectFrom('server_settings').select('value').where('name', '=', name).executeTakeFirst();
  return row?.value;
}
