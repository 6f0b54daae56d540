import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { effectiveMergeRules, unmetMergeRules, type MergeFacts, type MergeRules } from './merge-requirements.ts';

const facts = (fields: Partial<MergeFacts> = {}): MergeFacts => ({ mergerId: 'merger', subject: 'A subject', described: false, outdated: false, reviews: [], ...fields });
const rules = (...list: object[]): MergeRules => ({ type: 'rules', rules: list as MergeRules extends { rules: infer R } ? R : never });
const approved = (reviewerId: string) => ({ reviewerId, status: 'approved' as const });
const against = (reviewerId: string) => ({ reviewerId, status: 'changes-requested' as const });

describe('merge rules (pure)', () => {
  test('a space inherits its organization’s rules unless it has its own', () => {
    const org = rules({ rule: 'require_at_least_one_review' });
    assert.deepEqual(effectiveMergeRules({ type: 'inherit' }, org), org);
    assert.deepEqual(effectiveMergeRules({ type: 'none' }, org), { type: 'none' });
  });

  test('no rules, or an empty list, let every merge through', () => {
    assert.deepEqual(unmetMergeRules({ type: 'none' }, facts()), []);
    assert.deepEqual(unmetMergeRules(rules(), facts()), []);
  });

  test('at least one review means one approval; a request for changes is not one', () => {
    const r = rules({ rule: 'require_at_least_one_review' });
    assert.deepEqual(unmetMergeRules(r, facts()), ['it needs at least one approving review']);
    assert.deepEqual(unmetMergeRules(r, facts({ reviews: [against('a')] })), ['it needs at least one approving review']);
    assert.deepEqual(unmetMergeRules(r, facts({ reviews: [approved('a')] })), []);
  });

  test('all reviews approved: any current request for changes holds the merge, and names who asked', () => {
    const r = rules({ rule: 'require_all_reviews_approved' });
    assert.deepEqual(unmetMergeRules(r, facts({ reviews: [approved('a')] })), []);
    assert.deepEqual(unmetMergeRules(r, facts({ reviews: [approved('a'), against('b')] })), ['every review must approve it, and b requested changes']);
  });

  test('specific reviewers: each one named must approve; one of them: any one', () => {
    const all = rules({ rule: 'require_specific_reviewers', users: ['a', 'b'] });
    assert.deepEqual(unmetMergeRules(all, facts({ reviews: [approved('a'), against('b')] })), ['it needs the approval of b']);
    assert.deepEqual(unmetMergeRules(all, facts({ reviews: [approved('a'), approved('b')] })), []);
    const one = rules({ rule: 'require_one_of_specific_reviewers', users: ['a', 'b'] });
    assert.deepEqual(unmetMergeRules(one, facts({ reviews: [approved('c')] })), ['it needs the approval of one of a, b']);
    assert.deepEqual(unmetMergeRules(one, facts({ reviews: [approved('b')] })), []);
  });

  test('up to date and subject are facts of the change request', () => {
    const r = rules({ rule: 'require_up_to_date_change_request' }, { rule: 'require_change_request_subject' });
    assert.deepEqual(unmetMergeRules(r, facts({ outdated: true, subject: '  ' })), ["it must be up to date with the space's content first (updateChangeRequest)", 'it needs a subject']);
  });

  test('a description is needed when the rule asks for one', () => {
    const r = rules({ rule: 'require_change_request_description' });
    assert.deepEqual(unmetMergeRules(r, facts()), ['it needs a description']);
    assert.deepEqual(unmetMergeRules(r, facts({ described: true })), []);
  });

  test('rules this server cannot meet say so, and a bypass gets past every rule', () => {
    const r = rules({ rule: 'require_change_request_description' }, { rule: 'require_agent_review' }, { rule: 'allow_bypass', users: ['boss'] });
    assert.equal(unmetMergeRules(r, facts()).length, 2);
    assert.deepEqual(unmetMergeRules(r, facts({ mergerId: 'boss' })), []);
  });
});
