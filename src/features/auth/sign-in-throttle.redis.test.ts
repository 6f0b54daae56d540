import assert from 'node:assert/strict';
import { randomInt, randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { Redis } from 'ioredis';
import { buildApp } from '../../app.ts';
import { startServer, type TestServer } from '../../../test/helpers.ts';
import { createLink } from './links.ts';
import { FAILURES_PER_EMAIL, RedisSignInThrottle } from './sign-in-throttle.ts';

// The local Redis (127.0.0.1:6379, `service redis-server start`). Keys carry a fresh prefix or e-mail per test,
// so runs within one window do not see each other's failures.
const REDIS_URL = 'redis://127.0.0.1:6379';
const limits = { perEmail: 3, perAddress: 5, windowMs: 60_000 };
const someAddress = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

describe('the sign-in throttle shared through Redis', { timeout: 60_000 }, () => {
  const connections: Redis[] = [];
  const connect = () => {
    const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
    connections.push(redis);
    return redis;
  };
  after(async () => {
    for (const redis of connections) redis.disconnect();
  });

  test('failures counted by one process refuse the next attempt in another', async () => {
    const prefix = `quire-test-${randomUUID()}:`;
    const one = new RedisSignInThrottle(connect(), limits, undefined, prefix);
    const two = new RedisSignInThrottle(connect(), limits, undefined, prefix);
    await one.failed('a@x.test', '1.1.1.1', 0);
    await two.failed('a@x.test', '2.2.2.2', 0);
    assert.equal(await one.waitMs('a@x.test', '3.3.3.3', 0), 0, 'two failures of three: still allowed');
    await one.failed('a@x.test', '1.1.1.1', 0);
    const wait = await two.waitMs('a@x.test', '4.4.4.4', 0);
    assert.ok(wait > 59_000 && wait <= 60_000, `the wait is what is left of the window (${wait} ms)`);
    assert.equal(await two.waitMs('b@x.test', '4.4.4.4', 0), 0, 'another e-mail is not refused');

    await two.succeeded('a@x.test');
    assert.equal(await one.waitMs('a@x.test', '4.4.4.4', 0), 0, 'a right password clears the e-mail for every process');
  });

  test('an address is refused everywhere after its failures, whatever the e-mail', async () => {
    const prefix = `quire-test-${randomUUID()}:`;
    const one = new RedisSignInThrottle(connect(), limits, undefined, prefix);
    const two = new RedisSignInThrottle(connect(), limits, undefined, prefix);
    for (let i = 0; i < 5; i += 1) await (i % 2 ? one : two).failed(`u${i}@x.test`, '9.9.9.9', 0);
    assert.ok((await one.waitMs('new@x.test', '9.9.9.9', 0)) > 0);
    assert.equal(await two.waitMs('new@x.test', '8.8.8.8', 0), 0);
  });

  test('the window ends when its first failure is older than the window', async () => {
    const prefix = `quire-test-${randomUUID()}:`;
    const throttle = new RedisSignInThrottle(connect(), { ...limits, windowMs: 300 }, undefined, prefix);
    for (let i = 0; i < 3; i += 1) await throttle.failed('c@x.test', '1.1.1.1', 0);
    assert.ok((await throttle.waitMs('c@x.test', '1.1.1.1', 0)) > 0);
    await new Promise((resolve) => setTimeout(resolve, 400));
    assert.equal(await throttle.waitMs('c@x.test', '1.1.1.1', 0), 0);
  });

  test('when Redis does not answer, the process counts alone and still refuses', async () => {
    const down = new Redis('redis://127.0.0.1:1', { maxRetriesPerRequest: 0, retryStrategy: () => null, lazyConnect: true });
    down.on('error', () => {});
    const warnings: unknown[] = [];
    const throttle = new RedisSignInThrottle(down, limits, (error) => warnings.push(error));
    for (let i = 0; i < 3; i += 1) await throttle.failed('d@x.test', '1.1.1.1', 1000);
    assert.equal(await throttle.waitMs('d@x.test', '1.1.1.1', 1000), 60_000);
    assert.ok(warnings.length > 0, 'the outage is reported');
    down.disconnect();
  });
});

describe('sign-in through two servers sharing REDIS_URL', { timeout: 120_000 }, () => {
  let t: TestServer;
  before(async () => {
    t = await startServer({ env: { REDIS_URL } });
  });
  after(async () => t.close());

  test('wrong passwords sent to either server add up to one limit', async () => {
    const two = await buildApp({ config: t.config, db: t.db, clock: t.clock });
    try {
      const person = await t.member('edit');
      const link = await createLink(t.app.ctx, t.db, { kind: 'first-start', userId: person.userId });
      const token = link.url.slice(link.url.lastIndexOf('/') + 1);
      assert.equal((await t.app.inject({ method: 'POST', url: `/v1/auth/links/${token}`, payload: { password: 'the right password' } })).statusCode, 200);
      const email = person.email;
      const remoteAddress = someAddress();
      const signIn = (app: typeof two, password: string) => app.inject({ method: 'POST', url: '/v1/auth/sign-in', remoteAddress, payload: { email, password } });
      for (let i = 0; i < FAILURES_PER_EMAIL; i += 1) assert.equal((await signIn(i % 2 ? two : t.app, 'a wrong password')).statusCode, 401);
      for (const app of [t.app, two]) {
        const refused = await signIn(app, 'the right password');
        assert.equal(refused.statusCode, 429, 'even the right password waits, on both servers');
        assert.match(refused.json().error.message, /Too many failed sign-ins/);
      }
    } finally {
      await two.close();
    }
  });
});
