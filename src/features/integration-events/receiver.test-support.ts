import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/*
 * An integration's endpoint for tests: a node:http server on 127.0.0.1 that records every request it gets and
 * answers what the test tells it. It can go down (stop listening: connections are refused) and come back on
 * the same port, as a receiver restarting does.
 */

export interface ReceivedRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** Milliseconds of the real clock when it arrived. */
  at: number;
}

export type Answer = { status: number; body?: unknown; delayMs?: number };

export interface Receiver {
  readonly url: string;
  readonly received: ReceivedRequest[];
  /** The answer to every request from now on (default 200 `{}`), or a function of the request. */
  answer(answer: Answer | ((request: ReceivedRequest) => Answer)): void;
  down(): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: ReceivedRequest[] = [];
  let respond: (request: ReceivedRequest) => Answer = () => ({ status: 200, body: {} });
  const sockets = new Set<Socket>();
  const make = () => {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const request = { path: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
        received.push(request);
        const answer = respond(request);
        const send = () => {
          res.writeHead(answer.status, { 'content-type': 'application/json' });
          res.end(answer.body === undefined ? '' : typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body));
        };
        if (answer.delayMs) setTimeout(send, answer.delayMs);
        else send();
      });
    });
    server.on('connection', (socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    return server;
  };
  let server: Server | undefined = make();
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const stop = async () => {
    if (!server) return;
    const closing = server;
    server = undefined;
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => closing.close(() => resolve()));
  };
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    answer(answer) {
      respond = typeof answer === 'function' ? answer : () => answer;
    },
    down: stop,
    async up() {
      if (server) return;
      server = make();
      await new Promise<void>((resolve) => server!.listen(port, '127.0.0.1', resolve));
    },
    close: stop,
  };
}
