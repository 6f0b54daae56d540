/**
 * How long a browser session lasts (docs/sso.md): at most 7 days from sign-in (absolute), and it ends sooner
 * when unused for 12 hours (idle). Signing in again through the identity provider opens a new one, so an
 * identity provider that disables a person stops their access within the idle time at most, and at once when
 * an admin removes them from the organization (their sessions there are revoked).
 */
export const SESSION_ABSOLUTE_MS = 7 * 24 * 60 * 60 * 1000;
export const SESSION_IDLE_MS = 12 * 60 * 60 * 1000;
/** `last_seen_at` is written at most this often: a busy reader must not write on every page. */
export const SESSION_TOUCH_MS = 5 * 60 * 1000;

export interface SessionTimes {
  created_at: string;
  last_seen_at: string;
  expires_at: string;
  revoked_at: string | null;
}

export type SessionState = 'active' | 'revoked' | 'expired' | 'idle';

export function sessionState(session: SessionTimes, now: Date): SessionState {
  if (session.revoked_at !== null) return 'revoked';
  const t = now.getTime();
  if (t >= Date.parse(session.expires_at)) return 'expired';
  if (t >= Date.parse(session.last_seen_at) + SESSION_IDLE_MS) return 'idle';
  return 'active';
}

export function needsTouch(session: SessionTimes, now: Date): boolean {
  return now.getTime() - Date.parse(session.last_seen_at) >= SESSION_TOUCH_MS;
}
