import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AUDIT_ACTIONS, isAuditAction, retentionCutoff } from './actions.ts';

test('action names are <resource>.<what happened> in snake case, each with a label', () => {
  for (const [id, label] of Object.entries(AUDIT_ACTIONS)) {
    assert.match(id, /^[a-z_]+\.[a-z_]+$/);
    assert.ok(label.length > 0);
  }
  assert.ok(isAuditAction('member.added'));
  assert.ok(!isAuditAction('toString'), 'only own names, not what an object inherits');
});

test('the retention cutoff is that many whole days before now', () => {
  assert.equal(retentionCutoff(new Date('2026-12-31T12:00:00.000Z'), 30), '2026-12-01T12:00:00.000Z');
  assert.equal(retentionCutoff(new Date('2026-03-01T00:00:00.000Z'), 365), '2025-03-01T00:00:00.000Z');
});
