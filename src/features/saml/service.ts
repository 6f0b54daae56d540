import type { Static } from 'typebox';
import { personOf, type AppContext, type Caller } from '../../platform/context.ts';
import { badRequest, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { isoNow } from '../../platform/clock.ts';
import { recordEvent } from '../../platform/events.ts';
import { OrgAccess } from '../access/service.ts';
import { findOrganization } from '../organizations/queries.ts';
import { findTeam, findTeams } from '../teams/queries.ts';
import { presentTeams } from '../teams/service.ts';
import { checkSigningCertificate } from './certificate.ts';
import { assertCanManageProviders, assertCanViewProviders } from './policy.ts';
import { NO_SSO_URL, presentLogin, presentProvider, providerStatus } from './present.ts';
import type { CreateSAMLProviderBody, UpdateSAMLProviderBody } from './schemas.ts';
import { countProviders, deleteProvider, findProvider, insertProvider, listAllProviders, listProviders, listSignInProviders, updateProvider, type SamlProviderRow } from './store.ts';
import { recordAudit } from '../audit/record.ts';

type ProviderFields = Static<typeof UpdateSAMLProviderBody>;

/** Providers as the caller sees them, their default teams presented once for the whole page. */
async function presentProviders(ctx: AppContext, access: OrgAccess, caller: Caller, rows: readonly SamlProviderRow[]) {
  const teamIds = [...new Set(rows.map((r) => r.default_team_id).filter((id): id is string => id !== null))];
  const teams = teamIds.length ? await presentTeams(ctx, access, personOf(caller), await findTeams(ctx.db, access.organizationId, teamIds)) : new Map();
  return rows.map((row) => presentProvider(ctx.config, row, row.default_team_id ? teams.get(row.default_team_id) : undefined));
}

async function presentOne(ctx: AppContext, access: OrgAccess, caller: Caller, row: SamlProviderRow) {
  return (await presentProviders(ctx, access, caller, [row]))[0]!;
}

/** The columns a body sets, each checked: the certificate parsed and valid now, the team one of the organization. */
async function columnsOf(ctx: AppContext, organizationId: string, body: ProviderFields): Promise<Partial<SamlProviderRow>> {
  const columns: Partial<SamlProviderRow> = {};
  if (body.label !== undefined) {
    const label = body.label.trim();
    if (!label) throw badRequest('body/label must NOT be blank');
    columns.label = label;
  }
  if (body.entityID !== undefined) columns.entity_id = body.entityID.trim();
  if (body.ssoURL === NO_SSO_URL) columns.sso_url = '';
  else if (body.ssoURL !== undefined) {
    const protocol = new URL(body.ssoURL).protocol;
    if (protocol !== 'https:' && protocol !== 'http:') throw badRequest('body/ssoURL must be an http or https URL');
    columns.sso_url = body.ssoURL;
  }
  if (body.certificate !== undefined) {
    if (body.certificate.trim() === '') columns.certificate = '';
    else {
      const checked = checkSigningCertificate(body.certificate, ctx.clock.now());
      if ('problem' in checked) throw badRequest(`body/certificate ${checked.problem}`);
      columns.certificate = checked.pem;
    }
  }
  if (body.defaultTeam !== undefined) {
    if (body.defaultTeam === '') columns.default_team_id = null;
    else if (!(await findTeam(ctx.db, organizationId, body.defaultTeam))) throw badRequest(`body/defaultTeam: no team ${body.defaultTeam} in this organization`);
    else columns.default_team_id = body.defaultTeam;
  }
  if (body.defaultRole !== undefined) columns.default_role = body.defaultRole;
  return columns;
}

async function requireProvider(ctx: AppContext, organizationId: string, id: string): Promise<SamlProviderRow> {
  const row = await findProvider(ctx.db, organizationId, id);
  if (!row) throw notFound(`No SAML provider ${id} in organization ${organizationId}`);
  return row;
}

export async function listSamlProviders(ctx: AppContext, caller: Caller, organizationId: string, query: { page?: string; limit?: number }) {
  const access = await OrgAccess.load(ctx.db, organizationId, caller);
  assertCanViewProviders(access);
  const listKey = `saml:${organizationId}`;
  const page = ctx.cursors.open(listKey, query, ctx.config.defaultPageSize);
  const [rows, count] = await Promise.all([listProviders(ctx.db, organizationId, page), countProviders(ctx.db, organizationId)]);
  const presented = new Map((await presentProviders(ctx, access, caller, rows.slice(0, page.limit))).map((p) => [p.id, p]));
  return ctx.cursors.close(listKey, page, rows, count, (row) => [row.created_at, row.id], (row) => presented.get(row.id)!);
}

export async function getSamlProvider(ctx: AppContext, caller: Caller, organizationId: string, id: string) {
  const access = await OrgAccess.load(ctx.db, organizationId, caller);
  assertCanViewProviders(access);
  return presentOne(ctx, access, caller, await requireProvider(ctx, organizationId, id));
}

/**
 * Creates a provider. Only the label is required (as in the official API): an administrator first needs our
 * ACS URL and entity ID (`service`) to register us with the identity provider, and only then has its entity
 * ID, sign-in URL and certificate; the provider is `pending` until all three are set. New members join as
 * `read` unless `defaultRole` says otherwise (null: guests).
 */
export async function createSamlProvider(ctx: AppContext, caller: Caller, organizationId: string, body: Static<typeof CreateSAMLProviderBody>) {
  const access = await OrgAccess.load(ctx.db, organizationId, caller);
  assertCanManageProviders(access);
  const columns = await columnsOf(ctx, organizationId, body);
  const now = isoNow(ctx.clock);
  const row: SamlProviderRow = {
    id: newId(),
    organization_id: organizationId,
    label: columns.label!,
    entity_id: columns.entity_id ?? '',
    sso_url: columns.sso_url ?? '',
    certificate: columns.certificate ?? '',
    default_team_id: columns.default_team_id ?? null,
    default_role: columns.default_role === undefined ? 'read' : columns.default_role,
    created_at: now,
    updated_at: now,
  };
  await ctx.db.transaction().execute(async (trx) => {
    await insertProvider(trx, row);
    await recordEvent(trx, ctx.clock, 'saml_provider_created', organizationId, { samlProviderId: row.id });
    await recordAudit(ctx, trx, organizationId, caller, { action: 'sso.settings_changed', target: { type: 'saml-provider', id: row.id, label: row.label }, details: { change: 'created' } });
  });
  return presentOne(ctx, access, caller, row);
}

export async function updateSamlProvider(ctx: AppContext, caller: Caller, organizationId: string, id: string, body: ProviderFields) {
  const access = await OrgAccess.load(ctx.db, organizationId, caller);
  assertCanManageProviders(access);
  const row = await requireProvider(ctx, organizationId, id);
  const changes = { ...(await columnsOf(ctx, organizationId, body)), updated_at: isoNow(ctx.clock) };
  await ctx.db.transaction().execute(async (trx) => {
    await updateProvider(trx, row.id, changes);
    await recordEvent(trx, ctx.clock, 'saml_provider_updated', organizationId, { samlProviderId: row.id });
    await recordAudit(ctx, trx, organizationId, caller, {
      action: 'sso.settings_changed',
      target: { type: 'saml-provider', id: row.id, label: changes.label ?? row.label },
      details: { change: 'updated', fields: Object.keys(changes).filter((key) => key !== 'updated_at') },
    });
  });
  return presentOne(ctx, access, caller, { ...row, ...changes });
}

/** Deletes a provider; true when there was one (the official API answers 205 then, 204 otherwise). */
export async function deleteSamlProvider(ctx: AppContext, caller: Caller, organizationId: string, id: string): Promise<boolean> {
  const access = await OrgAccess.load(ctx.db, organizationId, caller);
  // In an organization the caller cannot see there is no provider for them to delete: 204, as for any missing target.
  if (!access.isMember) return false;
  assertCanManageProviders(access);
  return ctx.db.transaction().execute(async (trx) => {
    const deleted = await deleteProvider(trx, organizationId, id);
    if (deleted) await recordEvent(trx, ctx.clock, 'saml_provider_deleted', organizationId, { samlProviderId: id });
    if (deleted) await recordAudit(ctx, trx, organizationId, caller, { action: 'sso.settings_changed', target: { type: 'saml-provider', id }, details: { change: 'deleted' } });
    return deleted;
  });
}

/**
 * The ways to sign in to an organization: the start URL of each active provider. Public, as a sign-in page
 * needs it before anyone is signed in (the official operation has no security); an unknown organization is 404.
 */
export async function listSsoLogins(ctx: AppContext, organizationId: string) {
  if (!(await findOrganization(ctx.db, organizationId))) throw notFound(`No organization ${organizationId}`);
  const rows = await listAllProviders(ctx.db, organizationId);
  return { items: rows.filter((row) => providerStatus(row) === 'active').map((row) => presentLogin(ctx.config, row)) };
}


/** The SAML sign-in buttons of the web app's sign-in page (public, like `listSsoLogins`). */
export async function samlSignInButtons(ctx: AppContext, organizationId?: string) {
  const rows = await listSignInProviders(ctx.db, organizationId);
  return rows
    .filter((row) => providerStatus(row) === 'active')
    .map((row) => ({ id: row.id, type: 'saml' as const, label: row.label, organizationId: row.organization_id, signInUrl: presentLogin(ctx.config, row).startURL }));
}
