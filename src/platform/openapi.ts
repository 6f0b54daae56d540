import type { FastifyInstance, FastifyReply } from 'fastify';
import { createHash } from 'node:crypto';
import swagger from '@fastify/swagger';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { getHtmlDocument, type HtmlRenderingConfiguration } from '@scalar/core/libs/html-rendering';
import { stringify as toYaml } from 'yaml';
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
function referenceScriptHash(html: string): string {
  const inline = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
  if (inline.length !== 1) throw new Error(`the API reference page has ${inline.length} inline scripts, expected 1`);
  return `'sha256-${createHash('sha256').update(inline[0]!).digest('base64')}'`;
}

/** The page, the same for every request: its script and its document are relative to it. */
const REFERENCE_PAGE = getHtmlDocument({ cdn: 'js/scalar.js', _integration: 'fastify', ...REFERENCE, url: './openapi.json' });

/**
 * Scalar's standalone bundle (3.5 MB), read once per process and only when a browser asks for it. The
 * package's Fastify plugin read it at every registration: a sixth of a second for each application the test
 * suite builds, and for a server that nobody asks for its API reference.
 */
let referenceScript: Promise<string> | undefined;
function readReferenceScript(): Promise<string> {
  const plugin = createRequire(import.meta.url).resolve('@scalar/fastify-api-reference');
  referenceScript ??= readFile(join(dirname(plugin), 'js', 'standalone.js'), 'utf8');
  return referenceScript;
}

/** /v1/docs: the page, its script and the document, as @scalar/fastify-api-reference 1.46 serves them. */
function registerApiReference(app: FastifyInstance): void {
  const hidden = { schema: { hide: true }, logLevel: 'warn' as const };
  // The router ignores trailing slashes: one route answers both, and the bare path is sent to the page's, so
  // that the page's relative URLs resolve under /v1/docs/.
  app.get('/v1/docs/', hidden, async (request, reply) =>
    request.url.split('?')[0]!.endsWith('/') ? reply.type('text/html; charset=utf-8').send(REFERENCE_PAGE) : reply.redirect('/v1/docs/', 301),
  );
  app.get('/v1/docs/js/scalar.js', hidden, async (_request, reply) => reply.type('application/javascript; charset=utf-8').send(await readReferenceScript()));
  const document = (format: 'json' | 'yaml') => async (_request: unknown, reply: FastifyReply) =>
    reply
      .type(format === 'json' ? 'application/json' : 'application/yaml')
      .header('content-disposition', `filename=quire-api.${format}`)
      .header('access-control-allow-origin', '*')
      .send(format === 'json' ? JSON.stringify(app.swagger()) : toYaml(app.swagger()));
  app.get('/v1/docs/openapi.json', hidden, document('json'));
  app.get('/v1/docs/openapi.yaml', hidden, document('yaml'));
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
  registerApiReference(app);
  const hash = referenceScriptHash(REFERENCE_PAGE);
  // After the security headers' own onSend hook (registered before this one): the reference page's policy
  // is the pages' policy plus its one inline script.
  app.addHook('onSend', async (request, reply, payload) => {
    if (!request.url.startsWith('/v1/docs')) return payload;
    const policy = reply.getHeader('content-security-policy');
    if (typeof policy === 'string') reply.header('content-security-policy', policy.replace(/script-src 'self'/, `script-src 'self' ${hash}`));
    return payload;
  });
}
