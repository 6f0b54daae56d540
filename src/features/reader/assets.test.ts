import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, test } from 'node:test';
import { ASSETS_BASE, assetPath, readerAssets } from './assets.ts';

describe('reader assets', () => {
  test('each asset is named by a hash of its content, so it can be cached for a year', () => {
    assert.equal(readerAssets.size, 2);
    for (const [name, asset] of readerAssets) {
      const hash = createHash('sha256').update(asset.body).digest('hex').slice(0, 12);
      assert.equal(name, asset.name);
      assert.match(name, new RegExp(`^reader\\.${hash}\\.(css|js)$`));
      assert.equal(asset.etag, `"${hash}"`);
      assert.ok(asset.body.length > 1000);
    }
  });

  test('paths for the layout point at those names', () => {
    assert.equal(assetPath('css'), `${ASSETS_BASE}${[...readerAssets.keys()].find((n) => n.endsWith('.css'))}`);
    assert.equal(readerAssets.get(assetPath('js').slice(ASSETS_BASE.length))?.contentType, 'text/javascript; charset=utf-8');
  });

  test('the stylesheet and script load nothing from another host', () => {
    for (const asset of readerAssets.values()) assert.doesNotMatch(asset.body.toString(), /@import|url\(\s*["']?https?:|fonts\.googleapis/);
  });
});
