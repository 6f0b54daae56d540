import type { Executor } from '../../db/types.ts';
import { type AppContext, type Caller, personOf } from '../../platform/context.ts';
import { badRequest, conflict, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { isoNow } from '../../platform/clock.ts';
import { cachedRead, readCache } from '../../platform/read-cache.ts';
import { presentUser } from './present.ts';
import { findUserByEmail, findUserById, insertUser, markEmailVerified, shareAnOrganization, updateUserName, type UserRow } from './store.ts';

export { markEmailVerified };

export async function getAuthenticatedUser(ctx: AppContext, caller: Caller) {
  const user = await findUserById(ctx.db, personOf(caller));
  if (!user) throw notFound('The user of this token no longer exists');
  return presentUser(ctx.config, user);
}

/**
 * A user's row, kept a few seconds (CACHE_TTL_MS) and dropped at any write to users: what a write names as its
 * author is the caller, who posts again and again (a comment presents its author). Absent users are not kept.
 * Kept rows are shared between requests and never changed.
 */
export function cachedUserById(ctx: AppContext, id: string): Promise<UserRow | undefined> {
  const cache = readCache<UserRow | undefined>(ctx.db, 'users:by-id', { max: 10_000, ttlMs: 'shared', dependsOn: ['users'], keep: (row) => row !== undefined });
  return cachedRead(cache, id, () => findUserById(ctx.db, id));
}

/** Users are visible to themselves and to the members of the organizations they belong to. */
export async function getUserById(ctx: AppContext, caller: Caller, userId: string) {
  const user = await findUserById(ctx.db, userId);
  if (!user || (user.id !== personOf(caller) && !(await shareAnOrganization(ctx.db, personOf(caller), user.id)))) {
    throw notFound(`No user ${userId}`);
  }
  return presentUser(ctx.config, user);
}

const EMAIL = /^[^\s@]+@[^\s@]+$/;

export function normalizeEmail(email: string): string {
  const trimmed = email.trim().toLowerCase();
  if (!EMAIL.test(trimmed)) throw badRequest(`"${email}" is not an e-mail address`);
  return trimmed;
}

/**
 * Creates a user; e-mail addresses are unique, case-insensitively. `emailVerified`: whoever creates it vouches
 * for the address (an operator at the command line); every other account proves its address later.
 */
export async function createUser(ctx: AppContext, db: Executor, input: { email?: string; displayName?: string; emailVerified?: boolean }): Promise<UserRow> {
  const email = input.email === undefined ? null : normalizeEmail(input.email);
  if (email && (await findUserByEmail(db, email))) throw conflict(`A user with e-mail ${email} already exists`);
  const user: UserRow = {
    id: newId(),
    display_name: input.displayName?.trim() || (email ? email.split('@')[0]! : 'User'),
    email,
    photo_url: null,
    created_at: isoNow(ctx.clock),
    email_verified_at: input.emailVerified && email ? isoNow(ctx.clock) : null,
  };
  await insertUser(db, user);
  return user;
}

/** A person's own name, as they typed it when they set their password. */
export async function renameUser(db: Executor, userId: string, displayName: string): Promise<void> {
  await updateUserName(db, userId, displayName.slice(0, 200));
}
