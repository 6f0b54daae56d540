import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { accessReasons, defaultLevelLabel, type AccessInput } from './access-reasons.ts';

const base: AccessInput = { holders: [], userGrants: [], teamGrants: [], orgRoles: new Map(), defaultLevel: 'inherit' };

describe('accessReasons', () => {
  test('an admin holds admin as an organization admin', () => {
    const reasons = accessReasons({ ...base, holders: [{ userId: 'a', permission: 'admin' }], orgRoles: new Map([['a', 'admin']]) });
    assert.deepEqual(reasons.get('a')?.map((r) => r.kind), ['admin']);
  });

  test('a team grant and a direct grant are both named, strongest first', () => {
    const reasons = accessReasons({
      ...base,
      holders: [{ userId: 'u', permission: 'edit' }],
      orgRoles: new Map([['u', 'read']]),
      userGrants: [{ userId: 'u', permission: 'comment' }],
      teamGrants: [{ teamId: 't', title: 'Writers', permission: 'edit', members: ['u'] }],
      defaultLevel: null,
    });
    assert.deepEqual(reasons.get('u')?.map((r) => r.text), ['Team Writers (edit)', 'Given directly (comment)']);
  });

  test('a role above every grant comes from the default level, the collection or the organization role', () => {
    const holder = { holders: [{ userId: 'u', permission: 'read' as const }], orgRoles: new Map([['u', 'read' as const]]) };
    assert.equal(accessReasons({ ...base, ...holder, defaultLevel: 'read' }).get('u')?.[0]?.kind, 'default');
    assert.equal(accessReasons({ ...base, ...holder, parentTitle: 'Docs' }).get('u')?.[0]?.text, 'Inherited from the collection Docs (read)');
    assert.equal(accessReasons({ ...base, ...holder }).get('u')?.[0]?.text, 'Organization role (read)');
  });

  test('a team the member is not in is no reason', () => {
    const reasons = accessReasons({
      ...base,
      holders: [{ userId: 'u', permission: 'read' }],
      orgRoles: new Map([['u', 'read']]),
      teamGrants: [{ teamId: 't', title: 'Writers', permission: 'edit', members: ['v'] }],
    });
    assert.deepEqual(reasons.get('u')?.map((r) => r.kind), ['organization']);
  });
});

test('defaultLevelLabel says what each default level means', () => {
  assert.equal(defaultLevelLabel('inherit', true), 'As the collection says');
  assert.equal(defaultLevelLabel('inherit', false), "Each member's organization role");
  assert.equal(defaultLevelLabel(null, false), 'No access unless given');
  assert.equal(defaultLevelLabel('edit', false), 'Every member can edit');
});
