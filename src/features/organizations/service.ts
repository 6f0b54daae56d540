import type { Static } from 'typebox';
import type { Executor } from '../../db/types.ts';
import { isUniqueViolation } from '../../db/dialect.ts';
import { type AppContext, type Caller, personOf } from '../../platform/context.ts';
import { badRequest, conflict, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { isoNow } from '../../platform/clock.ts';
import { recordEvent } from '../../platform/events.ts';
import { recordAudit } from '../audit/record.ts';
import { OrgAccess } from '../access/service.ts';
import type { Role } from '../access/roles.ts';
import { insertMemberRow } from '../members/queries.ts';
import { assertMergeRuleUsers } from './merge-rules.ts';
import { assertOrganizationAdmin, assertOrganizationVisible } from './policy.ts';
import { presentOrganization } from './present.ts';
import type { CreateOrganizationBody, UpdateOrganizationBody } from './schemas.ts';
import {
  countOrganizationsOfUser,
  findOrganization,
  findOrganizationByHostname,
  insertOrganization,
  listOrganizationsOfUser,
  updateOrganization,
  type OrganizationRow,
} from './store.ts';

/** Loads an organization the caller can see, or answers 404 as if it did not exist. */
export async function loadVisibleOrganization(ctx: AppContext, caller: Caller, organizationId: string) {
  const access = await OrgAccess.load(ctx.db, organizationId, caller);
  assertOrganizationVisible(access);
  const org = await findOrganization(ctx.db, organizationId);
  if (!org) throw notFound(`No organization ${organizationId}`);
  return { org, access };
}

function normalizeDomains(domains: string[] | undefined): string[] {
  return [...new Set((domains ?? []).map((d) => d.trim().toLowerCase()).filter((d) => d.length > 0))];
}

/** Creates an organization whose admin is `adminUserId`, inside the given transaction. */
export async function insertOrganizationWithAdmin(
  ctx: AppContext,
  db: Executor,
  input: { title: string; emailDomains?: string[] },
  adminUserId: string,
): Promise<OrganizationRow> {
  const now = isoNow(ctx.clock);
  const org: OrganizationRow = {
    id: newId(),
    title: input.title.trim(),
    hostname: null,
    email_domains: JSON.stringify(normalizeDomains(input.emailDomains)),
    default_role: 'read',
    default_content: null,
    type: 'business',
    use_case: null,
    invite_links: 0,
    sso: 0,
    ai: 0,
    logo_url: null,
    merge_rules: JSON.stringify({ type: 'none' }),
    created_at: now,
    updated_at: now,
  };
  if (org.title.length < 2) throw badRequest('body/title must NOT have fewer than 2 characters');
  await insertOrganization(db, org);
  await insertMemberRow(db, { organization_id: org.id, user_id: adminUserId, role: 'admin', joined_at: now });
  await recordEvent(db, ctx.clock, 'organization_created', org.id, { organizationId: org.id, userId: adminUserId });
  return org;
}

export async function createOrganization(ctx: AppContext, caller: Caller, body: Static<typeof CreateOrganizationBody>) {
  const org = await ctx.db.transaction().execute((trx) => insertOrganizationWithAdmin(ctx, trx, body, personOf(caller)));
  return presentOrganization(ctx.config, org, new OrgAccess(ctx.db, org.id, { member: true, role: 'admin' }));
}

export async function getOrganization(ctx: AppContext, caller: Caller, organizationId: string) {
  const { org, access } = await loadVisibleOrganization(ctx, caller, organizationId);
  return presentOrganization(ctx.config, org, access);
}

export async function listOrganizations(ctx: AppContext, caller: Caller, query: { page?: string; limit?: number }) {
  const listKey = `orgs:${personOf(caller)}${caller.kind === 'user' && caller.onlyOrganization ? `:${caller.onlyOrganization}` : ''}`;
  const page = ctx.cursors.open(listKey, query, ctx.config.defaultPageSize);
  const only = caller.kind === 'user' ? caller.onlyOrganization : undefined;
  const [rows, count] = await Promise.all([listOrganizationsOfUser(ctx.db, personOf(caller), page, only), countOrganizationsOfUser(ctx.db, personOf(caller), only)]);
  return ctx.cursors.close(
    listKey,
    page,
    rows,
    count,
    (row) => [row.joined_at, row.id],
    (row) =>
      presentOrganization(
        ctx.config,
        row,
        new OrgAccess(ctx.db, row.id, { member: true, role: (row.member_role as Role | null) ?? null }, personOf(caller), Boolean(Number(row.owns_team))),
      ),
  );
}

export async function updateOrganizationSettings(ctx: AppContext, caller: Caller, organizationId: string, body: Static<typeof UpdateOrganizationBody>) {
  const { org, access } = await loadVisibleOrganization(ctx, caller, organizationId);
  assertOrganizationAdmin(access);
  const changes: Partial<OrganizationRow> = {};
  if (body.title !== undefined) {
    if (body.title.trim().length < 2) throw badRequest('body/title must NOT have fewer than 2 characters');
    changes.title = body.title.trim();
  }
  if (body.emailDomains !== undefined) changes.email_domains = JSON.stringify(normalizeDomains(body.emailDomains));
  if (body.hostname !== undefined && body.hostname !== org.hostname) {
    const holder = await findOrganizationByHostname(ctx.db, body.hostname);
    if (holder) throw conflict(`The hostname "${body.hostname}" is already used by another organization`);
    changes.hostname = body.hostname;
  }
  if (body.defaultRole !== undefined) changes.default_role = body.defaultRole;
  if (body.defaultContent !== undefined) {
    // Sites are the only default content; none exists until sites are built, so only clearing is valid.
    if (body.defaultContent !== null) throw badRequest(`body/defaultContent: no site ${body.defaultContent.site} in this organization`);
    changes.default_content = null;
  }
  if (body.logo !== undefined) changes.logo_url = body.logo;
  if (body.sso !== undefined) changes.sso = body.sso ? 1 : 0;
  if (body.ai !== undefined) changes.ai = body.ai ? 1 : 0;
  if (body.inviteLinks !== undefined) changes.invite_links = body.inviteLinks ? 1 : 0;
  if (body.mergeRules !== undefined) {
    await assertMergeRuleUsers(ctx.db, org.id, body.mergeRules);
    changes.merge_rules = JSON.stringify(body.mergeRules);
  }
  if (Object.keys(changes).length > 0) {
    changes.updated_at = isoNow(ctx.clock);
    try {
      await ctx.db.transaction().execute(async (trx) => {
        await updateOrganization(trx, org.id, changes);
        await recordEvent(trx, ctx.clock, 'organization_updated', org.id, { organizationId: org.id, fields: Object.keys(changes) });
        // Requiring SSO for the members is an SSO setting; the rest of the organization's settings are not audited.
        if (changes.sso !== undefined && changes.sso !== org.sso) {
          await recordAudit(ctx, trx, org.id, caller, { action: 'sso.settings_changed', target: { type: 'organization', id: org.id, label: org.title }, details: { change: 'updated', sso: changes.sso === 1 } });
        }
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(`The hostname "${body.hostname}" is already used by another organization`);
      throw error;
    }
  }
  return presentOrganization(ctx.config, { ...org, ...changes }, access);
}
