import type { AppContext, Caller } from '../../platform/context.ts';
import { ApiError, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { loadSite } from '../sites/service.ts';
import { organizationOfSite } from '../sites/queries.ts';
import { findDeliveryIntegration, findIntegrationByName, installationsOnTarget, integrationsByIds } from '../integrations/queries.ts';
import { sendToIntegration, targetOf, TransportError } from './transport.ts';

/*
 * Scripts integrations inject into a site's published pages (the official listSiteIntegrationScripts and the
 * `fetch_published_script` event). An integration holding the scope `site:script:inject`, active on the site,
 * has one script there; its URL is served by this server, outside /v1 and without a token (visitors' browsers
 * load it), and asks the integration for the script at each fetch, as GitBook does: the answer of its
 * `fetch_published_script` handler is the script.
 */

const SCRIPT_SCOPE = 'site:script:inject';
const COOKIES_SCOPE = 'site:script:cookies';
const SCRIPT_TIMEOUT_MS = 10_000;
const SCRIPT_MAX_BYTES = 1024 * 1024;

const badGateway = (message: string) => new ApiError(502, message);

function scopesOf(integration: { scopes: string }): string[] {
  try {
    const scopes: unknown = JSON.parse(integration.scopes);
    return Array.isArray(scopes) ? scopes.filter((s): s is string => typeof s === 'string') : [];
  } catch {
    return [];
  }
}

export function siteScriptUrl(ctx: AppContext, integrationName: string, installationId: string, siteId: string): string {
  const base = ctx.config.publicUrl.replace(/\/+$/, '');
  return `${base}/integrations/${encodeURIComponent(integrationName)}/installations/${encodeURIComponent(installationId)}/sites/${encodeURIComponent(siteId)}/script.js`;
}

/** The scripts of the site: whoever sees the site sees what its pages load (404 otherwise). */
export async function listSiteIntegrationScripts(ctx: AppContext, caller: Caller, organizationId: string, siteId: string) {
  await loadSite(ctx, caller, organizationId, siteId, 'view');
  const installations = await installationsOnTarget(ctx.db, organizationId, 'site', siteId);
  const integrations = new Map((await integrationsByIds(ctx.db, [...new Set(installations.map((i) => i.integration_id))])).map((g) => [g.id, g]));
  return installations.flatMap((installation) => {
    const integration = integrations.get(installation.integration_id);
    const scopes = integration ? scopesOf(integration) : [];
    if (!integration || !scopes.includes(SCRIPT_SCOPE)) return [];
    const csp = integration.content_security_policy === null ? undefined : (JSON.parse(integration.content_security_policy) as unknown);
    return [
      {
        script: siteScriptUrl(ctx, integration.name, installation.id, siteId),
        // The official field is a string: a policy given as directives is written out as one.
        ...(typeof csp === 'string' ? { contentSecurityPolicy: csp } : csp && typeof csp === 'object' ? { contentSecurityPolicy: directives(csp as Record<string, string>) } : {}),
        cookies: scopes.includes(COOKIES_SCOPE),
      },
    ];
  });
}

function directives(policy: Record<string, string>): string {
  return Object.entries(policy)
    .map(([name, value]) => `${name} ${value}`)
    .join('; ');
}

/**
 * The script at a URL of listSiteIntegrationScripts: the integration's answer to `fetch_published_script` for
 * that installation and site. 404 when the integration is not (or no longer) active there with the scope; 502
 * when it cannot be reached or does not answer a 2xx.
 */
export async function fetchSiteScript(ctx: AppContext, name: string, installationId: string, siteId: string): Promise<{ body: Buffer; contentType: string }> {
  const missing = () => notFound(`No script of integration ${name} on site ${siteId}`);
  const row = await findIntegrationByName(ctx.db, name);
  const organizationId = await organizationOfSite(ctx.db, siteId);
  if (!row || !organizationId || !scopesOf(row).includes(SCRIPT_SCOPE)) throw missing();
  const installation = (await installationsOnTarget(ctx.db, organizationId, 'site', siteId)).find((i) => i.id === installationId && i.integration_id === row.id);
  const integration = await findDeliveryIntegration(ctx.db, row.id);
  if (!installation || !integration) throw missing();
  const target = targetOf(integration, installation.organization_id);
  if (target.kind === 'none') throw badGateway(`Integration ${name} has no development tunnel, script or endpoint to answer for its site script`);
  const eventId = newId();
  const body = JSON.stringify({ eventId, type: 'fetch_published_script', installationId: installation.id, siteId });
  let answer;
  try {
    answer = await sendToIntegration(ctx, integration, installation, target, {
      eventType: 'fetch_published_script',
      deliveryId: eventId,
      body,
      timeoutMs: SCRIPT_TIMEOUT_MS,
      maxBytes: SCRIPT_MAX_BYTES,
      about: { siteId },
      log: () => undefined,
    });
  } catch (error) {
    if (error instanceof TransportError) throw badGateway(`Integration ${name} could not give its site script: ${error.message}`);
    throw error;
  }
  if (answer.status < 200 || answer.status >= 300) throw badGateway(`Integration ${name} answered HTTP ${answer.status} for its site script`);
  return { body: answer.body, contentType: 'text/javascript; charset=utf-8' };
}
