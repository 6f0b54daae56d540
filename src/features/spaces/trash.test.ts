import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../../../test/helpers.ts';
import { assertError, ok } from '../../../test/assertions.ts';
import { buildCollection, buildSpace } from '../../../test/factories.ts';
import { addOrUpdateMember } from '../members/service.ts';
import { DAY_MS } from '../../platform/clock.ts';

interface Trashed {
  object: string;
  space: { id: string; title: string; deletedAt: string; permissions: { admin: boolean } };
  deletedBy: { id: string; displayName: string } | null;
  restorableUntil: string;
}

describe('the organization trash (listSpacesInTrash)', () => {
  let t: TestServer;
  before(async () => {
    t = await startServer();
  });
  after(() => t.close());

  /** Each test reads the trash of an organization of its own, so that no other test's deletions show. */
  async function freshOrganization(): Promise<string> {
    return ok(await t.api('POST', '/v1/orgs', { body: { title: 'Trash test' } }), 201).id;
  }

  async function trashOf(organizationId: string, token?: string, query = ''): Promise<{ items: Trashed[]; count: number; next?: { page: string } }> {
    return ok(await t.api('GET', `/v1/orgs/${organizationId}/trash/spaces${query}`, token ? { token } : {}));
  }

  test('lists the deleted spaces newest first, with who deleted them and until when they can be restored', async () => {
    const org = await freshOrganization();
    const kept = await buildSpace(t, { title: 'Kept' }, { organizationId: org });
    const first = await buildSpace(t, { title: 'First' }, { organizationId: org });
    const second = await buildSpace(t, { title: 'Second' }, { organizationId: org });
    assert.equal((await t.api('DELETE', `/v1/spaces/${first.id}`)).status, 204);
    t.clock.advance(DAY_MS);
    assert.equal((await t.api('DELETE', `/v1/spaces/${second.id}`)).status, 204);

    const trash = await trashOf(org);
    assert.equal(trash.count, 2);
    assert.deepEqual(trash.items.map((item) => item.space.title), ['Second', 'First']);
    const [newest] = trash.items;
    assert.equal(newest!.object, 'trashed-space');
    assert.equal(newest!.space.id, second.id);
    assert.equal(newest!.deletedBy?.id, t.admin.userId);
    assert.equal(newest!.space.permissions.admin, true);
    assert.equal(Date.parse(newest!.restorableUntil) - Date.parse(newest!.space.deletedAt), 7 * DAY_MS);
    assert.ok(!trash.items.some((item) => item.space.id === kept.id), 'a live space is not in the trash');

    ok(await t.api('POST', `/v1/spaces/${second.id}/restore`));
    assert.deepEqual((await trashOf(org)).items.map((item) => item.space.id), [first.id], 'a restored space leaves the trash');
  });

  test('a space deleted more than 7 days ago is no longer listed', async () => {
    const org = await freshOrganization();
    const old = await buildSpace(t, { title: 'Old' }, { organizationId: org });
    await t.api('DELETE', `/v1/spaces/${old.id}`);
    t.clock.advance(7 * DAY_MS - 1000);
    assert.equal((await trashOf(org)).count, 1, 'still restorable on its last day');
    t.clock.advance(2000);
    assert.deepEqual(await trashOf(org).then((trash) => [trash.count, trash.items.length]), [0, 0]);
  });

  test('the spaces of a deleted collection are in the trash, deleted by who deleted the collection', async () => {
    const org = await freshOrganization();
    const collection = await buildCollection(t, { title: 'Guides' }, { organizationId: org });
    const inside = await buildSpace(t, { title: 'Inside', parent: collection.id }, { organizationId: org });
    assert.equal((await t.api('DELETE', `/v1/collections/${collection.id}`)).status, 204);
    const [item] = (await trashOf(org)).items;
    assert.equal(item?.space.id, inside.id);
    assert.equal(item?.deletedBy?.id, t.admin.userId);
  });

  test('pages follow next.page until every deleted space is seen once', async () => {
    const org = await freshOrganization();
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      const space = await buildSpace(t, { title: `S${i}` }, { organizationId: org });
      await t.api('DELETE', `/v1/spaces/${space.id}`);
      t.clock.advance(1000);
      ids.unshift(space.id);
    }
    const seen: string[] = [];
    let query = '?limit=2';
    for (;;) {
      const page = await trashOf(org, undefined, query);
      assert.equal(page.count, 5);
      seen.push(...page.items.map((item) => item.space.id));
      if (!page.next) break;
      query = `?limit=2&page=${encodeURIComponent(page.next.page)}`;
    }
    assert.deepEqual(seen, ids);
    assertError(await t.api('GET', `/v1/orgs/${org}/trash/spaces?page=garbage`), 400, 'page');
  });

  test('a member sees the deleted spaces they could read, without restoring them; outsiders get 404', async () => {
    const org = await freshOrganization();
    const open = await buildSpace(t, { title: 'Open' }, { organizationId: org });
    const reader = await t.outsider();
    await addOrUpdateMember(t.app.ctx, t.db, org, reader.userId, 'read');
    await t.api('DELETE', `/v1/spaces/${open.id}`);
    const [item] = (await trashOf(org, reader.token)).items;
    assert.equal(item?.space.id, open.id);
    assert.equal(item?.space.permissions.admin, false);
    assertError(await t.api('POST', `/v1/spaces/${open.id}/restore`, { token: reader.token }), 403);

    const guest = await t.outsider();
    await addOrUpdateMember(t.app.ctx, t.db, org, guest.userId, null);
    assert.equal((await trashOf(org, guest.token)).count, 0, 'a guest reads no space of the organization');

    const outsider = await t.outsider();
    assertError(await t.api('GET', `/v1/orgs/${org}/trash/spaces`, { token: outsider.token }), 404);
    assertError(await t.api('GET', '/v1/orgs/unknown/trash/spaces'), 404);
    assertError(await t.api('GET', `/v1/orgs/${org}/trash/spaces`, { token: null }), 401);
  });
});
