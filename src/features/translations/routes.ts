import type { App } from '../../platform/app-type.ts';
import { callerOf } from '../../platform/auth.ts';
import { errors, listOf, NoContent, OrganizationIdParams } from '../../platform/schemas.ts';
import { CreateTranslationBody, ListTranslationPagesQuery, ListTranslationsQuery, Translation, TranslationIdParams, TranslationPage, UpdateTranslationBody } from './schemas.ts';
import { createTranslation, getTranslation, listPagesOfTranslation, listTranslationsOfOrganization, removeTranslation, requestTranslationRun, updateTranslationSettings } from './service.ts';

const tags = ['translations'];

export async function translationRoutes(app: App) {
  app.get(
    '/orgs/:organizationId/translations',
    {
      schema: {
        operationId: 'listTranslations',
        tags,
        summary: 'List the translation settings of an organization',
        params: OrganizationIdParams,
        querystring: ListTranslationsQuery,
        response: { 200: listOf(Translation), ...errors(400, 401, 403, 404) },
      },
    },
    async (request) => listTranslationsOfOrganization(app.ctx, callerOf(request), request.params.organizationId, request.query),
  );

  app.post(
    '/orgs/:organizationId/translations',
    {
      schema: {
        operationId: 'createTranslation',
        tags,
        summary: 'Create translation settings; with a source space and languages, a run is queued',
        params: OrganizationIdParams,
        body: CreateTranslationBody,
        response: { 201: Translation, ...errors(400, 401, 403, 404) },
      },
    },
    async (request, reply) => reply.status(201).send(await createTranslation(app.ctx, callerOf(request), request.params.organizationId, request.body)),
  );

  app.get(
    '/orgs/:organizationId/translations/:translationId',
    {
      schema: { operationId: 'getTranslation', tags, summary: 'Get translation settings and the state of their runs', params: TranslationIdParams, response: { 200: Translation, ...errors(401, 403, 404) } },
    },
    async (request) => getTranslation(app.ctx, callerOf(request), request.params.organizationId, request.params.translationId),
  );

  app.put(
    '/orgs/:organizationId/translations/:translationId',
    {
      schema: {
        operationId: 'updateTranslation',
        tags,
        summary: 'Replace translation settings; a new source or new languages queue a run',
        params: TranslationIdParams,
        body: UpdateTranslationBody,
        response: { 200: Translation, ...errors(400, 401, 403, 404) },
      },
    },
    async (request) => updateTranslationSettings(app.ctx, callerOf(request), request.params.organizationId, request.params.translationId, request.body),
  );

  app.delete(
    '/orgs/:organizationId/translations/:translationId',
    {
      schema: {
        operationId: 'deleteTranslation',
        tags,
        summary: 'Delete translation settings (their target spaces stay)',
        params: TranslationIdParams,
        response: { 204: NoContent, ...errors(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await removeTranslation(app.ctx, callerOf(request), request.params.organizationId, request.params.translationId);
      return reply.status(204).send();
    },
  );

  app.post(
    '/orgs/:organizationId/translations/:translationId/run',
    {
      schema: {
        operationId: 'runTranslation',
        tags,
        summary: 'Queue a run of a translation now',
        params: TranslationIdParams,
        response: { 204: NoContent, ...errors(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await requestTranslationRun(app.ctx, callerOf(request), request.params.organizationId, request.params.translationId);
      return reply.status(204).send();
    },
  );

  app.get(
    '/orgs/:organizationId/translations/:translationId/pages',
    {
      schema: {
        operationId: 'listTranslationPages',
        'x-quire-extension': true,
        tags,
        summary: 'List the pages a translation keeps, each with its state (translated, needs-translation, outdated)',
        params: TranslationIdParams,
        querystring: ListTranslationPagesQuery,
        response: { 200: listOf(TranslationPage), ...errors(400, 401, 403, 404) },
      },
    },
    async (request) => listPagesOfTranslation(app.ctx, callerOf(request), request.params.organizationId, request.params.translationId, request.query),
  );
}
