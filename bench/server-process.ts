import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { serveProcess } from '../src/features/collaboration/processes.test-support.ts';
import { freePort } from '../test/helpers.ts';
import type { BenchServer } from './server.ts';

/*
 * A real `quire serve` process on a bench server's database, started as `npm start` starts it, for the figures a
 * server must give alone in its process: its event loop then carries only its own work, not the bench's clients,
 * and two of them relay through Redis as two deployed processes do. It runs the build in dist/ when that is newer
 * than what src/ builds it from (as the tests do), else src/ through tsx: a stale build would measure code that is gone.
 */

const ROOT = join(import.meta.dirname, '..');

export interface ServerProcess {
  url: string;
  /** `dist/`, or `src/ through tsx`: what the process runs. */
  runs: string;
  /**
   * The longest event-loop delay of the process since the last call, in ms, from its GET /metrics
   * (prom-client's monitorEventLoopDelay, 10 ms resolution, reset at each scrape): a call starts a window.
   */
  loopDelayMax(): Promise<number>;
  close(): Promise<void>;
}

function newestIn(dir: string): number {
  let newest = 0;
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const stat = statSync(path);
    if (stat.isDirectory()) newest = Math.max(newest, newestIn(path));
    else if (!/\.test(-support)?\.ts$/.test(name)) newest = Math.max(newest, stat.mtimeMs);
  }
  return newest;
}

function buildIsFresh(): boolean {
  try {
    return statSync(join(ROOT, 'dist', 'main.js')).mtimeMs > newestIn(join(ROOT, 'src'));
  } catch {
    return false;
  }
}

/** Starts `quire serve` on `server`'s database; resolves once it serves and its loop is quiet (start-up done). */
export async function startServerProcess(server: BenchServer, options: { redisUrl?: string } = {}): Promise<ServerProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const fromSource = !buildIsFresh();
  const env: Record<string, string> = {
    ...server.databaseEnv,
    PORT: String(port),
    // The browsers' Origin: a WebSocket from another origin is refused.
    PUBLIC_URL: url,
    // As startBenchServer: rate limits would measure themselves.
    RATE_LIMIT_MAX: '0',
    RATE_LIMIT_EXPENSIVE_MAX: '0',
    AUTH_FAILURE_LIMIT: '0',
    QUIRE_FROM_SOURCE: fromSource ? '1' : '0',
    ...(options.redisUrl ? { REDIS_URL: options.redisUrl } : {}),
  };
  for (const name of ['METRICS_TOKEN', 'NODE_OPTIONS']) env[name] = '';
  // The flag of `npm start` (docs/operations.md).
  const served = await serveProcess(env, ['--max-semi-space-size=32']);
  try {
    const loopDelayMax = async () => {
      const metrics = await (await fetch(`${url}/metrics`)).text();
      const max = /^quire_nodejs_eventloop_lag_max_seconds (\S+)$/m.exec(metrics)?.[1];
      if (max === undefined) throw new Error(`GET /metrics of ${url} has no event-loop delay`);
      return Number(max) * 1000;
    };
    // The highlighter's grammars load when the server listens (about 2 s of CPU): that start is not the figure.
    const deadline = Date.now() + 90_000;
    while ((await loopDelayMax()) > 20) {
      if (Date.now() > deadline) throw new Error(`quire serve at ${url} was still busy 90 s after starting`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    return { url, runs: fromSource ? 'src/ through tsx' : 'dist/', loopDelayMax, close: () => served.stop() };
  } catch (error) {
    await served.stop();
    throw error;
  }
}
