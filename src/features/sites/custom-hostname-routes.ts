import { Type } from 'typebox';
import type { App } from '../../platform/app-type.ts';
import { callerOf } from '../../platform/auth.ts';
import { errors, NoContent } from '../../platform/schemas.ts';
import { getCustomHostname, removeCustomHostname, revalidateCustomHostname } from './custom-hostnames.ts';

const tags = ['sites'];
const HostnameParams = Type.Object({ hostname: Type.String({ minLength: 1, maxLength: 253, description: 'The custom hostname, e.g. docs.example.com' }) });

const CustomHostname = Type.Object({
  object: Type.Literal('custom-hostname'),
  hostname: Type.String(),
  target: Type.Object({ type: Type.Literal('site'), site: Type.String() }),
  isActive: Type.Boolean({ description: 'The site answers at the hostname: it is published' }),
  status: Type.Optional(
    Type.Union([Type.Literal('live'), Type.Literal('dns_wrong_cname'), Type.Literal('dns_no_cname')], {
      description: 'What the last DNS check found (dnsRevalidateCustomHostname); absent before the first',
    }),
  ),
  urls: Type.Object({ location: Type.String({ format: 'uri' }) }),
});

/** A site's custom hostname (the `hostname` of updateSiteById), by its name. */
export async function customHostnameRoutes(app: App) {
  const ctx = app.ctx;
  app.get('/custom-hostnames/:hostname', {
    schema: { operationId: 'getCustomHostname', tags, summary: 'A custom hostname of a site the caller can see', params: HostnameParams, response: { 200: CustomHostname, ...errors(401, 404) } },
  }, async (req) => getCustomHostname(ctx, callerOf(req), req.params.hostname));

  app.patch('/custom-hostnames/:hostname', {
    schema: {
      operationId: 'dnsRevalidateCustomHostname',
      tags,
      summary: 'Check the DNS of a custom hostname again (site managers; its site must be published)',
      params: HostnameParams,
      response: { 204: NoContent, ...errors(401, 403, 404, 409) },
    },
  }, async (req, reply) => {
    await revalidateCustomHostname(ctx, callerOf(req), req.params.hostname);
    return reply.status(204).send();
  });

  // 205 when the hostname was removed, 204 when there was none: two success statuses.
  app.delete('/custom-hostnames/:hostname', {
    schema: {
      operationId: 'removeCustomHostname',
      tags,
      summary: 'Take a custom hostname away from its site (205; 204 when there was none)',
      params: HostnameParams,
      response: { 204: NoContent, 205: NoContent, ...errors(401, 403) },
    },
  }, async (req, reply) => {
    const removed = await removeCustomHostname(ctx, callerOf(req), req.params.hostname);
    return reply.status(removed ? 205 : 204).send();
  });
}
