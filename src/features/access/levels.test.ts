import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { effectiveRole, grantsOnPath, type ContentNode, type Membership } from './levels.ts';
import { atLeast, highest, isRole, parseDefaultLevel, rank, ROLES, type DefaultLevel, type Role } from './roles.ts';

const member = (role: Role | null): Membership => ({ member: true, role });
const outsider: Membership = { member: false };
const node = (defaultLevel: DefaultLevel, parentId: string | null = null): ContentNode => ({ defaultLevel, parentId });
const noParents = () => undefined;

/** A collection tree by id, for `parentOf`. */
function tree(nodes: Record<string, ContentNode>) {
  return (id: string) => nodes[id];
}

describe('roles', () => {
  test('the lattice goes read < comment < edit < review < create < admin', () => {
    assert.deepEqual([...ROLES], ['read', 'comment', 'edit', 'review', 'create', 'admin']);
    for (let i = 1; i < ROLES.length; i++) assert.ok(rank(ROLES[i - 1]) < rank(ROLES[i]));
  });

  test('no role ranks below every role', () => {
    assert.equal(rank(null), 0);
    assert.equal(rank(undefined), 0);
    assert.ok(rank('read') > 0);
  });

  test('atLeast holds for the role itself and the roles above it', () => {
    assert.equal(atLeast('edit', 'edit'), true);
    assert.equal(atLeast('admin', 'read'), true);
    assert.equal(atLeast('create', 'review'), true);
    assert.equal(atLeast('review', 'create'), false);
    assert.equal(atLeast('read', 'comment'), false);
  });

  test('no role is at least nothing', () => {
    assert.equal(atLeast(null, 'read'), false);
    assert.equal(atLeast(undefined, 'read'), false);
  });

  test('highest picks the top role and ignores nulls', () => {
    assert.equal(highest('read', 'admin', 'edit'), 'admin');
    assert.equal(highest(null, 'comment', undefined), 'comment');
    assert.equal(highest('review', 'edit'), 'review');
    assert.equal(highest(), null);
    assert.equal(highest(null, undefined), null);
  });

  test('isRole knows the six roles and nothing else', () => {
    for (const role of ROLES) assert.equal(isRole(role), true);
    for (const value of ['owner', 'inherit', '', 'ADMIN', null, undefined, 3]) assert.equal(isRole(value), false);
  });

  test('parseDefaultLevel accepts roles, null and inherit, and refuses anything else', () => {
    assert.equal(parseDefaultLevel('edit'), 'edit');
    assert.equal(parseDefaultLevel(null), null);
    assert.equal(parseDefaultLevel('inherit'), 'inherit');
    assert.throws(() => parseDefaultLevel('owner'), /invalid default level/);
  });
});

describe('effectiveRole', () => {
  describe('organization standing', () => {
    test('someone outside the organization has no role, whatever the level or grants', () => {
      assert.equal(effectiveRole(outsider, node('admin'), noParents), null);
      assert.equal(effectiveRole(outsider, node('inherit'), noParents, ['admin']), null);
    });

    test('an organization admin is admin everywhere, even where the level is null', () => {
      assert.equal(effectiveRole(member('admin'), node(null), noParents), 'admin');
      assert.equal(effectiveRole(member('admin'), node('read'), noParents), 'admin');
      assert.equal(effectiveRole(member('admin'), node('inherit', 'c1'), tree({ c1: node(null) })), 'admin');
    });

    test('a guest gets nothing from default levels', () => {
      assert.equal(effectiveRole(member(null), node('inherit'), noParents), null);
      assert.equal(effectiveRole(member(null), node('admin'), noParents), null);
      assert.equal(effectiveRole(member(null), node('inherit', 'c1'), tree({ c1: node('edit') })), null);
    });

    test('a guest gets what is granted', () => {
      assert.equal(effectiveRole(member(null), node('inherit'), noParents, ['comment']), 'comment');
    });
  });

  describe('default levels', () => {
    for (const level of ROLES) {
      test(`a default level of ${level} gives a read member ${level}`, () => {
        assert.equal(effectiveRole(member('read'), node(level), noParents), level);
      });
    }

    test('a default level gives its role even below the organization role', () => {
      assert.equal(effectiveRole(member('create'), node('read'), noParents), 'read');
    });

    test('a null default level gives members nothing', () => {
      for (const role of ['create', 'review', 'edit', 'comment', 'read'] as const) {
        assert.equal(effectiveRole(member(role), node(null), noParents), null);
      }
    });

    test('inherit at the top level gives the organization role', () => {
      for (const role of ['create', 'review', 'edit', 'comment', 'read'] as const) {
        assert.equal(effectiveRole(member(role), node('inherit'), noParents), role);
      }
    });
  });

  describe('inheritance through collections', () => {
    test('inherit takes the level of the parent collection', () => {
      assert.equal(effectiveRole(member('read'), node('inherit', 'c1'), tree({ c1: node('edit') })), 'edit');
    });

    test('a chain of inherits reaches the first collection with a level', () => {
      const parents = tree({ c1: node('inherit', 'c2'), c2: node('inherit', 'c3'), c3: node('comment', 'c4'), c4: node('admin') });
      assert.equal(effectiveRole(member('edit'), node('inherit', 'c1'), parents), 'comment');
    });

    test('a chain of inherits up to the top gives the organization role', () => {
      const parents = tree({ c1: node('inherit', 'c2'), c2: node('inherit') });
      assert.equal(effectiveRole(member('review'), node('inherit', 'c1'), parents), 'review');
    });

    test('null on a collection stops inheritance for everything below', () => {
      const parents = tree({ c1: node('inherit', 'c2'), c2: node(null, 'c3'), c3: node('admin') });
      assert.equal(effectiveRole(member('create'), node('inherit', 'c1'), parents), null);
    });

    test('the nearest level wins over the ones above', () => {
      const parents = tree({ c1: node('read', 'c2'), c2: node('admin') });
      assert.equal(effectiveRole(member('edit'), node('inherit', 'c1'), parents), 'read');
    });

    test('a space with its own level ignores its collection, even a null one', () => {
      assert.equal(effectiveRole(member('read'), node('comment', 'c1'), tree({ c1: node(null) })), 'comment');
    });

    test('a parent that cannot be found counts as the top level', () => {
      assert.equal(effectiveRole(member('comment'), node('inherit', 'gone'), noParents), 'comment');
    });

    test('a cycle of parents does not hang and ends at the organization role', () => {
      const parents = tree({ c1: node('inherit', 'c2'), c2: node('inherit', 'c1') });
      assert.equal(effectiveRole(member('edit'), node('inherit', 'c1'), parents), 'edit');
    });
  });

  describe('grants', () => {
    test('a grant adds to the default level', () => {
      assert.equal(effectiveRole(member('read'), node('inherit'), noParents, ['edit']), 'edit');
    });

    test('a grant reaches content whose default level is null', () => {
      assert.equal(effectiveRole(member('read'), node(null), noParents, ['comment']), 'comment');
    });

    test('a grant below the default level changes nothing', () => {
      assert.equal(effectiveRole(member('create'), node('inherit'), noParents, ['read']), 'create');
    });

    test('the highest of several grants wins', () => {
      assert.equal(effectiveRole(member('read'), node('comment'), noParents, ['edit', 'admin', 'review']), 'admin');
      assert.equal(effectiveRole(member('read'), node('review'), noParents, ['edit', 'comment']), 'review');
    });
  });

  describe('grantsOnPath', () => {
    const granted = (byId: Record<string, Role[]>) => (id: string) => byId[id] ?? [];

    test('collects the grants on the node and on every collection above it', () => {
      const parents = tree({ c1: node('inherit', 'c2'), c2: node(null, 'c3'), c3: node('read') });
      const roles = grantsOnPath('s1', node('inherit', 'c1'), parents, granted({ s1: ['read'], c2: ['edit', 'comment'], c3: ['admin'], other: ['create'] }));
      assert.deepEqual(roles.sort(), ['admin', 'comment', 'edit', 'read']);
    });

    test('a grant on a collection above reaches through a null default level', () => {
      const parents = tree({ c1: node(null) });
      const roles = grantsOnPath('s1', node('inherit', 'c1'), parents, granted({ c1: ['review'] }));
      assert.equal(effectiveRole(member(null), node('inherit', 'c1'), parents, roles), 'review');
      assert.equal(effectiveRole(member('read'), node(null, 'c1'), parents, roles), 'review');
    });

    test('a top-level node without grants has none', () => {
      assert.deepEqual(grantsOnPath('s1', node('inherit'), noParents, granted({})), []);
    });

    test('a missing parent still counts its own grants, and the walk stops there', () => {
      assert.deepEqual(grantsOnPath('s1', node('inherit', 'gone'), noParents, granted({ gone: ['edit'] })), ['edit']);
    });

    test('a cycle of parents does not hang and counts each collection once', () => {
      const parents = tree({ c1: node('inherit', 'c2'), c2: node('inherit', 'c1') });
      assert.deepEqual(grantsOnPath('s1', node('inherit', 'c1'), parents, granted({ c1: ['read'], c2: ['comment'] })).sort(), ['comment', 'read']);
    });
  });
});
