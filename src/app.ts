import { readFileSync } from 'node:fs';
import Fastify, { type preValidationHookHandler } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from './config.ts';
import type { Db } from './db/types.ts';
import { systemClock, type Clock } from './platform/clock.ts';
import type { App } from './platform/app-type.ts';
import type { AppContext } from './platform/context.ts';
import { answerClientError, answerFrameworkError, registerErrorHandling } from './platform/http-errors.ts';
import { registerRequestGuards } from './platform/request-guards.ts';
import { compilersSharedByApplications } from './platform/compiled-schemas.ts';
import { registerAuth } from './platform/auth.ts';
import { createMailer } from './platform/mail.ts';
import { enableReadCaches } from './platform/read-cache.ts';
import { registerCors } from './platform/cors.ts';
import { registerSecurityHeaders } from './platform/security-headers.ts';
import { registerRateLimits } from './platform/rate-limits.ts';
import { registerHealth } from './platform/health.ts';
import { registerMetrics } from './platform/metrics.ts';
import { authenticateToken } from './features/tokens/service.ts';
import { authenticateBrowser } from './features/sessions/browser-auth.ts';
import { samlRoutes, samlSignInRoutes } from './features/saml/routes.ts';
import { authRoutes } from './features/auth/routes.ts';
import { organizationInviteRoutes } from './features/organization-invites/routes.ts';
import { oidcRoutes, oidcSignInRoutes } from './features/oidc/routes.ts';
import { domainLinkRoutes, domainRoutes } from './features/domains/routes.ts';
import { personalTokenRoutes } from './features/tokens/routes.ts';
import { notificationRoutes } from './features/notifications/routes.ts';
import { registerOpenApi } from './platform/openapi.ts';
import { Cursors } from './platform/pagination.ts';
import { createBlobStore } from './platform/create-blob-store.ts';
import { loadServerSecret } from './platform/secret-store.ts';
import { isEmoji } from './platform/emoji.ts';
import { JobWorker } from './platform/jobs.ts';
import { registerJobHandlers } from './jobs.ts';
import { apiRoutes } from './features/api/routes.ts';
import { userRoutes } from './features/users/routes.ts';
import { organizationRoutes } from './features/organizations/routes.ts';
import { memberRoutes } from './features/members/routes.ts';
import { teamRoutes } from './features/teams/routes.ts';
import { grantRoutes } from './features/grants/routes.ts';
import { collectionRoutes } from './features/collections/routes.ts';
import { spaceRoutes } from './features/spaces/routes.ts';
import { fileDownloadRoutes, fileUploadRoutes, storageUploadRoutes, storageUploadTargetRoutes } from './features/files/routes.ts';
import { changeRequestRoutes } from './features/change-requests/routes.ts';
import { contentRoutes } from './features/content/routes.ts';
import { embedRoutes } from './features/embeds/routes.ts';
import { importRoutes, importRunRoutes } from './features/imports/routes.ts';
import { gitSyncConnectionRoutes, gitSyncRoutes, gitSyncWebhookRoutes } from './features/git-sync/routes.ts';
import { commentRoutes } from './features/comments/routes.ts';
import { siteRoutes } from './features/sites/routes.ts';
import { fontRoutes } from './features/fonts/routes.ts';
import { urlRoutes } from './features/urls/routes.ts';
import { computedContentRoutes } from './features/computed-content/routes.ts';
import { gitInstallationRoutes } from './features/git-installations/routes.ts';
import { auditRoutes } from './features/audit/routes.ts';
import { linkRoutes } from './features/links/routes.ts';
import { searchRoutes } from './features/search/routes.ts';
import { askRoutes } from './features/ask/routes.ts';
import { siteQuestionRoutes } from './features/site-questions/routes.ts';
import { configuredAiProvider } from './platform/ai-provider.ts';
import { readerRoutes, siteHostRouting } from './features/reader/routes.ts';
import { webAppRoutes } from './features/web-app/routes.ts';
import { mountCollaboration } from './features/collaboration/websocket.ts';
import { CollaborationPresence } from './features/collaboration/presence.ts';
import { collaborationRoutes } from './features/collaboration/routes.ts';
import { configureConversions } from './features/content/conversion-pool.ts';
import { openAPISpecRoutes, publishedSpecRoutes } from './features/openapi-specs/routes.ts';
import { translationRoutes } from './features/translations/routes.ts';
import { pdfDownloadRoutes, pdfRoutes } from './features/pdf/routes.ts';
import { integrationEventRoutes, siteScriptRoutes } from './features/integration-events/routes.ts';
import { integrationAssetRoutes, integrationRoutes } from './features/integrations/routes.ts';
import { registerScopeGate } from './features/integrations/scopes.ts';
import { authenticateSiteReadToken, looksLikeJwt, registerSiteReadGate } from './features/urls/read-token.ts';

// Tests, the bench and main.ts build the app here; the type itself is the platform's.
export type { App };

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
const BUILD = '2026-11-22';

/** One for the process: every application built here reuses what an earlier one compiled. */
const compilers = compilersSharedByApplications();

export interface BuildOptions {
  config: Config;
  db: Db;
  clock?: Clock;
}

/** The whole HTTP application on a migrated database; used by main.ts and by every test. */
export async function buildApp({ config, db, clock = systemClock }: BuildOptions): Promise<App> {
  configureConversions({ threads: config.conversionThreads, timeoutMs: config.conversionTimeoutMs });
  const app = Fastify({
    bodyLimit: config.bodyLimit,
    requestTimeout: config.requestTimeoutMs,
    connectionTimeout: 0,
    clientErrorHandler: answerClientError,
    logger: config.logLevel === 'silent' ? false : { level: config.logLevel, redact: ['req.headers.authorization'] },
    ajv: { customOptions: { formats: { emoji: isEmoji } } },
    schemaController: { compilersFactory: compilers },
    // Route and query parsing must never throw on odd input: long or malformed URLs are answered, not crashed on.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
    frameworkErrors: answerFrameworkError,
  }).withTypeProvider<TypeBoxTypeProvider>();

  const ctx: AppContext = {
    db,
    clock,
    config,
    cursors: new Cursors(await loadServerSecret(db, 'cursor-signing', clock.now().toISOString())),
    blobs: await createBlobStore(config),
    mailer: createMailer(config, app.log),
    ai: configuredAiProvider(config),
  };
  app.decorate('ctx', ctx);
  // Caches of this application's database handle, emptied by its writes (platform/read-cache.ts).
  const endReadCaches = enableReadCaches(db, { sharedTtlMs: config.cacheTtlMs });
  app.server.headersTimeout = Math.min(config.headersTimeoutMs, config.requestTimeoutMs || config.headersTimeoutMs);
  if (config.maxConnections > 0) app.server.maxConnections = config.maxConnections;
  const jobs = new JobWorker(ctx, app.log);
  registerJobHandlers(jobs);
  app.decorate('jobs', jobs);

  registerErrorHandling(app);
  // Running it in production (issue 15): before auth, so that probes and preflights need no token and an
  // address that keeps failing authentication is refused before its token is looked up; before the routes,
  // so that each route gets its rate-limit bucket.
  await registerCors(app, config);
  registerSecurityHeaders(app);
  await registerRateLimits(app, config);
  await registerHealth(app, ctx, jobs);
  registerMetrics(app, ctx);
  // A request on a site's custom hostname is the site's, API paths included: before authentication.
  await siteHostRouting(app);
  // A JWT is a site's read token (the apiToken of a resolved published URL); one that is not ours may still be a
  // personal token given its value at issue (`quire token issue`).
  registerAuth(app, async (token) => (looksLikeJwt(token) ? ((await authenticateSiteReadToken(ctx, token)) ?? authenticateToken(ctx, token)) : authenticateToken(ctx, token)), (request) => authenticateBrowser(ctx, request));
  // An integration installation token calls only what its scopes allow (features/integrations/scopes.ts).
  registerScopeGate(app);
  // A site's read token reads the content of the site's spaces only (features/urls/read-token.ts).
  registerSiteReadGate(app);
  registerRequestGuards(app);
  // Optional bodies may be left out entirely; schemas then see an empty object and name what is missing. Only
  // routes with a body schema pay for it.
  app.addHook('onRoute', (route) => {
    if (!route.schema?.body) return;
    const emptyBody: preValidationHookHandler = (request, _reply, done) => {
      if (request.body === undefined) request.body = {};
      done();
    };
    route.preValidation = [emptyBody, ...(route.preValidation ? [route.preValidation].flat() : [])];
  });
  await registerOpenApi(app, config, pkg.version);

  // Who has which page open in an editor: written by the collaboration socket, read by an API operation.
  const presence = new CollaborationPresence();
  await app.register(
    async (v1) => {
      await apiRoutes(v1, { version: pkg.version, build: BUILD });
      await userRoutes(v1);
      await organizationRoutes(v1);
      await memberRoutes(v1);
      await organizationInviteRoutes(v1);
      await teamRoutes(v1);
      await grantRoutes(v1);
      await collectionRoutes(v1);
      await spaceRoutes(v1);
      await changeRequestRoutes(v1);
      await collaborationRoutes(v1, presence);
      await contentRoutes(v1);
      await computedContentRoutes(v1);
      await embedRoutes(v1);
      await v1.register(fileUploadRoutes);
      await storageUploadRoutes(v1);
      await importRoutes(v1);
      await importRunRoutes(v1);
      await gitSyncRoutes(v1);
      await gitSyncConnectionRoutes(v1);
      await gitInstallationRoutes(v1);
      await v1.register(gitSyncWebhookRoutes);
      await commentRoutes(v1);
      await siteRoutes(v1);
      await fontRoutes(v1);
      await urlRoutes(v1);
      await auditRoutes(v1);
      await linkRoutes(v1);
      await searchRoutes(v1);
      await askRoutes(v1);
      await siteQuestionRoutes(v1);
      await openAPISpecRoutes(v1);
      await translationRoutes(v1);
      await pdfRoutes(v1);
      await integrationEventRoutes(v1);
      await samlRoutes(v1);
      await oidcRoutes(v1);
      await domainRoutes(v1);
      await authRoutes(v1);
      await personalTokenRoutes(v1);
      await notificationRoutes(v1);
      await integrationRoutes(v1);
    },
    { prefix: '/v1' },
  );
  // Download URLs are capability URLs outside the API prefix (see features/files/routes.ts).
  await fileDownloadRoutes(app);
  await app.register(storageUploadTargetRoutes);
  // Public OpenAPI documents, outside /v1 and without a token (features/openapi-specs/routes.ts).
  await publishedSpecRoutes(app);
  await pdfDownloadRoutes(app);
  // SAML sign-in and sign-out pages, outside /v1: a browser follows them, not an API client.
  await app.register(async (sso) => {
    await samlSignInRoutes(sso);
    // The mailed domain verification link's pages: plain pages beside sign-in's, with its form parser.
    await domainLinkRoutes(sso);
  });
  await app.register(async (sso) => oidcSignInRoutes(sso));
  // Integration icons and preview images, public like file downloads (features/integrations/routes.ts).
  await integrationAssetRoutes(app);
  await siteScriptRoutes(app);
  // Published sites as web pages, outside /v1: a site's visibility decides who reads them (features/reader).
  await app.register(async (reader) => readerRoutes(reader));
  // The members' web app, a client of /v1 like any other (features/web-app).
  await app.register(async (web) => webAppRoutes(web));
  // Editing together: the web app's editors on one page, over a WebSocket on the same port (features/collaboration).
  mountCollaboration(app, presence);
  app.addHook('onClose', async () => {
    ctx.mailer.close();
    await jobs.stop();
    endReadCaches();
  });
  return app;
}
