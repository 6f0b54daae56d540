import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { App } from '../../platform/app-type.ts';
import { apiOperation, registerOperations } from '../../platform/api-operation.ts';
import { callerOf } from '../../platform/auth.ts';
import { errors, listOf, ListQuery } from '../../platform/schemas.ts';
import {
  InstallationEventIdParams,
  InstallationEventParams,
  IntegrationEvent,
  IntegrationEventDetail,
  IntegrationEventParams,
  IntegrationNameParams,
  QueueIntegrationTaskBody,
  RenderOutput,
  RenderQuery,
  RenderRequest,
  SiteIntegrationScript,
  SiteScriptParams,
  SiteScriptsParams,
} from './schemas.ts';
import {
  decodeRenderQuery,
  getEventOfInstallation,
  getIntegrationEvent,
  listEventsOfInstallation,
  listIntegrationEvents,
  renderIntegrationUI,
  retryEventOfInstallation,
} from './service.ts';
import { queueIntegrationTask } from './tasks.ts';
import { fetchSiteScript, listSiteIntegrationScripts } from './site-scripts.ts';

const tags = ['integrations'];
// GitBook's API shows events to the integration's developer only; an organization reading (and retrying) its own installation's deliveries is Quire's.
const documentation = { 'x-quire-extension': true };

/**
 * A render answers the integration's own UI: its content security policy (the manifest's
 * `contentSecurityPolicy`, meant for its script-fetch and blocks-fetch answers) goes with it, and it is not
 * cached, since it depends on the caller and the state.
 */
function sendRender(reply: FastifyReply, rendered: Awaited<ReturnType<typeof renderIntegrationUI>>) {
  if (rendered.contentSecurityPolicy) reply.header('content-security-policy', rendered.contentSecurityPolicy);
  return reply.header('cache-control', 'private, no-store').send(rendered.output);
}

export async function integrationEventRoutes(app: App) {
  registerOperations(app, tags, [
    apiOperation({
      method: 'GET',
      url: '/integrations/:integrationName/events',
      operationId: 'listIntegrationEvents',
      summary: 'List the events sent to an integration, newest first (admins of its owner organization)',
      params: IntegrationNameParams,
      querystring: ListQuery,
      response: listOf(IntegrationEvent),
      errors: [400, 401, 404],
      run: (ctx, caller, { params, query }) => listIntegrationEvents(ctx, caller, params.integrationName, query),
    }),
    apiOperation({
      method: 'GET',
      url: '/integrations/:integrationName/events/:eventId',
      operationId: 'getIntegrationEvent',
      summary: 'Get an event sent to an integration, with the log of its delivery attempts',
      params: IntegrationEventParams,
      response: IntegrationEventDetail,
      errors: [401, 404],
      run: (ctx, caller, { params }) => getIntegrationEvent(ctx, caller, params.integrationName, params.eventId),
    }),
    apiOperation({
      method: 'GET',
      url: '/integrations/:integrationName/installations/:installationId/events',
      operationId: 'listIntegrationInstallationEvents',
      summary: "List the events sent for one installation, newest first (admins of its organization and of the integration's owner)",
      documentation,
      params: InstallationEventParams,
      querystring: ListQuery,
      response: listOf(IntegrationEvent),
      errors: [400, 401, 404],
      run: (ctx, caller, { params, query }) => listEventsOfInstallation(ctx, caller, params.integrationName, params.installationId, query),
    }),
    apiOperation({
      method: 'GET',
      url: '/integrations/:integrationName/installations/:installationId/events/:eventId',
      operationId: 'getIntegrationInstallationEvent',
      summary: 'Get an event sent for one installation, with the log of its delivery attempts',
      documentation,
      params: InstallationEventIdParams,
      response: IntegrationEventDetail,
      errors: [401, 404],
      run: (ctx, caller, { params }) => getEventOfInstallation(ctx, caller, params.integrationName, params.installationId, params.eventId),
    }),
    apiOperation({
      method: 'POST',
      url: '/integrations/:integrationName/installations/:installationId/events/:eventId/retry',
      operationId: 'retryIntegrationInstallationEvent',
      summary: 'Try a failed delivery again: the event goes back to its installation’s queue, due now (409 unless it failed)',
      documentation,
      params: InstallationEventIdParams,
      response: IntegrationEventDetail,
      errors: [401, 404, 409],
      run: (ctx, caller, { params }) => retryEventOfInstallation(ctx, caller, params.integrationName, params.installationId, params.eventId),
    }),
  ]);
  registerOperations(app, tags, [
    apiOperation({
      method: 'POST',
      url: '/integrations/:integrationName/tasks',
      operationId: 'queueIntegrationTask',
      summary: 'Queue a task: the integration receives it as a `task` event, now or after `schedule` seconds (its own installations’ tokens)',
      params: IntegrationNameParams,
      body: QueueIntegrationTaskBody,
      status: 204,
      errors: [400, 401, 403, 404],
      run: (ctx, caller, { params, body }) => queueIntegrationTask(ctx, caller, params.integrationName, body),
    }),
  ]);
  registerOperations(app, ['integrations', 'sites'], [
    apiOperation({
      method: 'GET',
      url: '/orgs/:organizationId/sites/:siteId/integration-scripts',
      operationId: 'listSiteIntegrationScripts',
      summary: 'List the scripts of integrations the published pages of a site load (served by this server)',
      params: SiteScriptsParams,
      response: Type.Array(SiteIntegrationScript),
      errors: [400, 401, 404],
      run: (ctx, caller, { params }) => listSiteIntegrationScripts(ctx, caller, params.organizationId, params.siteId),
    }),
  ]);

  // Renders send headers of their own (sendRender): they register themselves.
  app.get(
    '/integrations/:integrationName/render',
    {
      schema: {
        operationId: 'renderIntegrationUIWithGet',
        tags,
        summary: 'Render an integration UI; the request is JSON compressed with lz-string in the `request` parameter',
        params: IntegrationNameParams,
        querystring: RenderQuery,
        response: { 200: RenderOutput, ...errors(400, 401, 404, 502) },
      },
    },
    async (request, reply) =>
      sendRender(reply, await renderIntegrationUI(app.ctx, callerOf(request), request.params.integrationName, decodeRenderQuery(request.query.request))),
  );

  app.post(
    '/integrations/:integrationName/render',
    {
      schema: {
        operationId: 'renderIntegrationUIWithPost',
        tags,
        summary: 'Render an integration UI',
        params: IntegrationNameParams,
        body: RenderRequest,
        response: { 200: RenderOutput, ...errors(400, 401, 404, 502) },
      },
    },
    async (request, reply) => sendRender(reply, await renderIntegrationUI(app.ctx, callerOf(request), request.params.integrationName, request.body)),
  );
}

/**
 * The script of an integration on a site, at the URL listSiteIntegrationScripts gives: outside /v1 and without a
 * token, since visitors' browsers load it. Kept a minute: each fetch asks the integration (site-scripts.ts).
 */
export async function siteScriptRoutes(app: App) {
  app.get('/integrations/:integrationName/installations/:installationId/sites/:siteId/script.js', { config: { public: true }, schema: { hide: true, params: SiteScriptParams } }, async (request, reply) => {
    const { integrationName, installationId, siteId } = request.params;
    const script = await fetchSiteScript(app.ctx, integrationName, installationId, siteId);
    return reply
      .header('content-type', script.contentType)
      .header('cache-control', 'public, max-age=60')
      .header('x-content-type-options', 'nosniff')
      .send(script.body);
  });
}
