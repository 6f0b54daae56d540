import { Type } from 'typebox';
import type { App } from '../../platform/app-type.ts';
import { apiOperation, registerOperations } from '../../platform/api-operation.ts';
import { callerOf } from '../../platform/auth.ts';
import { notFound } from '../../platform/errors.ts';
import { errors, listOf, ListQuery, OrganizationIdParams } from '../../platform/schemas.ts';
import { CreateSpecBody, OpenAPISpec, OpenAPISpecContent, OpenAPISpecRawContent, OpenAPISpecVersion, PutSpecBody, SpecParams, SpecVersionParams, UpdateSpecBody } from './schemas.ts';
import {
  createOpenAPISpec,
  createOrUpdateOpenAPISpec,
  deleteOpenAPISpec,
  getOpenAPISpec,
  getOpenAPISpecVersion,
  getOpenAPISpecVersionContent,
  getLatestOpenAPISpecVersionRawContent,
  isJsonText,
  listOpenAPISpecs,
  listOpenAPISpecVersions,
  readPublishedSpec,
  updateOpenAPISpecVisibility,
} from './service.ts';

export async function openAPISpecRoutes(app: App) {
  registerOperations(app, ['openapi'], [
    apiOperation({
      method: 'GET',
      url: '/orgs/:organizationId/openapi',
      operationId: 'listOpenAPISpecs',
      summary: 'List the OpenAPI specs of an organization',
      params: OrganizationIdParams,
      querystring: ListQuery,
      response: listOf(OpenAPISpec),
      errors: [400, 401, 403, 404],
      run: (ctx, caller, { params, query }) => listOpenAPISpecs(ctx, caller, params.organizationId, query),
    }),
    apiOperation({
      method: 'POST',
      url: '/orgs/:organizationId/openapi',
      operationId: 'createOpenAPISpec',
      summary: 'Create an OpenAPI spec from a URL or a text; the job worker fetches and parses it',
      params: OrganizationIdParams,
      body: CreateSpecBody,
      status: 201,
      response: OpenAPISpec,
      errors: [400, 401, 403, 404, 409],
      run: (ctx, caller, { params, body }) => createOpenAPISpec(ctx, caller, params.organizationId, body),
    }),
    apiOperation({
      method: 'GET',
      url: '/orgs/:organizationId/openapi/:specSlug',
      operationId: 'getOpenAPISpecBySlug',
      summary: 'Get an OpenAPI spec by its slug',
      params: SpecParams,
      response: OpenAPISpec,
      errors: [401, 403, 404],
      run: (ctx, caller, { params }) => getOpenAPISpec(ctx, caller, params.organizationId, params.specSlug),
    }),
    apiOperation({
      method: 'PATCH',
      url: '/orgs/:organizationId/openapi/:specSlug',
      operationId: 'updateOpenAPISpecBySlug',
      summary: 'Change the visibility of an OpenAPI spec',
      params: SpecParams,
      body: UpdateSpecBody,
      response: OpenAPISpec,
      errors: [400, 401, 403, 404],
      run: (ctx, caller, { params, body }) => updateOpenAPISpecVisibility(ctx, caller, params.organizationId, params.specSlug, body.visibility),
    }),
    apiOperation({
      method: 'DELETE',
      url: '/orgs/:organizationId/openapi/:specSlug',
      operationId: 'deleteOpenAPISpecBySlug',
      summary: 'Delete an OpenAPI spec and its versions',
      params: SpecParams,
      status: 204,
      errors: [401, 403],
      run: (ctx, caller, { params }) => deleteOpenAPISpec(ctx, caller, params.organizationId, params.specSlug),
    }),
  ]);

  // Created (201) or given a new source (200): two success statuses, so registered on its own.
  app.put(
    '/orgs/:organizationId/openapi/:specSlug',
    {
      schema: {
        operationId: 'createOrUpdateOpenAPISpecBySlug',
        tags: ['openapi'],
        summary: 'Create an OpenAPI spec with this slug, or give it a new source (fetched again even when the URL is the same)',
        params: SpecParams,
        body: PutSpecBody,
        response: { 200: OpenAPISpec, 201: OpenAPISpec, ...errors(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const { created, spec } = await createOrUpdateOpenAPISpec(app.ctx, callerOf(request), request.params.organizationId, request.params.specSlug, request.body.source);
      return reply.status(created ? 201 : 200).send(spec);
    },
  );

  registerOperations(app, ['openapi-versions'], [
    apiOperation({
      method: 'GET',
      url: '/orgs/:organizationId/openapi/:specSlug/versions',
      operationId: 'listOpenAPISpecVersions',
      summary: 'List the versions of an OpenAPI spec, newest first',
      params: SpecParams,
      querystring: ListQuery,
      response: listOf(OpenAPISpecVersion),
      errors: [400, 401, 403, 404],
      run: (ctx, caller, { params, query }) => listOpenAPISpecVersions(ctx, caller, params.organizationId, params.specSlug, query),
    }),
    apiOperation({
      method: 'GET',
      url: '/orgs/:organizationId/openapi/:specSlug/versions/latest',
      operationId: 'getLatestOpenAPISpecVersion',
      summary: 'Get the latest version of an OpenAPI spec',
      params: SpecParams,
      response: OpenAPISpecVersion,
      errors: [401, 403, 404],
      run: (ctx, caller, { params }) => getOpenAPISpecVersion(ctx, caller, params.organizationId, params.specSlug, 'latest'),
    }),
    apiOperation({
      method: 'GET',
      url: '/orgs/:organizationId/openapi/:specSlug/versions/latest/content',
      operationId: 'getLatestOpenAPISpecVersionContent',
      summary: 'Get the document of the latest version of an OpenAPI spec',
      params: SpecParams,
      response: OpenAPISpecContent,
      errors: [401, 403, 404],
      run: (ctx, caller, { params }) => getOpenAPISpecVersionContent(ctx, caller, params.organizationId, params.specSlug, 'latest'),
    }),
    apiOperation({
      method: 'GET',
      url: '/orgs/:organizationId/openapi/:specSlug/versions/latest/content/raw',
      operationId: 'getLatestOpenAPISpecVersionContentRaw',
      summary: 'Get the text of the latest version of an OpenAPI spec as it was given or fetched, and its format (json or yaml)',
      params: SpecParams,
      response: OpenAPISpecRawContent,
      errors: [401, 403, 404],
      run: (ctx, caller, { params }) => getLatestOpenAPISpecVersionRawContent(ctx, caller, params.organizationId, params.specSlug),
    }),
    apiOperation({
      method: 'GET',
      url: '/orgs/:organizationId/openapi/:specSlug/versions/:versionId',
      operationId: 'getOpenAPISpecVersionById',
      summary: 'Get a version of an OpenAPI spec',
      params: SpecVersionParams,
      response: OpenAPISpecVersion,
      errors: [401, 403, 404],
      run: (ctx, caller, { params }) => getOpenAPISpecVersion(ctx, caller, params.organizationId, params.specSlug, params.versionId),
    }),
    apiOperation({
      method: 'GET',
      url: '/orgs/:organizationId/openapi/:specSlug/versions/:versionId/content',
      operationId: 'getOpenAPISpecVersionContentById',
      summary: 'Get the document of a version of an OpenAPI spec',
      params: SpecVersionParams,
      response: OpenAPISpecContent,
      errors: [401, 403, 404],
      run: (ctx, caller, { params }) => getOpenAPISpecVersionContent(ctx, caller, params.organizationId, params.specSlug, params.versionId),
    }),
  ]);
}

const PublishedParams = Type.Object({ organizationId: Type.String(), specSlug: Type.String() });
const PublishedVersionParams = Type.Object({ organizationId: Type.String(), specSlug: Type.String(), versionId: Type.String() });

/**
 * The documents of public specs, outside /v1 and without a token (`urls.published`, a version's `url`): the
 * latest document, and each version's. A private spec answers 404 here, as a missing one does.
 */
export async function publishedSpecRoutes(app: App) {
  const send = async (reply: { header: (k: string, v: string) => unknown; send: (body: string) => unknown }, found: { text: string; hash: string } | undefined, cache: string) => {
    if (!found) throw notFound('No public OpenAPI spec here');
    reply.header('content-type', isJsonText(found.text) ? 'application/json; charset=utf-8' : 'application/yaml; charset=utf-8');
    reply.header('etag', `"${found.hash}"`);
    reply.header('cache-control', cache);
    reply.header('x-content-type-options', 'nosniff');
    return reply.send(found.text);
  };
  app.get('/openapi/:organizationId/:specSlug', { config: { public: true }, schema: { hide: true, params: PublishedParams } }, async (request, reply) =>
    send(reply, await readPublishedSpec(app.ctx, request.params.organizationId, request.params.specSlug), 'public, max-age=0, must-revalidate'),
  );
  app.get(
    '/openapi/:organizationId/:specSlug/versions/:versionId',
    { config: { public: true }, schema: { hide: true, params: PublishedVersionParams } },
    // A version never changes, but the spec can be made private again: revalidate.
    async (request, reply) =>
      send(reply, await readPublishedSpec(app.ctx, request.params.organizationId, request.params.specSlug, request.params.versionId), 'public, max-age=0, must-revalidate'),
  );
}
