import type { AppContext, Caller } from '../../platform/context.ts';
import { badRequest, forbidden, notFound } from '../../platform/errors.ts';
import type { OrgAccess } from '../access/service.ts';
import { loadVisibleOrganization } from '../organizations/service.ts';
import { loadSpace } from '../spaces/service.ts';
import { spaceIdsOf } from '../spaces/queries.ts';
import { loadSite, visibleSiteIds } from '../sites/service.ts';
import { presentInstallation } from './present.ts';
import { loadIntegration, presentIntegrationsFor } from './service.ts';
import type { ListInstalledIntegrationsFilters, PresentedInstallation } from './schemas.ts';
import { findInstallationInOrganization, spaceCounts, type IntegrationRow } from './store.ts';
import {
  countContentInstallationsIn,
  countOrganizationInstallations,
  integrationsByIds,
  integrationsInstalledOn,
  listContentInstallationsIn,
  listOrganizationInstallations,
  type ContentInstallationRow,
} from './installed-store.ts';

/*
 * What is installed where, seen from an organization, a space or a site (the official
 * getOrganizationIntegrationStatus, listOrganizationIntegrationsStatus, listOrganizationInstallations,
 * listSpaceIntegrations, listSpaceIntegrationsBlocks, listSiteIntegrations). Whoever sees the organization sees
 * which integrations are installed there and their status, on the spaces and sites they can see; an
 * installation's configuration (it may hold credentials of other services) only its organization's admins read.
 * An installation token sees its own installation only.
 */

type Status = PresentedInstallation['status'];

/** Whether an integration is installed in the organization, and its installation's status; 404 when it is not. */
export async function getOrganizationIntegrationStatus(ctx: AppContext, caller: Caller, organizationId: string, name: string): Promise<{ status: Status }> {
  await loadVisibleOrganization(ctx, caller, organizationId);
  const { integration } = await loadIntegration(ctx, caller, name);
  const installation = await findInstallationInOrganization(ctx.db, integration.id, organizationId);
  if (!installation) throw notFound(`The integration ${name} is not installed in organization ${organizationId}`);
  return { status: installation.status as Status };
}

/** The integrations of the rows, presented for the caller, in one query and one access per owner organization. */
async function integrationsOf(ctx: AppContext, caller: Caller, rows: readonly { integration_id: string }[]) {
  const integrations = await integrationsByIds(ctx.db, [...new Set(rows.map((r) => r.integration_id))]);
  return { rows: new Map(integrations.map((g) => [g.id, g])), presented: await presentIntegrationsFor(ctx, caller, integrations) };
}

/**
 * The installations of the organization, each with its status and what it is on: the organization itself (the
 * default `target`), or its spaces or sites, optionally one of them (`space`, `site`, only with that target).
 */
export async function listOrganizationIntegrationsStatus(ctx: AppContext, caller: Caller, organizationId: string, query: ListInstalledIntegrationsFilters) {
  const target = query.target ?? 'organization';
  if (query.space !== undefined && target !== 'space') throw badRequest('querystring/space is only valid with target "space"');
  if (query.site !== undefined && target !== 'site') throw badRequest('querystring/site is only valid with target "site"');
  const { access } = await loadVisibleOrganization(ctx, caller, organizationId);
  const installationId = caller.kind === 'installation' ? caller.installationId : undefined;
  const listKey = `installed-integrations:${organizationId}:${JSON.stringify([target, query.space, query.site])}`;
  const page = ctx.cursors.open(listKey, query, ctx.config.defaultPageSize);

  if (target === 'organization') {
    const filter = { organizationId, installationId };
    const [rows, count] = await Promise.all([listOrganizationInstallations(ctx.db, filter, page), countOrganizationInstallations(ctx.db, filter)]);
    const { presented } = await integrationsOf(ctx, caller, rows.slice(0, page.limit));
    return ctx.cursors.close(listKey, page, rows, count, (row) => [row.created_at, row.id], (row) => ({
      status: row.status as Status,
      integration: presented.get(row.integration_id)!,
      target: { type: 'organization' as const, organizationId },
    }));
  }

  const kind = target;
  const targetId = kind === 'space' ? query.space : query.site;
  if (targetId !== undefined) await assertTargetVisible(ctx, caller, organizationId, kind, targetId);
  const within = targetId === undefined && caller.kind === 'user' ? await visibleTargets(ctx, access, kind) : undefined;
  const filter = { organizationId, targetId, within, installationId };
  const [rows, count] = await Promise.all([listContentInstallationsIn(ctx.db, kind, filter, page), countContentInstallationsIn(ctx.db, kind, filter)]);
  const { presented } = await integrationsOf(ctx, caller, rows.slice(0, page.limit));
  const idOf = (row: ContentInstallationRow) => (kind === 'space' ? (row as { space_id: string }).space_id : (row as { site_id: string }).site_id);
  return ctx.cursors.close(
    listKey,
    page,
    rows,
    count,
    (row) => [row.created_at, row.installation_id, idOf(row)],
    (row) => ({
      status: row.status as Status,
      integration: presented.get(row.integration_id)!,
      target: kind === 'space' ? { type: 'space' as const, spaceId: idOf(row) } : { type: 'site' as const, siteId: idOf(row) },
    }),
  );
}

/** A space or site named by a filter must be one the caller sees (404, as anywhere else). */
async function assertTargetVisible(ctx: AppContext, caller: Caller, organizationId: string, kind: 'space' | 'site', id: string): Promise<void> {
  if (kind === 'site') {
    await loadSite(ctx, caller, organizationId, id, 'view');
    return;
  }
  const { space } = await loadSpace(ctx, caller, id);
  if (space.organization_id !== organizationId) throw notFound(`No space ${id}`);
}

/** The spaces or sites of the organization a member sees; undefined for its admins (every one). */
async function visibleTargets(ctx: AppContext, access: OrgAccess, kind: 'space' | 'site'): Promise<string[] | undefined> {
  if (kind === 'site') return visibleSiteIds(ctx, access);
  const scope = await access.readableScope();
  return scope.everything ? undefined : spaceIdsOf(ctx.db, { organizationId: access.organizationId, scope });
}

/** The organization's installations with their integrations: for its admins, since an installation holds its configuration. */
export async function listInstallationsInOrganization(ctx: AppContext, caller: Caller, organizationId: string, query: { page?: string | undefined; limit?: number | undefined; search?: string | undefined }) {
  const { access } = await loadVisibleOrganization(ctx, caller, organizationId);
  if (access.orgRole !== 'admin') throw forbidden('Listing the installations of an organization is only for its admins');
  const listKey = `organization-installations:${organizationId}:${query.search ?? ''}`;
  const page = ctx.cursors.open(listKey, query, ctx.config.defaultPageSize);
  const filter = { organizationId, search: query.search };
  const [rows, count] = await Promise.all([listOrganizationInstallations(ctx.db, filter, page), countOrganizationInstallations(ctx.db, filter)]);
  const shown = rows.slice(0, page.limit);
  const [{ rows: integrations, presented }, counts] = await Promise.all([
    integrationsOf(ctx, caller, shown),
    spaceCounts(
      ctx.db,
      shown.map((r) => r.id),
    ),
  ]);
  return ctx.cursors.close(
    listKey,
    page,
    rows,
    count,
    (row) => [row.created_at, row.id],
    (row) => ({
      installation: presentInstallation(ctx.config, integrations.get(row.integration_id)!, row, counts.get(row.id) ?? 0),
      integration: presented.get(row.integration_id)!,
    }),
  );
}

/** Everything installed on a space is listed at once: the official operation has no page (the org's integrations bound it). */
async function installedOnSpace(ctx: AppContext, caller: Caller, spaceId: string, search?: string): Promise<IntegrationRow[]> {
  const { space } = await loadSpace(ctx, caller, spaceId);
  return integrationsInstalledOn(ctx.db, space.organization_id, 'space', space.id, search);
}

export async function listSpaceIntegrations(ctx: AppContext, caller: Caller, spaceId: string, search: string | undefined) {
  const rows = await installedOnSpace(ctx, caller, spaceId, search);
  const presented = await presentIntegrationsFor(ctx, caller, rows);
  const items = rows.flatMap((row) => presented.get(row.id) ?? []);
  return { count: items.length, items };
}

/** The blocks of the integrations installed on the space (those that have some), by integration name. */
export async function listSpaceIntegrationBlocks(ctx: AppContext, caller: Caller, spaceId: string) {
  const rows = await installedOnSpace(ctx, caller, spaceId);
  const presented = await presentIntegrationsFor(ctx, caller, rows);
  return rows.flatMap((row) => {
    const integration = presented.get(row.id);
    return integration && integration.blocks.length > 0 ? [{ name: integration.name, blocks: integration.blocks }] : [];
  });
}

/** The integrations installed on a site the caller sees (404 otherwise), all at once as for a space. */
export async function listSiteIntegrations(ctx: AppContext, caller: Caller, organizationId: string, siteId: string, search: string | undefined) {
  const { site } = await loadSite(ctx, caller, organizationId, siteId, 'view');
  const rows = await integrationsInstalledOn(ctx.db, organizationId, 'site', site.id, search);
  const presented = await presentIntegrationsFor(ctx, caller, rows);
  const items = rows.flatMap((row) => presented.get(row.id) ?? []);
  return { count: items.length, items };
}
