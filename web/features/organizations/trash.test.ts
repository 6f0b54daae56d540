import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { daysLeft, daysLeftLabel } from './trash.ts';

const HOUR = 3600 * 1000;
const until = '2026-01-08T10:00:00.000Z';
const at = (iso: string) => Date.parse(iso);

describe('days left in the trash', () => {
  test('just deleted: 7 days left', () => assert.equal(daysLeftLabel(until, at('2026-01-01T10:00:00.000Z')), '7 days left'));
  test('a started day counts', () => assert.equal(daysLeft(until, at('2026-01-01T10:00:00.000Z') + HOUR), 7));
  test('the last day says 1 day left', () => assert.equal(daysLeftLabel(until, at(until) - HOUR), '1 day left'));
  test('past the end, none', () => {
    assert.equal(daysLeft(until, at(until) + HOUR), 0);
    assert.equal(daysLeftLabel(until, at(until)), 'No longer restorable');
  });
});
