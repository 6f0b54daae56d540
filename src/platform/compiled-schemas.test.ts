import assert from 'node:assert/strict';
import { test } from 'node:test';
import Fastify from 'fastify';
import { Type } from 'typebox';
import { compilersSharedByApplications } from './compiled-schemas.ts';

const validators = new Set<unknown>();

/** An application whose one route validates its body with `body` and answers it through `reply`. */
async function appWith(compilers: ReturnType<typeof compilersSharedByApplications>, body: object, reply: object) {
  const app = Fastify({ schemaController: { compilersFactory: compilers } });
  app.post('/echo', { schema: { body, response: { 200: reply } } }, async (request) => {
    validators.add(request.getValidationFunction('body'));
    return request.body;
  });
  await app.ready();
  return app;
}

test('schemas built anew by each application, with the same text, share what the first one compiled; other texts do not', async () => {
  const compilers = compilersSharedByApplications();
  const numberBody = () => Type.Object({ a: Type.Number() }, { additionalProperties: false });
  const numberReply = () => Type.Object({ a: Type.Number() });
  const first = await appWith(compilers, numberBody(), numberReply());
  const second = await appWith(compilers, numberBody(), numberReply());
  const strings = await appWith(compilers, Type.Object({ a: Type.String() }, { additionalProperties: false }), Type.Object({ a: Type.String() }));
  try {
    for (const app of [first, second]) {
      assert.equal((await app.inject({ method: 'POST', url: '/echo', payload: { a: 1 } })).json().a, 1);
      assert.equal((await app.inject({ method: 'POST', url: '/echo', payload: { a: 'x' } })).statusCode, 400);
    }
    assert.equal(validators.size, 1, 'the second application validates with the function compiled for the first');
    // A schema of another text is compiled for itself: a string passes where a number was asked elsewhere.
    assert.deepEqual((await strings.inject({ method: 'POST', url: '/echo', payload: { a: 'x' } })).json(), { a: 'x' });
    assert.equal((await strings.inject({ method: 'POST', url: '/echo', payload: { a: 1 } })).statusCode, 400);
    assert.equal(validators.size, 2);
  } finally {
    await Promise.all([first.close(), second.close(), strings.close()]);
  }
});
