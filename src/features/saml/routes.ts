import { Type } from 'typebox';
import type { FastifyReply } from 'fastify';
import type { App } from '../../platform/app-type.ts';
import { apiOperation, registerOperations } from '../../platform/api-operation.ts';
import { callerOf, originOf } from '../../platform/auth.ts';
import { errors, listOf, ListQuery, NoContent, OrganizationIdParams } from '../../platform/schemas.ts';
import { findOrganization } from '../organizations/queries.ts';
import { findUserById } from '../users/queries.ts';
import { clearedCookies, csrfTokenMatches, signOutSession, sessionFromCookies } from '../sessions/service.ts';
import { signInErrorPage, sessionPage, signedOutPage } from '../sso/pages.ts';
import { AcsBody, CreateSAMLProviderBody, FinishQuery, ProviderIdParams, SAMLProvider, SAMLProviderParams, SSOProviderLogin, StartQuery, UpdateSAMLProviderBody } from './schemas.ts';
import { createSamlProvider, deleteSamlProvider, getSamlProvider, listSamlProviders, listSsoLogins, updateSamlProvider } from './service.ts';
import { completeSignIn, finishSignIn, serviceMetadata, startSignIn } from './sign-in.ts';
import { SsoSignInRefused } from '../sso/provider-sign-in.ts';
import { linkingPerson } from '../sso/linking.ts';

const tags = ['sso'];

/** The SAML provider operations of the API (under /v1). */
export async function samlRoutes(app: App) {
  app.get(
    '/orgs/:organizationId/saml',
    {
      schema: {
        operationId: 'listSAMLProvidersInOrganizationById',
        tags,
        summary: 'List the SAML providers of an organization',
        params: OrganizationIdParams,
        querystring: ListQuery,
        response: { 200: listOf(SAMLProvider), ...errors(400, 401, 403, 404) },
      },
    },
    async (request) => listSamlProviders(app.ctx, callerOf(request), request.params.organizationId, request.query),
  );

  registerOperations(app, tags, [
    apiOperation({
      method: 'POST',
      url: '/orgs/:organizationId/saml',
      operationId: 'createOrganizationSAMLProvider',
      summary: 'Add a SAML provider (pending until its entity ID, sign-in URL and certificate are set)',
      params: OrganizationIdParams,
      body: CreateSAMLProviderBody,
      status: 201,
      response: SAMLProvider,
      errors: [400, 401, 403, 404],
      run: (ctx, caller, { params, body }) => createSamlProvider(ctx, caller, params.organizationId, body),
      headers: (provider) => ({ location: provider.urls.location }),
    }),
  ]);

  app.get(
    '/orgs/:organizationId/saml/:samlProviderId',
    {
      schema: {
        operationId: 'getOrganizationSAMLProviderById',
        tags,
        summary: 'Get a SAML provider',
        params: SAMLProviderParams,
        response: { 200: SAMLProvider, ...errors(401, 403, 404) },
      },
    },
    async (request) => getSamlProvider(app.ctx, callerOf(request), request.params.organizationId, request.params.samlProviderId),
  );

  app.patch(
    '/orgs/:organizationId/saml/:samlProviderId',
    {
      schema: {
        operationId: 'updateOrganizationSAMLProvider',
        tags,
        summary: 'Update a SAML provider',
        params: SAMLProviderParams,
        body: UpdateSAMLProviderBody,
        response: { 200: SAMLProvider, ...errors(400, 401, 403, 404) },
      },
    },
    async (request) => updateSamlProvider(app.ctx, callerOf(request), request.params.organizationId, request.params.samlProviderId, request.body),
  );

  app.delete(
    '/orgs/:organizationId/saml/:samlProviderId',
    {
      schema: {
        operationId: 'deleteOrganizationSAMLProvider',
        tags,
        summary: 'Delete a SAML provider: 205 when it was deleted, 204 when there was none',
        params: SAMLProviderParams,
        response: { 204: NoContent, 205: NoContent, ...errors(401, 403) },
      },
    },
    async (request, reply) => {
      const deleted = await deleteSamlProvider(app.ctx, callerOf(request), request.params.organizationId, request.params.samlProviderId);
      return reply.status(deleted ? 205 : 204).send();
    },
  );

  app.get(
    '/orgs/:organizationId/sso',
    {
      config: { public: true },
      schema: {
        operationId: 'listSSOProviderLoginsInOrganization',
        tags,
        summary: 'List the start URLs of the active SAML providers of an organization (public: a sign-in page needs it)',
        params: OrganizationIdParams,
        response: { 200: Type.Object({ items: Type.Array(SSOProviderLogin) }), ...errors(404) },
      },
    },
    async (request) => listSsoLogins(app.ctx, request.params.organizationId),
  );
}

function sendPage(reply: FastifyReply, status: number, html: string) {
  return reply.status(status).header('content-type', 'text/html; charset=utf-8').header('cache-control', 'no-store').send(html);
}

/**
 * The browser's side of sign-in (outside /v1, no API token): the start URL, the ACS the identity provider
 * posts to, our metadata, the page of the current session and sign-out. Refusals are HTML pages.
 */
export async function samlSignInRoutes(app: App) {
  // The identity provider posts an HTML form (HTTP-POST binding); so does the sign-out button.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 1_000_000 }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });
  app.setErrorHandler((error: Error & { statusCode?: number }, _request, reply) => {
    if (error instanceof SsoSignInRefused) return sendPage(reply, error.status, signInErrorPage(error.message, error.action));
    const status = error.statusCode && error.statusCode < 500 ? error.statusCode : 500;
    return sendPage(reply, status, signInErrorPage(status === 500 ? 'Something went wrong on our side.' : error.message));
  });
  const config = { public: true };

  app.get('/sso/saml/:providerId/start', { config, schema: { hide: true, params: ProviderIdParams, querystring: StartQuery } }, async (request, reply) => {
    const linkUserId = request.query.link === '1' ? await linkingPerson(app.ctx, request.headers.cookie) : null;
    const { url, setCookie } = await startSignIn(app.ctx, request.params.providerId, request.query.returnTo ?? request.query.next, { cookieHeader: request.headers.cookie, linkUserId });
    return reply.header('set-cookie', setCookie).header('cache-control', 'no-store').redirect(url, 302);
  });

  app.post('/sso/saml/:providerId/acs', { config, schema: { hide: true, params: ProviderIdParams, body: AcsBody } }, async (request, reply) => {
    const { location } = await completeSignIn(app.ctx, request.params.providerId, request.body.SAMLResponse);
    return reply.header('cache-control', 'no-store').redirect(location, 303);
  });

  app.get('/sso/saml/:providerId/finish', { config, schema: { hide: true, params: ProviderIdParams, querystring: FinishQuery } }, async (request, reply) => {
    const { setCookies, location } = await finishSignIn(app.ctx, request.params.providerId, request.query.ticket, request.headers.cookie, originOf(request, 'ui'));
    return reply.header('set-cookie', setCookies).header('cache-control', 'no-store').redirect(location, 303);
  });

  app.get('/sso/saml/:providerId/metadata', { config, schema: { hide: true, params: ProviderIdParams } }, async (request, reply) =>
    reply.header('content-type', 'application/samlmetadata+xml; charset=utf-8').send(await serviceMetadata(app.ctx, request.params.providerId)),
  );

  app.get('/sso/session', { config, schema: { hide: true } }, async (request, reply) => {
    const browser = await sessionFromCookies(app.ctx, request.headers.cookie);
    if (!browser) return sendPage(reply, 401, signInErrorPage('You are not signed in.'));
    const [user, organization] = await Promise.all([findUserById(app.ctx.db, browser.session.user_id), browser.session.organization_id ? findOrganization(app.ctx.db, browser.session.organization_id) : undefined]);
    return sendPage(reply, 200, sessionPage({ name: user?.display_name ?? 'unknown', email: user?.email ?? null, organization: organization?.title ?? 'your organization' }, browser.csrfToken));
  });

  app.post(
    '/sso/signout',
    { config, schema: { hide: true, body: Type.Optional(Type.Object({ csrf: Type.Optional(Type.String({ maxLength: 200 })) })) } },
    async (request, reply) => {
      const browser = await sessionFromCookies(app.ctx, request.headers.cookie);
      if (browser) {
        const header = request.headers['x-csrf-token'];
        const token = typeof header === 'string' ? header : (request.body as { csrf?: string } | undefined)?.csrf;
        const origin = request.headers.origin;
        // `Origin: null` comes from our own page under its no-referrer policy; the token is what proves the form ours.
        const foreign = origin !== undefined && origin !== 'null' && origin !== new URL(app.ctx.config.publicUrl).origin;
        if (foreign || !csrfTokenMatches(browser, token)) {
          return sendPage(reply, 403, signInErrorPage('Signing out needs the form of the session page (its CSRF token).'));
        }
        const { session } = browser;
        await signOutSession(app.ctx, { id: session.id, userId: session.user_id, organizationId: session.organization_id }, originOf(request, 'ui'));
      }
      return sendPage(reply.header('set-cookie', clearedCookies(app.ctx)), 200, signedOutPage());
    },
  );
}
