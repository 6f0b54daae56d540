import type { Config } from '../../config.ts';
import { resolveReturnTo } from './return-to.ts';

/** Where a signed-in person lands when the sign-in named no page: the members' web app. */
export function signedInHome(config: Config): string {
  return `${new URL(config.publicUrl).pathname.replace(/\/$/, '')}/app`;
}

/** An URL of this server (PUBLIC_URL's origin) to send the browser to after sign-in, or null: never another site. */
export function safeNextPath(config: Config, next: string | undefined | null): string | null {
  return resolveReturnTo(config.publicUrl, next);
}
