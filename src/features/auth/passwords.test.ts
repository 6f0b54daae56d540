// @sqlite-run-only: password hashing only; no database.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { dummyHash, hashPassword, verifyPassword } from './passwords.ts';

describe('password hashes', () => {
  test('a password verifies against its own hash and no other', async () => {
    const stored = await hashPassword('correct horse battery');
    assert.match(stored, /^scrypt\$16384\$8\$5\$[\w-]{22}\$[\w-]{43}$/);
    assert.equal(await verifyPassword('correct horse battery', stored), true);
    assert.equal(await verifyPassword('correct horse batterY', stored), false);
    assert.equal(await verifyPassword('', stored), false);
  });

  test('the same password hashes differently each time (a salt of its own)', async () => {
    const [a, b] = await Promise.all([hashPassword('same password'), hashPassword('same password')]);
    assert.notEqual(a, b);
    assert.equal(await verifyPassword('same password', b), true);
  });

  test('the hash never holds the password', async () => {
    const stored = await hashPassword('hunter2hunter2');
    assert.ok(!stored.includes('hunter2'));
  });

  test('a stored value of another format never verifies', async () => {
    for (const stored of ['', 'plain', 'bcrypt$x$y', 'scrypt$16384$8$5$$']) assert.equal(await verifyPassword('plain', stored), false);
  });

  test('Unicode forms of one password are one password', async () => {
    const stored = await hashPassword('caf\u00e9 au lait');
    assert.equal(await verifyPassword('cafe\u0301 au lait', stored), true);
  });

  test('the dummy hash matches no password and is made once', async () => {
    assert.equal(await dummyHash(), await dummyHash());
    assert.equal(await verifyPassword('password', await dummyHash()), false);
  });
});
