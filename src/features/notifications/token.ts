import { jwtVerify, SignJWT } from 'jose';
import { personOf, type AppContext, type Caller, type UserCaller } from '../../platform/context.ts';
import { serverSigningKey } from '../../platform/signing-key.ts';
import { cachedUserById } from '../users/service.ts';

/**
 * createUserNotificationsToken: a short-lived JWT (HS256, the server's own secret) for a notifications client
 * (the members' app inbox, a desktop notifier) that lets its holder call the person's notification operations and
 * nothing else: a token that leaks from such a client reads an inbox for an hour, never content or settings. The
 * auth hook (platform/auth.ts) refuses any other operation with 403. It ends with its person, and keeps the
 * organization limit of the caller who minted it (a session opened by an organization's identity provider).
 */

/** The operations a notifications token may call: the person's inbox (notifications/routes.ts). */
export const NOTIFICATIONS_OPERATIONS: readonly string[] = ['listUserNotifications', 'getUserNotificationSummary', 'markUserNotificationsRead', 'updateUserNotification'];

const LIFETIME_SECONDS = 60 * 60;
const SECRET_NAME = 'notifications-token';
const AUDIENCE = 'quire:notifications';

/** A JWT's shape (three base64url parts, a JSON header): what no API token looks like. */
export function looksLikeNotificationsToken(token: string): boolean {
  return /^eyJ[\w-]*\.[\w-]+\.[\w-]+$/.test(token);
}

const signingKey = (ctx: AppContext): Promise<Uint8Array> => serverSigningKey(ctx, SECRET_NAME);

export async function createNotificationsToken(ctx: AppContext, caller: Caller): Promise<{ token: string }> {
  const userId = personOf(caller);
  const onlyOrganization = caller.kind === 'user' ? caller.onlyOrganization : undefined;
  const now = Math.floor(ctx.clock.now().getTime() / 1000);
  const token = await new SignJWT(onlyOrganization ? { org: onlyOrganization } : {})
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(userId)
    .setIssuer(ctx.config.publicUrl)
    .setAudience(AUDIENCE)
    .setIssuedAt(now)
    .setExpirationTime(now + LIFETIME_SECONDS)
    .sign(await signingKey(ctx));
  return { token };
}

/** The caller a notifications token stands for, or null when it is not one of ours, has expired, or its person is gone. */
export async function authenticateNotificationsToken(ctx: AppContext, token: string): Promise<UserCaller | null> {
  let subject: string | undefined;
  let organization: unknown;
  try {
    const { payload } = await jwtVerify(token, await signingKey(ctx), { algorithms: ['HS256'], issuer: ctx.config.publicUrl, audience: AUDIENCE, currentDate: ctx.clock.now() });
    subject = payload.sub;
    organization = payload.org;
  } catch {
    return null;
  }
  if (!subject || !(await cachedUserById(ctx, subject))) return null;
  return {
    kind: 'user',
    userId: subject,
    tokenId: 'notifications-token',
    onlyOperations: NOTIFICATIONS_OPERATIONS,
    ...(typeof organization === 'string' ? { onlyOrganization: organization } : {}),
  };
}
