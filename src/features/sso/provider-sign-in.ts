import type { AppContext, RequestOrigin } from '../../platform/context.ts';
import { isoNow } from '../../platform/clock.ts';
import { newId } from '../../platform/ids.ts';
import { isRole } from '../access/roles.ts';
import { addressProven } from '../auth/address-proof.ts';
import { isDomainVerified } from '../domains/queries.ts';
import { admitSsoMember } from '../members/service.ts';
import { openSession } from '../sessions/service.ts';
import { addTeamMemberKeepingRole, findTeam } from '../teams/queries.ts';
import { findUserByEmail, findUserById } from '../users/queries.ts';
import { createUser } from '../users/service.ts';
import { providerAccount } from './account-rule.ts';
import { findIdentity, insertIdentity, touchIdentity } from './store.ts';

/** A refusal of single sign-on, shown to the browser as a page; `action` is what the person can do instead. */
export class SsoSignInRefused extends Error {
  constructor(
    readonly status: 400 | 403 | 404 | 502,
    message: string,
    readonly action?: { label: string; href: string },
  ) {
    super(message);
  }
}

export interface ProviderOfSignIn {
  kind: 'saml' | 'oidc';
  id: string;
  label: string;
  organizationId: string;
  defaultRole: string | null;
  defaultTeamId: string | null;
  /** The provider's start URL, for the refusal's "sign in, then link" action. */
  startUrl: string;
}

/** Who the provider vouches for: its stable subject (NameID, `sub`), the e-mail it gave, and a name. */
export interface VouchedPerson {
  subject: string;
  email: string;
  displayName?: string | undefined;
}

/**
 * Signs in the person an organization's identity provider vouches for (its answer already verified), by the
 * account rule (account-rule.ts): the provider's own identity, a new account, or an existing one its owner
 * linked or whose domain the organization verified; never another existing account. The person joins the
 * organization as an SSO member (its default role and team for a newcomer), and the session opened reaches
 * that organization only. Everything is written in one transaction.
 */
export async function signInThroughProvider(
  ctx: AppContext,
  provider: ProviderOfSignIn,
  person: VouchedPerson,
  options: { linkUserId: string | null; origin: RequestOrigin },
): Promise<{ setCookies: string[] }> {
  const now = isoNow(ctx.clock);
  const domain = person.email.slice(person.email.lastIndexOf('@') + 1);
  return ctx.db.transaction().execute(async (trx) => {
    const identity = await findIdentity(trx, provider.id, person.subject, person.email);
    const existing = await findUserByEmail(trx, person.email);
    const domainVerified = await isDomainVerified(trx, provider.organizationId, domain);
    const decision = providerAccount({
      identityUserId: identity?.user_id ?? null,
      linkUserId: options.linkUserId,
      existing: existing ? { id: existing.id, emailVerified: existing.email_verified_at !== null } : null,
      domainVerified,
    });
    let userId: string;
    switch (decision.kind) {
      case 'refuse':
        if (decision.reason === 'linked-elsewhere') {
          throw new SsoSignInRefused(403, `This ${provider.label} identity is linked to another account already; it cannot be linked to yours too.`);
        }
        throw new SsoSignInRefused(
          403,
          `An account with the e-mail address ${person.email} already exists, and ${provider.label} may not sign it in: it did not create that account, and its owner has not linked it. If the account is yours, sign in to it with your password or a one-time link, then link ${provider.label} to it.`,
          { label: `Sign in, then link ${provider.label}`, href: `/app/sign-in?returnTo=${encodeURIComponent(`${provider.startUrl}?link=1`)}` },
        );
      case 'identity':
        userId = decision.userId;
        if (identity) await touchIdentity(trx, identity.id, { subject: person.subject, email: person.email, last_used_at: now });
        break;
      case 'create': {
        const user = await createUser(ctx, trx, { email: person.email, ...(person.displayName ? { displayName: person.displayName } : {}), emailVerified: decision.emailVerified });
        userId = user.id;
        break;
      }
      case 'link':
        userId = decision.userId;
        if (decision.origin === 'domain') await addressProven(ctx, trx, userId, { takeOver: decision.claim });
        break;
    }
    if (decision.kind !== 'identity') {
      await insertIdentity(trx, {
        id: newId(),
        user_id: userId,
        organization_id: provider.organizationId,
        provider_kind: provider.kind,
        provider_id: provider.id,
        subject: person.subject,
        email: person.email,
        origin: decision.kind === 'create' ? 'created' : decision.origin,
        created_at: now,
        last_used_at: now,
      });
    }
    if (!(await findUserById(trx, userId))) throw new SsoSignInRefused(403, 'The account of this sign-in no longer exists.');
    const role = provider.defaultRole !== null && isRole(provider.defaultRole) ? provider.defaultRole : null;
    const standing = await admitSsoMember(ctx, trx, provider.organizationId, userId, role);
    if (standing === 'disabled') throw new SsoSignInRefused(403, 'Your membership of this organization is disabled.');
    if (standing === 'joined' && provider.defaultTeamId && (await findTeam(trx, provider.organizationId, provider.defaultTeamId))) {
      await addTeamMemberKeepingRole(trx, { team_id: provider.defaultTeamId, user_id: userId, role: 'member', added_at: now });
    }
    const opened = await openSession(ctx, trx, { userId, method: provider.kind, organizationId: provider.organizationId, providerId: provider.id, origin: options.origin });
    return { setCookies: opened.setCookies };
  });
}
