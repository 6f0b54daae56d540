import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { assertApiError } from '../../test/assertions.ts';
import { Cursors, MAX_PAGE_SIZE } from './pagination.ts';

/** A cursor or limit refused as a 400 that names the query parameter. */
const assertRefused = (run: () => unknown, mentions = 'querystring/page') => assertApiError(run, 400, mentions);

describe('page cursors', () => {
  const cursors = new Cursors('test-secret');

  test('a cursor decodes to the position it was made from', () => {
    for (const position of [['2026-01-05T10:00:00.000Z', 'abc'], [1, 'x'], ['with.dots', 'ünïcödé 🎉'], [], [0, -1.5, '']]) {
      assert.deepEqual(cursors.decode('orgs:u1', cursors.encode('orgs:u1', position)), position);
    }
  });

  test('a cursor is opaque text that survives a query string', () => {
    const page = cursors.encode('orgs:u1', ['2026-01-05T10:00:00.000Z', 'id/with?odd&chars']);
    assert.match(page, /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    assert.ok(!page.includes('2026'), 'the position is not readable as is');
  });

  test('a cursor of another list is refused', async () => {
    const page = cursors.encode('orgs:u1', ['a', 'b']);
    await assertRefused(() => cursors.decode('orgs:u2', page));
    await assertRefused(() => cursors.decode('spaces:o1', page));
  });

  test('a cursor signed with another secret is refused', async () => {
    const page = new Cursors('another-secret').encode('orgs:u1', ['a', 'b']);
    await assertRefused(() => cursors.decode('orgs:u1', page));
  });

  test('a tampered body or signature is refused', async () => {
    const page = cursors.encode('orgs:u1', ['a', 'b']);
    const [body, signature] = page.split('.') as [string, string];
    const forgedBody = Buffer.from(JSON.stringify(['a', 'c'])).toString('base64url');
    await assertRefused(() => cursors.decode('orgs:u1', `${forgedBody}.${signature}`));
    const flipped = signature[0] === 'A' ? `B${signature.slice(1)}` : `A${signature.slice(1)}`;
    await assertRefused(() => cursors.decode('orgs:u1', `${body}.${flipped}`));
    await assertRefused(() => cursors.decode('orgs:u1', `${body}.${signature.slice(1)}`));
    await assertRefused(() => cursors.decode('orgs:u1', `${body}.${signature}x`));
    await assertRefused(() => cursors.decode('orgs:u1', `${body}.${signature}.${signature}`));
    await assertRefused(() => cursors.decode('orgs:u1', `${body}.`));
    await assertRefused(() => cursors.decode('orgs:u1', `.${signature}`));
  });

  test('garbage is refused with a 400 ApiError, never a crash', async () => {
    for (const garbage of ['', '.', '..', 'abc', 'abc.def', '%%%.%%%', '\u0000', 'é'.repeat(22) + '.' + 'é'.repeat(22), 'x'.repeat(100_000), '{"a":1}.sig']) {
      await assertRefused(() => cursors.decode('orgs:u1', garbage));
    }
  });

  test('a validly signed body that is not a list of strings and numbers is refused', async () => {
    // Only reachable with the secret, but decode must still not hand odd values to SQL.
    for (const position of [{ a: 1 }, [null], [true], [['nested']], 'text']) {
      const body = Buffer.from(JSON.stringify(position)).toString('base64url');
      const honest = (cursors as unknown as { sign(listKey: string, body: string): string }).sign('orgs:u1', body);
      await assertRefused(() => cursors.decode('orgs:u1', `${body}.${honest}`));
    }
  });

  describe('open', () => {
    test('no page means the first page, with the default limit', () => {
      assert.deepEqual(cursors.open('l', {}, 50), { after: undefined, limit: 50 });
      assert.deepEqual(cursors.open('l', { page: '' }, 50), { after: undefined, limit: 50 });
      assert.deepEqual(cursors.open('l', { limit: 7 }, 50), { after: undefined, limit: 7 });
    });

    test('a page resumes after its position', () => {
      const page = cursors.encode('l', ['t', 'id']);
      assert.deepEqual(cursors.open('l', { page, limit: 2 }, 50), { after: ['t', 'id'], limit: 2 });
    });

    test('a limit outside 1..1000, or not a finite integer, is refused', async () => {
      for (const limit of [0, -1, MAX_PAGE_SIZE + 1, Infinity, -Infinity, NaN, 1.5]) {
        await assertRefused(() => cursors.open('l', { limit }, 50), 'querystring/limit');
      }
      assert.equal(cursors.open('l', { limit: MAX_PAGE_SIZE }, 50).limit, MAX_PAGE_SIZE);
    });
  });

  describe('close', () => {
    const rows = [1, 2, 3, 4, 5].map((n) => ({ id: `r${n}`, n }));
    const keyOf = (row: { id: string; n: number }) => [row.n, row.id] as const;
    const present = (row: { id: string }) => row.id;

    test('the extra row only tells that a next page exists', () => {
      const request = { after: undefined, limit: 2 };
      const envelope = cursors.close('l', request, rows.slice(0, 3), 5, keyOf, present);
      assert.deepEqual(envelope.items, ['r1', 'r2']);
      assert.equal(envelope.count, 5);
      assert.ok(envelope.next);
      assert.deepEqual(cursors.decode('l', envelope.next.page), [2, 'r2']);
    });

    test('the last page has no next', () => {
      const envelope = cursors.close('l', { after: undefined, limit: 2 }, rows.slice(3, 5), 5, keyOf, present);
      assert.deepEqual(envelope, { count: 5, items: ['r4', 'r5'] });
      assert.ok(!('next' in envelope));
    });

    test('an empty list is an empty envelope', () => {
      assert.deepEqual(cursors.close('l', { after: undefined, limit: 10 }, [], 0, keyOf, present), { count: 0, items: [] });
    });
  });
});
