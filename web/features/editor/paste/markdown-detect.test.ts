import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { htmlHasBlocks, looksLikeMarkdown } from './markdown-detect.ts';

describe('pasted text read as markdown', () => {
  test('text with block structure is markdown', () => {
    for (const text of [
      '# Getting started\n\nInstall it.',
      '- one\n- two',
      '1. first\n2. second',
      '```js\nlet a = 1;\n```',
      '{% hint style="info" %}\nA hint\n{% endhint %}',
      '| a | b |\n| - | - |\n| 1 | 2 |',
      'Intro\n\n> quoted\n> more',
      '## Title',
      '- a single item',
    ]) {
      assert.equal(looksLikeMarkdown(text), true, text);
    }
  });

  test('plain text and inline marks alone are not', () => {
    for (const text of ['', 'Just a sentence with *stars* and a [link](https://example.com).', 'https://example.com/page', 'line one\nline two', '#hashtag', 'a - b\n---', 'x\n> y']) {
      assert.equal(looksLikeMarkdown(text), false, text);
    }
  });

  test('HTML of blocks is preferred over its text; a code editor\'s spans are not blocks', () => {
    assert.equal(htmlHasBlocks('<meta charset="utf-8"><h1>Title</h1><p>x</p>'), true);
    assert.equal(htmlHasBlocks('<div style="color: #fff"><div><span>#</span><span> Title</span></div></div>'), false);
  });
});
