import { personOf, type AppContext, type Caller } from '../../platform/context.ts';
import { badRequest, conflict, forbidden, isNotFound, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { isoNow } from '../../platform/clock.ts';
import { recordEvent } from '../../platform/events.ts';
import { recordAudit } from '../audit/record.ts';
import type { Executor } from '../../db/types.ts';
import { OrgAccess } from '../access/service.ts';
import { loadVisibleOrganization } from '../organizations/service.ts';
import { loadSpace, presentSpacesFor } from '../spaces/service.ts';
import { findSpace } from '../spaces/queries.ts';
import { getSite, loadSite } from '../sites/service.ts';
import { configurationProblem, isConfigurationComplete } from './configuration.ts';
import { canSeeIntegration, targetAllows } from './policy.ts';
import { presentContentInstallation, presentInstallation } from './present.ts';
import { loadIntegration } from './service.ts';
import type { UpdateInstallationInput } from './schemas.ts';
import {
  countInstallations,
  countSiteInstallations,
  countSpaceInstallations,
  deleteInstallation,
  findInstallation,
  findInstallationInOrganization,
  findSiteInstallation,
  findSpaceInstallation,
  insertInstallation,
  listInstallations,
  listSiteInstallations,
  listSpaceInstallations,
  membershipsOfUser,
  siteInstallationsOf,
  spaceCounts,
  spaceInstallationsOf,
  updateInstallation,
  upsertSiteInstallation,
  upsertSpaceInstallation,
  type InstallationReachFilter,
  type InstallationRow,
  type IntegrationRow,
  type SiteInstallationRow,
  type SpaceInstallationRow,
} from './store.ts';

type ConfigurationKind = 'account' | 'space' | 'site';
type ListQuery = { page?: string | undefined; limit?: number | undefined; externalId?: string | undefined };

function schemaOf(integration: IntegrationRow, kind: ConfigurationKind): unknown {
  return (JSON.parse(integration.configurations) as Record<string, unknown>)[kind];
}

/**
 * The status a configuration gives: a configuration the caller sends must be complete and fit the schema
 * (400 naming the field); the empty one of a new installation is accepted and leaves it `pending` until set.
 */
function checkConfiguration(integration: IntegrationRow, kind: ConfigurationKind, configuration: Record<string, unknown>, given = true): string {
  const problem = given ? configurationProblem(schemaOf(integration, kind), configuration, 'body/configuration') : null;
  if (problem) throw badRequest(problem);
  return isConfigurationComplete(schemaOf(integration, kind), configuration) ? 'active' : 'pending';
}

/**
 * Which installations of an integration the caller sees: every one for admins of its owner organization (they
 * built it); otherwise those of the organizations the caller administers; an installation token only its own.
 */
async function reachOf(ctx: AppContext, caller: Caller, integration: IntegrationRow, ownerAccess: OrgAccess): Promise<InstallationReachFilter> {
  if (caller.kind === 'installation') return caller.integrationId === integration.id ? { installation: caller.installationId } : { organizations: [] };
  if (ownerAccess.orgRole === 'admin') return { all: true };
  const memberships = await membershipsOfUser(ctx.db, personOf(caller));
  return { organizations: memberships.filter((m) => m.role === 'admin').map((m) => m.organization_id) };
}

function reaches(reach: InstallationReachFilter, installation: InstallationRow): boolean {
  if ('all' in reach) return true;
  if ('installation' in reach) return reach.installation === installation.id;
  return reach.organizations.includes(installation.organization_id);
}

/**
 * An installation the caller sees (404 otherwise). `change`: the caller must also be able to change it — an
 * admin of the organization it is installed in, or the installation itself (it keeps its own configuration and
 * external ids, as GitBook's integrations do); the owner's admins only read others' installations.
 */
export async function loadInstallation(ctx: AppContext, caller: Caller, name: string, installationId: string, change?: string) {
  const { integration, access } = await loadIntegration(ctx, caller, name);
  const installation = await findInstallation(ctx.db, integration.id, installationId);
  const reach = await reachOf(ctx, caller, integration, access);
  if (!installation || !reaches(reach, installation)) throw notFound(`No installation ${installationId} of integration ${name}`);
  if (change) {
    const itself = caller.kind === 'installation' && caller.installationId === installation.id;
    const orgAccess = await OrgAccess.load(ctx.db, installation.organization_id, caller);
    if (!itself && orgAccess.orgRole !== 'admin') throw forbidden(`${change} is only for admins of the organization it is installed in`);
  }
  return { integration, installation, access };
}

async function presentOne(ctx: AppContext, integration: IntegrationRow, installation: InstallationRow) {
  const counts = await spaceCounts(ctx.db, [installation.id]);
  return presentInstallation(ctx.config, integration, installation, counts.get(installation.id) ?? 0);
}

export function eventPayload(integration: IntegrationRow, installation: InstallationRow, status: string, extra: Record<string, unknown> = {}) {
  return { integrationId: integration.id, installationId: installation.id, ...extra, status };
}

export async function listInstallationsOf(ctx: AppContext, caller: Caller, name: string, query: ListQuery) {
  const { integration, access } = await loadIntegration(ctx, caller, name);
  const reach = await reachOf(ctx, caller, integration, access);
  const listKey = `integration-installations:${integration.id}:${query.externalId ?? ''}`;
  const page = ctx.cursors.open(listKey, query, ctx.config.defaultPageSize);
  const [rows, count] = await Promise.all([listInstallations(ctx.db, integration.id, reach, query.externalId, page), countInstallations(ctx.db, integration.id, reach, query.externalId)]);
  const counts = await spaceCounts(
    ctx.db,
    rows.slice(0, page.limit).map((r) => r.id),
  );
  return ctx.cursors.close(listKey, page, rows, count, (row) => [row.created_at, row.id], (row) => presentInstallation(ctx.config, integration, row, counts.get(row.id) ?? 0));
}

/** Installs on an organization (its admins only); the organization must be allowed to see the integration. */
export async function installIntegration(ctx: AppContext, caller: Caller, name: string, organizationId: string) {
  const { integration } = await loadIntegration(ctx, caller, name);
  const { access } = await loadVisibleOrganization(ctx, caller, organizationId).catch((error: unknown) => {
    throw isNotFound(error) ? notFound(`body/organization: no organization ${organizationId}`) : error;
  });
  if (caller.kind !== 'user' || access.orgRole !== 'admin') throw forbidden('Installing an integration is only for organization admins');
  // A private integration installs only in its own organization (the organization is its only audience).
  if (integration.visibility === 'private' && integration.organization_id !== organizationId) throw notFound(`No integration ${name}`);
  if (!canSeeIntegration(caller, access, integration)) throw notFound(`No integration ${name}`);
  if (await findInstallationInOrganization(ctx.db, integration.id, organizationId)) throw conflict(`The integration ${name} is already installed in organization ${organizationId}`);
  const now = isoNow(ctx.clock);
  const row: InstallationRow = {
    id: newId(),
    integration_id: integration.id,
    organization_id: organizationId,
    status: checkConfiguration(integration, 'account', {}, false),
    space_selection: 'selected',
    site_selection: 'selected',
    configuration: '{}',
    external_ids: '[]',
    created_by: caller.userId,
    created_at: now,
    updated_at: now,
  };
  try {
    await ctx.db.transaction().execute(async (trx) => {
      await insertInstallation(trx, row);
      await recordEvent(trx, ctx.clock, 'installation_setup', organizationId, eventPayload(integration, row, row.status));
      await recordAudit(ctx, trx, organizationId, caller, { action: 'integration.installed', target: { type: 'installation', id: row.id, label: integration.name } });
    });
  } catch (error) {
    if (await findInstallationInOrganization(ctx.db, integration.id, organizationId)) throw conflict(`The integration ${name} is already installed in organization ${organizationId}`);
    throw error;
  }
  return presentInstallation(ctx.config, integration, row, 0);
}

export async function getInstallation(ctx: AppContext, caller: Caller, name: string, installationId: string) {
  const { integration, installation } = await loadInstallation(ctx, caller, name, installationId);
  return presentOne(ctx, integration, installation);
}

/** A change of configuration is an `installation_setup` event with the previous state, as GitBook sends it. */
export async function updateInstallationSettings(ctx: AppContext, caller: Caller, name: string, installationId: string, body: UpdateInstallationInput) {
  const { integration, installation } = await loadInstallation(ctx, caller, name, installationId, 'Changing an installation');
  // The selections decide what the installation reaches: an installation must not widen its own reach.
  if (caller.kind === 'installation' && (body.space_selection || body.site_selection)) {
    throw forbidden('Changing the space or site selection of an installation is only for admins of the organization it is installed in');
  }
  const configuration = body.configuration ?? (JSON.parse(installation.configuration) as Record<string, unknown>);
  const status = checkConfiguration(integration, 'account', configuration);
  const changes: Partial<InstallationRow> = {
    status,
    configuration: JSON.stringify(configuration),
    ...(body.externalIds ? { external_ids: JSON.stringify(body.externalIds) } : {}),
    ...(body.space_selection ? { space_selection: body.space_selection } : {}),
    ...(body.site_selection ? { site_selection: body.site_selection } : {}),
    updated_at: isoNow(ctx.clock),
  };
  const updated = { ...installation, ...changes };
  await ctx.db.transaction().execute(async (trx) => {
    await updateInstallation(trx, installation.id, changes);
    await recordEvent(
      trx,
      ctx.clock,
      'installation_setup',
      installation.organization_id,
      eventPayload(integration, updated, status, { previous: { status: installation.status, configuration: JSON.parse(installation.configuration) } }),
    );
    // What an installation reaches is its scopes on the organization's content: a change of selection widens or narrows it.
    const selection = (['space_selection', 'site_selection'] as const).filter((key) => changes[key] !== undefined && changes[key] !== installation[key]);
    if (selection.length > 0) {
      await recordAudit(ctx, trx, installation.organization_id, caller, {
        action: 'integration.scopes_changed',
        target: { type: 'installation', id: installation.id, label: integration.name },
        details: Object.fromEntries(selection.map((key) => [key === 'space_selection' ? 'spaceSelection' : 'siteSelection', { from: installation[key], to: changes[key] }])),
      });
    }
  });
  return presentOne(ctx, integration, updated);
}

/**
 * Uninstalling ends the installation on its spaces and sites too (each told with its own event) and cuts its
 * tokens off at once (they go with it; the token cache depends on the table).
 */
export async function uninstallIntegration(ctx: AppContext, caller: Caller, name: string, installationId: string): Promise<void> {
  let loaded;
  try {
    loaded = await loadInstallation(ctx, caller, name, installationId);
  } catch (error) {
    if (isNotFound(error)) return;
    throw error;
  }
  const { integration, installation } = loaded;
  const orgAccess = await OrgAccess.load(ctx.db, installation.organization_id, caller);
  if (caller.kind !== 'user' || orgAccess.orgRole !== 'admin') throw forbidden('Uninstalling an integration is only for admins of the organization it is installed in');
  await ctx.db.transaction().execute(async (trx) => {
    for (const row of await spaceInstallationsOf(trx, installation.id)) {
      await recordEvent(trx, ctx.clock, 'space_installation_deleted', installation.organization_id, eventPayload(integration, installation, row.status, { spaceId: row.space_id }));
    }
    for (const row of await siteInstallationsOf(trx, installation.id)) {
      await recordEvent(trx, ctx.clock, 'site_installation_deleted', installation.organization_id, eventPayload(integration, installation, row.status, { siteId: row.site_id }));
    }
    await deleteInstallation(trx, installation.id);
    await recordEvent(trx, ctx.clock, 'installation_deleted', installation.organization_id, eventPayload(integration, installation, installation.status));
    await recordAudit(ctx, trx, installation.organization_id, caller, { action: 'integration.uninstalled', target: { type: 'installation', id: installation.id, label: integration.name } });
  });
}

export interface ContentInstallInput {
  configuration?: Record<string, unknown> | undefined;
  externalIds?: string[] | undefined;
}

/** Writes a space or site installation and its setup event (with `previous` when it existed) in one transaction. */
export async function writeContentInstallation<Row extends SpaceInstallationRow | SiteInstallationRow>(
  ctx: AppContext,
  integration: IntegrationRow,
  installation: InstallationRow,
  kind: 'space' | 'site',
  existing: Row | undefined,
  make: (base: Omit<SpaceInstallationRow, 'space_id'>) => Row,
  upsert: (db: Executor, row: Row) => Promise<void>,
  targetId: string,
  body: ContentInstallInput,
) {
  const configuration = body.configuration ?? (existing ? (JSON.parse(existing.configuration) as Record<string, unknown>) : {});
  const status = checkConfiguration(integration, kind, configuration, body.configuration !== undefined);
  const now = isoNow(ctx.clock);
  const row = make({
    installation_id: installation.id,
    status,
    configuration: JSON.stringify(configuration),
    external_ids: JSON.stringify(body.externalIds ?? (existing ? JSON.parse(existing.external_ids) : [])),
    created_at: existing?.created_at ?? now,
    updated_at: now,
  });
  await ctx.db.transaction().execute(async (trx) => {
    await upsert(trx, row);
    const previous = existing ? { previous: { status: existing.status, configuration: JSON.parse(existing.configuration) } } : {};
    await recordEvent(trx, ctx.clock, `${kind}_installation_setup`, installation.organization_id, eventPayload(integration, installation, status, { [`${kind}Id`]: targetId, ...previous }));
  });
  return row;
}

/**
 * Installs on a space of the installation's organization (404 for any other); the caller must be an admin of
 * the space (organization admins are). Installing again updates the configuration.
 */
export async function installOnSpace(ctx: AppContext, caller: Caller, name: string, installationId: string, body: ContentInstallInput & { space: string }, extended: boolean) {
  const { integration, installation } = await loadInstallation(ctx, caller, name, installationId);
  if (!targetAllows(integration.target, 'space')) throw badRequest(`The integration ${name} installs on ${integration.target === 'site' ? 'sites' : 'organizations'} only, not on spaces (its target)`);
  let loaded;
  try {
    loaded = await loadSpace(ctx, caller, body.space);
  } catch (error) {
    if (isNotFound(error)) throw notFound(`body/space: no space ${body.space} in organization ${installation.organization_id}`);
    throw error;
  }
  if (loaded.space.organization_id !== installation.organization_id) throw notFound(`body/space: no space ${body.space} in organization ${installation.organization_id}`);
  if (caller.kind !== 'user' || loaded.role !== 'admin') throw forbidden('Installing an integration on a space needs the admin role on the space');
  const existing = await findSpaceInstallation(ctx.db, installation.id, body.space);
  const row = await writeContentInstallation(ctx, integration, installation, 'space', existing, (base) => ({ ...base, space_id: body.space }), upsertSpaceInstallation, body.space, body);
  const space = extended ? (await presentSpacesFor(ctx, loaded.access, [loaded.space])).get(loaded.space.id)! : row.space_id;
  return { ...presentContentInstallation(ctx.config, integration, row, `spaces/${row.space_id}`), space };
}

/** Installs on a site of the installation's organization (404 for any other); sites are managed by organization admins. */
export async function installOnSite(ctx: AppContext, caller: Caller, name: string, installationId: string, body: ContentInstallInput & { siteId: string }, extended: boolean) {
  const { integration, installation } = await loadInstallation(ctx, caller, name, installationId);
  if (!targetAllows(integration.target, 'site')) throw badRequest(`The integration ${name} installs on ${integration.target === 'space' ? 'spaces' : 'organizations'} only, not on sites (its target)`);
  try {
    await loadSite(ctx, caller, installation.organization_id, body.siteId, 'manage', 'Installing an integration on a site');
  } catch (error) {
    if (isNotFound(error)) throw notFound(`body/siteId: no site ${body.siteId} in organization ${installation.organization_id}`);
    throw error;
  }
  const existing = await findSiteInstallation(ctx.db, installation.id, body.siteId);
  const row = await writeContentInstallation(ctx, integration, installation, 'site', existing, ({ ...base }) => ({ ...base, site_id: body.siteId }), upsertSiteInstallation, body.siteId, body);
  const site = extended ? await getSite(ctx, caller, installation.organization_id, body.siteId) : row.site_id;
  return { ...presentContentInstallation(ctx.config, integration, row, `sites/${row.site_id}`), site };
}

type ContentListQuery = ListQuery & { extended?: boolean | undefined };

export async function listSpaceInstallationsOf(ctx: AppContext, caller: Caller, name: string, query: ContentListQuery) {
  const { integration, access } = await loadIntegration(ctx, caller, name);
  const reach = await reachOf(ctx, caller, integration, access);
  const listKey = `integration-spaces:${integration.id}:${query.externalId ?? ''}`;
  const page = ctx.cursors.open(listKey, query, ctx.config.defaultPageSize);
  const [rows, count] = await Promise.all([
    listSpaceInstallations(ctx.db, integration.id, reach, query.externalId, page),
    countSpaceInstallations(ctx.db, integration.id, reach, query.externalId),
  ]);
  const spaces = new Map<string, unknown>();
  if (query.extended) {
    // Space objects as the caller sees them, one access per organization of the page.
    const byOrg = new Map<string, { access: Promise<OrgAccess>; rows: NonNullable<Awaited<ReturnType<typeof findSpace>>>[] }>();
    for (const row of rows.slice(0, page.limit)) {
      const space = await findSpace(ctx.db, row.space_id);
      if (!space) continue;
      const group = byOrg.get(space.organization_id) ?? { access: OrgAccess.load(ctx.db, space.organization_id, caller), rows: [] };
      group.rows.push(space);
      byOrg.set(space.organization_id, group);
    }
    for (const group of byOrg.values()) for (const [id, presented] of await presentSpacesFor(ctx, await group.access, group.rows)) spaces.set(id, presented);
  }
  return ctx.cursors.close(
    listKey,
    page,
    rows,
    count,
    (row) => [row.created_at, row.installation_id, row.space_id],
    (row) => ({ ...presentContentInstallation(ctx.config, integration, row, `spaces/${row.space_id}`), space: (spaces.get(row.space_id) ?? row.space_id) as string }),
  );
}

export async function listSiteInstallationsOf(ctx: AppContext, caller: Caller, name: string, query: ContentListQuery) {
  const { integration, access } = await loadIntegration(ctx, caller, name);
  const reach = await reachOf(ctx, caller, integration, access);
  const listKey = `integration-sites:${integration.id}:${query.externalId ?? ''}`;
  const page = ctx.cursors.open(listKey, query, ctx.config.defaultPageSize);
  const [rows, count] = await Promise.all([listSiteInstallations(ctx.db, integration.id, reach, query.externalId, page), countSiteInstallations(ctx.db, integration.id, reach, query.externalId)]);
  const installations = new Map<string, InstallationRow>();
  const sites = new Map<string, unknown>();
  if (query.extended) {
    for (const row of rows.slice(0, page.limit)) {
      const installation = installations.get(row.installation_id) ?? (await findInstallation(ctx.db, integration.id, row.installation_id));
      if (!installation) continue;
      installations.set(installation.id, installation);
      // A site the caller cannot see stays an id.
      try {
        sites.set(row.site_id, await getSite(ctx, caller, installation.organization_id, row.site_id));
      } catch (error) {
        if (!isNotFound(error) && !(error instanceof Error && 'statusCode' in error && error.statusCode === 403)) throw error;
      }
    }
  }
  return ctx.cursors.close(
    listKey,
    page,
    rows,
    count,
    (row) => [row.created_at, row.installation_id, row.site_id],
    (row) => ({ ...presentContentInstallation(ctx.config, integration, row, `sites/${row.site_id}`), site: (sites.get(row.site_id) ?? row.site_id) as string }),
  );
}
