import LZString from 'lz-string';
import { Compile } from 'typebox/compile';
import { personOf, type AppContext, type Caller } from '../../platform/context.ts';
import { ApiError, badRequest, conflict, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { OrgAccess } from '../access/service.ts';
import { loadSpace } from '../spaces/service.ts';
import { loadSite } from '../sites/service.ts';
import { organizationOfSite } from '../sites/queries.ts';
import { assertCanReadEvents, assertCanRender } from './policy.ts';
import { presentEvent, presentEventDetail } from './present.ts';
import { contentSecurityPolicyHeader } from './content-security-policy.ts';
import { checkRenderOutput } from './render-output.ts';
import { RenderRequest } from './schemas.ts';
import { findIntegrationByName, installationsVisibleTo, type IntegrationRow } from '../integrations/queries.ts';
import { loadInstallation } from '../integrations/installations.ts';
import { retryRefusal } from './retry-policy.ts';
import {
  appendEventLogs,
  countEvents,
  countInstallationEvents,
  eventLogs,
  findEvent,
  findInstallationEvent,
  listEvents,
  listInstallationEvents,
  requeueFailedEvent,
} from './store.ts';
import { sendToIntegration, targetOf, TransportError } from './transport.ts';

/** A render waits this long for the integration, and accepts this much of its answer. */
const RENDER_TIMEOUT_MS = 10_000;
const RENDER_MAX_BYTES = 1024 * 1024;

const badGateway = (message: string) => new ApiError(502, message);

async function loadIntegration(ctx: AppContext, name: string): Promise<IntegrationRow> {
  const integration = await findIntegrationByName(ctx.db, name);
  if (!integration) throw notFound(`No integration "${name}"`);
  return integration;
}

async function loadForEvents(ctx: AppContext, caller: Caller, name: string): Promise<IntegrationRow> {
  const integration = await loadIntegration(ctx, name);
  assertCanReadEvents(await OrgAccess.load(ctx.db, integration.organization_id, caller), name);
  return integration;
}

export async function listIntegrationEvents(ctx: AppContext, caller: Caller, name: string, query: { page?: string | undefined; limit?: number | undefined }) {
  const integration = await loadForEvents(ctx, caller, name);
  const listKey = `integration-events:${integration.id}`;
  const page = ctx.cursors.open(listKey, query, ctx.config.defaultPageSize);
  const [rows, count] = await Promise.all([listEvents(ctx.db, integration.id, page), countEvents(ctx.db, integration.id)]);
  return ctx.cursors.close(listKey, page, rows, count, (row) => [row.created_at, row.id], presentEvent);
}

export async function getIntegrationEvent(ctx: AppContext, caller: Caller, name: string, eventId: string) {
  const integration = await loadForEvents(ctx, caller, name);
  const event = await findEvent(ctx.db, integration.id, eventId);
  if (!event) throw notFound(`No event ${eventId} of integration "${name}"`);
  return presentEventDetail(event, await eventLogs(ctx.db, event.id));
}

/*
 * One installation's events (Quire's extension): its events carry only the data of the organization it is
 * installed in, so that organization's admins read them, as do the owner's admins, who read every event; whoever
 * sees the installation (integrations/installations.ts) sees its log, anyone else gets 404.
 */
export async function listEventsOfInstallation(ctx: AppContext, caller: Caller, name: string, installationId: string, query: { page?: string | undefined; limit?: number | undefined }) {
  const { installation } = await loadInstallation(ctx, caller, name, installationId);
  const listKey = `installation-events:${installation.id}`;
  const page = ctx.cursors.open(listKey, query, ctx.config.defaultPageSize);
  const [rows, count] = await Promise.all([listInstallationEvents(ctx.db, installation.id, page), countInstallationEvents(ctx.db, installation.id)]);
  return ctx.cursors.close(listKey, page, rows, count, (row) => [row.created_at, row.id], presentEvent);
}

async function loadInstallationEvent(ctx: AppContext, caller: Caller, name: string, installationId: string, eventId: string) {
  const { installation } = await loadInstallation(ctx, caller, name, installationId);
  const event = await findInstallationEvent(ctx.db, installation.id, eventId);
  if (!event) throw notFound(`No event ${eventId} of installation ${installationId}`);
  return event;
}

export async function getEventOfInstallation(ctx: AppContext, caller: Caller, name: string, installationId: string, eventId: string) {
  const event = await loadInstallationEvent(ctx, caller, name, installationId, eventId);
  return presentEventDetail(event, await eventLogs(ctx.db, event.id));
}

/**
 * Another attempt at a failed delivery: the event goes back to its installation's queue, due now, and the
 * worker sends it as any pending event (same id, in order; a failure after its 24 hours is again the last).
 */
export async function retryEventOfInstallation(ctx: AppContext, caller: Caller, name: string, installationId: string, eventId: string) {
  const event = await loadInstallationEvent(ctx, caller, name, installationId, eventId);
  const refusal = retryRefusal(event.status);
  if (refusal) throw conflict(`Event ${eventId} ${refusal}`);
  const now = ctx.clock.now().toISOString();
  const requeued = await ctx.db.transaction().execute(async (trx) => {
    if (!(await requeueFailedEvent(trx, event.id, now))) return false;
    await appendEventLogs(trx, event.id, [{ timestamp: now, level: 'info', message: `Another attempt asked for by user ${personOf(caller)}` }]);
    return true;
  });
  if (!requeued) throw conflict(`Event ${eventId} is already being tried again`);
  return getEventOfInstallation(ctx, caller, name, installationId, eventId);
}

const checkRenderRequest = Compile(RenderRequest);

/**
 * The request of renderIntegrationUIWithGet: JSON compressed by lz-string into URI-safe text
 * (`compressToEncodedURIComponent`), as GitBook's UI sends it so that renders can be cached by URL.
 */
export function decodeRenderQuery(text: string): RenderRequest {
  let json: string | null;
  try {
    json = LZString.decompressFromEncodedURIComponent(text);
  } catch {
    json = null;
  }
  if (!json) throw badRequest('querystring/request is not lz-string compressed text (compressToEncodedURIComponent of the JSON request)');
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    throw badRequest('querystring/request does not decompress to JSON');
  }
  if (!checkRenderRequest.Check(value)) {
    const first = [...checkRenderRequest.Errors(value)][0];
    const where = first?.instancePath ? `querystring/request${first.instancePath}` : 'querystring/request';
    throw badRequest(`${where} ${first?.message ?? 'is not a render request'} (componentId, props and context are required)`);
  }
  return value;
}

/**
 * The organization the render happens in, when its context names one (a space, a site or an organization).
 * The caller must see that space or site: the integration answers with what its installation can read, and
 * must not become a way to look into a space the caller cannot open (404, as for the space itself).
 */
async function organizationOfContext(ctx: AppContext, caller: Caller, context: RenderRequest['context']): Promise<string | undefined> {
  if (typeof context.spaceId === 'string') return (await loadSpace(ctx, caller, context.spaceId)).space.organization_id;
  if (typeof context.siteId === 'string') {
    const organizationId = await organizationOfSite(ctx.db, context.siteId);
    if (!organizationId) throw notFound(`No site ${context.siteId}`);
    await loadSite(ctx, caller, organizationId, context.siteId, 'view');
    return organizationId;
  }
  if (typeof context.organizationId === 'string') return context.organizationId;
  return undefined;
}

/**
 * Forwards a render request to the integration as a `ui_render` event (signed like every delivery, to the
 * same target) and answers its ContentKit output once its shape is checked; 502 when the integration cannot be
 * reached, answers an error, or answers something that is not a render output. Renders are synchronous and
 * not recorded as events: the caller sees the failure.
 */
export async function renderIntegrationUI(ctx: AppContext, caller: Caller, name: string, request: RenderRequest) {
  const integration = await loadIntegration(ctx, name);
  const [ownerAccess, installations] = await Promise.all([OrgAccess.load(ctx.db, integration.organization_id, caller), installationsVisibleTo(ctx.db, integration.id, personOf(caller))]);
  assertCanRender(ownerAccess, installations.length > 0, name);
  const organizationId = await organizationOfContext(ctx, caller, request.context);
  const installation = installations.find((i) => i.organization_id === organizationId) ?? (organizationId === undefined ? installations[0] : undefined);
  // Without an installation there, only the owner's own members render (what they are building).
  if (organizationId !== undefined && !installation && !(organizationId === integration.organization_id && ownerAccess.isMember)) {
    throw notFound(`Integration "${name}" is not installed where this render happens (context ${request.context.type})`);
  }
  const target = targetOf(integration, installation?.organization_id ?? integration.organization_id);
  if (target.kind === 'none') throw badGateway(`Integration "${name}" has no development tunnel, script or endpoint to render with`);

  const eventId = newId();
  const where =
    typeof request.context.spaceId === 'string' ? { spaceId: request.context.spaceId } : typeof request.context.siteId === 'string' ? { siteId: request.context.siteId } : {};
  const body = JSON.stringify({
    eventId,
    type: 'ui_render',
    ...(installation ? { installationId: installation.id } : {}),
    ...where,
    auth: { userId: personOf(caller) },
    componentId: request.componentId,
    props: request.props,
    // A first render has no state: the official runtime then starts from the component's initialState.
    ...(request.state !== undefined ? { state: request.state } : {}),
    context: request.context,
    ...(request.action ? { action: request.action } : {}),
  });
  let answer;
  try {
    answer = await sendToIntegration(ctx, integration, installation, target, {
      eventType: 'ui_render',
      deliveryId: eventId,
      body,
      timeoutMs: RENDER_TIMEOUT_MS,
      maxBytes: RENDER_MAX_BYTES,
      about: request.context,
      log: () => undefined,
    });
  } catch (error) {
    if (error instanceof TransportError) throw badGateway(`Integration "${name}" could not render ${request.componentId}: ${error.message}`);
    throw error;
  }
  if (answer.status < 200 || answer.status >= 300) throw badGateway(`Integration "${name}" answered HTTP ${answer.status} to the render of ${request.componentId}`);
  let output: unknown;
  try {
    output = JSON.parse(answer.body.toString('utf8'));
  } catch {
    throw badGateway(`Integration "${name}" answered the render of ${request.componentId} with something that is not JSON`);
  }
  const checked = checkRenderOutput(output);
  if (!checked.ok) throw badGateway(`Integration "${name}" answered the render of ${request.componentId} with an invalid ContentKit output: ${checked.reason}`);
  return { output: checked.output, contentSecurityPolicy: contentSecurityPolicyHeader(integration.content_security_policy) };
}

