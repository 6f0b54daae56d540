import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MemorySignInThrottle } from './sign-in-throttle.ts';

const limits = { perEmail: 3, perAddress: 5, windowMs: 1000 };

describe('sign-in throttle', () => {
  test('an e-mail is refused after its failures, until the window ends', async () => {
    const throttle = new MemorySignInThrottle(limits);
    for (let i = 0; i < 3; i += 1) {
      assert.equal(await throttle.waitMs('a@x', '1.1.1.1', 100), 0);
      await throttle.failed('a@x', '1.1.1.1', 100);
    }
    assert.equal(await throttle.waitMs('a@x', '1.1.1.1', 100), 1000);
    assert.equal(await throttle.waitMs('a@x', '2.2.2.2', 600), 500, 'from another address too');
    assert.equal(await throttle.waitMs('b@x', '2.2.2.2', 600), 0, 'another e-mail is not refused');
    assert.equal(await throttle.waitMs('a@x', '1.1.1.1', 1100), 0, 'a new window');
  });

  test('an address is refused after its failures, whatever the e-mail', async () => {
    const throttle = new MemorySignInThrottle(limits);
    for (let i = 0; i < 5; i += 1) await throttle.failed(`u${i}@x`, '9.9.9.9', 0);
    assert.equal(await throttle.waitMs('new@x', '9.9.9.9', 10), 990);
    assert.equal(await throttle.waitMs('new@x', '8.8.8.8', 10), 0);
  });

  test('a success clears the e-mail’s failures but not the address’s', async () => {
    const throttle = new MemorySignInThrottle(limits);
    for (let i = 0; i < 3; i += 1) await throttle.failed('a@x', '1.1.1.1', 0);
    await throttle.succeeded('a@x');
    assert.equal(await throttle.waitMs('a@x', '3.3.3.3', 1), 0);
    for (let i = 0; i < 2; i += 1) await throttle.failed('c@x', '1.1.1.1', 0);
    assert.ok(await throttle.waitMs('z@x', '1.1.1.1', 1) > 0);
  });
});
