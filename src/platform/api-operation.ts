import type { Static, TSchema } from 'typebox';
import type { App } from './app-type.ts';
import { callerOf } from './auth.ts';
import type { AppContext, Caller } from './context.ts';
import { errors, NoContent } from './schemas.ts';

/*
 * Most operations of the API have one shape: a method and a URL, the official operation id with a summary,
 * TypeBox schemas for the request's parts, one success status and the errors it may answer, and a service
 * called as the request's caller. A routes file lists its operations with `apiOperation` and registers them
 * with `registerOperations`, so it states only what differs between them. An operation that needs more (two
 * success statuses, a documented body looser than the validated one) registers itself with app.get/post/... as
 * before.
 */

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface ApiOperation<P extends TSchema, Q extends TSchema, B extends TSchema, R extends TSchema> {
  method: Method;
  url: string;
  operationId: string;
  summary: string;
  /** Fields of the schema kept as they are, e.g. `'x-quire-extension': true` for an operation of our own. */
  documentation?: Record<string, unknown>;
  /** Absent for an operation without path parameters. */
  params?: P;
  querystring?: Q;
  body?: B;
  /** The largest body accepted, when an operation takes more than the server's default (e.g. inline images). */
  bodyLimit?: number;
  /** 200 unless said; a 204 or a 205 answers no body, whatever `run` returns. */
  status?: 200 | 201 | 204 | 205;
  /** The body of the success (absent for a 204). */
  response?: R;
  /** The error statuses the operation may answer, each in our error shape. */
  errors: readonly number[];
  /**
   * Response headers taken from the result, e.g. the `location` of what a 201 created; the request is there
   * for what the result does not hold (a site-space's location is under the site named by the path).
   */
  headers?(result: Static<R>, request: OperationRequest<P, Q, B>): Record<string, string>;
  // A method, not a property: a list of operations of different request types is then one array type.
  run(ctx: AppContext, caller: Caller, request: OperationRequest<P, Q, B>): Promise<Static<R> | void>;
}

/** The validated parts of a request, as `run` and `headers` see them. */
interface OperationRequest<P extends TSchema, Q extends TSchema, B extends TSchema> {
  params: Static<P>;
  query: Static<Q>;
  body: Static<B>;
}

/** One operation, with the request's types inferred from its schemas for `run`. */
export function apiOperation<P extends TSchema, Q extends TSchema = TSchema, B extends TSchema = TSchema, R extends TSchema = TSchema>(
  operation: ApiOperation<P, Q, B, R>,
): ApiOperation<P, Q, B, R> {
  return operation;
}

export function registerOperations(app: App, tags: readonly string[], operations: readonly ApiOperation<TSchema, TSchema, TSchema, TSchema>[]): void {
  for (const operation of operations) {
    const status = operation.status ?? 200;
    const noContent = status === 204 || status === 205;
    app.route({
      method: operation.method,
      url: operation.url,
      ...(operation.bodyLimit ? { bodyLimit: operation.bodyLimit } : {}),
      schema: {
        operationId: operation.operationId,
        ...operation.documentation,
        tags: [...tags],
        summary: operation.summary,
        ...(operation.params ? { params: operation.params } : {}),
        ...(operation.querystring ? { querystring: operation.querystring } : {}),
        ...(operation.body ? { body: operation.body } : {}),
        response: { [status]: noContent ? NoContent : operation.response, ...errors(...operation.errors) },
      },
      handler: async (request, reply) => {
        const parts = { params: request.params, query: request.query, body: request.body };
        const result = await operation.run(app.ctx, callerOf(request), parts);
        if (operation.headers) reply.headers(operation.headers(result as Static<TSchema>, parts));
        return noContent ? reply.status(status).send() : reply.status(status).send(result);
      },
    });
  }
}
