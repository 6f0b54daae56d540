/**
 * Runs a published integration script (runtime `v1`, the `@gitbook/runtime` contract: a module whose default
 * export has a `fetch(request, env)` handler) for one request: an event delivery or a UI render.
 *
 * The contract between the event/render side and the script runtime (issue 17): callers build the request and
 * the environment; the runtime bounds memory and time and routes every `fetch` of the script through `fetch`.
 */
export interface ScriptRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string;
}

export interface ScriptResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface ScriptCall {
  script: string;
  request: ScriptRequest;
  /** What the script sees as its environment: integration, installation and its configuration, API endpoint and token, secrets. */
  environment: Record<string, unknown>;
  /** Every outbound request of the script goes through this (the SSRF-safe fetcher). */
  fetch: (request: ScriptRequest) => Promise<ScriptResponse>;
  limits?: { memoryMb?: number; timeoutMs?: number };
  /** Lines the script logs (console.*), for the event's trace. */
  log?: (level: 'debug' | 'info' | 'warn' | 'error', message: string) => void;
}

export async function runIntegrationScript(call: ScriptCall): Promise<ScriptResponse> {
  void call;
  throw new Error('integration scripts cannot run yet: the isolate runtime is being built (issue 17)');
}
