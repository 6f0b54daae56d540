import { test } from 'node:test';
import assert from 'node:assert/strict';
import { branchOfRef, isRunning, refOfBranch } from './git-ref.ts';

test('a typed branch becomes a branch ref, and a ref reads as its branch', () => {
  assert.equal(refOfBranch(' main '), 'refs/heads/main');
  assert.equal(refOfBranch('refs/heads/docs/v2'), 'refs/heads/docs/v2');
  assert.equal(branchOfRef('refs/heads/docs/v2'), 'docs/v2');
  assert.ok(isRunning('running'));
  assert.equal(isRunning('success'), false);
});
