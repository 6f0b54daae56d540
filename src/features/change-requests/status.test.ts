import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { statusMoveRefusal } from './status.ts';

describe('change request status moves', () => {
  const allowed: Array<[Parameters<typeof statusMoveRefusal>[0], Parameters<typeof statusMoveRefusal>[1]]> = [
    ['draft', 'open'],
    ['open', 'draft'],
    ['open', 'archived'],
    ['draft', 'archived'],
    ['archived', 'open'],
    ['open', 'open'],
    ['draft', 'draft'],
    ['archived', 'archived'],
  ];
  for (const [from, to] of allowed) {
    test(`${from} -> ${to} is allowed`, () => assert.equal(statusMoveRefusal(from, to), undefined));
  }

  test('archived -> draft is refused: an archived change request is reopened as open', () => {
    assert.match(statusMoveRefusal('archived', 'draft') ?? '', /open/);
  });

  test('nothing leaves merged', () => {
    for (const to of ['open', 'draft', 'archived'] as const) assert.match(statusMoveRefusal('merged', to) ?? '', /merged/);
  });
});
