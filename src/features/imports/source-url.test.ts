import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertApiError } from '../../../test/assertions.ts';
import { parseImportUrl } from './source-url.ts';

test('an import URL is absolute and http or https; a refusal names the field the caller gave it in', async () => {
  assert.equal(parseImportUrl('https://example.com/guide', 'body/url').href, 'https://example.com/guide');
  assert.equal(parseImportUrl('http://example.com/', 'body/source/url').hostname, 'example.com');
  await assertApiError(() => parseImportUrl('guide.md', 'body/url'), 400, /^body\/url: "guide\.md" is not an absolute URL$/);
  await assertApiError(() => parseImportUrl('guide.md', 'body/source/url'), 400, /^body\/source\/url: "guide\.md" is not an absolute URL$/);
  await assertApiError(() => parseImportUrl('ftp://example.com/a.md', 'body/source/url'), 400, /^body\/source\/url: only http and https URLs can be imported, not ftp$/);
  await assertApiError(() => parseImportUrl('file:///etc/passwd', 'body/url'), 400, /^body\/url: only http and https URLs can be imported, not file$/);
});
