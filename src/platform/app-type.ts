import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from './context.ts';
import type { JobWorker } from './jobs.ts';

/**
 * The Fastify instance every feature's routes.ts registers on. It lives in platform/, not in app.ts, so that
 * features depend on the platform and app.ts on the features, never the reverse (no import cycle).
 */
export type App = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, TypeBoxTypeProvider>;

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
    jobs: JobWorker;
  }
}
