import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { assertError, ok } from '../../../test/assertions.ts';
import { buildChangeRequest, buildPage, buildSpace, requestReviewers } from '../../../test/factories.ts';
import type { TestServer } from '../../../test/helpers.ts';
import { startMailingServer, type SmtpSink } from '../../../test/smtp-sink.ts';
import { mentionedUsers } from './mentions.ts';

const doc = (text: string) => ({ object: 'document', nodes: [{ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text }] }] }] });

describe('mentions in a comment', () => {
  const people = [
    { userId: 'ann', displayName: 'Ann', email: 'ann@x.test' },
    { userId: 'anna', displayName: 'Anna Lee', email: 'alee@x.test' },
  ];
  test('@ and a display name or the e-mail’s name mentions that person, not another whose name starts alike', () => {
    assert.deepEqual(mentionedUsers(doc('Thanks @Ann, see this'), people), ['ann']);
    assert.deepEqual(mentionedUsers(doc('@anna lee and @alee'), people), ['anna']);
    assert.deepEqual(mentionedUsers(doc('mail ann@x.test'), people), []);
  });
  test('a link to a person mentions them', () => {
    const linked = { object: 'document', nodes: [{ object: 'inline', type: 'link', data: { ref: { kind: 'user', user: 'anna' } }, nodes: [] }] };
    assert.deepEqual(mentionedUsers(linked, people), ['anna']);
  });
});

describe('the inbox: /v1/user/notifications', { timeout: 60_000 }, () => {
  let t: TestServer;
  let smtp: SmtpSink;
  let close: () => Promise<void>;
  before(async () => ({ t, smtp, close } = await startMailingServer()));
  after(() => close?.());

  test('a review request reaches the reviewer’s inbox, unread, and by mail; marking it read empties the count', async () => {
    const reviewer = await t.member('review');
    const space = await buildSpace(t, { title: 'Guides' });
    const cr = await buildChangeRequest(t, space.id, { subject: 'Better intro' });
    await requestReviewers(t, space.id, cr.id, [reviewer.userId]);

    const list = ok(await t.api('GET', '/v1/user/notifications', { token: reviewer.token }));
    assert.equal(list.items.length, 1);
    const [notice] = list.items;
    assert.equal(notice.kind, 'review_requested');
    assert.equal(notice.read, false);
    assert.equal(notice.changeRequest, cr.id);
    assert.match(notice.title, /asked you to review #\d+ Better intro/);
    assert.match(notice.urls.app, new RegExp(`/app/s/${space.id}/~/changes/${cr.number}$`));
    assert.deepEqual(ok(await t.api('GET', '/v1/user/notifications/summary', { token: reviewer.token })), { unread: 1 });

    await t.app.jobs.runDue();
    const mail = await smtp.next(reviewer.email);
    assert.match(mail.raw, /Better intro/);

    const read = ok(await t.api('PATCH', `/v1/user/notifications/${notice.id}`, { token: reviewer.token, body: { read: true } }));
    assert.equal(read.read, true);
    assert.deepEqual(ok(await t.api('GET', '/v1/user/notifications/summary', { token: reviewer.token })), { unread: 0 });
    assert.equal(ok(await t.api('GET', '/v1/user/notifications?unread=true', { token: reviewer.token })).items.length, 0);
    // The one who asked hears nothing of their own request.
    assert.equal(ok(await t.api('GET', '/v1/user/notifications')).items.length, 0);
  });

  test('a mention in a comment notifies the person mentioned, and a reply the thread’s author', async () => {
    const writer = await t.member('edit');
    const reader = await t.member('comment');
    const space = await buildSpace(t, { title: 'Notes' });
    const pageId = await buildPage(t, space.id, { title: 'Intro' });
    const cr = await buildChangeRequest(t, space.id, { subject: 'Notes', token: writer.token });
    const readerName = ok(await t.api('GET', '/v1/user', { token: reader.token })).displayName;
    const comment = ok(
      await t.api('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/comments`, { token: writer.token, body: { page: pageId, body: { markdown: `What do you think, @${readerName}?` } } }),
    );
    const mentioned = ok(await t.api('GET', '/v1/user/notifications', { token: reader.token })).items;
    assert.deepEqual(mentioned.map((n: { kind: string }) => n.kind), ['mention']);
    assert.match(mentioned[0].urls.app, new RegExp(`\\?page=${pageId}$`));

    ok(await t.api('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/comments/${comment.id}/replies`, { token: reader.token, body: { body: { markdown: 'Looks good.' } } }));
    const replies = ok(await t.api('GET', '/v1/user/notifications', { token: writer.token })).items;
    assert.deepEqual(replies.map((n: { kind: string }) => n.kind), ['reply']);
    assert.equal(replies[0].comment, comment.id);
  });

  test('without a token the inbox answers 401', async () => {
    assertError(await t.api('GET', '/v1/user/notifications', { token: null }), 401);
    assertError(await t.api('GET', '/v1/user/notifications/summary', { token: null }), 401);
  });

  test('another person’s notification is not found', async () => {
    const reviewer = await t.member('review');
    const other = await t.member('review');
    const space = await buildSpace(t, { title: 'Private notes' });
    const cr = await buildChangeRequest(t, space.id);
    await requestReviewers(t, space.id, cr.id, [reviewer.userId]);
    const [notice] = ok(await t.api('GET', '/v1/user/notifications', { token: reviewer.token })).items;
    assertError(await t.api('PATCH', `/v1/user/notifications/${notice.id}`, { token: other.token, body: { read: true } }), 404);
    assertError(await t.api('PATCH', '/v1/user/notifications/nope', { token: reviewer.token, body: { read: true } }), 404);
    assertError(await t.api('PATCH', `/v1/user/notifications/${notice.id}`, { token: reviewer.token, body: { read: 'yes' } }), 400);
  });

  test('marking all read leaves none unread', async () => {
    const reviewer = await t.member('review');
    const space = await buildSpace(t, { title: 'Many' });
    // The test clock stands still unless moved: a second apart, "Two" is the newer (ids break ties at random).
    for (const subject of ['One', 'Two']) {
      await requestReviewers(t, space.id, (await buildChangeRequest(t, space.id, { subject })).id, [reviewer.userId]);
      t.clock.advance(1000);
    }
    assert.deepEqual(ok(await t.api('GET', '/v1/user/notifications/summary', { token: reviewer.token })), { unread: 2 });
    const page = ok(await t.api('GET', '/v1/user/notifications?limit=1', { token: reviewer.token }));
    assert.equal(page.items[0].title.includes('Two'), true, 'newest first');
    assert.ok(page.next?.page);
    assert.equal(ok(await t.api('GET', `/v1/user/notifications?limit=1&page=${page.next.page}`, { token: reviewer.token })).items[0].title.includes('One'), true);
    assert.equal((await t.api('POST', '/v1/user/notifications/read', { token: reviewer.token })).status, 204);
    assert.deepEqual(ok(await t.api('GET', '/v1/user/notifications/summary', { token: reviewer.token })), { unread: 0 });
  });
});
