import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../../../test/helpers.ts';
import { assertError, ok } from '../../../test/assertions.ts';

describe('organizations', () => {
  let t: TestServer;
  before(async () => {
    t = await startServer();
  });
  after(() => t.close());

  /** A new organization whose admin is a new user, created through the API. */
  async function newOrganization(title = 'Acme Docs') {
    const owner = await t.outsider();
    return { owner, org: ok(await t.api('POST', '/v1/orgs', { token: owner.token, body: { title } }), 201) };
  }

  describe('getOrganizationById', () => {
    test('the bootstrap admin reads their organization', async () => {
      const res = await t.api('GET', `/v1/orgs/${t.org.id}`);
      assert.equal(res.status, 200);
      assert.equal(res.body.object, 'organization');
      assert.equal(res.body.id, t.org.id);
      assert.equal(res.body.urls.location, `http://quire.test/v1/orgs/${t.org.id}`);
      assert.equal(typeof res.body.title, 'string');
      assert.ok(!Number.isNaN(Date.parse(res.body.createdAt)));
      assert.ok(Array.isArray(res.body.emailDomains));
      assert.deepEqual(res.body.mergeRules, { type: 'none' });
      assert.deepEqual(res.body.permissions, {
        view: true,
        admin: true,
        ownTeam: false,
        createContent: true,
        createOpenAPISpec: true,
        ingestConversations: true,
        viewBilling: true,
        listMembers: true,
        listTeams: true,
        listIntegrations: true,
        listInstallations: true,
        installIntegration: true,
      });
    });

    test('a read member sees the organization but may not administrate it nor create content', async () => {
      const reader = await t.member('read');
      const res = await t.api('GET', `/v1/orgs/${t.org.id}`, { token: reader.token });
      assert.equal(res.status, 200);
      const p = res.body.permissions;
      assert.equal(p.view, true);
      assert.equal(p.admin, false);
      assert.equal(p.createContent, false);
      assert.equal(p.viewBilling, false);
      assert.equal(p.listMembers, true);
      assert.equal(p.listTeams, true);
    });

    test('a create member may create content but not administrate', async () => {
      const creator = await t.member('create');
      const res = await t.api('GET', `/v1/orgs/${t.org.id}`, { token: creator.token });
      assert.equal(res.status, 200);
      assert.equal(res.body.permissions.createContent, true);
      assert.equal(res.body.permissions.admin, false);
    });

    test('a guest sees the organization but cannot list its members or teams', async () => {
      const guest = await t.member(null);
      const res = await t.api('GET', `/v1/orgs/${t.org.id}`, { token: guest.token });
      assert.equal(res.status, 200);
      const p = res.body.permissions;
      assert.equal(p.view, true);
      assert.equal(p.admin, false);
      assert.equal(p.createContent, false);
      assert.equal(p.listMembers, false);
      assert.equal(p.listTeams, false);
      assert.equal(p.listIntegrations, false);
    });

    test('an organization of someone else answers 404', async () => {
      const other = await t.outsider();
      const res = await t.api('GET', `/v1/orgs/${t.org.id}`, { token: other.token });
      assertError(res, 404);
    });

    test('a disabled member no longer sees the organization, nor finds it in their list', async () => {
      const { org } = await newOrganization();
      const member = await t.member('edit', org.id);
      assert.equal((await t.api('GET', `/v1/orgs/${org.id}`, { token: member.token })).status, 200);
      await t.db.updateTable('members').set({ disabled: 1 }).where('organization_id', '=', org.id).where('user_id', '=', member.userId).execute();
      assertError(await t.api('GET', `/v1/orgs/${org.id}`, { token: member.token }), 404);
      const list = await t.api('GET', '/v1/orgs', { token: member.token });
      assert.equal(list.body.count, 0);
      assert.deepEqual(list.body.items, []);
    });

    test('an unknown organization id answers 404', async () => {
      assertError(await t.api('GET', '/v1/orgs/doesNotExist123'), 404);
    });
  });

  describe('updateOrganizationById', () => {
    test('an admin renames the organization, and the new title is what everyone reads', async () => {
      const { owner, org } = await newOrganization('Before');
      const res = await t.api('PATCH', `/v1/orgs/${org.id}`, { token: owner.token, body: { title: '  After  ' } });
      assert.equal(res.status, 200);
      assert.equal(res.body.title, 'After');
      assert.equal(res.body.permissions.admin, true);
      const read = await t.api('GET', `/v1/orgs/${org.id}`, { token: owner.token });
      assert.equal(read.body.title, 'After');
    });

    test('an empty body changes nothing', async () => {
      const { owner, org } = await newOrganization('Unchanged');
      const res = await t.api('PATCH', `/v1/orgs/${org.id}`, { token: owner.token, body: {} });
      assert.equal(res.status, 200);
      assert.equal(res.body.title, 'Unchanged');
    });

    test('a read member may not update the organization (403) and nothing changes', async () => {
      const reader = await t.member('read');
      const before = await t.api('GET', `/v1/orgs/${t.org.id}`);
      const res = await t.api('PATCH', `/v1/orgs/${t.org.id}`, { token: reader.token, body: { title: 'Hijacked' } });
      assertError(res, 403);
      const afterwards = await t.api('GET', `/v1/orgs/${t.org.id}`);
      assert.equal(afterwards.body.title, before.body.title);
    });

    test('a guest and a create member may not update the organization either', async () => {
      for (const role of [null, 'create'] as const) {
        const member = await t.member(role);
        assertError(await t.api('PATCH', `/v1/orgs/${t.org.id}`, { token: member.token, body: { title: 'Nope' } }), 403);
      }
    });

    test('an outsider updating an organization gets 404, as if it did not exist', async () => {
      const other = await t.outsider();
      assertError(await t.api('PATCH', `/v1/orgs/${t.org.id}`, { token: other.token, body: { title: 'Hijacked' } }), 404);
    });

    test('updating an unknown organization answers 404', async () => {
      assertError(await t.api('PATCH', '/v1/orgs/doesNotExist123', { body: { title: 'Anything' } }), 404);
    });

    test('a title must have 2 to 255 characters, and the error names the field and the rule', async () => {
      const { owner, org } = await newOrganization();
      const patch = (title: unknown) => t.api('PATCH', `/v1/orgs/${org.id}`, { token: owner.token, body: { title } });
      assertError(await patch('a'), 400, /body\/title.*fewer than 2/);
      assertError(await patch(''), 400, /body\/title.*fewer than 2/);
      assertError(await patch('   '), 400, /body\/title.*fewer than 2/);
      assertError(await patch('x'.repeat(256)), 400, /body\/title.*more than 255/);
      assertError(await patch(42), 400, /body\/title.*string/);
      assertError(await patch(null), 400, 'body/title');
      assert.equal((await patch('ab')).status, 200);
      const longest = await patch('y'.repeat(255));
      assert.equal(longest.status, 200);
      assert.equal(longest.body.title, 'y'.repeat(255));
    });

    test('a hostname must match the subdomain pattern', async () => {
      const { owner, org } = await newOrganization();
      for (const hostname of ['ab', 'Upper', 'with_underscore', '-leading', 'trailing-', 'x'.repeat(33), 'dots.not.allowed']) {
        const res = await t.api('PATCH', `/v1/orgs/${org.id}`, { token: owner.token, body: { hostname } });
        assertError(res, 400, 'body/hostname');
      }
      const ok = await t.api('PATCH', `/v1/orgs/${org.id}`, { token: owner.token, body: { hostname: 'my-docs-1' } });
      assert.equal(ok.status, 200);
      assert.equal(ok.body.hostname, 'my-docs-1');
    });

    test('a hostname held by another organization answers 409; keeping its own hostname is fine', async () => {
      const first = await newOrganization('First');
      const second = await newOrganization('Second');
      const hostname = `host-${Date.now().toString(36)}`;
      assert.equal((await t.api('PATCH', `/v1/orgs/${first.org.id}`, { token: first.owner.token, body: { hostname } })).status, 200);
      assertError(await t.api('PATCH', `/v1/orgs/${second.org.id}`, { token: second.owner.token, body: { hostname } }), 409, hostname);
      const again = await t.api('PATCH', `/v1/orgs/${first.org.id}`, { token: first.owner.token, body: { hostname, title: 'First again' } });
      assert.equal(again.status, 200);
      assert.equal(again.body.hostname, hostname);
      assert.equal(again.body.title, 'First again');
      const secondNow = await t.api('GET', `/v1/orgs/${second.org.id}`, { token: second.owner.token });
      assert.equal(secondNow.body.hostname, undefined);
    });

    test('email domains are stored trimmed, lower-cased and without duplicates', async () => {
      const { owner, org } = await newOrganization();
      const res = await t.api('PATCH', `/v1/orgs/${org.id}`, { token: owner.token, body: { emailDomains: [' Example.COM ', 'example.com', 'docs.io'] } });
      assert.equal(res.status, 200);
      assert.deepEqual(res.body.emailDomains, ['example.com', 'docs.io']);
      const cleared = await t.api('PATCH', `/v1/orgs/${org.id}`, { token: owner.token, body: { emailDomains: [] } });
      assert.deepEqual(cleared.body.emailDomains, []);
      assertError(await t.api('PATCH', `/v1/orgs/${org.id}`, { token: owner.token, body: { emailDomains: 'example.com' } }), 400, 'body/emailDomains');
      assertError(await t.api('PATCH', `/v1/orgs/${org.id}`, { token: owner.token, body: { emailDomains: [''] } }), 400, 'body/emailDomains/0');
    });

    test('the default role can be set to a role or to null (guests), and nothing else', async () => {
      const { owner, org } = await newOrganization();
      assert.equal(org.defaultRole, 'read');
      const edit = await t.api('PATCH', `/v1/orgs/${org.id}`, { token: owner.token, body: { defaultRole: 'edit' } });
      assert.equal(edit.status, 200);
      assert.equal(edit.body.defaultRole, 'edit');
      const guest = await t.api('PATCH', `/v1/orgs/${org.id}`, { token: owner.token, body: { defaultRole: null } });
      assert.equal(guest.status, 200);
      assert.equal(guest.body.defaultRole, null);
      assert.equal((await t.api('GET', `/v1/orgs/${org.id}`, { token: owner.token })).body.defaultRole, null);
      assertError(await t.api('PATCH', `/v1/orgs/${org.id}`, { token: owner.token, body: { defaultRole: 'owner' } }), 400, 'body/defaultRole');
    });

    test('default content can be cleared with null, but pointing it at a site that does not exist is a 400', async () => {
      const { owner, org } = await newOrganization();
      const cleared = await t.api('PATCH', `/v1/orgs/${org.id}`, { token: owner.token, body: { defaultContent: null } });
      assert.equal(cleared.status, 200);
      assert.equal(cleared.body.defaultContent, undefined);
      assertError(
        await t.api('PATCH', `/v1/orgs/${org.id}`, { token: owner.token, body: { defaultContent: { type: 'site', site: 'site_missing' } } }),
        400,
        'body/defaultContent',
      );
      assertError(await t.api('PATCH', `/v1/orgs/${org.id}`, { token: owner.token, body: { defaultContent: { type: 'space', space: 'x' } } }), 400, 'body/defaultContent');
    });

    test('merge rules are replaced as a whole and read back', async () => {
      const { owner, org } = await newOrganization();
      const mergeRules = {
        type: 'rules',
        rules: [{ rule: 'require_at_least_one_review' }, { rule: 'require_specific_reviewers', users: [owner.userId] }],
      };
      const res = await t.api('PATCH', `/v1/orgs/${org.id}`, { token: owner.token, body: { mergeRules } });
      assert.equal(res.status, 200);
      assert.deepEqual(res.body.mergeRules, mergeRules);
      assert.deepEqual((await t.api('GET', `/v1/orgs/${org.id}`, { token: owner.token })).body.mergeRules, mergeRules);
      const none = await t.api('PATCH', `/v1/orgs/${org.id}`, { token: owner.token, body: { mergeRules: { type: 'none' } } });
      assert.deepEqual(none.body.mergeRules, { type: 'none' });
      assertError(await t.api('PATCH', `/v1/orgs/${org.id}`, { token: owner.token, body: { mergeRules: { type: 'rules', rules: [{ rule: 'made_up' }] } } }), 400, 'body/mergeRules');
      assertError(await t.api('PATCH', `/v1/orgs/${org.id}`, { token: owner.token, body: { mergeRules: { type: 'sometimes' } } }), 400, 'body/mergeRules');
    });

    test('merge rules name members only: unknown users and members of another organization are 400s (issue 14)', async () => {
      const { owner, org } = await newOrganization();
      const stranger = await t.outsider();
      for (const user of ['no-such-user', stranger.userId]) {
        const mergeRules = { type: 'rules', rules: [{ rule: 'require_at_least_one_review' }, { rule: 'allow_bypass', users: [owner.userId, user] }] };
        const res = await t.api('PATCH', `/v1/orgs/${org.id}`, { token: owner.token, body: { mergeRules } });
        assertError(res, 400, `body/mergeRules/rules/1/users: "${user}" is not a member of this organization`);
      }
      const space = ok(await t.api('POST', `/v1/orgs/${org.id}/spaces`, { token: owner.token, body: { title: 'S' } }), 201);
      const spaceRules = { type: 'rules', rules: [{ rule: 'require_specific_reviewers', users: [stranger.userId] }] };
      assertError(await t.api('PATCH', `/v1/spaces/${space.id}`, { token: owner.token, body: { mergeRules: spaceRules } }), 400, 'is not a member');
      assert.deepEqual((await t.api('GET', `/v1/orgs/${org.id}`, { token: owner.token })).body.mergeRules, { type: 'none' });
    });

    test('the boolean settings are switched on and off', async () => {
      const { owner, org } = await newOrganization();
      const on = await t.api('PATCH', `/v1/orgs/${org.id}`, { token: owner.token, body: { sso: true, ai: true, inviteLinks: true } });
      assert.equal(on.status, 200);
      assert.deepEqual([on.body.sso, on.body.ai, on.body.inviteLinks], [true, true, true]);
      const off = await t.api('PATCH', `/v1/orgs/${org.id}`, { token: owner.token, body: { ai: false } });
      assert.deepEqual([off.body.sso, off.body.ai, off.body.inviteLinks], [true, false, true]);
      assertError(await t.api('PATCH', `/v1/orgs/${org.id}`, { token: owner.token, body: { sso: 'yes' } }), 400, 'body/sso');
    });
  });

  describe('createOrganization', () => {
    test('the caller becomes admin of the new organization: 201, Location, and it is in their list', async () => {
      const user = await t.member('read');
      const res = await t.api('POST', '/v1/orgs', { token: user.token, body: { title: 'Fresh Org', emailDomains: ['Fresh.example'] } });
      assert.equal(res.status, 201);
      assert.equal(res.body.object, 'organization');
      assert.equal(res.body.title, 'Fresh Org');
      assert.deepEqual(res.body.emailDomains, ['fresh.example']);
      assert.equal(res.body.permissions.admin, true);
      assert.equal(res.headers.location, res.body.urls.location);
      assert.equal(res.body.urls.location, `http://quire.test/v1/orgs/${res.body.id}`);

      const read = await t.api('GET', `/v1/orgs/${res.body.id}`, { token: user.token });
      assert.equal(read.status, 200);
      assert.equal(read.body.permissions.admin, true);

      const list = await t.api('GET', '/v1/orgs', { token: user.token });
      const mine = list.body.items.find((o: { id: string }) => o.id === res.body.id);
      assert.ok(mine, 'the new organization is listed');
      assert.equal(mine.permissions.admin, true);
    });

    test('nobody else sees a new organization', async () => {
      const { org } = await newOrganization();
      assertError(await t.api('GET', `/v1/orgs/${org.id}`), 404);
      const list = await t.api('GET', '/v1/orgs');
      assert.ok(!list.body.items.some((o: { id: string }) => o.id === org.id));
    });

    test('a title is required and must have at least 2 characters', async () => {
      assertError(await t.api('POST', '/v1/orgs', { body: {} }), 400, /title/);
      assertError(await t.api('POST', '/v1/orgs'), 400, /title/);
      assertError(await t.api('POST', '/v1/orgs', { body: { title: 'a' } }), 400, /body\/title.*fewer than 2/);
      assertError(await t.api('POST', '/v1/orgs', { body: { title: '  a  ' } }), 400, /body\/title.*fewer than 2/);
      assertError(await t.api('POST', '/v1/orgs', { body: { title: 'x'.repeat(256) } }), 400, /body\/title.*more than 255/);
    });

    test('creating an organization needs a token', async () => {
      assertError(await t.api('POST', '/v1/orgs', { token: null, body: { title: 'Anonymous' } }), 401);
    });
  });

  describe('listOrganizationsForAuthenticatedUser', () => {
    test('the list envelope has count and items, and no next when everything fits', async () => {
      const res = await t.api('GET', '/v1/orgs');
      assert.equal(res.status, 200);
      assert.equal(typeof res.body.count, 'number');
      assert.ok(Array.isArray(res.body.items));
      assert.equal(res.body.count, res.body.items.length);
      assert.equal(res.body.next, undefined);
      assert.ok(res.body.items.some((o: { id: string }) => o.id === t.org.id));
    });

    test('a guest membership is listed, with the permissions of a guest', async () => {
      const guest = await t.member(null);
      const res = await t.api('GET', '/v1/orgs', { token: guest.token });
      assert.equal(res.status, 200);
      assert.equal(res.body.count, 1);
      assert.equal(res.body.items[0].id, t.org.id);
      assert.equal(res.body.items[0].permissions.view, true);
      assert.equal(res.body.items[0].permissions.listMembers, false);
      assert.equal(res.body.items[0].permissions.admin, false);
    });

    test('keyset pagination walks every organization exactly once, whatever the page size', async () => {
      const user = await t.outsider();
      // Some organizations joined at the same instant, some later: ties are broken by id.
      for (let i = 0; i < 4; i++) {
        if (i % 2 === 0) t.clock.advance(1000);
        assert.equal((await t.api('POST', '/v1/orgs', { token: user.token, body: { title: `Paged ${i}` } })).status, 201);
      }
      const all = await t.api('GET', '/v1/orgs?limit=1000', { token: user.token });
      assert.equal(all.body.count, 5);
      const expected = all.body.items.map((o: { id: string }) => o.id);
      assert.equal(new Set(expected).size, 5);

      for (let limit = 1; limit <= 6; limit++) {
        const seen: string[] = [];
        let page: string | undefined;
        let pages = 0;
        do {
          const url = `/v1/orgs?limit=${limit}${page ? `&page=${encodeURIComponent(page)}` : ''}`;
          const res = await t.api('GET', url, { token: user.token });
          assert.equal(res.status, 200, JSON.stringify(res.body));
          assert.equal(res.body.count, 5);
          assert.ok(res.body.items.length <= limit);
          seen.push(...res.body.items.map((o: { id: string }) => o.id));
          page = res.body.next?.page;
          pages += 1;
          assert.ok(pages <= 10, 'pagination terminates');
        } while (page);
        assert.deepEqual(seen, expected, `limit=${limit}`);
        assert.equal(pages, Math.ceil(5 / limit), `limit=${limit}`);
      }
    });

    test('limit must be between 1 and 1000', async () => {
      assertError(await t.api('GET', '/v1/orgs?limit=0'), 400, 'querystring/limit');
      assertError(await t.api('GET', '/v1/orgs?limit=1001'), 400, 'querystring/limit');
      assertError(await t.api('GET', '/v1/orgs?limit=-5'), 400, 'querystring/limit');
      assertError(await t.api('GET', '/v1/orgs?limit=abc'), 400, 'querystring/limit');
      assertError(await t.api('GET', '/v1/orgs?limit=2.5'), 400, 'querystring/limit');
      assertError(await t.api('GET', '/v1/orgs?limit=Infinity'), 400, 'querystring/limit');
      assertError(await t.api('GET', '/v1/orgs?limit=1e400'), 400, 'querystring/limit');
      assert.equal((await t.api('GET', '/v1/orgs?limit=1000')).status, 200);
      assert.equal((await t.api('GET', '/v1/orgs?limit=1')).status, 200);
    });

    test('a tampered page cursor is refused with 400', async () => {
      const user = await t.outsider();
      await t.api('POST', '/v1/orgs', { token: user.token, body: { title: 'Second' } });
      const first = await t.api('GET', '/v1/orgs?limit=1', { token: user.token });
      const page: string = first.body.next.page;
      const [body, signature] = page.split('.') as [string, string];
      const forged = Buffer.from(JSON.stringify(['0000', 'A'])).toString('base64url');
      for (const bad of [`${forged}.${signature}`, `${body}.${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`, `${body}`, 'garbage', `${page}.x`]) {
        assertError(await t.api('GET', `/v1/orgs?limit=1&page=${encodeURIComponent(bad)}`, { token: user.token }), 400, 'querystring/page');
      }
    });

    test('a cursor of another list, or of another user, is refused with 400', async () => {
      const user = await t.outsider();
      await t.api('POST', '/v1/orgs', { token: user.token, body: { title: 'Second' } });
      for (const title of ['One', 'Two']) {
        assert.equal((await t.api('POST', `/v1/orgs/${user.organizationId}/collections`, { token: user.token, body: { title } })).status, 201);
      }
      for (const title of ['Alpha', 'Beta']) {
        assert.equal((await t.api('POST', `/v1/orgs/${user.organizationId}/spaces`, { token: user.token, body: { title } })).status, 201);
      }
      for (const list of ['spaces', 'collections']) {
        const other = await t.api('GET', `/v1/orgs/${user.organizationId}/${list}?limit=1`, { token: user.token });
        assert.equal(other.status, 200);
        const foreign: string = other.body.next.page;
        assertError(await t.api('GET', `/v1/orgs?limit=1&page=${encodeURIComponent(foreign)}`, { token: user.token }), 400, 'querystring/page');
      }

      const mine = await t.api('GET', '/v1/orgs?limit=1', { token: user.token });
      const other = await t.outsider();
      await t.api('POST', '/v1/orgs', { token: other.token, body: { title: 'Other second' } });
      assertError(await t.api('GET', `/v1/orgs?limit=1&page=${encodeURIComponent(mine.body.next.page)}`, { token: other.token }), 400, 'querystring/page');
    });

    test('an empty page parameter means the first page', async () => {
      const res = await t.api('GET', '/v1/orgs?page=');
      assert.equal(res.status, 200);
      assert.ok(res.body.items.length > 0);
    });
  });
});
