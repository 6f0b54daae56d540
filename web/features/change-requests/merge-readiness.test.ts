import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { effectiveRules, mergeBlockers, type MergeFacts } from './merge-readiness.ts';

const facts = (over: Partial<MergeFacts> = {}): MergeFacts => ({
  status: 'open', subject: 'Fix', described: false, outdated: false, mayMerge: true, userId: 'me', reviews: [], names: new Map([['ana', 'Ana']]), conflicts: 0, ...over,
});
const rules = (...list: { rule: string; users?: string[] }[]) => ({ type: 'rules' as const, rules: list });

describe('why a change request cannot be merged yet', () => {
  test('nothing stands in the way of an open change request without rules', () => {
    assert.deepEqual(mergeBlockers({ type: 'none' }, facts()), []);
  });

  test('no permission, archived and conflicts are each said', () => {
    const reasons = mergeBlockers({ type: 'none' }, facts({ mayMerge: false, status: 'archived', conflicts: 2 }));
    assert.equal(reasons.length, 3);
    assert.match(reasons.join(' '), /permission/);
    assert.match(reasons.join(' '), /2 conflicts/);
  });

  test('a rule asking for an approval is met by one', () => {
    const r = rules({ rule: 'require_at_least_one_review' });
    assert.match(mergeBlockers(r, facts())[0]!, /at least one approving review/);
    assert.deepEqual(mergeBlockers(r, facts({ reviews: [{ reviewerId: 'ana', reviewerName: 'Ana', status: 'approved' }] })), []);
  });

  test('a specific reviewer is named, and a bypass lets its person through', () => {
    const r = rules({ rule: 'require_specific_reviewers', users: ['ana'] }, { rule: 'allow_bypass', users: ['boss'] });
    assert.match(mergeBlockers(r, facts())[0]!, /approval of Ana/);
    assert.deepEqual(mergeBlockers(r, facts({ userId: 'boss' })), []);
  });

  test('a space inheriting takes its organization’s rules', () => {
    assert.deepEqual(effectiveRules({ type: 'inherit' }, rules({ rule: 'require_at_least_one_review' })), rules({ rule: 'require_at_least_one_review' }));
    assert.deepEqual(effectiveRules({ type: 'none' }, rules({ rule: 'x' })), { type: 'none' });
  });
  test('a description is asked for until the change request has one', () => {
    const r = rules({ rule: 'require_change_request_description' });
    assert.deepEqual(mergeBlockers(r, facts()), ['The merge rules ask for a description.']);
    assert.deepEqual(mergeBlockers(r, facts({ described: true })), []);
  });
});
