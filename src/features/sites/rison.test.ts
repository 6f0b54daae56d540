import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseRison, RisonError } from './rison.ts';

describe('rison, the claims of a site preview', () => {
  test('objects, arrays, strings, numbers and the three constants read as their JSON', () => {
    assert.deepEqual(parseRison("(role:admin,plan:'pro tier',beta:!t,gone:!f,none:!n,tags:!(a,b),n:-1.5e2,nested:(x:(y:!())))"), {
      role: 'admin',
      plan: 'pro tier',
      beta: true,
      gone: false,
      none: null,
      tags: ['a', 'b'],
      n: -150,
      nested: { x: { y: [] } },
    });
    assert.deepEqual(parseRison('()'), {});
    assert.equal(parseRison("'it!'s !!'"), "it's !");
    assert.equal(parseRison('42'), 42);
  });

  test('what is not rison is refused with where it went wrong; prototype keys are dropped', () => {
    for (const bad of ['(a:1', '(a 1)', "'open", '!x', '(a:1))', '', '(a:!(1,2)', '!!']) assert.throws(() => parseRison(bad), RisonError, bad);
    assert.throws(() => parseRison('!('.repeat(30) + ')'.repeat(30)), /deeper/);
    assert.deepEqual(parseRison('(__proto__:(admin:!t),ok:!t)'), { ok: true });
  });
});
