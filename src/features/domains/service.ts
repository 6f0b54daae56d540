import { hash, randomBytes } from 'node:crypto';
import { resolveTxt } from 'node:dns/promises';
import type { AppContext, Caller } from '../../platform/context.ts';
import { personOf } from '../../platform/context.ts';
import { badRequest, conflict, notFound } from '../../platform/errors.ts';
import { isoNow } from '../../platform/clock.ts';
import { newId } from '../../platform/ids.ts';
import { OrgAccess } from '../access/service.ts';
import { assertCanInOrganization } from '../organizations/policy.ts';
import { normalizeEmail } from '../users/email.ts';
import { deleteDomain, findDomain, findDomainByMailToken, findDomainByName, insertDomain, listDomains, updateDomain, type DomainRow } from './store.ts';

/** The TXT record's name under the domain, and the prefix of its value. */
export const TXT_RECORD_PREFIX = '_quire-verification';
const TXT_VALUE_PREFIX = 'quire-verification=';
/** A mailed verification link opens for a day. */
const MAIL_LINK_LIFETIME_MS = 24 * 60 * 60_000;

/** How DNS is asked: node's resolver, replaced by tests. */
export const dnsLookup = { resolveTxt: (name: string): Promise<string[][]> => resolveTxt(name) };

const tokenHash = (token: string) => hash('sha256', token, 'hex');

function present(row: DomainRow) {
  return {
    object: 'organization-domain' as const,
    id: row.id,
    domain: row.domain,
    verified: row.verified_at !== null,
    ...(row.verified_at ? { verifiedAt: row.verified_at } : {}),
    txtRecord: { name: `${TXT_RECORD_PREFIX}.${row.domain}`, value: `${TXT_VALUE_PREFIX}${row.token}` },
    ...(row.mailed_to ? { mailedTo: row.mailed_to } : {}),
  };
}

/** A domain decides whose accounts the organization's identity providers may sign in: organization admins only. */
async function adminAccess(ctx: AppContext, caller: Caller, organizationId: string): Promise<OrgAccess> {
  const access = await OrgAccess.load(ctx.db, organizationId, caller);
  assertCanInOrganization(access, 'admin', 'Managing the verified domains of single sign-on');
  return access;
}

const DOMAIN = /^(?=.{3,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

export function normalizeDomain(value: string): string {
  const domain = value.trim().toLowerCase().replace(/\.$/, '');
  if (!DOMAIN.test(domain)) throw badRequest(`body/domain: "${value}" is not a domain name (e.g. example.com)`);
  return domain;
}

export async function listOrganizationDomains(ctx: AppContext, caller: Caller, organizationId: string) {
  await adminAccess(ctx, caller, organizationId);
  return { items: (await listDomains(ctx.db, organizationId)).map(present) };
}

export async function addOrganizationDomain(ctx: AppContext, caller: Caller, organizationId: string, body: { domain: string }) {
  await adminAccess(ctx, caller, organizationId);
  const domain = normalizeDomain(body.domain);
  if (await findDomainByName(ctx.db, organizationId, domain)) throw conflict(`body/domain: ${domain} is already a domain of this organization`);
  const row: DomainRow = {
    id: newId(),
    organization_id: organizationId,
    domain,
    token: randomBytes(24).toString('base64url'),
    mail_token_hash: null,
    mailed_to: null,
    mail_expires_at: null,
    verified_at: null,
    verified_by: null,
    created_at: isoNow(ctx.clock),
  };
  await insertDomain(ctx.db, row);
  return present(row);
}

export async function removeOrganizationDomain(ctx: AppContext, caller: Caller, organizationId: string, domainId: string) {
  await adminAccess(ctx, caller, organizationId);
  if (!(await deleteDomain(ctx.db, organizationId, domainId))) throw notFound(`No domain ${domainId} in this organization`);
}

/**
 * Verifies a domain: `dns` looks up the TXT record now; `email` mails a link to an address of the domain
 * (whoever reads that mailbox confirms it). Answers the domain as it stands.
 */
export async function verifyOrganizationDomain(
  ctx: AppContext,
  caller: Caller,
  organizationId: string,
  domainId: string,
  body: { method: 'dns' | 'email'; email?: string },
) {
  await adminAccess(ctx, caller, organizationId);
  const row = await findDomain(ctx.db, organizationId, domainId);
  if (!row) throw notFound(`No domain ${domainId} in this organization`);
  if (row.verified_at) return present(row);
  if (body.method === 'dns') {
    const name = `${TXT_RECORD_PREFIX}.${row.domain}`;
    let records: string[][];
    try {
      records = await dnsLookup.resolveTxt(name);
    } catch {
      records = [];
    }
    const wanted = `${TXT_VALUE_PREFIX}${row.token}`;
    if (!records.some((chunks) => chunks.join('') === wanted)) {
      throw badRequest(`body/method: no TXT record "${wanted}" was found at ${name} (DNS changes can take a while to show)`);
    }
    const changes = { verified_at: isoNow(ctx.clock), verified_by: `dns:${personOf(caller)}` };
    await updateDomain(ctx.db, row.id, changes);
    return present({ ...row, ...changes });
  }
  if (body.email === undefined) throw badRequest('body/email is required with method email: the address of the domain to mail the link to');
  let email: string;
  try {
    email = normalizeEmail(body.email);
  } catch {
    throw badRequest(`body/email: "${body.email}" is not an e-mail address`);
  }
  if (email.slice(email.lastIndexOf('@') + 1) !== row.domain) throw badRequest(`body/email must be an address of ${row.domain}`);
  if (!ctx.mailer.enabled) throw badRequest('body/method: mail is not set up on this server (SMTP_URL); verify with the DNS TXT record');
  const token = randomBytes(32).toString('base64url');
  const expires = new Date(ctx.clock.now().getTime() + MAIL_LINK_LIFETIME_MS).toISOString();
  await updateDomain(ctx.db, row.id, { mail_token_hash: tokenHash(token), mailed_to: email, mail_expires_at: expires });
  const url = new URL(`/sso/domains/verify/${token}`, ctx.config.publicUrl).href;
  await ctx.mailer.send({
    to: email,
    subject: `Confirm that ${row.domain} belongs to your organization on Quire`,
    text: [
      `An administrator of an organization on Quire (${ctx.config.publicUrl}) asked to verify that it holds the domain ${row.domain}.`,
      `Once verified, the organization's single sign-on may sign in every account whose e-mail address is of ${row.domain}.`,
      '',
      'If you manage this domain and agree, open this link and confirm:',
      url,
      '',
      `The link works until ${expires.slice(0, 16).replace('T', ' ')} UTC. If you did not expect it, ignore this mail.`,
    ].join('\n'),
  });
  return present({ ...row, mailed_to: email });
}

/** The domain a mailed link confirms, or why it cannot. */
async function openMailLink(ctx: AppContext, token: string): Promise<DomainRow> {
  const row = await findDomainByMailToken(ctx.db, tokenHash(token));
  if (!row?.mail_expires_at || Date.parse(row.mail_expires_at) <= ctx.clock.now().getTime()) throw notFound('This verification link is no longer valid: it expired, was replaced, or never existed.');
  return row;
}

export async function describeMailLink(ctx: AppContext, token: string): Promise<{ domain: string }> {
  return { domain: (await openMailLink(ctx, token)).domain };
}

export async function confirmMailLink(ctx: AppContext, token: string): Promise<{ domain: string }> {
  const row = await openMailLink(ctx, token);
  await updateDomain(ctx.db, row.id, { verified_at: isoNow(ctx.clock), verified_by: `email:${row.mailed_to}`, mail_token_hash: null, mail_expires_at: null });
  return { domain: row.domain };
}
