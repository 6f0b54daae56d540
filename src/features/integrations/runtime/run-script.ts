import { createHash, createHmac, randomBytes } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { dispatcherRequest } from './dispatch.ts';
import { loadEngine, reportCatastrophe, type Engine, type IvmContext, type IvmExternalCopy, type IvmIsolate } from './isolate-engine.ts';

/**
 * Runs a published integration script (runtime `v1`, the `@gitbook/runtime` contract: a module whose default
 * export has a `fetch(request, env)` handler) for one request: an event delivery or a UI render.
 *
 * The contract between the event/render side and the script runtime (issue 17): callers build the request and
 * the environment; the runtime bounds memory and time and routes every `fetch` of the script through `fetch`.
 *
 * A request whose body is the event JSON is handed to the script as GitBook's dispatcher sends it (a POST to
 * `/v1` with multipart fields `event` and `environment`, see dispatch.ts); a multipart request passes as is.
 * docs/integration-runtime.md describes the sandbox.
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
  /**
   * `memoryMb`: the isolate's heap (default 128). `timeoutMs`: wall time for the whole call, outbound fetches
   * included (default 5000). `cpuMs`: time the script may compute (default 1000).
   */
  limits?: { memoryMb?: number; timeoutMs?: number; cpuMs?: number };
  /** Lines the script logs (console.*), for the event's trace. */
  log?: (level: 'debug' | 'info' | 'warn' | 'error', message: string) => void;
}

export const DEFAULT_LIMITS = { memoryMb: 128, timeoutMs: 5000, cpuMs: 1000 } as const;
/** A script making more requests than this in one call is stopped: one event is not a crawl. */
const MAX_FETCHES_PER_CALL = 50;
/** Trace lines kept per call; the rest are counted in one last line. */
const MAX_LOG_LINES = 200;
/** Isolates alive at once; each may take its memory limit, so the process's worst case stays bounded. */
const MAX_CONCURRENT = 8;

/**
 * The error a call ends with when the script fails or breaks a limit; the message says which, for the trace.
 * `limit` is set when the runtime stopped the script (time, CPU, memory), not when the script threw.
 */
export class ScriptError extends Error {
  constructor(
    message: string,
    readonly limit?: 'timeout' | 'cpu' | 'memory',
  ) {
    super(message);
    this.name = 'ScriptError';
  }
}

export async function runIntegrationScript(call: ScriptCall): Promise<ScriptResponse> {
  const engine = loadEngine();
  const limits = {
    memoryMb: clamp(call.limits?.memoryMb ?? DEFAULT_LIMITS.memoryMb, 8, 1024),
    timeoutMs: clamp(call.limits?.timeoutMs ?? DEFAULT_LIMITS.timeoutMs, 10, 60_000),
    cpuMs: clamp(call.limits?.cpuMs ?? DEFAULT_LIMITS.cpuMs, 10, 60_000),
  };
  await slots.acquire();
  try {
    return await runInIsolate(engine, call, limits);
  } finally {
    slots.release();
  }
}

type Limits = { memoryMb: number; timeoutMs: number; cpuMs: number };

/**
 * One call, one isolate: a fresh heap with its own memory limit, nothing shared with another installation's call,
 * and an isolate that can be thrown away whole when the script overruns (disposing it is the only way to stop
 * code that loops inside a promise continuation). What is shared is compiled code, through V8's code cache.
 */
async function runInIsolate(engine: Engine, call: ScriptCall, limits: Limits): Promise<ScriptResponse> {
  const { ivm } = engine;
  const started = performance.now();
  const isolate = new ivm.Isolate({ memoryLimit: limits.memoryMb, onCatastrophicError: reportCatastrophe });
  let stopped: ScriptError | undefined;
  const stop = (error: ScriptError) => {
    if (stopped || isolate.isDisposed) return;
    stopped = error;
    isolate.dispose();
  };
  let failStopped: (error: ScriptError) => void = () => {};
  const whenStopped = new Promise<never>((_, reject) => {
    failStopped = reject;
  });
  whenStopped.catch(() => {});
  const stopAndFail = (error: ScriptError) => {
    stop(error);
    failStopped(stopped ?? error);
  };
  const wall = setTimeout(() => stopAndFail(new ScriptError(`the integration script did not answer within ${limits.timeoutMs} ms`, 'timeout')), limits.timeoutMs);
  // CPU time only advances while the isolate computes: polled, since V8 has no CPU-time budget of its own.
  const cpuWatch = setInterval(() => {
    if (isolate.isDisposed) return;
    if (Number(isolate.cpuTime) / 1e6 > limits.cpuMs) stopAndFail(new ScriptError(`the integration script used more than ${limits.cpuMs} ms of CPU`, 'cpu'));
  }, 10);
  const log = boundedLog(call.log);
  try {
    const work = (async () => {
      const context = await isolate.createContext();
      await runPrelude(engine, isolate, context, limits);
      await installHost(engine, context, call, log, () => limits.timeoutMs - (performance.now() - started));
      const loaded = await loadScript(isolate, context, call.script, limits);
      const request = dispatcherRequest(call.request, call.environment);
      const answer = await context.evalClosure(
        `const handler = ${loaded.handler};
         if (!handler || typeof handler.fetch !== 'function') throw new TypeError('the script exports no fetch(request, env) handler: its default export must be the object createIntegration() returns');
         return __quireDispatch(handler, $1, $2);`,
        [loaded.namespace, JSON.stringify(request), JSON.stringify(call.environment)],
        { result: { promise: true, copy: true }, timeout: limits.cpuMs },
      );
      return parseAnswer(answer);
    })();
    // Once the isolate is stopped, `work` rejects later too: handled here, so it is never an unhandled rejection.
    work.catch(() => {});
    return await Promise.race([work, whenStopped]);
  } catch (error) {
    if (stopped) throw stopped;
    if (isolate.isDisposed || /memory limit|disposed/i.test(messageOf(error))) {
      throw new ScriptError(`the integration script ran out of memory (limit ${limits.memoryMb} MB)`, 'memory');
    }
    if (/timed out/i.test(messageOf(error))) {
      throw new ScriptError(`the integration script used more than ${limits.cpuMs} ms of CPU`, 'cpu');
    }
    throw new ScriptError(`the integration script failed: ${messageOf(error)}`);
  } finally {
    clearTimeout(wall);
    clearInterval(cpuWatch);
    log.flush();
    if (!isolate.isDisposed) isolate.dispose();
  }
}

async function runPrelude(engine: Engine, isolate: IvmIsolate, context: IvmContext, limits: Limits): Promise<void> {
  const cached = preludeCache.get(engine.version);
  const script = await isolate.compileScript(engine.prelude, {
    filename: 'quire:sandbox-prelude.js',
    ...(cached ? { cachedData: cached } : { produceCachedData: true }),
  });
  if (!cached && script.cachedData) preludeCache.set(engine.version, script.cachedData);
  await script.run(context, { timeout: limits.cpuMs, release: true });
}
const preludeCache = new Map<string, IvmExternalCopy>();

/**
 * The host side of the sandbox's globals (sandbox-prelude.js): console lines, outbound fetches through the
 * caller's fetcher, timers bounded by the call's remaining time, random bytes and the hashes crypto.subtle needs.
 */
async function installHost(
  engine: Engine,
  context: IvmContext,
  call: ScriptCall,
  log: BoundedLog,
  remainingMs: () => number,
): Promise<void> {
  const { ivm } = engine;
  let fetches = 0;
  const fetchRef = new ivm.Reference(async (json: string): Promise<string> => {
    fetches += 1;
    if (fetches > MAX_FETCHES_PER_CALL) throw new Error(`more than ${MAX_FETCHES_PER_CALL} requests in one call`);
    const request = JSON.parse(json) as ScriptRequest;
    const response = await call.fetch(request);
    return JSON.stringify({ status: response.status, headers: response.headers, body: response.body });
  });
  const sleepRef = new ivm.Reference(
    (ms: number) =>
      new Promise<void>((resolve) => {
        // A timer longer than the call can last never fires: the call ends first.
        const timer = setTimeout(resolve, Math.min(Math.max(0, ms), Math.max(0, remainingMs())));
        timer.unref();
      }),
  );
  await context.evalClosure(
    `__quireInstall({
       log: $0,
       fetch: (json) => $1.apply(undefined, [json], { arguments: { copy: true }, result: { promise: true, copy: true } }),
       sleep: (ms) => $2.apply(undefined, [ms], { arguments: { copy: true }, result: { promise: true } }),
       random: $3, digest: $4, hmac: $5,
     });`,
    [
      // Synchronous, so every line is in before the call ends (an ignored callback runs later, maybe after the isolate is gone).
      new ivm.Callback((level: string, message: string) => log.write(level, message)),
      fetchRef,
      sleepRef,
      new ivm.Callback((n: number) => randomBytes(clamp(Math.floor(n), 0, 65536)).toString('base64')),
      new ivm.Callback((algorithm: string, data: string) => createHash(algorithm).update(Buffer.from(data, 'base64')).digest('base64')),
      new ivm.Callback((algorithm: string, key: string, data: string) =>
        createHmac(algorithm, Buffer.from(key, 'base64')).update(Buffer.from(data, 'base64')).digest('base64'),
      ),
    ],
  );
}

/**
 * Compiles and evaluates the script in the context, and answers the expression that names its handler in the
 * dispatch closure (with the module's namespace, moved into the context, as its `$0`). A bundled ES module (what `gitbook publish` builds) gives its default export; a classic
 * script gives the global its bundler named (`__gitbook_integration`, the CLI's `globalName`).
 */
async function loadScript(
  isolate: IvmIsolate,
  context: IvmContext,
  source: string,
  limits: Limits,
): Promise<{ handler: string; namespace: unknown }> {
  const hash = createHash('sha256').update(source).digest('hex');
  const cached = codeCache.get(hash);
  const compileOptions = { filename: `integration:${hash.slice(0, 12)}.js`, ...(cached ? { cachedData: cached.data } : { produceCachedData: true }) };
  if (isModule(source)) {
    const module = await isolate.compileModule(source, compileOptions);
    if (!cached && module.cachedData) remember(hash, module.cachedData);
    await module.instantiate(context, (specifier) => {
      throw new Error(`integration scripts cannot import modules ("${specifier}"): bundle every dependency into the script`);
    });
    await module.evaluate({ timeout: limits.cpuMs });
    return { handler: '$0 && $0.default', namespace: module.namespace.derefInto() };
  }
  const script = await isolate.compileScript(source, compileOptions);
  if (!cached && script.cachedData) remember(hash, script.cachedData);
  await script.run(context, { timeout: limits.cpuMs, release: true });
  return {
    handler: `(typeof __gitbook_integration === 'object' && __gitbook_integration !== null ? (__gitbook_integration.default || __gitbook_integration) : undefined)`,
    namespace: undefined,
  };
}

/** An ES module has an export statement at the top level; a classic script (an IIFE bundle) has none. */
function isModule(source: string): boolean {
  return /(^|[\n;}])\s*export\s*(\{|\*|default\b|const\b|let\b|var\b|function\b|class\b|async\b)/.test(source);
}

/**
 * V8's code cache per script content (SHA-256), shared by every isolate: the first call of a script compiles it
 * and later calls skip parsing. Bounded by bytes, least recently used out first.
 */
const codeCache = new LRUCache<string, { data: IvmExternalCopy; size: number }>({
  maxSize: 64 * 1024 * 1024,
  sizeCalculation: (entry) => Math.max(1, entry.size),
});
function remember(hash: string, data: IvmExternalCopy): void {
  codeCache.set(hash, { data, size: data.copy().byteLength });
}

function parseAnswer(answer: unknown): ScriptResponse {
  if (typeof answer !== 'string') throw new Error('the script gave no answer');
  const parsed = JSON.parse(answer) as ScriptResponse;
  return { status: parsed.status, headers: parsed.headers, body: parsed.body };
}

type BoundedLog = { write: (level: string, message: string) => void; flush: () => void };
function boundedLog(sink: ScriptCall['log']): BoundedLog {
  let lines = 0;
  let dropped = 0;
  return {
    write(level, message) {
      if (!sink) return;
      if (lines >= MAX_LOG_LINES) {
        dropped += 1;
        return;
      }
      lines += 1;
      const known = level === 'debug' || level === 'warn' || level === 'error' ? level : 'info';
      sink(known, message);
    },
    flush() {
      if (sink && dropped > 0) sink('warn', `${dropped} more log lines dropped (at most ${MAX_LOG_LINES} per call)`);
    },
  };
}

/** A counting semaphore: calls beyond MAX_CONCURRENT wait their turn. */
const slots = (() => {
  let free = MAX_CONCURRENT;
  const waiting: Array<() => void> = [];
  return {
    acquire(): Promise<void> {
      if (free > 0) {
        free -= 1;
        return Promise.resolve();
      }
      return new Promise((resolve) => waiting.push(resolve));
    },
    release(): void {
      const next = waiting.shift();
      if (next) next();
      else free += 1;
    },
  };
})();

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, Number.isFinite(value) ? value : min));
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
