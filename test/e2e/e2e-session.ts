import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { listenOnRandomPort, startServer, type TestServer } from '../helpers.ts';
import { latestClient, officialClient, type LatestClient, type OfficialClient } from './gitbook-client.ts';
import { OfficialSpec, SpecViolation, specCheckedFetch, type CheckedExchange } from './spec-validator.ts';

/**
 * The set-up an end-to-end file shares, called inside its `describe`: a server on a random port (started
 * before the tests, closed after; `env` as for startServer), the official client over a fetch that checks every
 * exchange against the official spec, and the closing check that the file's operations all answered a success
 * and conformed. A file with servers of its own (a git server, fixtures) starts them in its own hooks.
 */
export interface E2eSession {
  /** The server (valid once the tests run). */
  readonly t: TestServer;
  /** Its base URL, without `/v1`. */
  readonly endpoint: string;
  /** Every exchange so far, with the spec's complaints about it. */
  readonly log: CheckedExchange[];
  /** The official client as `token`'s holder (default: the bootstrap admin; null: no token). */
  client(token?: string | null): OfficialClient;
  /** The newest official client (0.202.0), for operations the pinned one does not have. */
  latest(token?: string | null): LatestClient;
  /** No exchange broke the spec, and each of `operations` answered a success at least once. */
  assertConformed(operations: readonly string[]): void;
}

export function e2eSession(options: { env?: Record<string, string> } = {}): E2eSession {
  let server: TestServer | undefined;
  let endpoint = '';
  const log: CheckedExchange[] = [];
  const checkedFetch = specCheckedFetch(OfficialSpec.load(), log);
  before(async () => {
    server = await startServer(options);
    endpoint = await listenOnRandomPort(server);
  });
  after(() => closeServer(server), { timeout: 30_000 });
  return {
    get t() {
      if (!server) throw new Error('The e2e server starts before the tests: use it inside a test');
      return server;
    },
    get endpoint() {
      return endpoint;
    },
    log,
    client(token = server!.admin.token) {
      return officialClient({ endpoint, ...(token ? { authToken: token } : {}), serviceBinding: { fetch: checkedFetch } });
    },
    latest(token = server!.admin.token) {
      return latestClient({ endpoint, ...(token ? { authToken: token } : {}), serviceBinding: { fetch: checkedFetch } });
    },
    assertConformed(operations) {
      const violations = log.filter((entry) => entry.problems.length > 0);
      assert.deepEqual(violations.map((v) => new SpecViolation(v).message), []);
      const succeeded = new Set(log.filter((entry) => entry.status < 300).map((entry) => entry.operationId));
      assert.deepEqual(operations.filter((op) => !succeeded.has(op)), [], 'operations never answered with a success');
    },
  };
}

/**
 * Closes the file's server. A connection still busy 5 s after the close began is cut, saying so. Seen when a test
 * file using jsdom ran earlier in the same process (reader-script, then the fonts' download): loading jsdom's
 * undici 7 makes its Agent the global dispatcher of Node's own fetch (undici 6; jsdom issue 4047), and that pair
 * left a read response's connection busy on the server, holding the close past the hook's limit.
 */
async function closeServer(server: TestServer | undefined): Promise<void> {
  if (!server) return;
  const busy = setTimeout(() => {
    console.error('# e2e-session: a connection was still busy 5 s after the server began closing; cut');
    server.app.server.closeAllConnections();
  }, 5_000);
  try {
    await server.close();
  } finally {
    clearTimeout(busy);
  }
}
