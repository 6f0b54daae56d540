import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { mergeVariables } from './merge-variables.ts';

describe('merging variables', () => {
  test('variables added, changed and removed on different sides are all kept', () => {
    const base = { version: '1.0', product: 'Quire', old: 'x' };
    const ours = { version: '1.1', product: 'Quire', old: 'x' };
    const theirs = { version: '1.0', product: 'Quire', region: 'eu' };
    assert.deepEqual(mergeVariables(base, ours, theirs), { variables: { version: '1.1', product: 'Quire', region: 'eu' }, conflicts: [] });
  });

  test('the same value set on both sides is not a conflict', () => {
    assert.deepEqual(mergeVariables({ v: '1' }, { v: '2' }, { v: '2' }), { variables: { v: '2' }, conflicts: [] });
  });

  test('two different values are a conflict, and the variables stay as main has them', () => {
    const result = mergeVariables({ version: '1.0' }, { version: '1.1', a: 'b' }, { version: '2.0' });
    assert.deepEqual(result.variables, { version: '1.1', a: 'b' });
    assert.deepEqual(result.conflicts, [
      {
        name: 'version',
        kind: 'value',
        message: 'Main set the variable "version" to "1.1" and the change request to "2.0".',
        base: '1.0',
        ours: '1.1',
        theirs: '2.0',
      },
    ]);
  });

  test('a variable added on both sides with different values is a conflict', () => {
    assert.deepEqual(
      mergeVariables({}, { region: 'eu' }, { region: 'us' }).conflicts.map((c) => c.kind),
      ['value'],
    );
  });

  test('a variable removed on one side and changed on the other is a conflict', () => {
    const removedOnMain = mergeVariables({ v: '1' }, {}, { v: '2' });
    assert.deepEqual(
      removedOnMain.conflicts.map((c) => [c.kind, c.message]),
      [['delete-modify', 'Main removed the variable "v" and the change request set it to "2".']],
    );
    assert.deepEqual(
      mergeVariables({ v: '1' }, { v: '2' }, {}).conflicts.map((c) => c.kind),
      ['modify-delete'],
    );
  });

  test('a variable named like an object property is an ordinary variable', () => {
    assert.deepEqual(mergeVariables({}, { constructor: 'a' }, { toString: 'b' }).variables, { constructor: 'a', toString: 'b' });
  });

  const variables = fc.dictionary(fc.constantFrom('a', 'b', 'c', 'd'), fc.constantFrom('1', '2', '3'), { noNullPrototype: true });

  test('merging with an unchanged side gives the other side, and a side merged with itself is itself', () => {
    fc.assert(
      fc.property(variables, variables, (base, changed) => {
        assert.deepEqual(mergeVariables(base, base, changed), { variables: changed, conflicts: [] });
        assert.deepEqual(mergeVariables(base, changed, base), { variables: changed, conflicts: [] });
        assert.deepEqual(mergeVariables(base, changed, changed), { variables: changed, conflicts: [] });
      }),
    );
  });
});
