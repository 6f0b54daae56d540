import { Type } from 'typebox';
import type { App } from '../../platform/app-type.ts';
import { callerOf } from '../../platform/auth.ts';
import { notFound } from '../../platform/errors.ts';
import { errors, listOf, ListQuery, NoContent, OrganizationIdParams } from '../../platform/schemas.ts';
import { CreateSpecBody, OpenAPISpec, OpenAPISpecContent, OpenAPISpecVersion, PutSpecBody, SpecParams, SpecVersionParams, UpdateSpecBody } from './schemas.ts';
import {
  createOpenAPISpec,
  createOrUpdateOpenAPISpec,
  deleteOpenAPISpec,
  getOpenAPISpec,
  getOpenAPISpecVersion,
  getOpenAPISpecVersionContent,
  isJsonText,
  listOpenAPISpecs,
  listOpenAPISpecVersions,
  readPublishedSpec,
  updateOpenAPISpecVisibility,
} from './service.ts';

const tags = ['openapi'];
const versionTags = ['openapi-versions'];

export async function openAPISpecRoutes(app: App) {
  app.get(
    '/orgs/:organizationId/openapi',
    {
      schema: {
        operationId: 'listOpenAPISpecs',
        tags,
        summary: 'List the OpenAPI specs of an organization',
        params: OrganizationIdParams,
        querystring: ListQuery,
        response: { 200: listOf(OpenAPISpec), ...errors(400, 401, 403, 404) },
      },
    },
    async (request) => listOpenAPISpecs(app.ctx, callerOf(request), request.params.organizationId, request.query),
  );

  app.post(
    '/orgs/:organizationId/openapi',
    {
      schema: {
        operationId: 'createOpenAPISpec',
        tags,
        summary: 'Create an OpenAPI spec from a URL or a text; the job worker fetches and parses it',
        params: OrganizationIdParams,
        body: CreateSpecBody,
        response: { 201: OpenAPISpec, ...errors(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => reply.status(201).send(await createOpenAPISpec(app.ctx, callerOf(request), request.params.organizationId, request.body)),
  );

  app.get(
    '/orgs/:organizationId/openapi/:specSlug',
    {
      schema: { operationId: 'getOpenAPISpecBySlug', tags, summary: 'Get an OpenAPI spec by its slug', params: SpecParams, response: { 200: OpenAPISpec, ...errors(401, 403, 404) } },
    },
    async (request) => getOpenAPISpec(app.ctx, callerOf(request), request.params.organizationId, request.params.specSlug),
  );

  app.put(
    '/orgs/:organizationId/openapi/:specSlug',
    {
      schema: {
        operationId: 'createOrUpdateOpenAPISpecBySlug',
        tags,
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

  app.patch(
    '/orgs/:organizationId/openapi/:specSlug',
    {
      schema: {
        operationId: 'updateOpenAPISpecBySlug',
        tags,
        summary: 'Change the visibility of an OpenAPI spec',
        params: SpecParams,
        body: UpdateSpecBody,
        response: { 200: OpenAPISpec, ...errors(400, 401, 403, 404) },
      },
    },
    async (request) => updateOpenAPISpecVisibility(app.ctx, callerOf(request), request.params.organizationId, request.params.specSlug, request.body.visibility),
  );

  app.delete(
    '/orgs/:organizationId/openapi/:specSlug',
    {
      schema: {
        operationId: 'deleteOpenAPISpecBySlug',
        tags,
        summary: 'Delete an OpenAPI spec and its versions',
        params: SpecParams,
        response: { 204: NoContent, ...errors(401, 403) },
      },
    },
    async (request, reply) => {
      await deleteOpenAPISpec(app.ctx, callerOf(request), request.params.organizationId, request.params.specSlug);
      return reply.status(204).send();
    },
  );

  app.get(
    '/orgs/:organizationId/openapi/:specSlug/versions',
    {
      schema: {
        operationId: 'listOpenAPISpecVersions',
        tags: versionTags,
        summary: 'List the versions of an OpenAPI spec, newest first',
        params: SpecParams,
        querystring: ListQuery,
        response: { 200: listOf(OpenAPISpecVersion), ...errors(400, 401, 403, 404) },
      },
    },
    async (request) => listOpenAPISpecVersions(app.ctx, callerOf(request), request.params.organizationId, request.params.specSlug, request.query),
  );

  app.get(
    '/orgs/:organizationId/openapi/:specSlug/versions/latest',
    {
      schema: {
        operationId: 'getLatestOpenAPISpecVersion',
        tags: versionTags,
        summary: 'Get the latest version of an OpenAPI spec',
        params: SpecParams,
        response: { 200: OpenAPISpecVersion, ...errors(401, 403, 404) },
      },
    },
    async (request) => getOpenAPISpecVersion(app.ctx, callerOf(request), request.params.organizationId, request.params.specSlug, 'latest'),
  );

  app.get(
    '/orgs/:organizationId/openapi/:specSlug/versions/latest/content',
    {
      schema: {
        operationId: 'getLatestOpenAPISpecVersionContent',
        tags: versionTags,
        summary: 'Get the document of the latest version of an OpenAPI spec',
        params: SpecParams,
        response: { 200: OpenAPISpecContent, ...errors(401, 403, 404) },
      },
    },
    async (request) => getOpenAPISpecVersionContent(app.ctx, callerOf(request), request.params.organizationId, request.params.specSlug, 'latest'),
  );

  app.get(
    '/orgs/:organizationId/openapi/:specSlug/versions/:versionId',
    {
      schema: {
        operationId: 'getOpenAPISpecVersionById',
        tags: versionTags,
        summary: 'Get a version of an OpenAPI spec',
        params: SpecVersionParams,
        response: { 200: OpenAPISpecVersion, ...errors(401, 403, 404) },
      },
    },
    async (request) => getOpenAPISpecVersion(app.ctx, callerOf(request), request.params.organizationId, request.params.specSlug, request.params.versionId),
  );

  app.get(
    '/orgs/:organizationId/openapi/:specSlug/versions/:versionId/content',
    {
      schema: {
        operationId: 'getOpenAPISpecVersionContentById',
        tags: versionTags,
        summary: 'Get the document of a version of an OpenAPI spec',
        params: SpecVersionParams,
        response: { 200: OpenAPISpecContent, ...errors(401, 403, 404) },
      },
    },
    async (request) =>
      getOpenAPISpecVersionContent(app.ctx, callerOf(request), request.params.organizationId, request.params.specSlug, request.params.versionId),
  );
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
