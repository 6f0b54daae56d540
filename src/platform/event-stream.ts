import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from './errors.ts';

/**
 * Server-sent events as the official client's `streamRequest` reads them: each event's data one JSON value,
 * then `event: done`; a failure after the stream began is `event: error` with `{ error: { code, message } }`
 * (its status was already sent). Fastify's reply is taken over (no serializer runs on a stream), keeping the
 * headers its hooks set (CORS, security headers, rate limits). The producer's signal aborts when the client
 * goes away, so that a model stops writing an answer nobody reads.
 */
export async function sendEventStream(request: FastifyRequest, reply: FastifyReply, produce: (signal: AbortSignal) => AsyncIterable<unknown>): Promise<void> {
  const headers: Record<string, string | number | string[]> = {};
  for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined && name !== 'content-length') headers[name] = value;
  reply.hijack();
  const res = reply.raw;
  const abort = new AbortController();
  res.on('close', () => {
    if (!res.writableEnded) abort.abort();
  });
  res.writeHead(200, {
    ...headers,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    // A proxy in front (nginx) would otherwise buffer the answer until it is complete.
    'x-accel-buffering': 'no',
  });
  try {
    for await (const event of produce(abort.signal)) {
      if (abort.signal.aborted) break;
      res.write(`data: ${JSON.stringify(event)}\n\n`);
    }
    if (!abort.signal.aborted) res.write('event: done\ndata: {}\n\n');
  } catch (error) {
    if (!abort.signal.aborted) {
      const code = error instanceof ApiError ? error.statusCode : 500;
      const message = error instanceof ApiError ? error.message : 'The stream failed';
      if (!(error instanceof ApiError)) request.log.error({ err: error }, 'event stream failed');
      res.write(`event: error\ndata: ${JSON.stringify({ error: { code, message } })}\n\n`);
    }
  } finally {
    res.end();
  }
}
