import { randomBytes } from 'node:crypto';
import type { Db } from '../db/types.ts';

/**
 * Server-wide secrets (cursor signing, visitor-claim JWTs) live in the database, so that every process
 * sharing one PostgreSQL signs and verifies with the same key, and a restart keeps issued cursors valid.
 */
export async function loadServerSecret(db: Db, name: string, now: string): Promise<string> {
  await db
    .insertInto('server_secrets')
    .values({ name, value: randomBytes(32).toString('base64url'), created_at: now })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db.selectFrom('server_secrets').select('value').where('name', '=', name).executeTakeFirstOrThrow();
  return row.value;
}
