import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, test } from 'node:test';
import { emojiCode, findEmoji, type EmojiEntry } from './emoji-data.ts';

const data = JSON.parse(readFileSync(createRequire(import.meta.url).resolve('unicode-emoji-json/data-by-emoji.json'), 'utf8')) as Record<string, { name: string; slug: string }>;
const all: EmojiEntry[] = Object.entries(data).map(([char, e]) => ({ char, name: e.name, slug: e.slug }));

describe('finding an emoji by name', () => {
  test('a short name typed whole comes first, then those that start with it, then the words that start with it', () => {
    assert.equal(findEmoji(all, 'rocket')[0]!.char, '🚀');
    const thumbs = findEmoji(all, 'thumbs');
    assert.deepEqual(thumbs.map((e) => e.slug), ['thumbs_up', 'thumbs_down']);
    assert.ok(findEmoji(all, 'up', 100).some((e) => e.slug === 'thumbs_up'), 'a later word of the name');
    assert.equal(findEmoji(all, 'up', 100).findIndex((e) => e.slug === 'thumbs_up') > findEmoji(all, 'up', 100).findIndex((e) => e.slug === 'up_arrow'), true, 'after the names that start with it');
  });

  test('spaces, dashes and underscores in a query are one and the same; case does not matter', () => {
    assert.equal(findEmoji(all, 'Thumbs Up')[0]!.slug, 'thumbs_up');
    assert.equal(findEmoji(all, 'thumbs-up')[0]!.slug, 'thumbs_up');
  });

  test('at most the limit, and nothing for an empty query or a name no emoji has', () => {
    assert.equal(findEmoji(all, 'face').length, 8);
    assert.equal(findEmoji(all, 'face', 3).length, 3);
    assert.deepEqual(findEmoji(all, ''), []);
    assert.deepEqual(findEmoji(all, 'zzqx'), []);
  });

  test('an emoji is stored as its code points in hex, as GitBook stores it', () => {
    assert.equal(emojiCode('👍'), '1f44d');
    assert.equal(emojiCode('❤️'), '2764-fe0f');
  });
});
