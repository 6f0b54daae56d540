import type { Executor } from '../../db/types.ts';
import type { AppContext } from '../../platform/context.ts';
import { isoNow } from '../../platform/clock.ts';
import { admitPendingInvitations } from '../members/service.ts';
import { revokeAllSessionsOf } from '../sessions/service.ts';
import { forgetUnprovenIdentities } from '../sso/identities.ts';
import { revokeAllTokensOf } from '../tokens/service.ts';
import { markEmailVerified } from '../users/service.ts';
import { deletePasswordOf } from './store.ts';

/**
 * The owner of an account's address just proved it (a one-time link mailed or handed to that address, or an
 * identity provider whose organization verified the address's domain). When the address was unproven until
 * now, whoever set the account's password, minted its tokens or linked a provider to it never proved they own
 * the address (an invite link lets anyone sign up as anyone@): `takeOver` ends all of it, and the prover starts
 * afresh. `keep` names the one session (or password, set by the proof itself) that stays. Either way the
 * e-mail invitations that waited for the proof are answered. Answers whether the address was unproven.
 */
export async function addressProven(
  ctx: AppContext,
  db: Executor,
  userId: string,
  options: { takeOver: boolean; keepPassword?: boolean },
): Promise<boolean> {
  const now = isoNow(ctx.clock);
  const wasUnproven = await markEmailVerified(db, userId, now);
  if (wasUnproven && options.takeOver) {
    await revokeAllSessionsOf(ctx, db, userId);
    await revokeAllTokensOf(ctx, db, userId);
    await forgetUnprovenIdentities(db, userId);
    if (!options.keepPassword) await deletePasswordOf(db, userId);
  }
  await admitPendingInvitations(ctx, db, userId);
  return wasUnproven;
}
