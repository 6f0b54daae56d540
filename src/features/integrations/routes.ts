import type { App } from '../../platform/app-type.ts';
import { callerOf } from '../../platform/auth.ts';
import { notFound } from '../../platform/errors.ts';
import { errors, listOf, NoContent } from '../../platform/schemas.ts';
import { openFileDownload } from '../files/service.ts';
import {
  DevelopmentModeBody,
  ExtendedQuery,
  IconParams,
  InstallationParams,
  InstallationToken,
  InstallIntegrationBody,
  InstallOnSiteBody,
  InstallOnSpaceBody,
  Integration,
  IntegrationInstallation,
  IntegrationNameParams,
  IntegrationSiteInstallation,
  IntegrationSpaceInstallation,
  ListContentInstallationsQuery,
  ListInstallationsQuery,
  ListIntegrationsQuery,
  PublishIntegrationBody,
  UpdateInstallationBody,
} from './schemas.ts';
import { disableDevelopmentMode, getIntegration, listIntegrationsFor, publishIntegration, setDevelopmentMode, unpublishIntegration } from './service.ts';
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
import { findIntegrationByName } from './store.ts';

const tags = ['integrations'];

export async function integrationRoutes(app: App) {
  app.get(
    '/integrations',
    {
      schema: {
        operationId: 'listIntegrations',
        tags,
        summary: 'List the integrations the caller can see, with filters',
        querystring: ListIntegrationsQuery,
        response: { 200: listOf(Integration), ...errors(400, 401) },
      },
    },
    async (request) => listIntegrationsFor(app.ctx, callerOf(request), request.query),
  );

  app.get(
    '/integrations/:integrationName',
    { schema: { operationId: 'getIntegrationByName', tags, summary: 'Get an integration by its name', params: IntegrationNameParams, response: { 200: Integration, ...errors(401, 404) } } },
    async (request) => getIntegration(app.ctx, callerOf(request), request.params.integrationName),
  );

  app.post(
    '/integrations/:integrationName',
    {
      // Icons and preview images come inline as base64: a manifest is larger than an ordinary body.
      bodyLimit: 16 * 1024 * 1024,
      schema: {
        operationId: 'publishIntegration',
        tags,
        summary: 'Publish an integration, or a new version of it (version + 1)',
        params: IntegrationNameParams,
        body: PublishIntegrationBody,
        response: { 200: Integration, ...errors(400, 401, 403, 404, 409) },
      },
    },
    async (request) => publishIntegration(app.ctx, callerOf(request), request.params.integrationName, request.body),
  );

  app.delete(
    '/integrations/:integrationName',
    {
      schema: {
        operationId: 'unpublishIntegration',
        tags,
        summary: 'Unpublish an integration: its installations, tokens and events go with it',
        params: IntegrationNameParams,
        response: { 204: NoContent, ...errors(401, 403) },
      },
    },
    async (request, reply) => {
      await unpublishIntegration(app.ctx, callerOf(request), request.params.integrationName);
      return reply.status(204).send();
    },
  );

  app.get(
    '/integrations/:integrationName/installations',
    {
      schema: {
        operationId: 'listIntegrationInstallations',
        tags,
        summary: 'List the installations of an integration the caller may see',
        params: IntegrationNameParams,
        querystring: ListInstallationsQuery,
        response: { 200: listOf(IntegrationInstallation), ...errors(400, 401, 404) },
      },
    },
    async (request) => listInstallationsOf(app.ctx, callerOf(request), request.params.integrationName, request.query),
  );

  app.post(
    '/integrations/:integrationName/installations',
    {
      schema: {
        operationId: 'installIntegration',
        tags,
        summary: 'Install an integration on an organization',
        params: IntegrationNameParams,
        body: InstallIntegrationBody,
        response: { 201: IntegrationInstallation, ...errors(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const installation = await installIntegration(app.ctx, callerOf(request), request.params.integrationName, request.body.organization);
      return reply.status(201).header('location', installation.urls.location).send(installation);
    },
  );

  app.get(
    '/integrations/:integrationName/installations/:installationId',
    {
      schema: { operationId: 'getIntegrationInstallationById', tags, summary: 'Get an installation', params: InstallationParams, response: { 200: IntegrationInstallation, ...errors(401, 404) } },
    },
    async (request) => getInstallation(app.ctx, callerOf(request), request.params.integrationName, request.params.installationId),
  );

  app.patch(
    '/integrations/:integrationName/installations/:installationId',
    {
      schema: {
        operationId: 'updateIntegrationInstallation',
        tags,
        summary: 'Change the configuration, external ids or selections of an installation',
        params: InstallationParams,
        body: UpdateInstallationBody,
        response: { 200: IntegrationInstallation, ...errors(400, 401, 403, 404) },
      },
    },
    async (request) => updateInstallationSettings(app.ctx, callerOf(request), request.params.integrationName, request.params.installationId, request.body),
  );

  app.delete(
    '/integrations/:integrationName/installations/:installationId',
    {
      schema: {
        operationId: 'uninstallIntegration',
        tags,
        summary: 'Uninstall an integration from an organization (and its spaces and sites)',
        params: InstallationParams,
        response: { 204: NoContent, ...errors(401, 403) },
      },
    },
    async (request, reply) => {
      await uninstallIntegration(app.ctx, callerOf(request), request.params.integrationName, request.params.installationId);
      return reply.status(204).send();
    },
  );

  app.post(
    '/integrations/:integrationName/installations/:installationId/spaces',
    {
      schema: {
        operationId: 'installIntegrationOnSpace',
        tags,
        summary: 'Install an integration on a space of the installation’s organization',
        params: InstallationParams,
        querystring: ExtendedQuery,
        body: InstallOnSpaceBody,
        response: { 201: IntegrationSpaceInstallation, ...errors(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const installed = await installOnSpace(app.ctx, callerOf(request), request.params.integrationName, request.params.installationId, request.body, request.query.extended === true);
      return reply.status(201).header('location', installed.urls.location).send(installed);
    },
  );

  app.post(
    '/integrations/:integrationName/installations/:installationId/sites',
    {
      schema: {
        operationId: 'installIntegrationOnSite',
        tags,
        summary: 'Install an integration on a site of the installation’s organization',
        params: InstallationParams,
        querystring: ExtendedQuery,
        body: InstallOnSiteBody,
        response: { 201: IntegrationSiteInstallation, ...errors(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const installed = await installOnSite(app.ctx, callerOf(request), request.params.integrationName, request.params.installationId, request.body, request.query.extended === true);
      return reply.status(201).header('location', installed.urls.location).send(installed);
    },
  );

  app.post(
    '/integrations/:integrationName/installations/:installationId/tokens',
    {
      schema: {
        operationId: 'createIntegrationInstallationToken',
        tags,
        summary: 'Create a token acting as the installation (valid one hour)',
        params: InstallationParams,
        response: { 200: InstallationToken, ...errors(401, 403, 404) },
      },
    },
    async (request) => createInstallationToken(app.ctx, callerOf(request), request.params.integrationName, request.params.installationId),
  );

  app.get(
    '/integrations/:integrationName/spaces',
    {
      schema: {
        operationId: 'listIntegrationSpaceInstallations',
        tags,
        summary: 'List the spaces an integration is installed on (that the caller may see)',
        params: IntegrationNameParams,
        querystring: ListContentInstallationsQuery,
        response: { 200: listOf(IntegrationSpaceInstallation), ...errors(400, 401, 404) },
      },
    },
    async (request) => listSpaceInstallationsOf(app.ctx, callerOf(request), request.params.integrationName, request.query),
  );

  app.get(
    '/integrations/:integrationName/sites',
    {
      schema: {
        operationId: 'listIntegrationSiteInstallations',
        tags,
        summary: 'List the sites an integration is installed on (that the caller may see)',
        params: IntegrationNameParams,
        querystring: ListContentInstallationsQuery,
        response: { 200: listOf(IntegrationSiteInstallation), ...errors(400, 401, 404) },
      },
    },
    async (request) => listSiteInstallationsOf(app.ctx, callerOf(request), request.params.integrationName, request.query),
  );

  app.put(
    '/integrations/:integrationName/dev',
    {
      schema: {
        operationId: 'setIntegrationDevelopmentMode',
        tags,
        summary: 'Send the integration’s events and render requests to a development tunnel',
        params: IntegrationNameParams,
        body: DevelopmentModeBody,
        response: { 204: NoContent, ...errors(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await setDevelopmentMode(app.ctx, callerOf(request), request.params.integrationName, request.body);
      return reply.status(204).send();
    },
  );

  app.delete(
    '/integrations/:integrationName/dev',
    {
      schema: {
        operationId: 'disableIntegrationDevelopmentMode',
        tags,
        summary: 'Leave development mode',
        params: IntegrationNameParams,
        response: { 205: NoContent, ...errors(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await disableDevelopmentMode(app.ctx, callerOf(request), request.params.integrationName);
      return reply.status(205).send();
    },
  );
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
    const file = names.includes(hash) ? await openFileDownload(app.ctx, hash) : undefined;
    if (!file) throw notFound(`No asset ${hash} of integration ${integrationName}`);
    reply
      .header('content-type', file.contentType)
      .header('content-length', file.size)
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', 'sandbox');
    return reply.send(file.body);
  });
}
