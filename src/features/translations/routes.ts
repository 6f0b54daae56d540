import type { App } from '../../platform/app-type.ts';
import { apiOperation, registerOperations } from '../../platform/api-operation.ts';
import { listOf, OrganizationIdParams } from '../../platform/schemas.ts';
import { CreateTranslationBody, ListTranslationPagesQuery, ListTranslationsQuery, Translation, TranslationIdParams, TranslationPage, UpdateTranslationBody } from './schemas.ts';
import { createTranslation, getTranslation, listPagesOfTranslation, listTranslationsOfOrganization, removeTranslation, requestTranslationRun, updateTranslationSettings } from './service.ts';

export async function translationRoutes(app: App) {
  registerOperations(app, ['translations'], [
    apiOperation({
      method: 'GET',
      url: '/orgs/:organizationId/translations',
      operationId: 'listTranslations',
      summary: 'List the translation settings of an organization',
      params: OrganizationIdParams,
      querystring: ListTranslationsQuery,
      response: listOf(Translation),
      errors: [400, 401, 403, 404],
      run: (ctx, caller, { params, query }) => listTranslationsOfOrganization(ctx, caller, params.organizationId, query),
    }),
    apiOperation({
      method: 'POST',
      url: '/orgs/:organizationId/translations',
      operationId: 'createTranslation',
      summary: 'Create translation settings; with a source space and languages, a run is queued',
      params: OrganizationIdParams,
      body: CreateTranslationBody,
      status: 201,
      response: Translation,
      errors: [400, 401, 403, 404],
      run: (ctx, caller, { params, body }) => createTranslation(ctx, caller, params.organizationId, body),
    }),
    apiOperation({
      method: 'GET',
      url: '/orgs/:organizationId/translations/:translationId',
      operationId: 'getTranslation',
      summary: 'Get translation settings and the state of their runs',
      params: TranslationIdParams,
      response: Translation,
      errors: [401, 403, 404],
      run: (ctx, caller, { params }) => getTranslation(ctx, caller, params.organizationId, params.translationId),
    }),
    apiOperation({
      method: 'PUT',
      url: '/orgs/:organizationId/translations/:translationId',
      operationId: 'updateTranslation',
      summary: 'Replace translation settings; a new source or new languages queue a run',
      params: TranslationIdParams,
      body: UpdateTranslationBody,
      response: Translation,
      errors: [400, 401, 403, 404],
      run: (ctx, caller, { params, body }) => updateTranslationSettings(ctx, caller, params.organizationId, params.translationId, body),
    }),
    apiOperation({
      method: 'DELETE',
      url: '/orgs/:organizationId/translations/:translationId',
      operationId: 'deleteTranslation',
      summary: 'Delete translation settings (their target spaces stay)',
      params: TranslationIdParams,
      status: 204,
      errors: [401, 403, 404],
      run: (ctx, caller, { params }) => removeTranslation(ctx, caller, params.organizationId, params.translationId),
    }),
    apiOperation({
      method: 'POST',
      url: '/orgs/:organizationId/translations/:translationId/run',
      operationId: 'runTranslation',
      summary: 'Queue a run of a translation now',
      params: TranslationIdParams,
      status: 204,
      errors: [400, 401, 403, 404],
      run: (ctx, caller, { params }) => requestTranslationRun(ctx, caller, params.organizationId, params.translationId),
    }),
    apiOperation({
      method: 'GET',
      url: '/orgs/:organizationId/translations/:translationId/pages',
      operationId: 'listTranslationPages',
      documentation: { 'x-quire-extension': true },
      summary: 'List the pages a translation keeps, each with its state (translated, needs-translation, outdated)',
      params: TranslationIdParams,
      querystring: ListTranslationPagesQuery,
      response: listOf(TranslationPage),
      errors: [400, 401, 403, 404],
      run: (ctx, caller, { params, query }) => listPagesOfTranslation(ctx, caller, params.organizationId, params.translationId, query),
    }),
  ]);
}
