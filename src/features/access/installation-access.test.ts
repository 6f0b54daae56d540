import { test } from 'node:test';
import assert from 'node:assert/strict';
import { roleOfScopes } from './service.ts';

test('an installation’s scopes give it a role on what it reaches: metadata write admin, content write edit, others read', () => {
  assert.equal(roleOfScopes(['space:metadata:write']), 'admin');
  assert.equal(roleOfScopes(['space:content:read', 'space:content:write']), 'edit');
  assert.equal(roleOfScopes(['space:content:read']), 'read');
  assert.equal(roleOfScopes(['site:metadata:read']), 'read');
  assert.equal(roleOfScopes([]), null);
});
