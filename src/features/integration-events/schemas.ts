import { Type, type Static } from 'typebox';
import { Timestamp } from '../../platform/schemas.ts';

export const IntegrationNameParams = Type.Object({ integrationName: Type.String({ pattern: '^[a-zA-Z0-9-_.]+$', maxLength: 100 }) });
export const IntegrationEventParams = Type.Object({
  integrationName: Type.String({ pattern: '^[a-zA-Z0-9-_.]+$', maxLength: 100 }),
  eventId: Type.String({ minLength: 1, maxLength: 100 }),
});

export const InstallationEventParams = Type.Object({
  integrationName: Type.String({ pattern: '^[a-zA-Z0-9-_.]+$', maxLength: 100 }),
  installationId: Type.String({ minLength: 1, maxLength: 100 }),
});
export const InstallationEventIdParams = Type.Object({
  integrationName: Type.String({ pattern: '^[a-zA-Z0-9-_.]+$', maxLength: 100 }),
  installationId: Type.String({ minLength: 1, maxLength: 100 }),
  eventId: Type.String({ minLength: 1, maxLength: 100 }),
});

const AnyObject = Type.Unsafe<Record<string, unknown>>({ type: 'object', additionalProperties: true });

/**
 * The official `IntegrationEvent`. `status` is the spec's enumeration (`success` once a 2xx answered it,
 * otherwise `failed`); `delivery` is Quire's own detail of where delivery stands (docs/integration-events.md).
 */
export const IntegrationEvent = Type.Object({
  id: Type.String(),
  integrationId: Type.String(),
  installationId: Type.Optional(Type.String()),
  createdAt: Timestamp,
  payload: AnyObject,
  status: Type.Union([Type.Literal('success'), Type.Literal('failed')]),
  delivery: Type.Object({
    state: Type.Union([Type.Literal('pending'), Type.Literal('success'), Type.Literal('failed'), Type.Literal('skipped')], {
      description: '`pending` until a 2xx (retried until then), `failed` when refused or given up, `skipped` when the integration has nowhere to receive it',
    }),
    attempts: Type.Integer(),
    nextAttemptAt: Type.Optional(Timestamp),
    deliveredAt: Type.Optional(Timestamp),
  }),
});

export const IntegrationEventDetail = Type.Object({
  event: IntegrationEvent,
  trace: Type.Object({
    logs: Type.Array(
      Type.Object({
        message: Type.String(),
        timestamp: Timestamp,
        level: Type.Union([Type.Literal('debug'), Type.Literal('info'), Type.Literal('warn'), Type.Literal('error')]),
      }),
    ),
  }),
});

/** The official `RenderIntegrationUI`: what the UI asks the integration to render. */
export const RenderRequest = Type.Object({
  componentId: Type.String({ minLength: 1, maxLength: 200 }),
  props: AnyObject,
  state: Type.Optional(AnyObject),
  context: Type.Object(
    {
      type: Type.String({ minLength: 1 }),
      theme: Type.Optional(Type.String()),
      spaceId: Type.Optional(Type.String()),
      siteId: Type.Optional(Type.String()),
      organizationId: Type.Optional(Type.String()),
    },
    { additionalProperties: true },
  ),
  action: Type.Optional(AnyObject),
});
export type RenderRequest = Static<typeof RenderRequest>;

export const RenderQuery = Type.Object({
  request: Type.String({ minLength: 1, maxLength: 100_000, description: 'The render request as JSON, compressed with lz-string (compressToEncodedURIComponent)' }),
});

/** The official `ContentKitRenderOutput`, checked by render-output.ts before it is answered. */
export const RenderOutput = Type.Unsafe<Record<string, unknown>>({ type: 'object', additionalProperties: true, description: 'ContentKit output of the integration' });

/** The official body of queueIntegrationTask. */
export const QueueIntegrationTaskBody = Type.Object(
  {
    task: Type.Object({}, { additionalProperties: true, description: 'Payload of the task, given back as the `task` of the `task` event' }),
    schedule: Type.Optional(Type.Number({ minimum: 0, maximum: 86400, description: 'Seconds to wait before the task runs (default 0)' })),
  },
  { additionalProperties: false },
);

export const SiteScriptsParams = Type.Object({ organizationId: Type.String({ minLength: 1 }), siteId: Type.String({ minLength: 1 }) });

/** The official `SiteIntegrationScript`: a script the site's pages load, served by this server (site-scripts.ts). */
export const SiteIntegrationScript = Type.Object({
  script: Type.String({ format: 'uri' }),
  contentSecurityPolicy: Type.Optional(Type.String()),
  cookies: Type.Boolean({ description: 'The integration may set cookies (its scope site:script:cookies): visitors are told' }),
});

export const SiteScriptParams = Type.Object({
  integrationName: Type.String({ pattern: '^[a-zA-Z0-9-_.]+$', maxLength: 100 }),
  installationId: Type.String({ minLength: 1, maxLength: 100 }),
  siteId: Type.String({ minLength: 1, maxLength: 100 }),
});
