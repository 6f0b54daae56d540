import type { AppContext } from './platform/context.ts';
import { isoNow } from './platform/clock.ts';
import { countUsers } from './features/users/store.ts';
import { createUser } from './features/users/service.ts';
import { insertOrganizationWithAdmin } from './features/organizations/service.ts';
import { issueToken } from './features/tokens/service.ts';
import { createLink } from './features/auth/links.ts';

export interface BootstrapResult {
  organizationId: string;
  organizationTitle: string;
  email: string;
  token: string;
  /** The one-time link that signs the admin in to the web app and asks for a password. */
  signInLink: string;
}

/**
 * First start on an empty database: an organization, its admin, an API token and a one-time link that signs the
 * admin in to the web app, so the server is usable at once. Several processes may start together on one PostgreSQL: the transaction's user count check plus the
 * unique e-mail make only one of them succeed.
 */
export async function bootstrapIfEmpty(ctx: AppContext, options: { adminToken?: string | undefined; adminEmail?: string }): Promise<BootstrapResult | undefined> {
  if ((await countUsers(ctx.db)) > 0) return undefined;
  const email = options.adminEmail ?? 'admin@localhost';
  try {
    return await ctx.db.transaction().execute(async (trx) => {
      if ((await countUsers(trx)) > 0) return undefined;
      const user = await createUser(ctx, trx, { email, displayName: 'Administrator', emailVerified: true });
      const org = await insertOrganizationWithAdmin(ctx, trx, { title: 'My Organization' }, user.id);
      const { token } = await issueToken(ctx, trx, user.id, { label: `bootstrap ${isoNow(ctx.clock)}`, value: options.adminToken });
      const link = await createLink(ctx, trx, { kind: 'first-start', userId: user.id, organizationId: org.id, role: 'admin' });
      return { organizationId: org.id, organizationTitle: org.title, email, token, signInLink: link.url };
    });
  } catch (error) {
    // Another process bootstrapped at the same moment.
    if ((await countUsers(ctx.db)) > 0) return undefined;
    throw error;
  }
}
