import assert from 'node:assert/strict';
import { test } from 'node:test';
import { embedSite } from './embed-site.ts';

test("an embed's card names its URL's host, or the URL when it has none", () => {
  assert.equal(embedSite('https://www.youtube.com/watch?v=1'), 'www.youtube.com');
  assert.equal(embedSite('http://localhost:8080/x'), 'localhost:8080');
  assert.equal(embedSite('/docs/page'), '/docs/page');
  assert.equal(embedSite('mailto:ada@example.org'), 'mailto:ada@example.org');
});
