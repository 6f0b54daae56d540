import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { appAddressOf } from './app-address.ts';

const PUBLIC = 'https://quire.example.com';
const at = (path: string) => appAddressOf(new URL(`${PUBLIC}${path}`), PUBLIC);

describe('appAddressOf: what a URL of the members app names', () => {
  test('collections and spaces of an organization', () => {
    assert.deepEqual(at('/app/o/org1/c/col1'), { kind: 'collection', collectionId: 'col1' });
    assert.deepEqual(at('/app/o/org1/s/sp1'), { kind: 'space', spaceId: 'sp1' });
  });

  test("a space's page by its path, decoded", () => {
    assert.deepEqual(at('/app/s/sp1/guide/getting%20started'), { kind: 'space', spaceId: 'sp1', page: { path: 'guide/getting started' } });
    assert.deepEqual(at('/app/s/sp1/'), { kind: 'space', spaceId: 'sp1' });
  });

  test("the app's screens of a space: a change request, the editor at a page, others name the space", () => {
    assert.deepEqual(at('/app/s/sp1/~/changes/3'), { kind: 'space', spaceId: 'sp1', changeRequest: '3' });
    assert.deepEqual(at('/app/s/sp1/~/edit/page1'), { kind: 'space', spaceId: 'sp1', page: { id: 'page1' } });
    assert.deepEqual(at('/app/s/sp1/~/history'), { kind: 'space', spaceId: 'sp1' });
  });

  test('anything else is no app URL', () => {
    assert.equal(at('/app/o/org1'), undefined);
    assert.equal(at('/app/settings/profile'), undefined);
    assert.equal(at('/sites/docs/'), undefined);
    assert.equal(appAddressOf(new URL('https://other.example.com/app/s/sp1'), PUBLIC), undefined);
  });
});
