import type { Static } from 'typebox';
import { personOf, type AppContext, type Caller } from '../../platform/context.ts';
import { badRequest, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { isoNow } from '../../platform/clock.ts';
import { recordEvent } from '../../platform/events.ts';
import { sealSecret } from '../../platform/secret-box.ts';
import { OrgAccess } from '../access/service.ts';
import { findTeam, findTeams } from '../teams/queries.ts';
import { presentTeams } from '../teams/service.ts';
import { assertCanManageProviders, assertCanViewProviders } from './policy.ts';
import { presentProvider } from './present.ts';
import type { CreateOIDCProviderBody, UpdateOIDCProviderBody } from './schemas.ts';
import { deleteProvider, findProvider, insertProvider, listProviders, updateProvider, type OidcProviderRow } from './store.ts';
import { serviceUrls } from './urls.ts';
import { recordAudit } from '../audit/record.ts';

/** The issuer as OpenID Connect compares it (no trailing slash added or removed: the provider's own string). */
function checkIssuer(issuer: string): string {
  const url = new URL(issuer);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw badRequest('body/issuer must be an http or https URL');
  if (url.search || url.hash) throw badRequest('body/issuer must have no query or fragment');
  return issuer;
}

/** Providers as the caller sees them, their default teams presented once for the whole page (as SAML's). */
async function presentProviders(ctx: AppContext, access: OrgAccess, caller: Caller, rows: readonly OidcProviderRow[]) {
  const teamIds = [...new Set(rows.map((r) => r.default_team_id).filter((id): id is string => id !== null))];
  const teams = teamIds.length ? await presentTeams(ctx, access, personOf(caller), await findTeams(ctx.db, access.organizationId, teamIds)) : new Map();
  return rows.map((row) => presentProvider(ctx.config, row, row.default_team_id ? teams.get(row.default_team_id) : undefined));
}

/** The team column a body sets: "" for none, else a team of the organization. */
async function defaultTeamOf(ctx: AppContext, organizationId: string, team: string): Promise<string | null> {
  if (team === '') return null;
  if (!(await findTeam(ctx.db, organizationId, team))) throw badRequest(`body/defaultTeam: no team ${team} in this organization`);
  return team;
}

async function requireProvider(ctx: AppContext, organizationId: string, id: string): Promise<OidcProviderRow> {
  const row = await findProvider(ctx.db, organizationId, id);
  if (!row) throw notFound(`No OpenID Connect provider ${id} in organization ${organizationId}`);
  return row;
}

export async function listOidcProviders(ctx: AppContext, caller: Caller, organizationId: string) {
  const access = await OrgAccess.load(ctx.db, organizationId, caller);
  assertCanViewProviders(access);
  const rows = await listProviders(ctx.db, organizationId);
  return { items: await presentProviders(ctx, access, caller, rows), count: rows.length };
}

export async function getOidcProvider(ctx: AppContext, caller: Caller, organizationId: string, id: string) {
  const access = await OrgAccess.load(ctx.db, organizationId, caller);
  assertCanViewProviders(access);
  return (await presentProviders(ctx, access, caller, [await requireProvider(ctx, organizationId, id)]))[0]!;
}

/**
 * Adds an OpenID Connect provider: its issuer, and the client this server is registered as there (the
 * secret is sealed, never shown again). People who sign in through it for the first time join as `read`
 * unless `defaultRole` says otherwise (null: guests), like SAML's.
 */
export async function createOidcProvider(ctx: AppContext, caller: Caller, organizationId: string, body: Static<typeof CreateOIDCProviderBody>) {
  const access = await OrgAccess.load(ctx.db, organizationId, caller);
  assertCanManageProviders(access);
  const label = body.label.trim();
  if (!label) throw badRequest('body/label must NOT be blank');
  const now = isoNow(ctx.clock);
  const row: OidcProviderRow = {
    id: newId(),
    organization_id: organizationId,
    label,
    issuer: checkIssuer(body.issuer),
    client_id: body.clientId,
    client_secret: await sealSecret(ctx, body.clientSecret),
    default_role: body.defaultRole === undefined ? 'read' : body.defaultRole,
    default_team_id: body.defaultTeam === undefined ? null : await defaultTeamOf(ctx, organizationId, body.defaultTeam),
    created_at: now,
    updated_at: now,
  };
  await ctx.db.transaction().execute(async (trx) => {
    await insertProvider(trx, row);
    await recordEvent(trx, ctx.clock, 'oidc_provider_created', organizationId, { oidcProviderId: row.id });
    await recordAudit(ctx, trx, organizationId, caller, { action: 'sso.settings_changed', target: { type: 'oidc-provider', id: row.id, label: row.label }, details: { change: 'created' } });
  });
  return (await presentProviders(ctx, access, caller, [row]))[0]!;
}

export async function updateOidcProvider(ctx: AppContext, caller: Caller, organizationId: string, id: string, body: Static<typeof UpdateOIDCProviderBody>) {
  const access = await OrgAccess.load(ctx.db, organizationId, caller);
  assertCanManageProviders(access);
  const row = await requireProvider(ctx, organizationId, id);
  const changes: Partial<OidcProviderRow> = { updated_at: isoNow(ctx.clock) };
  if (body.label !== undefined) {
    if (!body.label.trim()) throw badRequest('body/label must NOT be blank');
    changes.label = body.label.trim();
  }
  if (body.issuer !== undefined) changes.issuer = checkIssuer(body.issuer);
  if (body.clientId !== undefined) changes.client_id = body.clientId;
  if (body.clientSecret !== undefined) changes.client_secret = await sealSecret(ctx, body.clientSecret);
  if (body.defaultRole !== undefined) changes.default_role = body.defaultRole;
  if (body.defaultTeam !== undefined) changes.default_team_id = await defaultTeamOf(ctx, organizationId, body.defaultTeam);
  await ctx.db.transaction().execute(async (trx) => {
    await updateProvider(trx, row.id, changes);
    await recordEvent(trx, ctx.clock, 'oidc_provider_updated', organizationId, { oidcProviderId: row.id });
    await recordAudit(ctx, trx, organizationId, caller, {
      action: 'sso.settings_changed',
      target: { type: 'oidc-provider', id: row.id, label: changes.label ?? row.label },
      details: { change: 'updated', fields: Object.keys(changes).filter((key) => key !== 'updated_at') },
    });
  });
  return (await presentProviders(ctx, access, caller, [{ ...row, ...changes }]))[0]!;
}

/** Deletes a provider; true when there was one (205, else 204, like SAML's). */
export async function deleteOidcProvider(ctx: AppContext, caller: Caller, organizationId: string, id: string): Promise<boolean> {
  const access = await OrgAccess.load(ctx.db, organizationId, caller);
  if (!access.isMember) return false;
  assertCanManageProviders(access);
  return ctx.db.transaction().execute(async (trx) => {
    const deleted = await deleteProvider(trx, organizationId, id);
    if (deleted) await recordEvent(trx, ctx.clock, 'oidc_provider_deleted', organizationId, { oidcProviderId: id });
    if (deleted) await recordAudit(ctx, trx, organizationId, caller, { action: 'sso.settings_changed', target: { type: 'oidc-provider', id }, details: { change: 'deleted' } });
    return deleted;
  });
}

/** The OpenID Connect sign-in buttons of the web app's sign-in page (public). */
export async function oidcSignInButtons(ctx: AppContext, organizationId?: string) {
  const rows = await listProviders(ctx.db, organizationId);
  return rows.map((row) => ({ id: row.id, type: 'oidc' as const, label: row.label, organizationId: row.organization_id, signInUrl: serviceUrls(ctx.config, row.id).startURL }));
}
