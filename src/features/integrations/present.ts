import type { Config } from '../../config.ts';
import { apiUrl, appUrl } from '../../platform/urls.ts';
import type { PresentedInstallation, PresentedIntegration } from './schemas.ts';
import type { InstallationRow, IntegrationRow, SiteInstallationRow, SpaceInstallationRow } from './store.ts';

/** The public address of an integration's icon or preview image (served without a token: they are its storefront). */
export function assetUrl(config: Config, name: string, hash: string): string {
  return `${config.publicUrl}/integrations/${encodeURIComponent(name)}/assets/${hash}`;
}

function json<T>(text: string | null, fallback: T): T {
  return text === null ? fallback : (JSON.parse(text) as T);
}

/**
 * An integration as its caller may see it. Secrets never appear; the endpoint and development mode only for
 * admins of the owner organization (`forAdmin`), and the signing secret only in the answer to a publish.
 */
export function presentIntegration(
  config: Config,
  row: IntegrationRow,
  owner: PresentedIntegration['owner'],
  options: { forAdmin: boolean; signingSecret?: string },
): PresentedIntegration {
  const previews = json<string[]>(row.preview_images, []);
  const csp = json<PresentedIntegration['contentSecurityPolicy'] | null>(row.content_security_policy, null);
  return {
    object: 'integration',
    name: row.name,
    version: row.version,
    runtime: row.runtime,
    title: row.title,
    description: row.description,
    summary: row.summary,
    previewImages: previews.map((hash) => assetUrl(config, row.name, hash)),
    target: row.target as PresentedIntegration['target'],
    verified: false,
    visibility: row.visibility as PresentedIntegration['visibility'],
    scopes: json(row.scopes, []),
    categories: json(row.categories, []),
    blocks: json(row.blocks, []),
    contentSources: json(row.content_sources, []),
    configurations: json(row.configurations, {}),
    externalLinks: json(row.external_links, []),
    owner,
    urls: {
      location: apiUrl(config, `/integrations/${row.name}`),
      ...(row.icon_hash ? { icon: assetUrl(config, row.name, row.icon_hash) } : {}),
      app: appUrl(config, `/integrations/${row.name}`),
      assets: `${config.publicUrl}/integrations/${encodeURIComponent(row.name)}/assets`,
      publicEndpoint: `${config.publicUrl}/integrations/${encodeURIComponent(row.name)}/public`,
    },
    permissions: { admin: options.forAdmin },
    ...(csp !== null ? { contentSecurityPolicy: csp } : {}),
    ...(options.forAdmin && row.endpoint ? { endpoint: row.endpoint } : {}),
    ...(options.forAdmin && row.dev_tunnel_url ? { development: { tunnelUrl: row.dev_tunnel_url, all: row.dev_all === 1 } } : {}),
    ...(options.signingSecret ? { signingSecret: options.signingSecret } : {}),
  };
}

export function presentInstallation(config: Config, integration: IntegrationRow, row: InstallationRow, spaces: number): PresentedInstallation {
  const location = apiUrl(config, `/integrations/${integration.name}/installations/${row.id}`);
  return {
    id: row.id,
    status: row.status as PresentedInstallation['status'],
    space_selection: row.space_selection as PresentedInstallation['space_selection'],
    site_selection: row.site_selection as PresentedInstallation['site_selection'],
    spaces,
    configuration: JSON.parse(row.configuration) as Record<string, unknown>,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    urls: {
      location,
      app: appUrl(config, `/o/${row.organization_id}/integrations/${integration.name}/installations/${row.id}`),
      publicEndpoint: `${config.publicUrl}/integrations/${encodeURIComponent(integration.name)}/installations/${row.id}/public`,
    },
    externalIds: JSON.parse(row.external_ids) as string[],
    target: { organization: row.organization_id },
  };
}

/** The common part of an installation on a space or a site. */
export function presentContentInstallation(config: Config, integration: Pick<IntegrationRow, 'name'>, row: SpaceInstallationRow | SiteInstallationRow, path: string) {
  return {
    integration: integration.name,
    installation: row.installation_id,
    status: row.status as PresentedInstallation['status'],
    configuration: JSON.parse(row.configuration) as Record<string, unknown>,
    externalIds: JSON.parse(row.external_ids) as string[],
    urls: {
      location: apiUrl(config, `/integrations/${integration.name}/installations/${row.installation_id}/${path}`),
      publicEndpoint: `${config.publicUrl}/integrations/${encodeURIComponent(integration.name)}/installations/${row.installation_id}/public`,
    },
  };
}
