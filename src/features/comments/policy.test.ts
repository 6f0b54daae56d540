import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ROLES } from '../access/roles.ts';
import { assertCanDelete, assertCanEdit, assertCanTakePart, commentPermissions } from './policy.ts';

describe('comment permissions', () => {
  test('readers only view; from the comment role up, people reply; the author edits; the author or an admin deletes', () => {
    const expected: Record<string, [boolean, boolean, boolean, boolean, boolean, boolean]> = {
      // role: view, reply, edit own, edit other's, delete own, delete other's
      read: [true, false, false, false, true, false],
      comment: [true, true, true, false, true, false],
      edit: [true, true, true, false, true, false],
      review: [true, true, true, false, true, false],
      create: [true, true, true, false, true, false],
      admin: [true, true, true, false, true, true],
    };
    for (const role of ROLES) {
      const own = commentPermissions(role, 'me', 'me');
      const other = commentPermissions(role, 'me', 'someone');
      assert.deepEqual([own.view, own.reply, own.edit, other.edit, own.delete, other.delete], expected[role], role);
    }
  });

  test('without a role nothing is allowed', () => {
    assert.deepEqual(commentPermissions(null, 'me', 'me'), { view: false, edit: false, reply: false, delete: false });
  });

  test('the assertions refuse with 403 and say why', () => {
    assert.throws(() => assertCanTakePart('read', 'Commenting'), { statusCode: 403, message: /comment role/ });
    assert.doesNotThrow(() => assertCanTakePart('comment', 'Commenting'));
    assert.throws(() => assertCanEdit('admin', 'me', 'someone', 'a comment'), { statusCode: 403, message: /author/ });
    assert.throws(() => assertCanEdit('read', 'me', 'me', 'a comment'), { statusCode: 403, message: /comment role/ });
    assert.doesNotThrow(() => assertCanEdit('comment', 'me', 'me', 'a comment'));
    assert.throws(() => assertCanDelete('edit', 'me', 'someone', 'a reply'), { statusCode: 403 });
    assert.doesNotThrow(() => assertCanDelete('admin', 'me', 'someone', 'a reply'));
  });
});
