import type { FastifyInstance } from 'fastify';
import { createHash } from 'node:crypto';
import swagger from '@fastify/swagger';
import apiReference from '@scalar/fastify-api-reference';
import { getHtmlDocument, type HtmlRenderingConfiguration } from '@scalar/core/libs/html-rendering';
import type { TSchema } from 'typebox';
import type { Config } from '../config.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The body as the OpenAPI document describes it, when the route validates a looser one (see transform). */
    documentedBody?: TSchema;
  }
}

/**
 * The API reference page (Scalar) at /v1/docs. Everything it needs is served from here: its script from
 * /v1/docs/js/scalar.js, the document from /v1/docs/openapi.json, system fonts (Scalar's default fonts would
 * come from its own host). No telemetry, no AI agent, no request proxy: a self-hosted server makes no requests
 * elsewhere on its readers' behalf. The plugin is held at 1.46, the newest whose whole dependency tree runs on
 * Node 20 (later ones pull in @scalar packages that require Node 22), so that `npm ci` is clean on 20, 22, 24.
 */
const REFERENCE: Partial<HtmlRenderingConfiguration> = {
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  hideClientButton: false,
  showDeveloperTools: 'never',
  documentDownloadType: 'json',
  showOperationId: true,
};

/**
 * The page starts Scalar with an inline script; the pages' Content-Security-Policy runs scripts from this
 * origin only, so that one script is allowed by its hash. The plugin renders the page the same way for every
 * request (the document's URL is relative) with @scalar/core's renderer, so the hash is computed once from the
 * same renderer and the same arguments as the plugin passes.
 */
function referenceScriptHash(): string {
  const html = getHtmlDocument({ cdn: 'js/scalar.js', _integration: 'fastify', ...REFERENCE, url: './openapi.json' });
  const inline = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
  if (inline.length !== 1) throw new Error(`the API reference page has ${inline.length} inline scripts, expected 1`);
  return `'sha256-${createHash('sha256').update(inline[0]!).digest('base64')}'`;
}

/**
 * Our own OpenAPI document is generated from the route schemas, so it cannot drift from what the server
 * validates and serializes. Operation ids are the official ones (shared/spec/operations.tsv).
 */
export async function registerOpenApi(app: FastifyInstance, config: Config, version: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Quire API',
        version,
        description: 'Self-hosted documentation platform; compatible with the GitBook public API v1.',
      },
      servers: [{ url: `${config.publicUrl}/v1` }],
      components: { securitySchemes: { user: { type: 'http', scheme: 'bearer' } } },
      security: [{ user: [] }],
    },
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
    },
    // Paths in the document are relative to the server URL, as in the official spec.
    transform: ({ schema, url, route }) => ({
      schema: { ...schema, ...(route.config?.public ? { security: [] } : {}), ...(route.config?.documentedBody ? { body: route.config.documentedBody } : {}) },
      url: url.startsWith('/v1/') ? url.slice(3) : url === '/v1' ? '/' : url,
    }),
  });
  await app.register(apiReference, { routePrefix: '/v1/docs', configuration: REFERENCE, logLevel: 'warn' });
  const hash = referenceScriptHash();
  // After the security headers' own onSend hook (registered before this one): the reference page's policy
  // is the pages' policy plus its one inline script.
  app.addHook('onSend', async (request, reply, payload) => {
    if (!request.url.startsWith('/v1/docs')) return payload;
    const policy = reply.getHeader('content-security-policy');
    if (typeof policy === 'string') reply.header('content-security-policy', policy.replace(/script-src 'self'/, `script-src 'self' ${hash}`));
    return payload;
  });
}
