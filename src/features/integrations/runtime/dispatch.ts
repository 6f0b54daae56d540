import { randomBytes } from 'node:crypto';

/** The shape of run-script.ts's ScriptRequest (not imported from there: run-script.ts imports this file). */
type ScriptRequest = { method: string; url: string; headers: Record<string, string>; body: string };

/**
 * What the script's `fetch(request, env)` handler receives, in the shape GitBook's dispatcher sends it.
 *
 * `@gitbook/runtime` (`createIntegration`) reads every call as a POST to `/v1` whose body is multipart form
 * data with the fields `event` (the event JSON), `environment` (the `IntegrationEnvironment` JSON) and, for
 * `fetch` events, `fetch-body`; in production mode it answers 400 to any other path than `/v1`. Callers give
 * the event as a JSON body (the same body an endpoint integration gets); this turns it into that form, so an
 * integration built with the official runtime runs unchanged. A request that is already multipart is the
 * caller's own dispatcher form and passes as it is.
 */
export function dispatcherRequest(request: ScriptRequest, environment: Record<string, unknown>): ScriptRequest {
  const contentType = headerValue(request.headers, 'content-type') ?? '';
  if (/^multipart\/form-data/i.test(contentType)) return request;
  const boundary = `----quire-dispatch-${randomBytes(12).toString('hex')}`;
  const fields: Array<[string, string]> = [
    ['event', request.body],
    ['environment', JSON.stringify(completeEnvironment(environment))],
  ];
  const body =
    fields.map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`).join('') +
    `--${boundary}--\r\n`;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (!/^(content-type|content-length)$/i.test(name)) headers[name.toLowerCase()] = value;
  }
  headers['content-type'] = `multipart/form-data; boundary=${boundary}`;
  return { method: 'POST', url: `${originOf(request.url)}/v1`, headers, body };
}

/**
 * The official runtime builds its API clients from `apiTokens.integration` and `apiEndpoint` before it looks at
 * the event, so a missing `apiTokens` would fail every call with a TypeError; the spec's required members that
 * the caller left out are filled with empty values (the API client then sends no token).
 */
export function completeEnvironment(environment: Record<string, unknown>): Record<string, unknown> {
  return {
    apiTokens: {},
    secrets: {},
    signingSecrets: {},
    ...environment,
  };
}

function originOf(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.origin === 'null' ? 'https://integrations.quire.invalid' : parsed.origin;
  } catch {
    return 'https://integrations.quire.invalid';
  }
}

function headerValue(headers: Record<string, string>, name: string): string | undefined {
  return Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
}
