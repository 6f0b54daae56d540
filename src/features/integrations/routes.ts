import type { App } from '../../platform/app-type.ts';
import { apiOperation, registerOperations } from '../../platform/api-operation.ts';
import { notFound } from '../../platform/errors.ts';
import { errors, listOf, NoContent } from '../../platform/schemas.ts';
import { callerOf } from '../../platform/auth.ts';
import { servedAs } from '../files/content-type.ts';
import { openFileDownload } from '../files/service.ts';
import {
  DevelopmentModeBody,
  ExtendedQuery,
  IconParams,
  InstallationParams,
  InstallationToken,
  InstalledIntegration,
  IntegrationInstallationStatus,
  IntegrationSearchQuery,
  ListInstalledIntegrationsQuery,
  ListOrganizationInstallationsQuery,
  OrganizationInstallation,
  OrganizationIntegrationParams,
  OrganizationParams,
  OrganizationSiteParams,
  SpaceIntegrationBlocks,
  SpaceParams,
  InstallIntegrationBody,
  InstallOnSiteBody,
  InstallOnSpaceBody,
  Integration,
  IntegrationInstallation,
  IntegrationNameParams,
  IntegrationSiteInstallation,
  IntegrationSpaceInstallation,
  ListContentInstallationsQuery,
  ListInstallationContentQuery,
  SiteInstallationParams,
  SpaceInstallationParams,
  UpdateContentInstallationBody,
  ListInstallationsQuery,
  ListIntegrationsQuery,
  PublishIntegrationBody,
  UpdateInstallationBody,
} from './schemas.ts';
import { disableDevelopmentMode, getIntegration, listIntegrationsFor, listOrganizationIntegrationsFor, publishIntegration, setDevelopmentMode, unpublishIntegration } from './service.ts';
import {
  getInstallation,
  installIntegration,
  installOnSite,
  installOnSpace,
  listInstallationsOf,
  listSiteInstallationsOf,
  listSpaceInstallationsOf,
  uninstallIntegration,
  updateInstallationSettings,
} from './installations.ts';
import { createInstallationToken } from './tokens.ts';
import { getContentInstallation, listContentInstallations, uninstallFromContent, updateContentInstallation } from './content-installations.ts';
import { findIntegrationByName } from './store.ts';
import {
  getOrganizationIntegrationStatus,
  listInstallationsInOrganization,
  listOrganizationIntegrationsStatus,
  listSiteIntegrations,
  listSpaceIntegrationBlocks,
  listSpaceIntegrations,
} from './installed.ts';

const tags = ['integrations'];

export async function integrationRoutes(app: App) {
  registerOperations(app, tags, [
    apiOperation({
      method: 'GET',
      url: '/integrations',
      operationId: 'listIntegrations',
      summary: 'List the integrations the caller can see, with filters',
      querystring: ListIntegrationsQuery,
      response: listOf(Integration),
      errors: [400, 401],
      run: (ctx, caller, { query }) => listIntegrationsFor(ctx, caller, query),
    }),
    apiOperation({
      method: 'GET',
      url: '/integrations/:integrationName',
      operationId: 'getIntegrationByName',
      summary: 'Get an integration by its name',
      params: IntegrationNameParams,
      response: Integration,
      errors: [401, 404],
      run: (ctx, caller, { params }) => getIntegration(ctx, caller, params.integrationName),
    }),
    apiOperation({
      method: 'POST',
      url: '/integrations/:integrationName',
      operationId: 'publishIntegration',
      summary: 'Publish an integration, or a new version of it (version + 1)',
      params: IntegrationNameParams,
      body: PublishIntegrationBody,
      // Icons and preview images come inline as base64: a manifest is larger than an ordinary body.
      bodyLimit: 16 * 1024 * 1024,
      response: Integration,
      errors: [400, 401, 403, 404, 409],
      run: (ctx, caller, { params, body }) => publishIntegration(ctx, caller, params.integrationName, body),
    }),
    apiOperation({
      method: 'DELETE',
      url: '/integrations/:integrationName',
      operationId: 'unpublishIntegration',
      summary: 'Unpublish an integration: its installations, tokens and events go with it',
      params: IntegrationNameParams,
      status: 204,
      errors: [401, 403],
      run: (ctx, caller, { params }) => unpublishIntegration(ctx, caller, params.integrationName),
    }),
    apiOperation({
      method: 'GET',
      url: '/integrations/:integrationName/installations',
      operationId: 'listIntegrationInstallations',
      summary: 'List the installations of an integration the caller may see',
      params: IntegrationNameParams,
      querystring: ListInstallationsQuery,
      response: listOf(IntegrationInstallation),
      errors: [400, 401, 404],
      run: (ctx, caller, { params, query }) => listInstallationsOf(ctx, caller, params.integrationName, query),
    }),
    apiOperation({
      method: 'POST',
      url: '/integrations/:integrationName/installations',
      operationId: 'installIntegration',
      summary: 'Install an integration on an organization',
      params: IntegrationNameParams,
      body: InstallIntegrationBody,
      status: 201,
      response: IntegrationInstallation,
      errors: [400, 401, 403, 404, 409],
      run: (ctx, caller, { params, body }) => installIntegration(ctx, caller, params.integrationName, body.organization),
      headers: (installation) => ({ location: installation.urls.location }),
    }),
    apiOperation({
      method: 'GET',
      url: '/integrations/:integrationName/installations/:installationId',
      operationId: 'getIntegrationInstallationById',
      summary: 'Get an installation',
      params: InstallationParams,
      response: IntegrationInstallation,
      errors: [401, 404],
      run: (ctx, caller, { params }) => getInstallation(ctx, caller, params.integrationName, params.installationId),
    }),
    apiOperation({
      method: 'PATCH',
      url: '/integrations/:integrationName/installations/:installationId',
      operationId: 'updateIntegrationInstallation',
      summary: 'Change the configuration, external ids or selections of an installation',
      params: InstallationParams,
      body: UpdateInstallationBody,
      response: IntegrationInstallation,
      errors: [400, 401, 403, 404],
      run: (ctx, caller, { params, body }) => updateInstallationSettings(ctx, caller, params.integrationName, params.installationId, body),
    }),
    apiOperation({
      method: 'DELETE',
      url: '/integrations/:integrationName/installations/:installationId',
      operationId: 'uninstallIntegration',
      summary: 'Uninstall an integration from an organization (and its spaces and sites)',
      params: InstallationParams,
      status: 204,
      errors: [401, 403],
      run: (ctx, caller, { params }) => uninstallIntegration(ctx, caller, params.integrationName, params.installationId),
    }),
    apiOperation({
      method: 'POST',
      url: '/integrations/:integrationName/installations/:installationId/tokens',
      operationId: 'createIntegrationInstallationToken',
      summary: 'Create a token acting as the installation (valid one hour)',
      params: InstallationParams,
      response: InstallationToken,
      errors: [401, 403, 404],
      run: (ctx, caller, { params }) => createInstallationToken(ctx, caller, params.integrationName, params.installationId),
    }),
    apiOperation({
      method: 'GET',
      url: '/integrations/:integrationName/spaces',
      operationId: 'listIntegrationSpaceInstallations',
      summary: 'List the spaces an integration is installed on (that the caller may see)',
      params: IntegrationNameParams,
      querystring: ListContentInstallationsQuery,
      response: listOf(IntegrationSpaceInstallation),
      errors: [400, 401, 404],
      run: (ctx, caller, { params, query }) => listSpaceInstallationsOf(ctx, caller, params.integrationName, query),
    }),
    apiOperation({
      method: 'GET',
      url: '/integrations/:integrationName/sites',
      operationId: 'listIntegrationSiteInstallations',
      summary: 'List the sites an integration is installed on (that the caller may see)',
      params: IntegrationNameParams,
      querystring: ListContentInstallationsQuery,
      response: listOf(IntegrationSiteInstallation),
      errors: [400, 401, 404],
      run: (ctx, caller, { params, query }) => listSiteInstallationsOf(ctx, caller, params.integrationName, query),
    }),
    apiOperation({
      method: 'PUT',
      url: '/integrations/:integrationName/dev',
      operationId: 'setIntegrationDevelopmentMode',
      summary: 'Send the integration’s events and render requests to a development tunnel',
      params: IntegrationNameParams,
      body: DevelopmentModeBody,
      status: 204,
      errors: [400, 401, 403, 404],
      run: (ctx, caller, { params, body }) => setDevelopmentMode(ctx, caller, params.integrationName, body),
    }),
    apiOperation({
      method: 'DELETE',
      url: '/integrations/:integrationName/dev',
      operationId: 'disableIntegrationDevelopmentMode',
      summary: 'Leave development mode',
      params: IntegrationNameParams,
      status: 205,
      errors: [401, 403, 404],
      run: (ctx, caller, { params }) => disableDevelopmentMode(ctx, caller, params.integrationName),
    }),
    apiOperation({
      method: 'POST',
      url: '/integrations/:integrationName/installations/:installationId/spaces',
      operationId: 'installIntegrationOnSpace',
      summary: 'Install an integration on a space of the installation’s organization',
      params: InstallationParams,
      querystring: ExtendedQuery,
      body: InstallOnSpaceBody,
      status: 201,
      response: IntegrationSpaceInstallation,
      errors: [400, 401, 403, 404],
      run: (ctx, caller, { params, query, body }) => installOnSpace(ctx, caller, params.integrationName, params.installationId, body, query.extended === true),
      headers: (installed) => ({ location: installed.urls.location }),
    }),
    apiOperation({
      method: 'POST',
      url: '/integrations/:integrationName/installations/:installationId/sites',
      operationId: 'installIntegrationOnSite',
      summary: 'Install an integration on a site of the installation’s organization',
      params: InstallationParams,
      querystring: ExtendedQuery,
      body: InstallOnSiteBody,
      status: 201,
      response: IntegrationSiteInstallation,
      errors: [400, 401, 403, 404],
      run: (ctx, caller, { params, query, body }) => installOnSite(ctx, caller, params.integrationName, params.installationId, body, query.extended === true),
      headers: (installed) => ({ location: installed.urls.location }),
    }),
  ]);
  contentInstallationRoutes(app);
  installedIntegrationRoutes(app);
}

/** What is installed in an organization, on a space, on a site (installed.ts). */
function installedIntegrationRoutes(app: App) {
  registerOperations(app, tags, [
    apiOperation({
      method: 'GET',
      url: '/orgs/:organizationId/integrations',
      operationId: 'listOrganizationIntegrations',
      summary: 'List the integrations an organization may use: every public one, and the private ones it owns',
      params: OrganizationParams,
      querystring: ListIntegrationsQuery,
      response: listOf(Integration),
      errors: [400, 401, 404],
      run: (ctx, caller, { params, query }) => listOrganizationIntegrationsFor(ctx, caller, params.organizationId, query),
    }),
    apiOperation({
      method: 'GET',
      url: '/orgs/:organizationId/integrations/:integrationName/installation_status',
      operationId: 'getOrganizationIntegrationStatus',
      summary: 'Get the status of the installation of an integration in an organization',
      params: OrganizationIntegrationParams,
      response: IntegrationInstallationStatus,
      errors: [401, 404],
      run: (ctx, caller, { params }) => getOrganizationIntegrationStatus(ctx, caller, params.organizationId, params.integrationName),
    }),
    apiOperation({
      method: 'GET',
      url: '/orgs/:organizationId/integrations/installations-status',
      operationId: 'listOrganizationIntegrationsStatus',
      summary: 'List the installations of an organization, on itself, its spaces or its sites, with their statuses',
      params: OrganizationParams,
      querystring: ListInstalledIntegrationsQuery,
      response: listOf(InstalledIntegration),
      errors: [400, 401, 404],
      run: (ctx, caller, { params, query }) => listOrganizationIntegrationsStatus(ctx, caller, params.organizationId, query),
    }),
    apiOperation({
      method: 'GET',
      url: '/orgs/:organizationId/installations',
      operationId: 'listOrganizationInstallations',
      summary: 'List the installations of an organization with their integrations (its admins)',
      params: OrganizationParams,
      querystring: ListOrganizationInstallationsQuery,
      response: listOf(OrganizationInstallation),
      errors: [400, 401, 403, 404],
      run: (ctx, caller, { params, query }) => listInstallationsInOrganization(ctx, caller, params.organizationId, query),
    }),
    apiOperation({
      method: 'GET',
      url: '/orgs/:organizationId/sites/:siteId/integrations',
      operationId: 'listSiteIntegrations',
      summary: 'List the integrations installed on a site',
      params: OrganizationSiteParams,
      querystring: IntegrationSearchQuery,
      response: listOf(Integration),
      errors: [400, 401, 404],
      run: (ctx, caller, { params, query }) => listSiteIntegrations(ctx, caller, params.organizationId, params.siteId, query.search),
    }),
  ]);
  registerOperations(app, ['space-integrations'], [
    apiOperation({
      method: 'GET',
      url: '/spaces/:spaceId/integrations',
      operationId: 'listSpaceIntegrations',
      summary: 'List the integrations installed on a space',
      params: SpaceParams,
      querystring: IntegrationSearchQuery,
      response: listOf(Integration),
      errors: [400, 401, 404],
      run: (ctx, caller, { params, query }) => listSpaceIntegrations(ctx, caller, params.spaceId, query.search),
    }),
    apiOperation({
      method: 'GET',
      url: '/spaces/:spaceId/integration-blocks',
      operationId: 'listSpaceIntegrationsBlocks',
      summary: 'List the blocks of the integrations installed on a space',
      params: SpaceParams,
      response: SpaceIntegrationBlocks,
      errors: [401, 404],
      run: (ctx, caller, { params }) => listSpaceIntegrationBlocks(ctx, caller, params.spaceId),
    }),
  ]);
}

/** One installation's spaces and sites: the same four operations for each (content-installations.ts). */
function contentInstallationRoutes(app: App) {
  const KINDS = [
    {
      kind: 'space',
      params: SpaceInstallationParams,
      response: IntegrationSpaceInstallation,
      ids: { list: 'listIntegrationInstallationSpaces', get: 'getIntegrationSpaceInstallation', update: 'updateIntegrationSpaceInstallation', uninstall: 'uninstallIntegrationFromSpace' },
    },
    {
      kind: 'site',
      params: SiteInstallationParams,
      response: IntegrationSiteInstallation,
      ids: { list: 'listIntegrationInstallationSites', get: 'getIntegrationSiteInstallation', update: 'updateIntegrationSiteInstallation', uninstall: 'uninstallIntegrationFromSite' },
    },
  ] as const;
  for (const k of KINDS) {
    const kind = k.kind;
    const targetId = (params: unknown) => (params as Record<string, string>)[`${kind}Id`]!;
    registerOperations(app, tags, [
      apiOperation({
        method: 'GET',
        url: `/integrations/:integrationName/installations/:installationId/${kind}s`,
        operationId: k.ids.list,
        summary: `List the ${kind}s an installation is on`,
        params: InstallationParams,
        querystring: ListInstallationContentQuery,
        response: listOf(k.response),
        errors: [400, 401, 404],
        run: (ctx, caller, { params, query }) => listContentInstallations(ctx, caller, kind, params.integrationName, params.installationId, query),
      }),
      apiOperation({
        method: 'GET',
        url: `/integrations/:integrationName/installations/:installationId/${kind}s/:${kind}Id`,
        operationId: k.ids.get,
        summary: `Get the installation of an integration on a ${kind}`,
        params: k.params,
        querystring: ExtendedQuery,
        response: k.response,
        errors: [401, 404],
        run: (ctx, caller, { params, query }) => getContentInstallation(ctx, caller, kind, params.integrationName, params.installationId, targetId(params), query.extended === true),
      }),
      apiOperation({
        method: 'PATCH',
        url: `/integrations/:integrationName/installations/:installationId/${kind}s/:${kind}Id`,
        operationId: k.ids.update,
        summary: `Change the configuration or external ids of an integration on a ${kind}`,
        params: k.params,
        querystring: ExtendedQuery,
        body: UpdateContentInstallationBody,
        response: k.response,
        errors: [400, 401, 403, 404],
        run: (ctx, caller, { params, query, body }) =>
          updateContentInstallation(ctx, caller, kind, params.integrationName, params.installationId, targetId(params), body, query.extended === true),
      }),
    ]);
    // 205 when it was removed, 204 when there was none: two success statuses.
    app.delete(
      `/integrations/:integrationName/installations/:installationId/${kind}s/:${kind}Id`,
      {
        schema: {
          operationId: k.ids.uninstall,
          tags,
          summary: `Uninstall an integration from a ${kind}`,
          params: k.params,
          response: { 204: NoContent, 205: NoContent, ...errors(401, 403) },
        },
      },
      async (request, reply) => {
        const params = request.params as { integrationName: string; installationId: string };
        const removed = await uninstallFromContent(app.ctx, callerOf(request), kind, params.integrationName, params.installationId, targetId(request.params));
        return reply.status(removed ? 205 : 204).send();
      },
    );
  }
}

/**
 * An integration's icon and preview images, outside /v1 and without a token: they are its storefront. Only the
 * hashes its current manifest names are served, so the route is not a way to read any stored blob.
 */
export async function integrationAssetRoutes(app: App) {
  app.get('/integrations/:integrationName/assets/:hash', { config: { public: true }, schema: { hide: true, params: IconParams } }, async (request, reply) => {
    const { integrationName, hash } = request.params;
    const integration = await findIntegrationByName(app.ctx.db, integrationName);
    const names = integration ? [integration.icon_hash, ...(JSON.parse(integration.preview_images) as string[])] : [];
    const file = names.includes(hash) ? await openFileDownload(app.ctx, hash, { log: request.log }) : undefined;
    if (!file || 'unsatisfiable' in file) throw notFound(`No asset ${hash} of integration ${integrationName}`);
    const served = servedAs(file.contentType);
    reply
      .header('content-type', served.contentType)
      .header('content-length', file.size)
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', 'sandbox');
    if (served.disposition === 'attachment') reply.header('content-disposition', 'attachment');
    return reply.send(file.body);
  });
}
