import { Type } from 'typebox';
import type { App } from '../../platform/app-type.ts';

const ApiInformation = Type.Object({
  version: Type.String({ description: 'Current release of the server' }),
  build: Type.String({ description: 'Date of the release in ISO format' }),
});

export async function apiRoutes(app: App, info: { version: string; build: string }) {
  app.get(
    '/',
    {
      config: { public: true },
      schema: { operationId: 'getApiInformation', tags: ['api'], summary: 'Version of the API server', response: { 200: ApiInformation } },
    },
    async () => info,
  );

  app.get('/openapi.json', { config: { public: true }, schema: { hide: true } }, async () => app.swagger());
}
