import type { FastifyReply } from 'fastify';

/**
 * Sends JSON text that the route's own response serializer wrote earlier (an answer kept by a read cache):
 * Fastify sends a string with a JSON content type as it is, without serializing it again. The typed reply
 * expects the object, hence the cast.
 */
export function sendJsonText(reply: FastifyReply, json: string): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(json as never);
}
