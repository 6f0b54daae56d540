import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { ApiError } from './errors.ts';

function body(code: number, message: string) {
  return { error: { code, message } };
}

/** Framework errors that carry a client status, by Fastify error code, with a message that says what to fix. */
const FRAMEWORK_MESSAGES: Record<string, (e: FastifyError, request: FastifyRequest) => string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: () => 'The request body is not valid JSON',
  FST_ERR_CTP_EMPTY_JSON_BODY: () => 'The request body is empty but Content-Type is application/json',
  FST_ERR_CTP_BODY_TOO_LARGE: () => 'The request body is larger than the server accepts (BODY_LIMIT)',
  // An upload takes any media type (features/files/routes.ts), but not a header that names none.
  FST_ERR_CTP_INVALID_MEDIA_TYPE: (e, request) => {
    const declared = request.headers['content-type'];
    return declared !== undefined && !/^[\w!#$&^.+-]+\/[\w!#$&^.+-]+\s*(;.*)?$/.test(declared)
      ? `headers/content-type "${declared}" is not a media type (type/subtype)`
      : `Unsupported Content-Type: send application/json (${e.message})`;
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () => 'Content-Length does not match the body',
};

/**
 * Errors Fastify meets before routing (a path that does not decode, a path segment over maxParamLength) skip
 * the error handler; without this option they would answer in Fastify's own shape. Passed to Fastify().
 */
export function answerFrameworkError(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const status = error.statusCode ?? 400;
  const message =
    error.code === 'FST_ERR_BAD_URL'
      ? 'The path is not a valid URL: it contains a malformed percent-encoding'
      : error.code === 'FST_ERR_MAX_PARAM_LENGTH'
        ? 'A path segment of the URL is too long'
        : error.message;
  void reply.status(status).send(body(status, message));
}

interface AjvIssue {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message?: string;
}

/**
 * A union of shapes told apart by a constant field (content changes by `operation`) fails with one
 * "must be equal to constant" per member. When the field's value is none of them, say so once with the list
 * (when it is one of them, Fastify's message stands: its other errors belong to the members not chosen).
 */
function explainUnionMismatch(error: FastifyError, request: FastifyRequest): string | undefined {
  const issues = (error.validation ?? []) as AjvIssue[];
  const constants = issues.filter((i) => i.keyword === 'const');
  if (constants.length < 2) return undefined;
  const path = constants[0]!.instancePath;
  if (!constants.every((i) => i.instancePath === path)) return undefined;
  const allowed = constants.map((i) => i.params.allowedValue);
  const value = path
    .split('/')
    .slice(1)
    .reduce<unknown>((at, key) => (at && typeof at === 'object' ? (at as Record<string, unknown>)[key.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined), request.body);
  const where = `${error.validationContext ?? 'body'}${path}`;
  if (allowed.includes(value)) return undefined;
  return `${where} must be one of ${allowed.map(String).join(', ')}; got ${JSON.stringify(value) ?? 'nothing'}`;
}

/**
 * Errors of Node's HTTP parser and socket timeouts (an oversized request line or headers, a request line that
 * is not ASCII, a request that did not arrive in time) never reach Fastify's handlers; without this option
 * they would be answered in Fastify's own shape. The connection is closed after the answer: the parser cannot
 * tell where the next request would begin. Passed to Fastify() as `clientErrorHandler`.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (!socket.writable) return void socket.destroy();
  const [status, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'The request line or headers are larger than the server accepts']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'The request did not arrive within the time limit (REQUEST_TIMEOUT_MS)']
        : [400, 'The request is not valid HTTP'];
  const payload = JSON.stringify(body(status, message));
  const reason = STATUS_CODES[status] ?? 'Error';
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(payload)}\r\nConnection: close\r\n\r\n${payload}`);
}

/**
 * One error shape for everything: service errors, schema validation, framework errors, unknown routes and
 * wrong methods. Anything unexpected is logged and answered as a 500 without internals.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  const routes: { method: string; pattern: RegExp }[] = [];
  app.addHook('onRoute', (route) => {
    // CORS answers preflights on every path (`OPTIONS *`); that says nothing about which methods a path has.
    if (route.url === '*') return;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const pattern = new RegExp(
      '^' + route.url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:[A-Za-z0-9_]+/g, '[^/]+').replace(/\\\*$/, '.*') + '/?$',
    );
    for (const method of methods) routes.push({ method, pattern });
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof ApiError) return reply.status(error.statusCode).send({ ...error.details, ...body(error.statusCode, error.message) });
    if (error.validation) {
      // Fastify names the part and the field ("body/title must NOT have more than 50 characters").
      const union = explainUnionMismatch(error, request);
      return reply.status(400).send(body(400, union ?? error.message));
    }
    const explain = error.code ? FRAMEWORK_MESSAGES[error.code] : undefined;
    const status = error.statusCode ?? 500;
    if (explain) return reply.status(status).send(body(status, explain(error, request)));
    if (status >= 400 && status < 500) return reply.status(status).send(body(status, error.message));
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send(body(500, 'Internal server error'));
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const allowed = [...new Set(routes.filter((r) => r.pattern.test(path)).map((r) => r.method))].filter((m) => m !== 'HEAD');
    if (allowed.length > 0) {
      return reply
        .status(405)
        .header('allow', allowed.join(', '))
        .send(body(405, `Method ${request.method} is not allowed on ${path}; allowed: ${allowed.join(', ')}`));
    }
    return reply.status(404).send(body(404, `No route ${request.method} ${path}`));
  });
}
