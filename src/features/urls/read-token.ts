import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { jwtVerify, SignJWT } from 'jose';
import type { AppContext, SiteReaderCaller } from '../../platform/context.ts';
import { forbidden } from '../../platform/errors.ts';
import { ErrorBody } from '../../platform/schemas.ts';
import { serverSigningKey } from '../../platform/signing-key.ts';
import { siteStateAt } from '../reader/site-state.ts';

/*
 * The short-lived read token a resolved published URL answers as `apiToken` (getPublishedContentByUrl and
 * resolvePublishedContentByUrl), as GitBook's does: GitBook's open-source renderer decodes it (a JWT, whose
 * `exp` tells it when to resolve again) and sends it as the Bearer token of every later read of the page's
 * content. It names the site and the spaces its visitor was shown, and it reads their content only:
 * - it is signed (HS256) with a server secret kept in the database, so every process sharing the database
 *   accepts it, and nobody else can make one;
 * - it is checked against the site as it is now: an unpublished or deleted site, or a space taken out of it,
 *   is out of its reach at once, whatever its `exp`;
 * - SITE_READ_OPERATIONS lists what it may call; anything else is refused (403) before its service runs, and
 *   spaces outside the token are 404s (access/service.ts, SiteReaderAccess).
 */

export const READ_TOKEN_LIFETIME_SECONDS = 60 * 60;
const SECRET_NAME = 'site-read-tokens';
const AUDIENCE = 'quire:site-read';

/** The content reads of a space (its current content, its revisions, their pages, files and documents), and its site. */
export const SITE_READ_OPERATIONS: ReadonlySet<string> = new Set([
  'getSpaceById',
  'getCurrentRevision',
  'getRevisionById',
  'listPages',
  'getPageById',
  'getPageByPath',
  'listFiles',
  'getFileById',
  'listPagesInRevisionById',
  'getPageInRevisionById',
  'getPageInRevisionByPath',
  'getPageDocumentInRevisionById',
  'listFilesInRevisionById',
  'getFileInRevisionById',
  'getReusableContentInRevisionById',
  'getReusableContentDocumentInRevisionById',
  'getReusableContentById',
  'getDocumentById',
  'getComputedDocument',
  'getComputedRevision',
  // Where a page of the site is also published, and changes between revisions: GitBook's renderer reads both for
  // a page and answers 500 on anything but a 404.
  'listRevisionPageMetaLinks',
  'listSpacePageMetaLinks',
  'getRevisionSemanticChanges',
  // The site the token was given for (its structure and customizations), which the renderer reads next.
  'getPublishedContentSite',
]);

const signingKey = (ctx: AppContext): Promise<Uint8Array> => serverSigningKey(ctx, SECRET_NAME);

export interface SiteReadGrant {
  siteId: string;
  organizationId: string;
  spaceIds: readonly string[];
  /** Opened by a preview URL: the site need not be published. */
  preview?: boolean;
}

export async function signSiteReadToken(ctx: AppContext, grant: SiteReadGrant): Promise<string> {
  const now = Math.floor(ctx.clock.now().getTime() / 1000);
  return new SignJWT({ organization: grant.organizationId, spaces: [...grant.spaceIds], ...(grant.preview ? { preview: true } : {}) })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(ctx.config.publicUrl)
    .setAudience(AUDIENCE)
    .setSubject(grant.siteId)
    .setJti(randomUUID())
    .setIssuedAt(now)
    .setExpirationTime(now + READ_TOKEN_LIFETIME_SECONDS)
    .sign(await signingKey(ctx));
}

/** Whether a bearer token has the shape of a JWT (API tokens of people and installations never do). */
export function looksLikeJwt(token: string): boolean {
  return token.startsWith('eyJ') && token.split('.').length === 3;
}

/**
 * The caller a read token stands for, or null when it is not one this server signed, has expired, or names a
 * site that no longer shows (the request is then a 401, as for any token that is not valid).
 */
export async function authenticateSiteReadToken(ctx: AppContext, token: string): Promise<SiteReaderCaller | null> {
  let payload;
  try {
    ({ payload } = await jwtVerify(token, await signingKey(ctx), {
      algorithms: ['HS256'],
      issuer: ctx.config.publicUrl,
      audience: AUDIENCE,
      currentDate: ctx.clock.now(),
      requiredClaims: ['exp', 'sub', 'jti'],
    }));
  } catch {
    return null;
  }
  const { sub: siteId, organization, spaces, preview, jti } = payload as { sub: string; organization?: unknown; spaces?: unknown; preview?: unknown; jti: string };
  if (typeof organization !== 'string' || !Array.isArray(spaces)) return null;
  const state = await siteStateAt(ctx, siteId);
  if (!state || state.site.id !== siteId || state.site.organization_id !== organization) return null;
  if (state.site.published !== 1 && preview !== true) return null;
  const published = new Set(state.tree.siteSpaces.map((row) => row.space_id));
  return { kind: 'site-reader', siteId, organizationId: organization, spaceIds: spaces.filter((id): id is string => typeof id === 'string' && published.has(id)), tokenId: jti };
}

/**
 * Refuses a read token everywhere but the content reads (403, before the operation looks at its target).
 * Registered before the routes: every operation declares the 403.
 */
export function registerSiteReadGate(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const schema = route.schema as { operationId?: string; response?: Record<string, unknown> } | undefined;
    if (!schema?.operationId || !schema.response || route.config?.public) return;
    if (!(403 in schema.response)) schema.response[403] = ErrorBody;
  });
  app.addHook('onRequest', async (request) => {
    if (request.caller?.kind !== 'site-reader') return;
    const operationId = (request.routeOptions.schema as { operationId?: string } | undefined)?.operationId;
    if (!operationId || !SITE_READ_OPERATIONS.has(operationId)) {
      throw forbidden(`${operationId ?? 'This operation'} is not open to a site's read token (apiToken): it reads the content of the site's spaces only`);
    }
  });
}
