import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../../../test/helpers.ts';
import { assertError } from '../../../test/assertions.ts';
import { buildChangeRequest, buildSpace, mergeChangeRequest } from '../../../test/factories.ts';

describe('change requests', () => {
  let t: TestServer;
  before(async () => {
    t = await startServer();
  });
  after(() => t.close());

  async function patch(spaceId: string, cr: string, body: Record<string, unknown>, token?: string) {
    return t.api('PATCH', `/v1/spaces/${spaceId}/change-requests/${cr}`, { body, ...(token ? { token } : {}) });
  }

  async function counters(spaceId: string) {
    const res = await t.api('GET', `/v1/spaces/${spaceId}`);
    assert.equal(res.status, 200);
    return { all: res.body.changeRequests, open: res.body.changeRequestsOpen, draft: res.body.changeRequestsDraft };
  }

  async function numbersListed(spaceId: string, query = ''): Promise<number[]> {
    const res = await t.api('GET', `/v1/spaces/${spaceId}/change-requests${query}`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.items.map((cr: { number: number }) => cr.number);
  }

  describe('createChangeRequest', () => {
    test('an editor opens a change request: 201, Location, status open, based on the current revision', async () => {
      const space = await buildSpace(t);
      const res = await t.api('POST', `/v1/spaces/${space.id}/change-requests`, { body: { subject: '  Fix the intro  ' } });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      const cr = res.body;
      assert.equal(cr.object, 'change-request');
      assert.equal(cr.number, 1);
      assert.equal(cr.status, 'open');
      assert.equal(cr.subject, 'Fix the intro');
      assert.equal(cr.space, space.id);
      assert.equal(cr.revisionInitial, space.revision);
      assert.equal(typeof cr.revision, 'string');
      assert.notEqual(cr.revision, space.revision, 'the change request has a revision of its own');
      assert.equal(cr.revisionMergedAncestor, undefined);
      assert.equal(cr.revisionMerged, undefined);
      assert.equal(cr.mergedAt, undefined);
      assert.equal(cr.mergedBy, undefined);
      assert.equal(cr.comments, 0);
      assert.equal(cr.outdated, false);
      assert.equal(cr.createdBy.id, t.admin.userId);
      assert.equal(cr.createdAt, t.clock.now().toISOString());
      assert.equal(cr.updatedAt, cr.createdAt);
      assert.equal(cr.urls.location, `http://quire.test/v1/spaces/${space.id}/change-requests/${cr.id}`);
      assert.equal(res.headers.location, cr.urls.location);
      assert.ok(cr.urls.app.startsWith('http://quire.test/'));
    });

    test('numbers count up per space from 1; a body may be left out, the subject is then empty', async () => {
      const a = await buildSpace(t);
      const b = await buildSpace(t);
      assert.deepEqual([(await buildChangeRequest(t, a.id)).number, (await buildChangeRequest(t, a.id)).number, (await buildChangeRequest(t, a.id)).number], [1, 2, 3]);
      assert.equal((await buildChangeRequest(t, b.id)).number, 1, 'each space has its own numbers');
      const bare = await t.api('POST', `/v1/spaces/${b.id}/change-requests`);
      assert.equal(bare.status, 201, JSON.stringify(bare.body));
      assert.equal(bare.body.number, 2);
      assert.equal(bare.body.subject, '');
    });

    test('a subject of 100 characters is accepted, 101 is a 400 naming body/subject', async () => {
      const space = await buildSpace(t);
      assert.equal((await buildChangeRequest(t, space.id, { subject: 's'.repeat(100) })).subject, 's'.repeat(100));
      assertError(await t.api('POST', `/v1/spaces/${space.id}/change-requests`, { body: { subject: 's'.repeat(101) } }), 400, 'subject');
      assertError(await t.api('POST', `/v1/spaces/${space.id}/change-requests`, { body: { subject: 42 } }), 400, 'subject');
    });

    test('a refused create uses no number', async () => {
      const space = await buildSpace(t);
      await buildChangeRequest(t, space.id);
      assertError(await t.api('POST', `/v1/spaces/${space.id}/change-requests`, { body: { subject: 's'.repeat(101) } }), 400);
      const reader = await t.member('read');
      assertError(await t.api('POST', `/v1/spaces/${space.id}/change-requests`, { token: reader.token, body: {} }), 403);
      assert.equal((await buildChangeRequest(t, space.id)).number, 2);
    });

    test('a read or comment member gets 403, an editor may open one', async () => {
      const space = await buildSpace(t);
      for (const role of ['read', 'comment'] as const) {
        const user = await t.member(role);
        assertError(await t.api('POST', `/v1/spaces/${space.id}/change-requests`, { token: user.token, body: {} }), 403);
      }
      const editor = await t.member('edit');
      const cr = await buildChangeRequest(t, space.id, { token: editor.token });
      assert.equal(cr.createdBy.id, editor.userId);
    });

    test('someone outside the organization gets 404, as for a missing space', async () => {
      const space = await buildSpace(t);
      const outsider = await t.outsider();
      assertError(await t.api('POST', `/v1/spaces/${space.id}/change-requests`, { token: outsider.token, body: {} }), 404);
      assertError(await t.api('POST', '/v1/spaces/no-such-space/change-requests', { body: {} }), 404);
    });

    test('no change request can be opened in a locked space', async () => {
      const space = await buildSpace(t, { editMode: 'locked' });
      assertError(await t.api('POST', `/v1/spaces/${space.id}/change-requests`, { body: {} }), 403, 'locked');
    });
  });

  describe('NUMBERS UNDER CONCURRENCY', () => {
    test('20 change requests opened at once get the numbers 1 to 20, no gap, no duplicate', async () => {
      const space = await buildSpace(t);
      const results = await Promise.all(Array.from({ length: 20 }, (_, i) => t.api('POST', `/v1/spaces/${space.id}/change-requests`, { body: { subject: `cr ${i}` } })));
      for (const res of results) assert.equal(res.status, 201, JSON.stringify(res.body));
      const numbers = results.map((res) => res.body.number as number).sort((x, y) => x - y);
      assert.deepEqual(numbers, Array.from({ length: 20 }, (_, i) => i + 1));
      assert.equal(new Set(results.map((res) => res.body.id)).size, 20);
      assert.deepEqual((await numbersListed(space.id, '?limit=100')).sort((x, y) => x - y), numbers);
      assert.equal((await buildChangeRequest(t, space.id)).number, 21);
      assert.deepEqual(await counters(space.id), { all: 21, open: 21, draft: 0 });
    });

    test('two spaces written at once keep their own sequences', async () => {
      const a = await buildSpace(t);
      const b = await buildSpace(t);
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) => t.api('POST', `/v1/spaces/${i % 2 === 0 ? a.id : b.id}/change-requests`, { body: {} })),
      );
      for (const res of results) assert.equal(res.status, 201, JSON.stringify(res.body));
      const of = (id: string) => results.filter((r) => r.body.space === id).map((r) => r.body.number as number).sort((x, y) => x - y);
      assert.deepEqual(of(a.id), [1, 2, 3, 4, 5]);
      assert.deepEqual(of(b.id), [1, 2, 3, 4, 5]);
    });

    test('change requests opened while the space content is written get their numbers and the right base', async () => {
      const space = await buildSpace(t);
      const results = await Promise.all([
        ...Array.from({ length: 6 }, () => t.api('POST', `/v1/spaces/${space.id}/change-requests`, { body: {} })),
        t.api('POST', `/v1/spaces/${space.id}/content/template`, { body: { id: 'blank' } }),
        ...Array.from({ length: 6 }, () => t.api('POST', `/v1/spaces/${space.id}/change-requests`, { body: {} })),
      ]);
      for (const res of results) assert.ok(res.status === 201, JSON.stringify(res.body));
      const crs = results.filter((r) => r.body?.object === 'change-request').map((r) => r.body);
      assert.deepEqual(crs.map((cr) => cr.number as number).sort((x, y) => x - y), Array.from({ length: 12 }, (_, i) => i + 1));
      const current = (await t.api('GET', `/v1/spaces/${space.id}`)).body.revision;
      for (const cr of crs) {
        const now = (await t.api('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}`)).body;
        assert.equal(now.outdated, now.revisionInitial !== current);
        assert.ok([space.revision, current].includes(now.revisionInitial));
      }
    });
  });

  describe('getChangeRequestById', () => {
    test('a change request is found by id and by number', async () => {
      const space = await buildSpace(t);
      await buildChangeRequest(t, space.id);
      const cr = await buildChangeRequest(t, space.id, { subject: 'Second' });
      const byId = await t.api('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}`);
      assert.equal(byId.status, 200);
      assert.deepEqual(byId.body, cr);
      const byNumber = await t.api('GET', `/v1/spaces/${space.id}/change-requests/2`);
      assert.equal(byNumber.status, 200);
      assert.equal(byNumber.body.id, cr.id);
    });

    test('a reader sees a change request; an outsider, another space or an unknown number get 404', async () => {
      const space = await buildSpace(t);
      const other = await buildSpace(t);
      const cr = await buildChangeRequest(t, space.id);
      const reader = await t.member('read');
      assert.equal((await t.api('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}`, { token: reader.token })).status, 200);
      const outsider = await t.outsider();
      assertError(await t.api('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}`, { token: outsider.token }), 404);
      assertError(await t.api('GET', `/v1/spaces/${other.id}/change-requests/${cr.id}`), 404);
      assertError(await t.api('GET', `/v1/spaces/${space.id}/change-requests/7`), 404);
      assertError(await t.api('GET', `/v1/spaces/${space.id}/change-requests/99999999999999999999`), 404);
      assertError(await t.api('GET', `/v1/spaces/${space.id}/change-requests/nope`), 404);
    });

    test('a fresh change request is not outdated; it is once the space content moves on', async () => {
      const space = await buildSpace(t);
      const cr = await buildChangeRequest(t, space.id);
      assert.equal(cr.outdated, false);
      const applied = await t.api('POST', `/v1/spaces/${space.id}/content/template`, { body: { id: 'blank' } });
      assert.equal(applied.status, 201, JSON.stringify(applied.body));
      assert.equal((await t.api('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}`)).body.outdated, true);
      const fresh = await buildChangeRequest(t, space.id);
      assert.equal(fresh.outdated, false);
    });
  });

  describe('listChangeRequestsForSpace', () => {
    test('open change requests by default, newest first, with a count', async () => {
      const space = await buildSpace(t);
      const [one, two, three] = [await buildChangeRequest(t, space.id), await buildChangeRequest(t, space.id), await buildChangeRequest(t, space.id)];
      assert.equal((await patch(space.id, two.id, { status: 'draft' })).status, 200);
      const res = await t.api('GET', `/v1/spaces/${space.id}/change-requests`);
      assert.equal(res.status, 200);
      assert.equal(res.body.count, 2);
      assert.deepEqual(
        res.body.items.map((cr: { id: string }) => cr.id),
        [three.id, one.id],
      );
      assert.equal(res.body.next, undefined);
    });

    test('the status filter lists draft, archived or open ones; an unknown status is a 400', async () => {
      const space = await buildSpace(t);
      const crs = [await buildChangeRequest(t, space.id), await buildChangeRequest(t, space.id), await buildChangeRequest(t, space.id), await buildChangeRequest(t, space.id)];
      await patch(space.id, crs[0].id, { status: 'draft' });
      await patch(space.id, crs[1].id, { status: 'archived' });
      await patch(space.id, crs[2].id, { status: 'archived' });
      assert.deepEqual(await numbersListed(space.id, '?status=draft'), [1]);
      assert.deepEqual(await numbersListed(space.id, '?status=archived'), [3, 2]);
      assert.deepEqual(await numbersListed(space.id, '?status=open'), [4]);
      assert.deepEqual(await numbersListed(space.id, '?status=merged'), []);
      assertError(await t.api('GET', `/v1/spaces/${space.id}/change-requests?status=closed`), 400, 'status');
    });

    test('creator lists those a user opened; contributor also those they wrote to', async () => {
      const space = await buildSpace(t);
      const alice = await t.member('edit');
      const bob = await t.member('edit');
      const byAlice = await buildChangeRequest(t, space.id, { token: alice.token });
      const byBob = await buildChangeRequest(t, space.id, { token: bob.token });
      await buildChangeRequest(t, space.id);
      const write = await t.api('POST', `/v1/spaces/${space.id}/change-requests/${byAlice.id}/content`, {
        token: bob.token,
        body: { changes: [{ operation: 'insert_page', title: 'By Bob', document: {} }] },
      });
      assert.equal(write.status, 200, JSON.stringify(write.body));
      assert.deepEqual(await numbersListed(space.id, `?creator=${alice.userId}`), [byAlice.number]);
      assert.deepEqual(await numbersListed(space.id, `?creator=${bob.userId}`), [byBob.number]);
      assert.deepEqual(await numbersListed(space.id, `?contributor=${bob.userId}`), [byBob.number, byAlice.number]);
      assert.deepEqual(await numbersListed(space.id, `?contributor=${alice.userId}`), [byAlice.number]);
      assert.deepEqual(await numbersListed(space.id, `?contributor=nobody`), []);
      const counted = await t.api('GET', `/v1/spaces/${space.id}/change-requests?contributor=${bob.userId}`);
      assert.equal(counted.body.count, 2);
    });

    test('pages follow the cursor to the end without repeats', async () => {
      const space = await buildSpace(t);
      for (let i = 0; i < 5; i++) await buildChangeRequest(t, space.id);
      const seen: number[] = [];
      let next: string | undefined;
      let pages = 0;
      do {
        const res = await t.api('GET', `/v1/spaces/${space.id}/change-requests?limit=2${next ? `&page=${encodeURIComponent(next)}` : ''}`);
        assert.equal(res.status, 200, JSON.stringify(res.body));
        assert.equal(res.body.count, 5);
        assert.ok(res.body.items.length <= 2);
        seen.push(...res.body.items.map((cr: { number: number }) => cr.number));
        next = res.body.next?.page;
        pages += 1;
      } while (next && pages < 10);
      assert.deepEqual(seen, [5, 4, 3, 2, 1]);
      assert.equal(pages, 3);
    });

    test('a cursor of another filter is refused with a 400', async () => {
      const space = await buildSpace(t);
      for (let i = 0; i < 3; i++) await buildChangeRequest(t, space.id);
      const first = await t.api('GET', `/v1/spaces/${space.id}/change-requests?limit=1`);
      const cursor = encodeURIComponent(first.body.next.page);
      assertError(await t.api('GET', `/v1/spaces/${space.id}/change-requests?limit=1&status=draft&page=${cursor}`), 400, 'page');
      assertError(await t.api('GET', `/v1/spaces/${space.id}/change-requests?page=garbage`), 400, 'page');
    });

    test('a reader may list; an outsider gets 404', async () => {
      const space = await buildSpace(t);
      await buildChangeRequest(t, space.id);
      const reader = await t.member('read');
      const res = await t.api('GET', `/v1/spaces/${space.id}/change-requests`, { token: reader.token });
      assert.equal(res.status, 200);
      assert.equal(res.body.count, 1);
      const outsider = await t.outsider();
      assertError(await t.api('GET', `/v1/spaces/${space.id}/change-requests`, { token: outsider.token }), 404);
    });
  });

  describe('updateChangeRequestById', () => {
    test('the subject can be renamed, trimmed, and limited to 100 characters', async () => {
      const space = await buildSpace(t);
      const cr = await buildChangeRequest(t, space.id, { subject: 'Old' });
      t.clock.advance(60_000);
      const res = await patch(space.id, cr.id, { subject: '  New subject ' });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.subject, 'New subject');
      assert.equal(res.body.updatedAt, t.clock.now().toISOString());
      assert.equal((await t.api('GET', `/v1/spaces/${space.id}/change-requests/${cr.number}`)).body.subject, 'New subject');
      assertError(await patch(space.id, cr.id, { subject: 'x'.repeat(101) }), 400, 'subject');
    });

    test('draft and open move both ways; either can be archived; archived reopens', async () => {
      const space = await buildSpace(t);
      const cr = await buildChangeRequest(t, space.id);
      const moves: Array<[string, string]> = [
        ['open', 'draft'],
        ['draft', 'open'],
        ['open', 'archived'],
        ['archived', 'open'],
        ['open', 'draft'],
        ['draft', 'archived'],
        ['archived', 'open'],
        ['open', 'open'],
      ];
      for (const [from, to] of moves) {
        const res = await patch(space.id, cr.id, { status: to });
        assert.equal(res.status, 200, `${from} -> ${to}: ${JSON.stringify(res.body)}`);
        assert.equal(res.body.status, to);
        assert.equal((await t.api('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}`)).body.status, to);
      }
    });

    test('an archived change request cannot go back to draft: 409, and it stays archived', async () => {
      const space = await buildSpace(t);
      const cr = await buildChangeRequest(t, space.id);
      await patch(space.id, cr.id, { status: 'archived' });
      assertError(await patch(space.id, cr.id, { status: 'draft' }), 409, 'open');
      assert.equal((await t.api('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}`)).body.status, 'archived');
    });

    test('merged cannot be set by PATCH (400), and an unknown status neither', async () => {
      const space = await buildSpace(t);
      const cr = await buildChangeRequest(t, space.id);
      assertError(await patch(space.id, cr.id, { status: 'merged' }), 400, 'status');
      assertError(await patch(space.id, cr.id, { status: 'closed' }), 400, 'status');
      assert.equal((await t.api('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}`)).body.status, 'open');
    });

    test('nothing moves out of merged: 409 for any status, and the subject is frozen', async () => {
      const space = await buildSpace(t);
      const cr = await buildChangeRequest(t, space.id, { subject: 'Shipped' });
      await mergeChangeRequest(t, space.id, cr.id);
      for (const status of ['open', 'draft', 'archived']) assertError(await patch(space.id, cr.id, { status }), 409, 'merged');
      assertError(await patch(space.id, cr.id, { subject: 'Renamed' }), 409, 'merged');
      const now = (await t.api('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}`)).body;
      assert.equal(now.status, 'merged');
      assert.equal(now.subject, 'Shipped');
      assert.equal(now.outdated, false);
      assert.equal(typeof now.revisionMerged, 'string');
      assert.equal(now.mergedAt, t.clock.now().toISOString());
      assert.equal(now.mergedBy.id, t.admin.userId);
      assert.deepEqual(await numbersListed(space.id, '?status=merged'), [cr.number]);
    });

    test('a status move racing a merge never reopens the merged change request', async () => {
      const space = await buildSpace(t);
      const crs = [await buildChangeRequest(t, space.id), await buildChangeRequest(t, space.id), await buildChangeRequest(t, space.id)];
      for (const cr of crs) {
        const [merged, patched] = await Promise.all([
          t.api('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`),
          patch(space.id, cr.id, { status: 'draft' }),
        ]);
        const now = (await t.api('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}`)).body;
        if (merged.status === 200) {
          assert.equal(now.status, 'merged', `merge answered ${JSON.stringify(merged.body)}, PATCH ${patched.status}`);
          assert.ok(patched.status === 409 || patched.status === 200);
        } else {
          assert.equal(merged.status, 409, JSON.stringify(merged.body));
          assert.equal(now.status, 'draft');
        }
      }
    });

    test('an empty body changes nothing', async () => {
      const space = await buildSpace(t);
      const cr = await buildChangeRequest(t, space.id, { subject: 'Same' });
      t.clock.advance(1000);
      const res = await patch(space.id, cr.id, {});
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, cr);
    });

    test('a reader gets 403, an outsider 404, a missing change request 404', async () => {
      const space = await buildSpace(t);
      const cr = await buildChangeRequest(t, space.id);
      const reader = await t.member('read');
      assertError(await patch(space.id, cr.id, { subject: 'No' }, reader.token), 403);
      const outsider = await t.outsider();
      assertError(await patch(space.id, cr.id, { subject: 'No' }, outsider.token), 404);
      assertError(await patch(space.id, 'missing', { subject: 'No' }), 404);
      const editor = await t.member('edit');
      assert.equal((await patch(space.id, cr.id, { status: 'draft' }, editor.token)).status, 200);
    });
  });

  describe('space counters', () => {
    test('changeRequests, changeRequestsOpen and changeRequestsDraft are exact after creates and moves', async () => {
      const space = await buildSpace(t);
      assert.deepEqual(await counters(space.id), { all: 0, open: 0, draft: 0 });
      const a = await buildChangeRequest(t, space.id);
      const b = await buildChangeRequest(t, space.id);
      const c = await buildChangeRequest(t, space.id);
      assert.deepEqual(await counters(space.id), { all: 3, open: 3, draft: 0 });
      await patch(space.id, a.id, { status: 'draft' });
      assert.deepEqual(await counters(space.id), { all: 3, open: 2, draft: 1 });
      await patch(space.id, b.id, { status: 'draft' });
      await patch(space.id, c.id, { status: 'archived' });
      assert.deepEqual(await counters(space.id), { all: 3, open: 0, draft: 2 });
      await patch(space.id, a.id, { status: 'archived' });
      assert.deepEqual(await counters(space.id), { all: 3, open: 0, draft: 1 });
      await patch(space.id, c.id, { status: 'open' });
      assertError(await patch(space.id, a.id, { status: 'draft' }), 409);
      assert.deepEqual(await counters(space.id), { all: 3, open: 1, draft: 1 });
      await mergeChangeRequest(t, space.id, c.id);
      assert.deepEqual(await counters(space.id), { all: 3, open: 0, draft: 1 }, 'a merged change request still counts in the total');
    });

    test('the counters are shown in space lists too', async () => {
      const space = await buildSpace(t);
      await buildChangeRequest(t, space.id);
      const cr = await buildChangeRequest(t, space.id);
      await patch(space.id, cr.id, { status: 'draft' });
      const res = await t.api('GET', `/v1/orgs/${t.org.id}/spaces?limit=1000`);
      const listed = res.body.items.find((s: { id: string }) => s.id === space.id);
      assert.deepEqual([listed.changeRequests, listed.changeRequestsOpen, listed.changeRequestsDraft], [2, 1, 1]);
    });
  });
});
