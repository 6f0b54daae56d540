import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { can, siteRoleOf, type SiteStanding } from './policy.ts';

const standing = (s: Partial<SiteStanding>): SiteStanding => ({ orgAdmin: false, readsSomeSpace: false, granted: null, ...s });

describe("a caller's role on a site", () => {
  test('an organization admin is admin of every site, whatever was given', () => {
    assert.equal(siteRoleOf(standing({ orgAdmin: true })), 'admin');
    assert.equal(siteRoleOf(standing({ orgAdmin: true, granted: 'read' })), 'admin');
  });

  test('reading a space the site publishes gives read; nothing gives nothing', () => {
    assert.equal(siteRoleOf(standing({ readsSomeSpace: true })), 'read');
    assert.equal(siteRoleOf(standing({})), null);
  });

  test('a role given on the site counts, the highest of it and what the spaces give', () => {
    assert.equal(siteRoleOf(standing({ granted: 'comment' })), 'comment');
    assert.equal(siteRoleOf(standing({ granted: 'admin', readsSomeSpace: true })), 'admin');
    assert.equal(siteRoleOf(standing({ granted: 'read', readsSomeSpace: true })), 'read');
  });
});

describe('what a role on a site allows', () => {
  test('any role sees the site; only admin manages it and sees its share links', () => {
    for (const granted of ['read', 'comment', 'edit', 'review', 'create'] as const) {
      const s = standing({ granted });
      assert.equal(can(s, 'view'), true, granted);
      assert.equal(can(s, 'manage'), false, granted);
      assert.equal(can(s, 'viewShareLinks'), false, granted);
    }
    const admin = standing({ granted: 'admin' });
    assert.equal(can(admin, 'manage'), true);
    assert.equal(can(admin, 'viewShareLinks'), true);
  });

  test('without a role the site is out of sight', () => {
    assert.equal(can(standing({}), 'view'), false);
    assert.equal(can(standing({}), 'manage'), false);
  });
});
