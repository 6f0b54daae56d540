import type { Static } from 'typebox';
import type { Executor } from '../../db/types.ts';
import { personOf, type AppContext, type Caller, type RequestOrigin } from '../../platform/context.ts';
import { recordAuditForMember } from '../audit/record.ts';
import { ApiError, badRequest, conflict, notFound, unauthorized } from '../../platform/errors.ts';
import { isoNow } from '../../platform/clock.ts';
import type { Role } from '../access/roles.ts';
import { findUserByEmail, findUserById } from '../users/queries.ts';
import { normalizeEmail } from '../users/email.ts';
import { createUser } from '../users/service.ts';
import { presentUser } from '../users/present.ts';
import { liveSessionsOf, openSession, revokeAllSessionsOf, revokeOwnSession, signOutSession, type BrowserSession, type SessionMethod } from '../sessions/service.ts';
import { inviteUsers } from '../members/service.ts';
import { findMember } from '../members/queries.ts';
import { findOrganization } from '../organizations/queries.ts';
import { joinWithInvite } from '../organization-invites/service.ts';
import { checkPasswordRule, consumeLink, createLink } from './links.ts';
import { invitationMail, resetMail, verificationMail } from './mails.ts';
import { addressProven } from './address-proof.ts';
import { dummyHash, hashPassword, verifyPassword } from './passwords.ts';
import type { SignInThrottle } from './sign-in-throttle.ts';
import { findPasswordHash, hasOwnAccount, savePasswordHash } from './store.ts';
import type { InvitationBody } from './schemas.ts';

/** The one answer to a wrong e-mail or a wrong password: it must not tell which of the two was wrong. */
export const WRONG_CREDENTIALS = 'The e-mail or password is incorrect';

/** Who signs in, from where: the throttle counts per e-mail and per address; the agent names the device. */
export interface Client {
  address: string;
  userAgent: string | undefined;
}

function tooMany(waitMs: number): ApiError {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  return new ApiError(429, `Too many failed sign-ins for this e-mail or from this address; retry in ${seconds} s`);
}

const originOfClient = (client: Client): RequestOrigin => ({ ipAddress: client.address, userAgent: client.userAgent ?? null, via: 'ui' });

async function signedIn(ctx: AppContext, db: Executor, userId: string, method: SessionMethod, client: Client) {
  const user = await findUserById(db, userId);
  if (!user) throw notFound('This person no longer exists');
  const opened = await openSession(ctx, db, { userId, method, origin: originOfClient(client) });
  return { body: { user: presentUser(ctx.config, user), csrfToken: opened.csrfToken }, setCookies: opened.setCookies };
}

/**
 * Signs in with an e-mail and a password. An unknown e-mail, one without a password and a wrong password
 * are the same 401 after the same work (a hash is checked in every case), so neither the answer nor its time
 * tells whether an account exists.
 */
export async function signInWithPassword(ctx: AppContext, throttle: SignInThrottle, input: { email: string; password: string }, client: Client) {
  let email: string;
  try {
    email = normalizeEmail(input.email);
  } catch {
    email = input.email.trim().toLowerCase();
  }
  const wait = await throttle.waitMs(email, client.address, ctx.clock.now().getTime());
  if (wait > 0) throw tooMany(wait);
  const user = await findUserByEmail(ctx.db, email);
  const stored = user ? await findPasswordHash(ctx.db, user.id) : undefined;
  const matches = await verifyPassword(input.password, stored ?? (await dummyHash()));
  if (!user || !stored || !matches) {
    await throttle.failed(email, client.address, ctx.clock.now().getTime());
    // This attempt passed the throttle: if the next one would wait, this failure is the one that tripped it.
    if (user && (await throttle.waitMs(email, client.address, ctx.clock.now().getTime())) > 0) {
      await recordAuditForMember(ctx, ctx.db, user.id, { kind: 'system', origin: originOfClient(client) }, { action: 'user.sign_in_throttled', target: { type: 'user', id: user.id } });
    }
    throw unauthorized(WRONG_CREDENTIALS);
  }
  await throttle.succeeded(email);
  return signedIn(ctx, ctx.db, user.id, 'password', client);
}

/** Ends the caller's session (a token caller has none: nothing to end but the cookies). */
export async function signOut(ctx: AppContext, caller: Caller): Promise<void> {
  if (caller.kind === 'user' && caller.session) await signOutSession(ctx, { id: caller.session.id, userId: caller.userId, organizationId: caller.session.organizationId }, caller.origin);
}

export async function describeSession(ctx: AppContext, browser: BrowserSession) {
  const user = await findUserById(ctx.db, browser.session.user_id);
  if (!user) throw unauthorized('You are not signed in');
  const { session } = browser;
  return {
    user: presentUser(ctx.config, user),
    csrfToken: browser.csrfToken,
    session: { id: session.id, createdAt: session.created_at, expiresAt: session.expires_at, method: session.method, organizationId: session.organization_id },
  };
}

/** The caller's live sessions, theirs only; `current` marks the one the request came with. */
export async function listOwnSessions(ctx: AppContext, caller: Caller) {
  const userId = personOf(caller);
  const current = caller.kind === 'user' ? caller.session?.id : undefined;
  const rows = await liveSessionsOf(ctx, userId);
  return {
    items: rows.map((row) => ({
      id: row.id,
      createdAt: row.created_at,
      lastSeenAt: row.last_seen_at,
      userAgent: row.user_agent,
      method: row.method,
      current: row.id === current,
    })),
  };
}

export async function revokeOwnSessionById(ctx: AppContext, caller: Caller, sessionId: string): Promise<void> {
  if (!(await revokeOwnSession(ctx, personOf(caller), sessionId))) throw notFound(`No session ${sessionId} of yours`);
}

/**
 * Changes the caller's password, given the current one (a stolen session alone cannot lock the owner out).
 * Every other session of theirs ends. Wrong current passwords count against the throttle like sign-ins.
 */
export async function changePassword(ctx: AppContext, throttle: SignInThrottle, caller: Caller, input: { currentPassword: string; newPassword: string }, client: Client) {
  const userId = personOf(caller);
  const user = await findUserById(ctx.db, userId);
  if (!user) throw notFound('This person no longer exists');
  const key = user.email ?? user.id;
  const wait = await throttle.waitMs(key, client.address, ctx.clock.now().getTime());
  if (wait > 0) throw tooMany(wait);
  const stored = await findPasswordHash(ctx.db, userId);
  if (!stored) throw badRequest('body/currentPassword: you have no password yet; ask for a password reset link to set one');
  if (!(await verifyPassword(input.currentPassword, stored))) {
    await throttle.failed(key, client.address, ctx.clock.now().getTime());
    throw badRequest('body/currentPassword is not your current password');
  }
  checkPasswordRule(input.newPassword, 'newPassword');
  const hash = await hashPassword(input.newPassword);
  await ctx.db.transaction().execute(async (trx) => {
    await savePasswordHash(trx, userId, hash, isoNow(ctx.clock));
    await revokeAllSessionsOf(ctx, trx, userId, caller.kind === 'user' ? caller.session?.id : undefined);
  });
}

/**
 * Mails a password reset link when the e-mail is known and mail is set up. The answer is the same either
 * way; the mail is sent after the answer, so its time does not tell either. Requests count against the
 * throttle: a flood of resets must not become a flood of mail.
 */
export async function requestPasswordReset(ctx: AppContext, throttle: SignInThrottle, input: { email: string }, client: Client): Promise<void> {
  const email = input.email.trim().toLowerCase();
  const now = ctx.clock.now().getTime();
  const wait = await throttle.waitMs(`reset:${email}`, client.address, now);
  if (wait > 0) throw tooMany(wait);
  await throttle.failed(`reset:${email}`, client.address, now);
  if (!ctx.mailer.enabled) return;
  const user = await findUserByEmail(ctx.db, email);
  if (!user?.email) return;
  const link = await createLink(ctx, ctx.db, { kind: 'reset', userId: user.id });
  void ctx.mailer.send(resetMail(ctx.config, user.email, link));
}

/**
 * Sets the password a link allows and signs the person in; a reset also ends every other session of theirs.
 * Every link was mailed or handed to the account's address, so using it proves the address: an account whose
 * address was unproven is the link holder's from now on (address-proof.ts ends what its maker set up).
 */
export async function useSignInLink(ctx: AppContext, token: string, input: { password: string; displayName?: string | undefined }, client: Client) {
  return consumeLink(ctx, token, input, async (trx, link) => {
    if (link.kind === 'reset') await revokeAllSessionsOf(ctx, trx, link.user_id);
    await addressProven(ctx, trx, link.user_id, { takeOver: true, keepPassword: true });
    return signedIn(ctx, trx, link.user_id, 'link', client);
  });
}

/** Mails the signed-in person a link that proves their address (their e-mail invitations wait for it). */
export async function requestEmailVerification(ctx: AppContext, caller: Caller): Promise<{ emailed: boolean }> {
  const user = await findUserById(ctx.db, personOf(caller));
  if (!user?.email) throw notFound('This person has no e-mail address');
  if (user.email_verified_at !== null) throw conflict(`${user.email} is verified already`);
  if (!ctx.mailer.enabled) throw badRequest('Mail is not set up on this server (SMTP_URL): ask an administrator to invite you, their invitation link proves your address');
  const link = await createLink(ctx, ctx.db, { kind: 'verify', userId: user.id });
  return { emailed: await ctx.mailer.send(verificationMail(ctx.config, user.email, link)) };
}

/**
 * Creates an account with an organization's invite link and joins with the link's role, signed in at once:
 * the account, its password, the membership and the session are written together, so a revoked link leaves
 * no account behind. An e-mail that has an account is refused (409): its owner signs in, then joins; a link
 * must never set the password of someone's existing account. Refusals count against the throttle, so the
 * link cannot be used to test many e-mails quickly.
 */
export async function signUpWithInvite(
  ctx: AppContext,
  throttle: SignInThrottle,
  invite: { organizationId: string; inviteId: string },
  input: { email: string; password: string; displayName?: string | undefined },
  client: Client,
) {
  let email: string;
  try {
    email = normalizeEmail(input.email);
  } catch {
    throw badRequest(`body/email: "${input.email}" is not an e-mail address`);
  }
  checkPasswordRule(input.password, 'password');
  const wait = await throttle.waitMs(email, client.address, ctx.clock.now().getTime());
  if (wait > 0) throw tooMany(wait);
  const hash = await hashPassword(input.password);
  try {
    const { verify, ...answer } = await ctx.db.transaction().execute(async (trx) => {
      if (await findUserByEmail(trx, email)) throw conflict(`body/email: ${email} already has an account; sign in with it, then join`);
      const user = await createUser(ctx, trx, { email, ...(input.displayName?.trim() ? { displayName: input.displayName.slice(0, 200) } : {}) });
      await savePasswordHash(trx, user.id, hash, isoNow(ctx.clock));
      await joinWithInvite(ctx, trx, invite.organizationId, invite.inviteId, user.id);
      const answer = await signedIn(ctx, trx, user.id, 'password', client);
      // The account's address is unproven until its owner opens the link mailed to it (without mail, an
      // administrator's invitation link is the proof).
      const verify = ctx.mailer.enabled ? await createLink(ctx, trx, { kind: 'verify', userId: user.id }) : undefined;
      return { ...answer, verify: verify ? { email, link: verify } : undefined };
    });
    if (verify) void ctx.mailer.send(verificationMail(ctx.config, verify.email, verify.link));
    return answer;
  } catch (error) {
    if (error instanceof ApiError && error.statusCode === 409) await throttle.failed(email, client.address, ctx.clock.now().getTime());
    throw error;
  }
}

/**
 * Invites a person by e-mail with a role (the official `inviteUsersToOrganization` does the inviting: the
 * person is a member at once) and makes the one-time link that lets them set a password, mailed when mail is
 * set up. A person who already has an account they sign in to gets no link: an admin must never hold a link
 * that sets the password of someone else's existing account.
 */
export async function inviteWithLink(ctx: AppContext, caller: Caller, body: Static<typeof InvitationBody>) {
  const email = normalizeEmail(body.email);
  const { pending } = await inviteUsers(ctx, caller, body.organizationId, { emails: [{ email, role: body.role as Role | null }] });
  const user = await findUserByEmail(ctx.db, email);
  if (!user) throw notFound(`No user ${email}`);
  const waiting = pending.includes(user.id);
  const answer = { userId: user.id, email, role: body.role, emailed: false, ...(waiting ? { pending: true } : {}) };
  // An account whose address is unproven gets the link too: opening it is the proof the invitation waits for.
  if (!waiting && (await hasOwnAccount(ctx.db, user.id, body.organizationId))) return answer;
  const link = await createLink(ctx, ctx.db, { kind: 'invite', userId: user.id, organizationId: body.organizationId, role: body.role });
  const organization = await findOrganization(ctx.db, body.organizationId);
  const emailed = await ctx.mailer.send(invitationMail(ctx.config, email, organization?.title ?? 'an organization', link));
  return { ...answer, emailed, url: link.url, expiresAt: link.expiresAt };
}

/**
 * After the official `inviteUsersToOrganization`: the people it added who have no account yet get their
 * invitation link by mail (the official answer has no place for links; the Members screen uses
 * `inviteWithLink`). Nothing happens without SMTP_URL.
 */
export async function mailInvitations(ctx: AppContext, organizationId: string, userIds: readonly string[]): Promise<void> {
  if (!ctx.mailer.enabled || userIds.length === 0) return;
  const organization = await findOrganization(ctx.db, organizationId);
  for (const userId of userIds) {
    const user = await findUserById(ctx.db, userId);
    if (!user?.email) continue;
    // An unproven address's account gets the link too (its invitation waits for the proof the link is).
    if (user.email_verified_at !== null && (await hasOwnAccount(ctx.db, user.id, organizationId))) continue;
    const member = await findMember(ctx.db, organizationId, userId);
    const link = await createLink(ctx, ctx.db, { kind: 'invite', userId, organizationId, role: member?.role ?? null });
    await ctx.mailer.send(invitationMail(ctx.config, user.email, organization?.title ?? 'an organization', link));
  }
}
