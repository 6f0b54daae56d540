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
    ['/sites/handbook/', 'https://docs.example.com/sites/handbook/'],
    ['/sites/a?b=1#c', 'https://docs.example.com/sites/a?b=1#c'],
    ['/a/../b', 'https://docs.example.com/b'],
    ['https://docs.example.com/app/x', 'https://docs.example.com/app/x'],
    ['https://evil.example/', null],
    ['//evil.example/x', null],
    // The review's reproductions: each normalises to a path that a browser reads as another host.
    ['/.//evil.example/x', null],
    ['/app/..//evil.example/x', null],
    ['/app/%2e%2e//evil.example/x', null],
    ['/./\\evil.example', null],
    ['https://user@docs.example.com/', null],
    ['http://docs.example.com/', null],
    ['/\\evil.example', null],
    ['/\tevil', null],
    ['javascript:alert(1)', null],
    ['', null],
    [undefined, null],
  ] as const) {
    test(`next ${JSON.stringify(next)} -> ${JSON.stringify(expected)}`, () => assert.equal(safeNextPath(config, next), expected));
  }
});

