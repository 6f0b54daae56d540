import { isUniqueViolation } from '../../db/dialect.ts';
import { type AppContext, type Caller, personOf } from '../../platform/context.ts';
import { badRequest, forbidden, notFound } from '../../platform/errors.ts';
import { OrgAccess } from '../access/service.ts';
import { addOrUpdateMember } from '../members/service.ts';
import { findMember } from '../members/queries.ts';
import { findUserById } from '../users/queries.ts';
import { organizationPolicy } from './policy.ts';
import { presentOrganization } from './present.ts';
import { findOrganization, findOrganizationByHostname, organizationsNamingEmailDomain, type OrganizationRow } from './store.ts';

/*
 * Joining an organization by e-mail domain (the official getOrganizationsForEmailDomain and joinOrganization):
 * an organization's `emailDomains` admit whoever has PROVEN an address of one of them (users.email_verified_at);
 * an address nobody proved admits no one, whatever its domain. A caller whose session or token an identity
 * provider opened reaches only that provider's organization, here too.
 */

const DOMAIN = /^(?=.{3,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

/** The domain of a path, lower-cased; 400 naming the parameter when it is not a domain name. */
function domainParam(value: string): string {
  const domain = value.trim().toLowerCase().replace(/\.$/, '');
  if (!DOMAIN.test(domain)) throw badRequest(`params/emailDomain: "${value}" is not a domain name (e.g. example.com)`);
  return domain;
}

/** The domain of the caller's e-mail address once they proved it; undefined without a proven address. */
async function provenDomainOf(ctx: AppContext, caller: Caller): Promise<string | undefined> {
  const user = await findUserById(ctx.db, personOf(caller));
  if (!user?.email || !user.email_verified_at) return undefined;
  return user.email.slice(user.email.lastIndexOf('@') + 1).toLowerCase();
}

function admits(org: Pick<OrganizationRow, 'email_domains'>, domain: string): boolean {
  return (JSON.parse(org.email_domains) as string[]).includes(domain);
}

function reaches(caller: Caller, organizationId: string): boolean {
  return !(caller.kind === 'user' && caller.onlyOrganization !== undefined && caller.onlyOrganization !== organizationId);
}

/**
 * getOrganizationsForEmailDomain: the organizations the caller may join with their proven address of this
 * domain, oldest first (those they already belong to, or were disabled in, are not theirs to join). For a
 * domain that is not the one of the caller's proven address the list is empty: who admits another domain is
 * not the caller's to learn.
 */
export async function listOrganizationsForEmailDomain(ctx: AppContext, caller: Caller, emailDomain: string) {
  const domain = domainParam(emailDomain);
  if ((await provenDomainOf(ctx, caller)) !== domain) return { organizations: [] };
  const rows = await organizationsNamingEmailDomain(ctx.db, domain, personOf(caller));
  const joinable = rows.filter((row) => row.member_user_id === null && admits(row, domain) && reaches(caller, row.id));
  // Not a member yet: every permission flag is false, as it is for anyone outside.
  return { organizations: joinable.map((row) => presentOrganization(ctx.config, row, new OrgAccess(ctx.db, row.id, { member: false }, personOf(caller)))) };
}

/**
 * joinOrganization: the caller becomes a member with the organization's default role (none: a guest) when
 * its `emailDomains` admit the domain of their proven address. Without a proven address: 400 (it says
 * nothing of the organization). An organization that does not admit them is, to them, not there: 404. A
 * member stays as they are (204 again); a disabled member stays out (403).
 */
export async function joinOrganizationByEmailDomain(ctx: AppContext, caller: Caller, organizationId: string): Promise<void> {
  const userId = personOf(caller);
  const domain = await provenDomainOf(ctx, caller);
  if (!domain) throw badRequest('Joining an organization by e-mail domain needs a verified e-mail address: verify your e-mail address first');
  const org = reaches(caller, organizationId) ? await findOrganization(ctx.db, organizationId) : undefined;
  if (!org) throw notFound(`No organization ${organizationId}`);
  const member = await findMember(ctx.db, org.id, userId);
  if (member?.disabled) throw forbidden('Your membership of this organization is disabled');
  if (member) return;
  if (!admits(org, domain)) throw notFound(`No organization ${organizationId}`);
  try {
    // The member row and its member_joined event in one write.
    await ctx.db.transaction().execute((trx) => addOrUpdateMember(ctx, trx, org.id, userId, org.default_role));
  } catch (error) {
    // The same person joining twice at once: the other request made them a member.
    if (!isUniqueViolation(error)) throw error;
  }
}

/**
 * getSubdomain: the organization a subdomain (an organization's `hostname`) belongs to, for callers who can
 * see that organization; to anyone else it is not there (404). A subdomain here is always in use by the one
 * organization that holds it.
 */
export async function getSubdomain(ctx: AppContext, caller: Caller, subdomain: string) {
  const org = await findOrganizationByHostname(ctx.db, subdomain);
  if (!org) throw notFound(`No subdomain ${subdomain}`);
  if (!organizationPolicy.can(await OrgAccess.load(ctx.db, org.id, caller), 'view')) throw notFound(`No subdomain ${subdomain}`);
  return { object: 'subdomain' as const, subdomain, target: { type: 'organization' as const, organization: org.id }, isActive: true };
}
