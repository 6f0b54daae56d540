import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { needsTouch, SESSION_ABSOLUTE_MS, SESSION_IDLE_MS, sessionState } from './lifetime.ts';

const start = new Date('2026-03-01T08:00:00.000Z');
const at = (ms: number) => new Date(start.getTime() + ms);
const session = (lastSeenMs = 0, revoked: string | null = null) => ({
  created_at: start.toISOString(),
  last_seen_at: at(lastSeenMs).toISOString(),
  expires_at: at(SESSION_ABSOLUTE_MS).toISOString(),
  revoked_at: revoked,
});

describe('session lifetime', () => {
  test('a fresh session is active', () => assert.equal(sessionState(session(), at(1000)), 'active'));
  test('a session unused for the idle time ends', () => {
    assert.equal(sessionState(session(), at(SESSION_IDLE_MS - 1)), 'active');
    assert.equal(sessionState(session(), at(SESSION_IDLE_MS)), 'idle');
  });
  test('use keeps it alive, up to the absolute lifetime', () => {
    assert.equal(sessionState(session(SESSION_ABSOLUTE_MS - 1000), at(SESSION_ABSOLUTE_MS - 1)), 'active');
    assert.equal(sessionState(session(SESSION_ABSOLUTE_MS - 1000), at(SESSION_ABSOLUTE_MS)), 'expired');
  });
  test('a revoked session stays revoked whatever the time', () => assert.equal(sessionState(session(0, start.toISOString()), at(1)), 'revoked'));
  test('last use is written at most every five minutes', () => {
    assert.equal(needsTouch(session(), at(60_000)), false);
    assert.equal(needsTouch(session(), at(5 * 60_000)), true);
  });
});
