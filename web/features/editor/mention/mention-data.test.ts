import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { OrganizationMember, RevisionPage } from '../../../api/types.ts';
import { findMentions, membersOf, mentionInline, pagesOf } from './mention-data.ts';

const page = (id: string, title: string, pages: unknown[] = [], type = 'document') => ({ id, title, path: title.toLowerCase(), type, pages }) as unknown as RevisionPage;

test('the pages one mentions are the documents of the tree, in its order, groups and links left out', () => {
  const tree = [page('a', 'Install', [page('b', 'On Linux')]), page('g', 'Reference', [page('c', 'API')], 'group'), page('l', 'Blog', [], 'link')];
  assert.deepEqual(pagesOf(tree).map((p) => p.label), ['Install', 'On Linux', 'API']);
});

test('members and pages are found by a word of their name, or by letters in order; nothing typed offers the first ones', () => {
  const members = membersOf([
    { user: { id: 'u1', displayName: 'Ada Lovelace', email: 'ada@example.com' } },
    { user: { id: 'u2', displayName: 'Grace Hopper', email: 'grace@example.com' } },
  ] as unknown as OrganizationMember[]);
  const all = [...members, ...pagesOf([page('p1', 'Install guide'), page('p2', 'Grace period')])];
  assert.deepEqual(findMentions(all, 'grace').map((c) => c.label), ['Grace Hopper', 'Grace period']);
  assert.deepEqual(findMentions(all, 'love').map((c) => c.label), ['Ada Lovelace']);
  assert.deepEqual(findMentions(all, 'inst').map((c) => c.id), ['p1']);
  assert.deepEqual(findMentions(all, '', 3).map((c) => c.id), ['u1', 'u2', 'p1']);
  assert.deepEqual(findMentions(all, 'zzz'), []);
});

test('a mention is GitBook\'s inline, referring to a user or a page', () => {
  assert.deepEqual(mentionInline({ kind: 'user', id: 'u1', label: 'Ada', detail: '' }), { object: 'inline', type: 'mention', isVoid: true, data: { ref: { kind: 'user', user: 'u1' } } });
  assert.deepEqual(mentionInline({ kind: 'page', id: 'p1', label: 'Install', detail: '' }).data, { ref: { kind: 'page', page: 'p1' } });
});
