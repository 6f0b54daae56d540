import type { Executor } from '../../db/types.ts';
import { personOf, type AppContext, type Caller } from '../../platform/context.ts';
import { notFound } from '../../platform/errors.ts';
import { deleteIdentityOfUser, deleteUnprovenIdentities, listIdentitiesOfUser } from './store.ts';

/** The identity providers that may sign the caller in, as they manage them (`/v1/user/identities`). */
export async function listOwnIdentities(ctx: AppContext, caller: Caller) {
  const rows = await listIdentitiesOfUser(ctx.db, personOf(caller));
  return {
    items: rows.map((row) => ({
      id: row.id,
      organizationId: row.organization_id,
      providerId: row.provider_id,
      kind: row.provider_kind,
      origin: row.origin,
      ...(row.email ? { email: row.email } : {}),
      createdAt: row.created_at,
      ...(row.last_used_at ? { lastUsedAt: row.last_used_at } : {}),
    })),
  };
}

/** Unlinks a provider from the caller's account: it signs them in no more (until linked again). */
export async function unlinkOwnIdentity(ctx: AppContext, caller: Caller, identityId: string): Promise<void> {
  if (!(await deleteIdentityOfUser(ctx.db, personOf(caller), identityId))) throw notFound(`No sign-in provider link ${identityId} of yours`);
}

export async function forgetUnprovenIdentities(db: Executor, userId: string): Promise<void> {
  await deleteUnprovenIdentities(db, userId);
}
