import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TestServer } from '../helpers.ts';
import { ok } from '../assertions.ts';
import { buildCollection, buildSpace } from '../factories.ts';
import { createLink } from '../../src/features/auth/links.ts';
import { rejectsWith } from './gitbook-client.ts';
import { e2eSession } from './e2e-session.ts';

/**
 * The organization's audit log through the official client: every security-relevant action leaves one event,
 * written with the action (an action refused leaves none), read by the organization's admins only, newest
 * first, filtered and paged as the spec says.
 */

const OPERATIONS = ['listOrganizationAuditEvents', 'getOrganizationAuditEvent', 'listOrganizationAuditEventActions'];

const AGENT = 'AuditTest/1.0';

describe('the audit log through the official client', { timeout: 180_000 }, () => {
  const session = e2eSession();

  /** The newest events of the bootstrap organization with this action, through the official client. */
  async function eventsOf(action: string, extra: { actor?: string; target?: string } = {}) {
    const { data } = await session.latest().orgs.listOrganizationAuditEvents(session.t.org.id, { action, ...extra, limit: 100 });
    return data.items;
  }

  /** An admin's call with a user agent of its own, so that the event shows where it came from. */
  const asAdmin = (t: TestServer, method: 'POST' | 'PATCH' | 'DELETE' | 'PUT', path: string, body?: unknown) =>
    t.api(method, path, { headers: { 'user-agent': AGENT }, ...(body !== undefined ? { body } : {}) });

  /**
   * Each row: an action done through the API, and the event it must leave (action and target id). Table-driven,
   * so that an action added to the catalogue is added here with its way of happening.
   */
  const actions: { action: string; run: (t: TestServer) => Promise<string> }[] = [
    {
      action: 'invite_link.created',
      run: async (t) => ok(await asAdmin(t, 'POST', `/v1/orgs/${t.org.id}/link-invites`, { role: 'read' }), 201).id as string,
    },
    {
      action: 'invite_link.revoked',
      run: async (t) => {
        const { id } = ok(await asAdmin(t, 'POST', `/v1/orgs/${t.org.id}/link-invites`, { role: 'read' }), 201) as { id: string };
        assert.equal((await asAdmin(t, 'DELETE', `/v1/orgs/${t.org.id}/link-invites/${id}`)).status, 205);
        return id;
      },
    },
    {
      action: 'member.role_changed',
      run: async (t) => {
        const member = await t.member('read');
        ok(await asAdmin(t, 'PATCH', `/v1/orgs/${t.org.id}/members/${member.userId}`, { role: 'edit' }));
        return member.userId;
      },
    },
    {
      action: 'member.removed',
      run: async (t) => {
        const member = await t.member('read');
        assert.equal((await asAdmin(t, 'DELETE', `/v1/orgs/${t.org.id}/members/${member.userId}`)).status, 204);
        return member.userId;
      },
    },
    {
      action: 'member.added',
      run: async (t) => {
        const { id } = ok(await asAdmin(t, 'POST', `/v1/orgs/${t.org.id}/link-invites`, { role: 'read' }), 201) as { id: string };
        const outsider = await t.outsider();
        ok(await t.api('POST', `/v1/orgs/${t.org.id}/invites/${id}`, { token: outsider.token }));
        return outsider.userId;
      },
    },
    {
      action: 'api_token.created',
      run: async (t) => ok(await asAdmin(t, 'POST', '/v1/user/tokens', { label: 'CI' }), 201).id as string,
    },
    {
      action: 'api_token.revoked',
      run: async (t) => {
        const { id } = ok(await asAdmin(t, 'POST', '/v1/user/tokens', { label: 'Short-lived' }), 201) as { id: string };
        assert.equal((await asAdmin(t, 'DELETE', `/v1/user/tokens/${id}`)).status, 204);
        return id;
      },
    },
    {
      action: 'space.deleted',
      run: async (t) => {
        const space = await buildSpace(t, { title: 'Doomed space' });
        assert.equal((await asAdmin(t, 'DELETE', `/v1/spaces/${space.id}`)).status, 204);
        return space.id as string;
      },
    },
    {
      action: 'space.moved',
      run: async (t) => {
        const [space, collection] = await Promise.all([buildSpace(t, { title: 'Wandering space' }), buildCollection(t, { title: 'New home' })]);
        ok(await asAdmin(t, 'POST', `/v1/spaces/${space.id}/move`, { parent: collection.id }));
        return space.id as string;
      },
    },
    {
      action: 'collection.deleted',
      run: async (t) => {
        const collection = await buildCollection(t, { title: 'Doomed collection' });
        assert.equal((await asAdmin(t, 'DELETE', `/v1/collections/${collection.id}`)).status, 204);
        return collection.id as string;
      },
    },
    {
      action: 'site.visibility_changed',
      run: async (t) => {
        const site = ok(await asAdmin(t, 'POST', `/v1/orgs/${t.org.id}/sites`, { title: 'Audited site' }), 201) as { id: string };
        ok(await asAdmin(t, 'POST', `/v1/orgs/${t.org.id}/sites/${site.id}/publish`));
        return site.id;
      },
    },
    {
      // A share link opens the site to whoever holds it.
      action: 'site.sharing_changed',
      run: async (t) => {
        const site = ok(await asAdmin(t, 'POST', `/v1/orgs/${t.org.id}/sites`, { title: 'Shared by link' }), 201) as { id: string };
        ok(await asAdmin(t, 'POST', `/v1/orgs/${t.org.id}/sites/${site.id}/share-links`, { name: 'Partners' }), 201);
        return site.id;
      },
    },
    {
      action: 'site.visitor_auth_changed',
      run: async (t) => {
        const site = ok(await asAdmin(t, 'POST', `/v1/orgs/${t.org.id}/sites`, { title: 'Behind visitor auth' }), 201) as { id: string };
        ok(await asAdmin(t, 'POST', `/v1/orgs/${t.org.id}/sites/${site.id}/publishing/auth/regenerate`));
        return site.id;
      },
    },
    {
      action: 'git_sync.installed',
      run: async (t) => {
        const space = await buildSpace(t, { title: 'Synced by installation' });
        ok(await asAdmin(t, 'POST', '/v1/git/installations', { provider: 'github', target: { type: 'space', spaceId: space.id } }), 201);
        return space.id as string;
      },
    },
    {
      action: 'git_sync.uninstalled',
      run: async (t) => {
        const space = await buildSpace(t, { title: 'Unsynced by installation' });
        const installed = ok(await asAdmin(t, 'POST', '/v1/git/installations', { provider: 'github', target: { type: 'space', spaceId: space.id } }), 201) as { id: string };
        assert.equal((await asAdmin(t, 'DELETE', `/v1/git/installations/${installed.id}`)).status, 205);
        return space.id as string;
      },
    },
  ];

  for (const { action, run } of actions) {
    test(`${action} is recorded with who did it, from where, and what it was done to`, async () => {
      const { t } = session;
      const target = await run(t);
      const [event] = await eventsOf(action, { target });
      assert.ok(event, `no ${action} event for ${target}`);
      assert.equal(event.target.id, target);
      assert.equal(event.actor.type, 'user');
      assert.ok(event.actor.id, 'the actor is named');
      const { data: details } = await session.latest().orgs.getOrganizationAuditEvent(t.org.id, event.id);
      assert.equal(details.action, action);
      assert.equal(details.schemaVersion, 1);
      const request = details.payload.request as { ipAddress: string | null; userAgent: string | null };
      assert.ok(request.ipAddress, 'the address of the request is kept');
    });
  }

  test('an admin reads the log newest first, filtered by action, actor and time, in pages; details carry the request', async () => {
    const { t } = session;
    const api = session.latest().orgs;
    const org = t.org.id;
    // Other tests' events share the clock: what this one makes starts a second later.
    t.clock.advance(1000);
    const from = t.clock.now().toISOString();
    const ids: string[] = [];
    for (const role of ['read', 'edit', 'admin'] as const) {
      ids.push(ok(await asAdmin(t, 'POST', `/v1/orgs/${org}/link-invites`, { role }), 201).id as string);
      t.clock.advance(1000);
    }
    const { data: first } = await api.listOrganizationAuditEvents(org, { action: 'invite_link.created', from, limit: 2 });
    assert.deepEqual(first.items.map((e) => e.target.id), [ids[2], ids[1]], 'newest first');
    assert.ok(first.next, 'a next page');
    const { data: second } = await api.listOrganizationAuditEvents(org, { action: 'invite_link.created', from, limit: 2, page: first.next!.page });
    assert.deepEqual(second.items.map((e) => e.target.id), [ids[0]]);
    assert.equal(second.next, undefined);

    const { data: byActor } = await api.listOrganizationAuditEvents(org, { actor: t.admin.userId, from });
    assert.ok(byActor.items.length >= 3 && byActor.items.every((e) => e.actor.id === t.admin.userId));
    const { data: nobody } = await api.listOrganizationAuditEvents(org, { actor: 'nobody-at-all', from });
    assert.deepEqual(nobody.items, []);
    const { data: upTo } = await api.listOrganizationAuditEvents(org, { action: 'invite_link.created', from, to: from });
    assert.deepEqual(upTo.items.map((e) => e.target.id), [ids[0]], 'both bounds are inclusive; later events are left out');

    const newest = first.items[0]!;
    assert.equal(newest.source, 'api');
    assert.equal(newest.actor.label !== undefined, true, 'the actor is labelled with their name');
    assert.ok(newest.urls.location.endsWith(`/v1/orgs/${org}/audit-events/${newest.id}`));
    const { data: details } = await api.getOrganizationAuditEvent(org, newest.id);
    assert.deepEqual(details.payload.role, 'admin');
    assert.equal((details.payload.request as { userAgent: string }).userAgent, AGENT);

    const { data: actions } = await api.listOrganizationAuditEventActions(org);
    assert.ok(actions.items.some((a) => a.id === 'invite_link.created' && a.label === 'Invite link created'));
    assert.ok(actions.items.every((a) => a.object === 'audit-event-action'));

    await rejectsWith(api.getOrganizationAuditEvent(org, '00000000-0000-4000-8000-000000000000'), 404);
    await rejectsWith(api.listOrganizationAuditEvents(org, { from: t.clock.now().toISOString(), to: from }), 400, 'querystring/from');
    session.assertConformed(OPERATIONS);
  });

  test('members who are not admins are refused (403); outsiders learn nothing of the organization (404)', async () => {
    const { t } = session;
    const org = t.org.id;
    const [event] = await eventsOf('invite_link.created');
    const editor = await t.member('edit');
    const asEditor = session.latest(editor.token).orgs;
    await rejectsWith(asEditor.listOrganizationAuditEvents(org), 403);
    await rejectsWith(asEditor.listOrganizationAuditEventActions(org), 403);
    if (event) await rejectsWith(asEditor.getOrganizationAuditEvent(org, event.id), 403);
    const outsider = await t.outsider();
    const asOutsider = session.latest(outsider.token).orgs;
    await rejectsWith(asOutsider.listOrganizationAuditEvents(org), 404);
    await rejectsWith(asOutsider.listOrganizationAuditEventActions(org), 404);
    if (event) await rejectsWith(asOutsider.getOrganizationAuditEvent(org, event.id), 404);
    // Their own organization's log does not show ours.
    const { data: theirs } = await asOutsider.listOrganizationAuditEvents(outsider.organizationId);
    assert.ok(theirs.items.every((e) => e.target.id !== event?.target.id));
  });

  test('an action that fails records nothing: the event is written in its transaction', async () => {
    const { t } = session;
    const org = t.org.id;
    // The last admin cannot be demoted: the change is refused, and so is its event.
    const before = await eventsOf('member.role_changed', { target: t.admin.userId });
    const res = await asAdmin(t, 'PATCH', `/v1/orgs/${org}/members/${t.admin.userId}`, { role: 'read' });
    assert.equal(res.status, 409);
    assert.deepEqual(await eventsOf('member.role_changed', { target: t.admin.userId }), before);
    // A reader may not create an invite link: no event either.
    const reader = await t.member('read');
    const refused = await t.api('POST', `/v1/orgs/${org}/link-invites`, { token: reader.token, body: { role: 'admin' } });
    assert.equal(refused.status, 403);
    assert.deepEqual(await eventsOf('invite_link.created', { actor: reader.userId }), []);
  });

  test('signing in and out with a password is recorded in the organizations of the person, with the browser', async () => {
    const { t } = session;
    const member = await t.member('edit');
    const link = await createLink(t.app.ctx, t.db, { kind: 'first-start', userId: member.userId });
    const password = 'a long enough password';
    const opened = await t.api('POST', `/v1/auth/links/${link.url.slice(link.url.lastIndexOf('/') + 1)}`, {
      token: null,
      headers: { 'user-agent': 'AuditBrowser/2.0' },
      body: { password, displayName: 'Audited person' },
    });
    assert.equal(opened.status, 200, JSON.stringify(opened.body));
    const signIn = await t.api('POST', '/v1/auth/sign-in', { token: null, headers: { 'user-agent': 'AuditBrowser/2.0' }, body: { email: member.email, password } });
    assert.equal(signIn.status, 200, JSON.stringify(signIn.body));
    const signIns = await eventsOf('user.signed_in', { actor: member.userId });
    assert.deepEqual(signIns.map((e) => e.source), ['ui', 'ui'], 'the link and then the password');
    assert.equal(signIns[0]!.actor.label, 'Audited person');
    const { data: details } = await session.latest().orgs.getOrganizationAuditEvent(t.org.id, signIns[0]!.id);
    assert.equal(details.payload.method, 'password');
    assert.equal((details.payload.request as { userAgent: string }).userAgent, 'AuditBrowser/2.0');

    const cookie = ([signIn.headers['set-cookie'] ?? []].flat() as string[]).map((c) => c.split(';')[0]).join('; ');
    const csrf = /quire_csrf=([^;]+)/.exec(cookie)![1]!;
    const out = await t.api('POST', '/v1/auth/sign-out', { token: null, headers: { cookie, 'x-csrf-token': csrf } });
    assert.equal(out.status, 204);
    assert.equal((await eventsOf('user.signed_out', { actor: member.userId })).length, 1);
  });

  test('failed sign-ins that trip the throttle are recorded once, with the address they came from', async () => {
    const { t } = session;
    const member = await t.member('read');
    const link = await createLink(t.app.ctx, t.db, { kind: 'first-start', userId: member.userId });
    ok(await t.api('POST', `/v1/auth/links/${link.url.slice(link.url.lastIndexOf('/') + 1)}`, { token: null, body: { password: 'the right password here' } }));
    const statuses: number[] = [];
    for (let i = 0; i < 7; i += 1) {
      statuses.push((await t.api('POST', '/v1/auth/sign-in', { token: null, body: { email: member.email, password: `wrong guess ${i}` } })).status);
    }
    assert.ok(statuses.includes(429), statuses.join());
    const [tripped, ...more] = await eventsOf('user.sign_in_throttled', { target: member.userId });
    assert.ok(tripped, 'the burst is recorded');
    assert.deepEqual(more, [], 'once per trip, not per refused attempt');
    assert.equal(tripped.actor.type, 'system');
  });
});
