import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { listenOnRandomPort, startServer, type TestServer } from '../../test/helpers.ts';

/** Sends raw bytes and returns what the server wrote back before closing the connection. */
function raw(port: number, request: string | Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.write(request);
  });
}

function parse(answer: string): { status: number; body: unknown } {
  const [head = '', payload = ''] = answer.split('\r\n\r\n');
  return { status: Number(head.split(' ')[1]), body: JSON.parse(payload) };
}

// Issue 14: errors of the HTTP parser used to answer in Fastify's shape ({"error":"Bad Request",…}).
describe('errors of the HTTP parser answer in the error shape', () => {
  let t: TestServer;
  let port: number;
  before(async () => {
    t = await startServer();
    port = Number(new URL(await listenOnRandomPort(t)).port);
  });
  after(() => t.close());

  test('an oversized request line is a 431', async () => {
    const { status, body } = parse(await raw(port, `GET /v1/${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`));
    assert.equal(status, 431);
    assert.deepEqual(body, { error: { code: 431, message: 'The request line or headers are larger than the server accepts' } });
  });

  test('a request line that is not ASCII is a 400', async () => {
    const { status, body } = parse(await raw(port, Buffer.from('GET /v1/caf\u00e9\u0000 HTTP/1.1\r\nHost: x\r\n\r\n', 'latin1')));
    assert.equal(status, 400);
    assert.deepEqual(body, { error: { code: 400, message: 'The request is not valid HTTP' } });
  });

  test('timeouts and the connection cap come from the configuration', () => {
    assert.equal(t.app.server.requestTimeout, t.config.requestTimeoutMs);
    assert.ok(t.app.server.headersTimeout <= t.config.requestTimeoutMs);
    assert.equal(t.app.server.maxConnections, t.config.maxConnections);
  });
});
