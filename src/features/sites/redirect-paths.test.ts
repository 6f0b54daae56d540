import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { appendSuffix, normaliseSource, redirectStatus, wildcardCandidates, wildcardSuffix } from './redirect-paths.ts';

describe('site redirect sources', () => {
  test('a source is normalised as the reader compares paths, its wildcard kept', () => {
    assert.equal(normaliseSource('/a//b/'), '/a/b');
    assert.equal(normaliseSource('/a/*'), '/a/*');
    assert.equal(normaliseSource('/a*'), '/a*');
  });

  test('a folder wildcard matches what is under the folder and the folder itself', () => {
    assert.equal(wildcardSuffix('/old/*', '/old/guide/intro'), 'guide/intro');
    assert.equal(wildcardSuffix('/old/*', '/old'), '');
    assert.equal(wildcardSuffix('/old/*', '/older/x'), undefined);
  });

  test('a wildcard after a name matches any path that starts with it', () => {
    assert.equal(wildcardSuffix('/old*', '/older/x'), 'er/x');
    assert.equal(wildcardSuffix('/old*', '/new'), undefined);
  });

  test('a source without a wildcard matches its path only', () => {
    assert.equal(wildcardSuffix('/old', '/old'), '');
    assert.equal(wildcardSuffix('/old', '/old/x'), undefined);
  });

  test('the candidates of a path are its prefixes with a wildcard, the longest first', () => {
    assert.deepEqual(wildcardCandidates('/a/b'), ['/a/b/*', '/a/b*', '/a/*', '/a*', '/*']);
    assert.ok(wildcardCandidates(`/${'x'.repeat(600)}`).every((c) => c.length <= 512));
  });

  test('a captured suffix goes after the path of the destination, before its query', () => {
    assert.equal(appendSuffix('https://docs.example.com/guides/', 'intro/setup'), 'https://docs.example.com/guides/intro/setup');
    assert.equal(appendSuffix('https://example.com/page?lang=en#top', 'more'), 'https://example.com/page/more?lang=en#top');
    assert.equal(appendSuffix('https://example.com/page', ''), 'https://example.com/page');
  });

  test('a permanent redirect is 308 for public live traffic, 307 elsewhere; others 302', () => {
    assert.equal(redirectStatus(true, true), 308);
    assert.equal(redirectStatus(true, false), 307);
    assert.equal(redirectStatus(false, true), 302);
  });
});
