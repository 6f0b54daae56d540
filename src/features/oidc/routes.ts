import { Type } from 'typebox';
import type { FastifyReply } from 'fastify';
import type { App } from '../../platform/app-type.ts';
import { apiOperation, registerOperations } from '../../platform/api-operation.ts';
import { callerOf, originOf } from '../../platform/auth.ts';
import { errors, NoContent, OrganizationIdParams } from '../../platform/schemas.ts';
import { signInErrorPage } from '../sso/pages.ts';
import { SsoSignInRefused } from '../sso/provider-sign-in.ts';
import { linkingPerson } from '../sso/linking.ts';
import { CallbackQuery, CreateOIDCProviderBody, OIDCProvider, OIDCProviderParams, ProviderIdParams, StartQuery, UpdateOIDCProviderBody } from './schemas.ts';
import { createOidcProvider, deleteOidcProvider, getOidcProvider, listOidcProviders, updateOidcProvider } from './service.ts';
import { completeOidcSignIn, startOidcSignIn } from './sign-in.ts';

const tags = ['sso'];
const documentation = { 'x-quire-extension': true };

/**
 * An organization's OpenID Connect providers (under /v1). The official API has SAML providers only; these
 * mirror them (`/orgs/{organizationId}/oidc`), the client secret write-only.
 */
export async function oidcRoutes(app: App) {
  registerOperations(app, tags, [
    apiOperation({
      method: 'GET',
      url: '/orgs/:organizationId/oidc',
      operationId: 'listOIDCProvidersInOrganization',
      summary: 'List the OpenID Connect providers of an organization',
      documentation,
      params: OrganizationIdParams,
      response: Type.Object({ items: Type.Array(OIDCProvider), count: Type.Number() }),
      errors: [401, 403, 404],
      run: (ctx, caller, { params }) => listOidcProviders(ctx, caller, params.organizationId),
    }),
    apiOperation({
      method: 'POST',
      url: '/orgs/:organizationId/oidc',
      operationId: 'createOrganizationOIDCProvider',
      summary: 'Add an OpenID Connect provider (issuer, client ID and secret)',
      documentation,
      params: OrganizationIdParams,
      body: CreateOIDCProviderBody,
      status: 201,
      response: OIDCProvider,
      errors: [400, 401, 403, 404],
      headers: (result) => ({ location: result.urls.location }),
      run: (ctx, caller, { params, body }) => createOidcProvider(ctx, caller, params.organizationId, body),
    }),
    apiOperation({
      method: 'GET',
      url: '/orgs/:organizationId/oidc/:oidcProviderId',
      operationId: 'getOrganizationOIDCProviderById',
      summary: 'Get an OpenID Connect provider (never its secret)',
      documentation,
      params: OIDCProviderParams,
      response: OIDCProvider,
      errors: [401, 403, 404],
      run: (ctx, caller, { params }) => getOidcProvider(ctx, caller, params.organizationId, params.oidcProviderId),
    }),
    apiOperation({
      method: 'PATCH',
      url: '/orgs/:organizationId/oidc/:oidcProviderId',
      operationId: 'updateOrganizationOIDCProvider',
      summary: 'Change an OpenID Connect provider',
      documentation,
      params: OIDCProviderParams,
      body: UpdateOIDCProviderBody,
      response: OIDCProvider,
      errors: [400, 401, 403, 404],
      run: (ctx, caller, { params, body }) => updateOidcProvider(ctx, caller, params.organizationId, params.oidcProviderId, body),
    }),
  ]);

  app.delete(
    '/orgs/:organizationId/oidc/:oidcProviderId',
    {
      schema: {
        operationId: 'deleteOrganizationOIDCProvider',
        ...documentation,
        tags,
        summary: 'Delete an OpenID Connect provider: 205 when it was deleted, 204 when there was none',
        params: OIDCProviderParams,
        response: { 204: NoContent, 205: NoContent, ...errors(401, 403) },
      },
    },
    async (request, reply) => {
      const deleted = await deleteOidcProvider(app.ctx, callerOf(request), request.params.organizationId, request.params.oidcProviderId);
      return reply.status(deleted ? 205 : 204).send();
    },
  );
}

function sendPage(reply: FastifyReply, status: number, html: string) {
  return reply.status(status).header('content-type', 'text/html; charset=utf-8').header('cache-control', 'no-store').send(html);
}

/** The browser's side of OpenID Connect sign-in (outside /v1): the start URL and the redirect URI. Refusals are HTML pages. */
export async function oidcSignInRoutes(app: App) {
  app.setErrorHandler((error: Error & { statusCode?: number }, _request, reply) => {
    if (error instanceof SsoSignInRefused) return sendPage(reply, error.status, signInErrorPage(error.message, error.action));
    const status = error.statusCode && error.statusCode < 500 ? error.statusCode : 500;
    return sendPage(reply, status, signInErrorPage(status === 500 ? 'Something went wrong on our side.' : error.message));
  });
  const config = { public: true };

  app.get('/sso/oidc/:providerId/start', { config, schema: { hide: true, params: ProviderIdParams, querystring: StartQuery } }, async (request, reply) => {
    const linkUserId = request.query.link === '1' ? await linkingPerson(app.ctx, request.headers.cookie) : null;
    const { url, setCookie } = await startOidcSignIn(app.ctx, request.params.providerId, request.query.returnTo ?? request.query.next, { cookieHeader: request.headers.cookie, linkUserId });
    return reply.header('set-cookie', setCookie).header('cache-control', 'no-store').redirect(url, 302);
  });

  app.get('/sso/oidc/:providerId/callback', { config, schema: { hide: true, params: ProviderIdParams, querystring: CallbackQuery } }, async (request, reply) => {
    const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '';
    const { setCookies, location } = await completeOidcSignIn(app.ctx, request.params.providerId, query, request.headers.cookie, originOf(request, 'ui'));
    return reply.header('set-cookie', setCookies).header('cache-control', 'no-store').redirect(location, 303);
  });
}
