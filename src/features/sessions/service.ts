import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { parse, serialize } from 'cookie';
import type { Executor } from '../../db/types.ts';
import type { AppContext, Caller, RequestOrigin } from '../../platform/context.ts';
import { recordAudit, recordAuditForMember, type AuditEntry } from '../audit/record.ts';
import { isoNow } from '../../platform/clock.ts';
import { newId } from '../../platform/ids.ts';
import { needsTouch, SESSION_ABSOLUTE_MS, sessionState } from './lifetime.ts';
import {
  deleteEndedSessions,
  findSession,
  insertSession,
  listSessionsOfUser,
  revokeSessionOfUser,
  revokeSessionRow,
  revokeSessionsOf,
  revokeSessionsOfUser,
  ssoStandingIn,
  touchSession,
  type SessionRow,
} from './store.ts';

/** The HttpOnly cookie that carries `<session id>.<secret>`. */
export const SESSION_COOKIE = 'quire_session';
/**
 * The readable cookie with the CSRF token a page of ours sends back in `X-CSRF-Token` on unsafe requests
 * (double submit): another site can make the browser send our cookies, but cannot read them to set the header.
 */
export const CSRF_COOKIE = 'quire_csrf';
export const CSRF_HEADER = 'x-csrf-token';

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
/** The CSRF token of a session, derived from its secret: nothing more to store, and it dies with the session. */
const csrfTokenOf = (secret: string) => createHmac('sha256', secret).update('quire csrf').digest('base64url');

function cookieOptions(ctx: AppContext) {
  return { path: '/', sameSite: 'lax' as const, secure: ctx.config.publicUrl.startsWith('https:') };
}

export type SessionMethod = SessionRow['method'];

/**
 * Opens a session for a person just signed in: by an identity provider of `organizationId` (SAML, OpenID
 * Connect), or with a password or a one-time link (no organization: each organization's SSO rule still applies).
 */
export async function openSession(
  ctx: AppContext,
  db: Executor,
  input: { userId: string; method: SessionMethod; organizationId?: string | null; providerId?: string | null; origin?: RequestOrigin | undefined },
) {
  const now = ctx.clock.now();
  const secret = randomBytes(32).toString('base64url');
  const row: SessionRow = {
    id: newId(),
    secret_hash: sha256(secret),
    user_id: input.userId,
    organization_id: input.organizationId ?? null,
    provider_id: input.providerId ?? null,
    method: input.method,
    // What the person sees in their list of devices; bounded, since the header is the client's to choose.
    user_agent: input.origin?.userAgent ? input.origin.userAgent.slice(0, 300) : null,
    created_at: now.toISOString(),
    last_seen_at: now.toISOString(),
    expires_at: new Date(now.getTime() + SESSION_ABSOLUTE_MS).toISOString(),
    revoked_at: null,
  };
  // Each sign-in sweeps the sessions past their end: the table holds live sessions and recent ones only.
  await deleteEndedSessions(db, row.created_at);
  await insertSession(db, row);
  // A session an identity provider opened concerns its organization; one opened by a password or a link, each
  // organization of the person's.
  const signIn: AuditEntry = { action: 'user.signed_in', target: { type: 'user', id: row.user_id }, details: { method: row.method, session: row.id } };
  const actor = { kind: 'person' as const, userId: row.user_id, origin: input.origin };
  if (row.organization_id) await recordAudit(ctx, db, row.organization_id, actor, signIn);
  else await recordAuditForMember(ctx, db, row.user_id, actor, signIn);
  const maxAge = Math.floor(SESSION_ABSOLUTE_MS / 1000);
  return {
    session: row,
    csrfToken: csrfTokenOf(secret),
    setCookies: [
      serialize(SESSION_COOKIE, `${row.id}.${secret}`, { ...cookieOptions(ctx), httpOnly: true, maxAge }),
      serialize(CSRF_COOKIE, csrfTokenOf(secret), { ...cookieOptions(ctx), maxAge }),
    ],
  };
}

/** Set-Cookie headers that remove both cookies from the browser. */
export function clearedCookies(ctx: AppContext): string[] {
  return [
    serialize(SESSION_COOKIE, '', { ...cookieOptions(ctx), httpOnly: true, maxAge: 0 }),
    serialize(CSRF_COOKIE, '', { ...cookieOptions(ctx), maxAge: 0 }),
  ];
}

export interface BrowserSession {
  session: SessionRow;
  csrfToken: string;
}

/** The live session a Cookie header carries, or null (none, unknown, wrong secret, revoked, expired or idle). */
export async function sessionFromCookies(ctx: AppContext, cookieHeader: string | undefined): Promise<BrowserSession | null> {
  if (!cookieHeader) return null;
  const value = parse(cookieHeader)[SESSION_COOKIE];
  const dot = value ? value.indexOf('.') : -1;
  if (!value || dot <= 0) return null;
  const id = value.slice(0, dot);
  const secret = value.slice(dot + 1);
  const session = await findSession(ctx.db, id);
  if (!session) return null;
  const given = Buffer.from(sha256(secret));
  const stored = Buffer.from(session.secret_hash);
  if (given.length !== stored.length || !timingSafeEqual(given, stored)) return null;
  const now = ctx.clock.now();
  if (sessionState(session, now) !== 'active') return null;
  if (needsTouch(session, now)) await touchSession(ctx.db, session.id, now.toISOString());
  return { session, csrfToken: csrfTokenOf(secret) };
}

/** Whether `given` (the X-CSRF-Token header) is the session's CSRF token. */
export function csrfTokenMatches(browser: BrowserSession, given: string | undefined): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(browser.csrfToken);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The caller a browser session stands for: the user, and the organization whose identity provider signed them in. */
export function callerOfSession(session: SessionRow): Caller {
  return {
    kind: 'user',
    userId: session.user_id,
    tokenId: `session:${session.id}`,
    session: { id: session.id, organizationId: session.organization_id },
    ...(session.organization_id ? { onlyOrganization: session.organization_id } : {}),
  };
}

/**
 * Whether a session reaches an organization. One an identity provider opened reaches that provider's
 * organization only: the provider vouches for the person to its own organization, not to others. One opened
 * with a password or a one-time link reaches an organization that does not enforce SSO (its `sso` setting)
 * where the person is not one of its SSO members (members/`setUserAsSSOMemberForOrganization`): those must sign
 * in through their own organization's identity provider. API tokens are not sessions and are never refused by
 * this rule (a token minted by a provider's session carries the same limit, `onlyOrganization`).
 */
export async function sessionReachesOrganization(db: Executor, session: { organizationId: string | null }, organizationId: string, userId: string): Promise<boolean> {
  if (session.organizationId !== null) return session.organizationId === organizationId;
  const standing = await ssoStandingIn(db, organizationId, userId);
  if (!standing) return true; // not a member: nothing to reach, access checks answer as for anyone
  return Number(standing.organization_sso) !== 1 && Number(standing.member_sso) !== 1;
}

/** Whether the session's person is a member with a role (not a guest, not disabled) of the organization, and the session reaches it. */
export async function sessionMemberOf(db: Executor, session: SessionRow, organizationId: string): Promise<boolean> {
  const standing = await ssoStandingIn(db, organizationId, session.user_id);
  if (!standing || Number(standing.disabled) === 1 || standing.role === null) return false;
  if (session.organization_id !== null) return session.organization_id === organizationId;
  return Number(standing.organization_sso) !== 1 && Number(standing.member_sso) !== 1;
}

/** Ends the session a person signs out of, and records it where its sign-in was recorded. */
export async function signOutSession(ctx: AppContext, session: { id: string; userId: string; organizationId: string | null }, origin: RequestOrigin | undefined): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    await revokeSessionRow(trx, session.id, isoNow(ctx.clock));
    const signOut: AuditEntry = { action: 'user.signed_out', target: { type: 'user', id: session.userId }, details: { session: session.id } };
    const actor = { kind: 'person' as const, userId: session.userId, origin };
    if (session.organizationId) await recordAudit(ctx, trx, session.organizationId, actor, signOut);
    else await recordAuditForMember(ctx, trx, session.userId, actor, signOut);
  });
}

/** A person's live sessions, newest first: their "signed in on other devices". */
export async function liveSessionsOf(ctx: AppContext, userId: string): Promise<SessionRow[]> {
  const now = ctx.clock.now();
  return (await listSessionsOfUser(ctx.db, userId)).filter((row) => sessionState(row, now) === 'active');
}

/** Revokes one of the person's own sessions; false when they have no such session. */
export async function revokeOwnSession(ctx: AppContext, userId: string, sessionId: string): Promise<boolean> {
  return revokeSessionOfUser(ctx.db, userId, sessionId, isoNow(ctx.clock));
}

/** Ends every session of a person but `keep` (a password changed or reset: whoever knew the old one is out). */
export async function revokeAllSessionsOf(ctx: AppContext, db: Executor, userId: string, keep?: string): Promise<void> {
  await revokeSessionsOfUser(db, userId, isoNow(ctx.clock), keep);
}

/** A member removed from an organization keeps no session opened through its identity provider. */
export async function revokeSessionsOfMember(ctx: AppContext, db: Executor, organizationId: string, userId: string): Promise<void> {
  await revokeSessionsOf(db, organizationId, userId, isoNow(ctx.clock));
}
