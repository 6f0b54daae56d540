import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { firstReads, withPreloads } from './first-reads.ts';

describe('the first reads a screen of the web app preloads', () => {
  test('every screen reads who is signed in', () => {
    assert.deepEqual(firstReads('/app/'), ['/v1/user']);
    assert.deepEqual(firstReads('/app/o/org1/s/space1?x=1'), ['/v1/user']);
  });

  test('a change request’s screen reads its space, itself and its changed pages, as the app asks for them', () => {
    const reads = ['/v1/user', '/v1/spaces/sp_1/change-requests/12', '/v1/spaces/sp_1/change-requests/12/changes?limit=1000'];
    assert.deepEqual(firstReads('/app/s/sp_1/~/changes/12'), ['/v1/user', '/v1/spaces/sp_1', ...reads.slice(1)]);
    assert.deepEqual(firstReads('/app/s/sp_1/~/changes/12/?page=abc#x'), ['/v1/user', '/v1/spaces/sp_1', ...reads.slice(1)]);
  });

  test('what is not an id in the URL is never written into the page', () => {
    for (const url of ['/app/s/"><script>/~/changes/1', '/app/s/a%22b/~/changes/1', '/app/s/a/~/changes/1/extra', '/app/s/a/~/changes/']) {
      assert.deepEqual(firstReads(url), ['/v1/user'], url);
    }
  });

  test('the preloads go at the end of the head, same-origin with cookies (as the app’s fetch asks)', () => {
    const html = withPreloads('<html><head><title>Quire</title></head><body></body></html>', ['/v1/user', '/v1/x?a=1&b=2']);
    assert.equal(
      html,
      '<html><head><title>Quire</title><link rel="preload" as="fetch" crossorigin href="/v1/user"><link rel="preload" as="fetch" crossorigin href="/v1/x?a=1&amp;b=2"></head><body></body></html>',
    );
  });
});
