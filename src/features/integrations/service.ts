import { randomBytes } from 'node:crypto';
import { authorOf, personOf, type AppContext, type Caller } from '../../platform/context.ts';
import { badRequest, conflict, isNotFound, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { isoNow } from '../../platform/clock.ts';
import { sealSecret } from '../../platform/secret-box.ts';
import { OrgAccess } from '../access/service.ts';
import { findOrganization, findOrganizationByHostname } from '../organizations/queries.ts';
import { presentOrganization } from '../organizations/present.ts';
import { loadVisibleOrganization } from '../organizations/service.ts';
import { storeFileBytes } from '../files/service.ts';
import { assertIntegrationAdmin, assertIntegrationVisible, canSeeIntegration, isIntegrationAdmin } from './policy.ts';
import { presentIntegration } from './present.ts';
import type { ListIntegrationsFilters, PresentedIntegration, PublishIntegrationInput } from './schemas.ts';
import {
  countIntegrations,
  deleteIntegration,
  findIntegrationByName,
  insertIntegration,
  listIntegrations,
  membershipsOfUser,
  updateIntegration,
  type IntegrationRow,
} from './store.ts';

/** An integration the caller can see, with the caller's access to its owner organization; 404 otherwise. */
export async function loadIntegration(ctx: AppContext, caller: Caller, name: string) {
  const integration = await findIntegrationByName(ctx.db, name);
  if (!integration) throw notFound(`No integration ${name}`);
  const access = await OrgAccess.load(ctx.db, integration.organization_id, caller);
  assertIntegrationVisible(caller, access, integration);
  return { integration, access };
}

async function presentFor(ctx: AppContext, caller: Caller, integration: IntegrationRow, access: OrgAccess, signingSecret?: string): Promise<PresentedIntegration> {
  const org = await findOrganization(ctx.db, integration.organization_id);
  if (!org) throw notFound(`No integration ${integration.name}`);
  const forAdmin = isIntegrationAdmin(caller, access);
  return presentIntegration(ctx.config, integration, presentOrganization(ctx.config, org, access), { forAdmin, ...(signingSecret ? { signingSecret } : {}) });
}

export async function getIntegration(ctx: AppContext, caller: Caller, name: string) {
  const { integration, access } = await loadIntegration(ctx, caller, name);
  return presentFor(ctx, caller, integration, access);
}

/** The organizations whose private integrations the caller may list: their memberships, or an installation's own. */
async function organizationsOf(ctx: AppContext, caller: Caller): Promise<string[]> {
  if (caller.kind === 'installation') return [caller.organizationId];
  return (await membershipsOfUser(ctx.db, personOf(caller))).map((m) => m.organization_id);
}

export async function listIntegrationsFor(ctx: AppContext, caller: Caller, query: ListIntegrationsFilters) {
  return listVisibleIntegrations(ctx, caller, 'integrations', await organizationsOf(ctx, caller), query);
}

/**
 * The integrations an organization may use (the official listOrganizationIntegrations): every public one, and
 * the private and unlisted ones it owns. The caller must see the organization (404 otherwise).
 */
export async function listOrganizationIntegrationsFor(ctx: AppContext, caller: Caller, organizationId: string, query: ListIntegrationsFilters) {
  await loadVisibleOrganization(ctx, caller, organizationId);
  return listVisibleIntegrations(ctx, caller, `organization-integrations:${organizationId}`, [organizationId], query);
}

async function listVisibleIntegrations(ctx: AppContext, caller: Caller, list: string, memberOf: string[], query: ListIntegrationsFilters) {
  const filters = { ...query, memberOf };
  const listKey = `${list}:${JSON.stringify([query.search, query.category, query.blockDomain, query.blocks, query.contentSources, query.owner, query.scope, query.target])}`;
  const page = ctx.cursors.open(listKey, query, ctx.config.defaultPageSize);
  const [rows, count] = await Promise.all([listIntegrations(ctx.db, filters, page), countIntegrations(ctx.db, filters)]);
  const presented = await presentIntegrationsFor(ctx, caller, rows.slice(0, page.limit));
  return ctx.cursors.close(listKey, page, rows, count, (row) => [row.name], (row) => presented.get(row.id)!);
}

/**
 * The integrations of `rows` the caller can see, presented for them by id; one access per owner organization,
 * shared by its integrations. Lists filter in SQL first, so this drops nothing they counted.
 */
export async function presentIntegrationsFor(ctx: AppContext, caller: Caller, rows: readonly IntegrationRow[]): Promise<Map<string, PresentedIntegration>> {
  const accesses = new Map<string, Promise<OrgAccess>>();
  for (const row of rows) if (!accesses.has(row.organization_id)) accesses.set(row.organization_id, OrgAccess.load(ctx.db, row.organization_id, caller));
  const presented = new Map<string, PresentedIntegration>();
  for (const row of rows) {
    const access = await accesses.get(row.organization_id)!;
    if (canSeeIntegration(caller, access, row)) presented.set(row.id, await presentFor(ctx, caller, row, access));
  }
  return presented;
}

/** The publishing organization named by id or subdomain, which the caller must administer. */
async function publishingOrganization(ctx: AppContext, caller: Caller, idOrHostname: string) {
  const org = (await findOrganization(ctx.db, idOrHostname)) ?? (await findOrganizationByHostname(ctx.db, idOrHostname.toLowerCase()));
  const access = org ? await OrgAccess.load(ctx.db, org.id, caller) : undefined;
  if (!org || !access?.isMember) throw notFound(`body/organization: no organization ${idOrHostname}`);
  return { org, access };
}

/** http(s) only: the endpoint receives signed deliveries and render requests from this server. */
function checkEndpoint(value: string | undefined): string | null {
  if (value === undefined) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw badRequest('body/endpoint must be an absolute http(s) URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw badRequest('body/endpoint must be an http(s) URL');
  if (url.username || url.password) throw badRequest('body/endpoint must not carry credentials');
  return url.toString();
}

function decodeBase64(value: string, field: string): Buffer {
  const bytes = Buffer.from(value, value.includes('-') || value.includes('_') ? 'base64url' : 'base64');
  if (bytes.length === 0) throw badRequest(`${field} must be base64 of a non-empty image`);
  return bytes;
}

async function storeImage(ctx: AppContext, value: string, field: string): Promise<string> {
  const stored = await storeFileBytes(ctx, ctx.db, { name: field, bytes: decodeBase64(value, field) });
  if (!stored.contentType.startsWith('image/')) throw badRequest(`${field} must be an image (got ${stored.contentType})`);
  return stored.hash;
}

/**
 * Publishes an integration, or a new version of it: `version` grows by one at each publish. The manifest is
 * checked by the body schema; secrets are sealed (platform/secret-box.ts) and never returned. The signing
 * secret of event deliveries is made at the first publish and returned in that answer only (docs/integrations.md).
 */
export async function publishIntegration(ctx: AppContext, caller: Caller, name: string, body: PublishIntegrationInput) {
  const { org, access } = await publishingOrganization(ctx, caller, body.organization);
  const existing = await findIntegrationByName(ctx.db, name);
  if (existing && existing.organization_id !== org.id) throw conflict(`The name ${name} belongs to an integration of another organization`);
  const row = existing ?? ({ organization_id: org.id, name } as IntegrationRow);
  assertIntegrationAdmin(caller, access, { ...row, visibility: 'public' }, 'Publishing an integration');
  const endpoint = checkEndpoint(body.endpoint);
  if (body.script === undefined && endpoint === null && !existing?.dev_tunnel_url) {
    // Nothing would receive its events or render its UI: say so now rather than fail every delivery later.
    throw badRequest('body/script or body/endpoint is required: an integration needs a script or an endpoint to receive events');
  }
  const icon = body.icon ? await storeImage(ctx, body.icon, 'body/icon') : (existing?.icon_hash ?? null);
  const previews: string[] = [];
  for (const [i, image] of (body.previewImages ?? []).entries()) previews.push(await storeImage(ctx, image, `body/previewImages/${i}`));
  const now = isoNow(ctx.clock);
  const signingSecret = existing ? undefined : randomBytes(32).toString('base64url');
  const values: IntegrationRow = {
    id: existing?.id ?? newId(),
    name,
    organization_id: org.id,
    version: (existing?.version ?? 0) + 1,
    runtime: body.runtime ?? 'v1',
    title: body.title.trim(),
    description: body.description,
    summary: body.summary ?? '',
    icon_hash: icon,
    preview_images: JSON.stringify(previews),
    visibility: body.visibility ?? 'private',
    target: body.target ?? 'all',
    scopes: JSON.stringify(body.scopes),
    categories: JSON.stringify(body.categories ?? []),
    blocks: JSON.stringify(body.blocks ?? []),
    content_sources: JSON.stringify(body.contentSources ?? []),
    external_links: JSON.stringify(body.externalLinks ?? []),
    configurations: JSON.stringify(body.configurations ?? {}),
    script: body.script ?? null,
    // A publish without `secrets` keeps the ones already stored (they are never shown, so they cannot be sent back).
    secrets: body.secrets ? await sealSecret(ctx, JSON.stringify(body.secrets)) : (existing?.secrets ?? null),
    content_security_policy: body.contentSecurityPolicy === undefined ? null : JSON.stringify(body.contentSecurityPolicy),
    endpoint,
    dev_tunnel_url: existing?.dev_tunnel_url ?? null,
    dev_all: existing?.dev_all ?? 0,
    signing_secret: existing?.signing_secret ?? (await sealSecret(ctx, signingSecret!)),
    published_by: existing?.published_by ?? authorOf(caller),
    created_at: existing?.created_at ?? now,
    updated_at: now,
  };
  if (values.title.length < 2) throw badRequest('body/title must NOT have fewer than 2 characters');
  if (existing) {
    const { id, created_at, ...changes } = values;
    void created_at;
    await updateIntegration(ctx.db, id, changes);
  } else {
    try {
      await insertIntegration(ctx.db, values);
    } catch (error) {
      // Two first publishes of one name at once: the unique name decides, the other is told.
      if (await findIntegrationByName(ctx.db, name)) throw conflict(`The integration ${name} was published by another request at the same time; publish again`);
      throw error;
    }
  }
  return presentFor(ctx, caller, values, access, signingSecret);
}

/** Unpublishing removes the integration, its installations, tokens and events. What the caller cannot see is already gone. */
export async function unpublishIntegration(ctx: AppContext, caller: Caller, name: string): Promise<void> {
  let loaded;
  try {
    loaded = await loadIntegration(ctx, caller, name);
  } catch (error) {
    if (isNotFound(error)) return;
    throw error;
  }
  assertIntegrationAdmin(caller, loaded.access, loaded.integration, 'Unpublishing an integration');
  await deleteIntegration(ctx.db, loaded.integration.id);
}

/** Development mode: events and render requests go to the tunnel (from every organization when `all`). */
export async function setDevelopmentMode(ctx: AppContext, caller: Caller, name: string, body: { tunnelUrl: string; all?: boolean | undefined }): Promise<void> {
  const { integration, access } = await loadIntegration(ctx, caller, name);
  assertIntegrationAdmin(caller, access, integration, 'Development mode');
  let url: URL;
  try {
    url = new URL(body.tunnelUrl);
  } catch {
    throw badRequest('body/tunnelUrl must be an absolute http(s) URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw badRequest('body/tunnelUrl must be an http(s) URL');
  await updateIntegration(ctx.db, integration.id, { dev_tunnel_url: url.toString(), dev_all: body.all ? 1 : 0, updated_at: isoNow(ctx.clock) });
}

export async function disableDevelopmentMode(ctx: AppContext, caller: Caller, name: string): Promise<void> {
  const { integration, access } = await loadIntegration(ctx, caller, name);
  assertIntegrationAdmin(caller, access, integration, 'Development mode');
  await updateIntegration(ctx.db, integration.id, { dev_tunnel_url: null, dev_all: 0, updated_at: isoNow(ctx.clock) });
}
