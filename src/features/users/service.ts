import type { Executor } from '../../db/types.ts';
import { type AppContext, type Caller, personOf } from '../../platform/context.ts';
import { badRequest, conflict, forbidden, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { isoNow } from '../../platform/clock.ts';
import { cachedRead, readCache } from '../../platform/read-cache.ts';
import { normalizeEmail } from './email.ts';
import { presentUser } from './present.ts';
import { findUserByEmail, findUserById, insertUser, markEmailVerified, shareAnOrganization, updateUserName, updateUserProfile, type UserRow } from './store.ts';
import type { UpdateUserBody } from './schemas.ts';
import type { Static } from 'typebox';

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

/**
 * updateUserById: a person changes their own name and picture. Another user the caller can see (someone of an
 * organization they share) is refused with 403; one they cannot see is a 404, as for getUserById. The picture
 * is shown wherever the user is (avatars of the app and the reader), so only http(s) URLs are taken.
 */
export async function updateUser(ctx: AppContext, caller: Caller, userId: string, body: Static<typeof UpdateUserBody>) {
  const callerId = personOf(caller);
  const user = await findUserById(ctx.db, userId);
  if (!user || (user.id !== callerId && !(await shareAnOrganization(ctx.db, callerId, user.id)))) throw notFound(`No user ${userId}`);
  if (user.id !== callerId) throw forbidden("Changing another person's profile is refused: each person changes their own");
  const changes: Partial<Pick<UserRow, 'display_name' | 'photo_url'>> = {};
  if (body.displayName !== undefined) {
    const name = body.displayName.trim();
    if (name.length === 0) throw badRequest('body/displayName must not be blank');
    changes.display_name = name;
  }
  if (body.photoURL !== undefined) changes.photo_url = httpUrl(body.photoURL, 'body/photoURL');
  if (Object.keys(changes).length === 0) throw badRequest('body must have at least one of displayName, photoURL');
  await updateUserProfile(ctx.db, user.id, changes);
  return presentUser(ctx.config, { ...user, ...changes });
}

function httpUrl(value: string, field: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw badRequest(`${field} must be an absolute URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw badRequest(`${field} must be an http(s) URL`);
  return url.toString();
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
