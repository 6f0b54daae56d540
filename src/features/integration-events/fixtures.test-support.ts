import { randomBytes } from 'node:crypto';
import type { TestServer } from '../../../test/helpers.ts';
import { newId } from '../../platform/ids.ts';
import { sealSecret } from '../../platform/secret-box.ts';

/*
 * Integrations and installations for the event and render tests, inserted as rows: publishing and installing
 * (issue 17 parts 1-2) are built on another branch. Every such insert is here, so that they can be replaced by
 * calls to publishIntegration / installIntegration / installIntegrationOnSpace once both have landed.
 */

export interface IntegrationFixture {
  id: string;
  name: string;
  organizationId: string;
  /** The key deliveries are signed with, in plain text (what the publisher is given). */
  signingSecret: string;
}

export async function insertIntegration(
  t: TestServer,
  options: {
    name?: string;
    organizationId?: string;
    endpoint?: string | null;
    devTunnelUrl?: string | null;
    devAll?: boolean;
    script?: string | null;
    contentSecurityPolicy?: string | null;
  } = {},
): Promise<IntegrationFixture> {
  const id = newId();
  const name = options.name ?? `integration-${newId(8).toLowerCase()}`;
  const organizationId = options.organizationId ?? t.org.id;
  const signingSecret = randomBytes(24).toString('base64url');
  const now = t.clock.now().toISOString();
  await t.db
    .insertInto('integrations')
    .values({
      id,
      name,
      organization_id: organizationId,
      version: 1,
      runtime: 'v1',
      title: name,
      description: '',
      summary: '',
      icon_hash: null,
      preview_images: '[]',
      visibility: 'public',
      target: 'all',
      scopes: '[]',
      categories: '[]',
      blocks: '[]',
      content_sources: '[]',
      external_links: '[]',
      configurations: '{}',
      script: options.script ?? null,
      secrets: null,
      content_security_policy: options.contentSecurityPolicy === undefined || options.contentSecurityPolicy === null ? null : JSON.stringify(options.contentSecurityPolicy),
      endpoint: options.endpoint ?? null,
      dev_tunnel_url: options.devTunnelUrl ?? null,
      dev_all: options.devAll ? 1 : 0,
      signing_secret: await sealSecret(t.app.ctx, signingSecret),
      published_by: t.admin.userId,
      created_at: now,
      updated_at: now,
    })
    .execute();
  return { id, name, organizationId, signingSecret };
}

export async function setDevelopmentMode(t: TestServer, integrationId: string, tunnelUrl: string | null, all = false): Promise<void> {
  await t.db.updateTable('integrations').set({ dev_tunnel_url: tunnelUrl, dev_all: all ? 1 : 0 }).where('id', '=', integrationId).execute();
}

/** An installation on an organization; `spaces: 'all'` makes it listen to every space of it. */
export async function insertInstallation(
  t: TestServer,
  integrationId: string,
  options: { organizationId?: string; spaces?: 'all' | 'selected'; sites?: 'all' | 'selected'; status?: string } = {},
): Promise<string> {
  const id = newId();
  const now = t.clock.now().toISOString();
  await t.db
    .insertInto('integration_installations')
    .values({
      id,
      integration_id: integrationId,
      organization_id: options.organizationId ?? t.org.id,
      status: options.status ?? 'active',
      space_selection: options.spaces ?? 'selected',
      site_selection: options.sites ?? 'selected',
      configuration: '{}',
      external_ids: '[]',
      created_by: t.admin.userId,
      created_at: now,
      updated_at: now,
    })
    .execute();
  return id;
}

export async function insertSpaceInstallation(t: TestServer, installationId: string, spaceId: string): Promise<void> {
  const now = t.clock.now().toISOString();
  await t.db
    .insertInto('integration_space_installations')
    .values({ installation_id: installationId, space_id: spaceId, status: 'active', configuration: '{}', external_ids: '[]', created_at: now, updated_at: now })
    .execute();
}

export async function insertSiteInstallation(t: TestServer, installationId: string, siteId: string): Promise<void> {
  const now = t.clock.now().toISOString();
  await t.db
    .insertInto('integration_site_installations')
    .values({ installation_id: installationId, site_id: siteId, status: 'active', configuration: '{}', external_ids: '[]', created_at: now, updated_at: now })
    .execute();
}
