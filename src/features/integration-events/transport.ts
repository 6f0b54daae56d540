import type { AppContext } from '../../platform/context.ts';
import { ApiError } from '../../platform/errors.ts';
import { safeFetch } from '../../platform/safe-fetch.ts';
import { openSecret } from '../../platform/secret-box.ts';
import { runIntegrationScript, type ScriptRequest, type ScriptResponse } from '../integrations/runtime/run-script.ts';
import { issueInstallationToken } from '../integrations/tokens.ts';
import { contentInstallationEnvironment } from '../integrations/content-installations.ts';
import { signatureHeader } from './signing.ts';
import type { DeliveryIntegration, InstallationTarget } from '../integrations/queries.ts';

/**
 * How a request (an event delivery or a UI render) reaches an integration, the same way for both: signed, to
 * the development tunnel, else to the published script, else to the endpoint given at publish time.
 *
 * In development mode without `all`, only the owner organization's installations go to the tunnel; the others
 * keep going to the published script or endpoint, so a developer's tunnel never receives other customers'
 * data (the meaning of GitBook's `gitbook dev` without `--all`).
 */
export type Target = { kind: 'tunnel' | 'endpoint'; url: string } | { kind: 'script'; script: string } | { kind: 'none' };

export function targetOf(integration: DeliveryIntegration, installationOrganizationId: string | null): Target {
  // An installation gone meanwhile (its installation_deleted event) has no known organization: not the owner's.
  const tunnelApplies = integration.dev_all === 1 || installationOrganizationId === integration.organization_id;
  if (integration.dev_tunnel_url && tunnelApplies) return { kind: 'tunnel', url: integration.dev_tunnel_url };
  if (integration.script) return { kind: 'script', script: integration.script };
  if (integration.endpoint) return { kind: 'endpoint', url: integration.endpoint };
  return { kind: 'none' };
}

/** What the integration answered. */
export interface IntegrationAnswer {
  status: number;
  contentType: string | undefined;
  body: Buffer;
}

/** The request never got an HTTP answer (network error, timeout, refused address, script crash). */
export class TransportError extends Error {
  constructor(
    message: string,
    /** False when sending again cannot help (an address the server refuses to reach). */
    readonly retryable: boolean,
  ) {
    super(message);
  }
}

export interface OutgoingRequest {
  /** `X-Quire-Event`: the event type. */
  eventType: string;
  /** `X-Quire-Delivery`: the event's id (the same on every retry, so receivers can drop duplicates). */
  deliveryId: string;
  body: string;
  timeoutMs: number;
  maxBytes: number;
  /** Only the status matters (event deliveries): the body is not read. */
  statusOnly?: boolean;
  /** The space or site the event or render is about: a script's environment then has its installation there. */
  about?: { spaceId?: unknown; siteId?: unknown };
  log: (level: 'debug' | 'info' | 'warn' | 'error', message: string) => void;
}

export async function signedHeaders(ctx: AppContext, integration: DeliveryIntegration, request: Pick<OutgoingRequest, 'eventType' | 'deliveryId' | 'body'>) {
  const secret = await openSecret(ctx, integration.signing_secret);
  const timestamp = Math.floor(ctx.clock.now().getTime() / 1000);
  return {
    'content-type': 'application/json',
    'x-quire-event': request.eventType,
    'x-quire-delivery': request.deliveryId,
    'x-quire-signature': signatureHeader(secret, timestamp, request.body),
  };
}

export async function sendToIntegration(
  ctx: AppContext,
  integration: DeliveryIntegration,
  installation: InstallationTarget | undefined,
  target: Exclude<Target, { kind: 'none' }>,
  request: OutgoingRequest,
): Promise<IntegrationAnswer> {
  const headers = await signedHeaders(ctx, integration, request);
  if (target.kind === 'script') return sendToScript(ctx, integration, installation, target.script, headers, request);
  const settings = { allowPrivateFetch: ctx.config.allowPrivateFetch, fetchTimeoutMs: Math.min(ctx.config.fetchTimeoutMs, request.timeoutMs) };
  try {
    const answer = await safeFetch(settings, target.url, {
      maxBytes: request.maxBytes,
      accept: 'application/json',
      post: Buffer.from(request.body),
      headers,
      maxRedirects: 0,
      ...(request.statusOnly ? { statusOnly: 'GET' as const } : {}),
    });
    return { status: answer.status, contentType: answer.contentType, body: answer.body };
  } catch (error) {
    if (error instanceof ApiError) throw new TransportError(error.message, error.statusCode !== 400);
    throw error;
  }
}

/**
 * Tokens given to scripts, per installation and process: a token lives an hour, so one is issued when none is
 * kept or the kept one has less than 10 minutes left (a script call lasts seconds), not one per event.
 */
const scriptTokens = new Map<string, { token: string; expiresAt: Date }>();

async function scriptToken(ctx: AppContext, installationId: string): Promise<string> {
  const kept = scriptTokens.get(installationId);
  if (kept && kept.expiresAt.getTime() - ctx.clock.now().getTime() > 10 * 60_000) return kept.token;
  const issued = await issueInstallationToken(ctx, installationId);
  if (scriptTokens.size >= 10_000) scriptTokens.clear();
  scriptTokens.set(installationId, issued);
  return issued.token;
}

async function sendToScript(
  ctx: AppContext,
  integration: DeliveryIntegration,
  installation: InstallationTarget | undefined,
  script: string,
  headers: Record<string, string>,
  request: OutgoingRequest,
): Promise<IntegrationAnswer> {
  const base = ctx.config.publicUrl.replace(/\/+$/, '');
  const scriptRequest: ScriptRequest = { method: 'POST', url: `${base}/v1/integrations/${integration.name}/events`, headers, body: request.body };
  try {
    const response = await runIntegrationScript({
      script,
      request: scriptRequest,
      environment: {
        // The official API client adds /v1 itself.
        apiEndpoint: base,
        integration: { id: integration.id, name: integration.name },
        installation: installation ? { id: installation.id, organization: installation.organization_id, configuration: parseObject(installation.configuration) } : undefined,
        // `context.api` of @gitbook/runtime calls our API with the installation's token: it reaches what the installation may.
        apiTokens: installation ? { installation: await scriptToken(ctx, installation.id) } : {},
        secrets: await openSecrets(ctx, integration.secrets),
        ...(installation && request.about ? await contentInstallationEnvironment(ctx, integration, installation.id, request.about) : {}),
      },
      fetch: (outbound) => scriptFetch(ctx, outbound),
      limits: { timeoutMs: request.timeoutMs },
      log: request.log,
    });
    const body = Buffer.from(response.body);
    if (body.length > request.maxBytes) throw new TransportError(`the script answered more than ${request.maxBytes} bytes`, true);
    const contentType = Object.entries(response.headers).find(([name]) => name.toLowerCase() === 'content-type')?.[1];
    return { status: response.status, contentType, body };
  } catch (error) {
    if (error instanceof TransportError) throw error;
    throw new TransportError(`the script failed: ${error instanceof Error ? error.message : String(error)}`, true);
  }
}

/** Every request of a script goes through the SSRF-safe fetcher, bounded like the script's own answer. */
async function scriptFetch(ctx: AppContext, request: ScriptRequest): Promise<ScriptResponse> {
  const method = request.method.toUpperCase();
  const answer = await safeFetch(ctx.config, request.url, {
    maxBytes: 1024 * 1024,
    headers: request.headers,
    // Every method but GET and HEAD sends the script's body with it: the official client PATCHes, PUTs and DELETEs too.
    ...(method === 'POST' || method === 'PUT' || method === 'PATCH' || method === 'DELETE' ? { post: Buffer.from(request.body), bodyMethod: method } : {}),
  });
  return { status: answer.status, headers: answer.contentType ? { 'content-type': answer.contentType } : {}, body: answer.body.toString('utf8') };
}

async function openSecrets(ctx: AppContext, sealed: string | null): Promise<Record<string, string>> {
  if (!sealed) return {};
  try {
    return parseObject(await openSecret(ctx, sealed)) as Record<string, string>;
  } catch {
    return {};
  }
}

function parseObject(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
