import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { embedOf, matchesUnfurl, readOEmbed, summarizePage } from './unfurl.ts';

describe('unfurling a URL', () => {
  test('a page says what it is through Open Graph first, then its title; links are made absolute', () => {
    const html = `<!doctype html><html><head>
      <title>  Plain   title </title>
      <meta property="og:title" content="Open &amp; Graph">
      <meta property="og:site_name" content="Example Docs">
      <link rel="shortcut icon" href="/favicon.ico">
      <link rel="alternate" type="application/json+oembed" href="/oembed?url=x">
    </head><body><meta property="og:title" content="ignored"></body></html>`;
    assert.deepEqual(summarizePage(html, 'https://docs.example.com/guide/page'), {
      title: 'Open & Graph',
      site: 'Example Docs',
      icon: 'https://docs.example.com/favicon.ico',
      oembed: 'https://docs.example.com/oembed?url=x',
    });
    assert.deepEqual(summarizePage('<title>\n Only a\ntitle </title><link rel="icon" href="javascript:alert(1)">', 'https://a.example/'), { title: 'Only a title' });
    assert.deepEqual(summarizePage('not html at all', 'https://a.example/'), {});
  });

  test('an oEmbed rich or video answer with HTML is a rich embed; anything else is a link', () => {
    const page = { title: 'Page', site: 'Site', icon: 'https://a.example/i.png' };
    const video = readOEmbed({ type: 'video', version: '1.0', title: 'A talk', provider_name: 'Tube', html: '<iframe src="https://tube.example/e/1"></iframe>' });
    assert.deepEqual(embedOf('https://tube.example/v/1', page, video), {
      type: 'rich',
      title: 'A talk',
      site: 'Tube',
      icon: 'https://a.example/i.png',
      html: '<iframe src="https://tube.example/e/1"></iframe>',
    });
    assert.deepEqual(embedOf('https://a.example/p', page, readOEmbed({ type: 'photo', url: 'https://a.example/p.png' })), { type: 'link', ...page });
    assert.equal(readOEmbed(['not', 'an', 'object']), undefined);
    assert.equal(readOEmbed({ title: 'no type' }), undefined);
    assert.deepEqual(embedOf('https://bare.example/some/page', {}), { type: 'link', title: 'https://bare.example/some/page', site: 'bare.example' });
  });

  test('an integration block unfurls the URLs its patterns match, scheme and host without case', () => {
    assert.ok(matchesUnfurl('https://figma.com/file/abc', 'https://figma.com/*'));
    assert.ok(matchesUnfurl('HTTPS://FIGMA.COM/file', 'https://figma.com/*'));
    assert.ok(matchesUnfurl('https://www.figma.com/file', 'https://*.figma.com/*'));
    assert.ok(!matchesUnfurl('https://figma.com.evil.example/file', 'https://figma.com/*'.replace('/*', '/x/*')));
    assert.ok(!matchesUnfurl('https://evil.example/?https://figma.com/x', 'https://figma.com/*'));
    assert.ok(!matchesUnfurl('https://figmaxcom/file', 'https://figma.com/*'), 'a dot is a dot');
  });
});
