import type { AppContext } from '../../platform/context.ts';
import { sessionFromCookies } from '../sessions/service.ts';
import { SsoSignInRefused } from './provider-sign-in.ts';

/**
 * The person who asks, in this browser, to link an identity provider to their account: signed in with what
 * proves the account theirs (a password or a one-time link). A session some provider opened proves only that
 * provider's word, which is not enough to bind another provider to the account.
 */
export async function linkingPerson(ctx: AppContext, cookieHeader: string | undefined): Promise<string> {
  const browser = await sessionFromCookies(ctx, cookieHeader);
  if (!browser) throw new SsoSignInRefused(403, 'Linking a sign-in provider to your account needs you signed in to it in this browser first.', { label: 'Sign in', href: '/app/sign-in' });
  if (browser.session.method !== 'password' && browser.session.method !== 'link') {
    throw new SsoSignInRefused(403, 'Linking a sign-in provider needs a session opened with your password or a one-time link, not through another provider.', { label: 'Sign in with your password', href: '/app/sign-in' });
  }
  return browser.session.user_id;
}
