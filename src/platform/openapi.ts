import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { Config } from '../config.ts';

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
      schema: route.config?.public ? { ...schema, security: [] } : schema,
      url: url.startsWith('/v1/') ? url.slice(3) : url === '/v1' ? '/' : url,
    }),
  });
  await app.register(swaggerUi, { routePrefix: '/v1/docs', uiConfig: { docExpansion: 'list' } });
}
