import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Config } from '../../config.ts';
import { safeNextPath, signedInHome } from './landing.ts';

const config = { publicUrl: 'https://docs.example.com' } as Config;

describe('where sign-in sends the browser', () => {
  test('without a named page, the web app', () => {
    assert.equal(signedInHome(config), '/app');
    assert.equal(signedInHome({ publicUrl: 'https://example.com/docs/' } as Config), '/docs/app');
  });
  for (const [next, expected] of [
    ['/sites/handbook/', '/sites/handbook/'],
    ['/sites/a?b=1#c', '/sites/a?b=1#c'],
    ['/a/../b', '/b'],
    ['https://evil.example/', null],
    ['//evil.example/x', null],
    ['/\\evil.example', null],
    ['/\tevil', null],
    ['javascript:alert(1)', null],
    ['', null],
    [undefined, null],
  ] as const) {
    test(`next ${JSON.stringify(next)} -> ${JSON.stringify(expected)}`, () => assert.equal(safeNextPath(config, next), expected));
  }
});

