import { after, before, describe, test } from 'node:test';
import { png } from '../../../test/fixtures/png.ts';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startServer, type TestServer } from '../../../test/helpers.ts';
import { buildChangeRequest, buildSpace } from '../../../test/factories.ts';
import { assertApiError, assertError, ok } from '../../../test/assertions.ts';
import type { AppContext } from '../../platform/context.ts';
import { blobHash } from '../../platform/blob-store.ts';
import { fetchRemoteFile, fileDownloadUrl, storeFileBytes } from './service.ts';

/** Content nobody else in the run stores, so dedupe checks see only their own bytes. */
let unique = 0;
function distinct(text: string): string {
  unique += 1;
  return `${text} ${unique} ${Date.now()}`;
}

describe('files', () => {
  let t: TestServer;
  let ctx: AppContext;
  before(async () => {
    t = await startServer();
    ctx = t.app.ctx;
  });
  after(() => t.close());

  const store = (name: string, bytes: Buffer, contentType?: string) => storeFileBytes(ctx, t.db, { name, bytes, contentType });
  const pathOf = (url: string) => url.slice(t.config.publicUrl.length);

  describe('storing bytes', () => {
    test('a PNG is recognised from its bytes and measured', async () => {
      const bytes = png(3, 2, 0x11);
      const file = await store('diagram.bin', bytes);
      assert.deepEqual(file, { hash: blobHash(bytes), size: bytes.length, contentType: 'image/png', width: 3, height: 2 });
      assert.deepEqual(await ctx.blobs.get(file.hash), bytes);
    });

    test('the bytes decide over a declared type they contradict', async () => {
      const file = await store('photo.jpg', png(40, 30, 0x22), 'image/jpeg');
      assert.equal(file.contentType, 'image/png');
      assert.equal(file.width, 40);
      assert.equal(file.height, 30);
    });

    test('the same bytes are stored once, whatever they are called', async () => {
      const bytes = Buffer.from(distinct('shared notes'));
      const first = await store('a.txt', bytes);
      const second = await store('copy-of-a.txt', Buffer.from(bytes));
      assert.equal(first.hash, second.hash);
      const rows = await t.db.selectFrom('blobs').selectAll().where('hash', '=', first.hash).execute();
      assert.equal(rows.length, 1);
      assert.equal(rows[0]!.size, bytes.length);
      assert.equal(rows[0]!.content_type, 'text/plain');
    });

    test('identical bytes keep the type decided when they were first stored', async () => {
      const bytes = Buffer.from(distinct('# Heading'));
      assert.equal((await store('readme.md', bytes)).contentType, 'text/markdown');
      assert.equal((await store('readme.txt', bytes)).contentType, 'text/markdown', 'the download serves one type for one hash');
    });

    test('a file over FILE_SIZE_LIMIT is refused with a 413 that names it', async () => {
      const small = { ...ctx, config: { ...ctx.config, fileSizeLimit: 1024 } };
      const bytes = Buffer.alloc(2048, 1);
      await assertApiError(storeFileBytes(small, t.db, { name: 'huge.bin', bytes }), 413, /File "huge\.bin" is 2 KiB, larger than the 1 KiB .* \(FILE_SIZE_LIMIT\)/);
      assert.equal(await ctx.blobs.has(blobHash(bytes)), false, 'nothing was stored');
      const exact = await storeFileBytes(small, t.db, { name: 'exact.bin', bytes: Buffer.alloc(1024, 2) });
      assert.equal(exact.size, 1024);
    });

    test('the default limit is 100 MiB', () => {
      assert.equal(t.config.fileSizeLimit, 100 * 1024 * 1024);
    });

    test('a declared type that is not a media type is a 400 naming the file', async () => {
      await assertApiError(store('x.txt', Buffer.from('x'), 'not a type'), 400, /File "x\.txt": contentType "not a type" is not a media type/);
    });

    test('text files take their type from the declaration, then the name', async () => {
      assert.equal((await store('guide.md', Buffer.from(distinct('# Guide')))).contentType, 'text/markdown');
      assert.equal((await store('page.html', Buffer.from(distinct('<p>hi</p>')))).contentType, 'text/html');
      assert.equal((await store('data', Buffer.from(distinct('{"a":1}')), 'application/json; charset=utf-8')).contentType, 'application/json');
      assert.equal((await store('style.css', Buffer.from(distinct('a{}')), 'application/octet-stream')).contentType, 'text/css');
      assert.equal((await store('NOTES', Buffer.from(distinct('plain words')))).contentType, 'text/plain');
    });

    test('a claim of a binary format the bytes do not carry is dropped', async () => {
      assert.equal((await store('fake.png', Buffer.from(distinct('not a picture')), 'image/png')).contentType, 'text/plain');
      const noise = Buffer.from([0x00, 0xff, 0x13, 0x37, 0x00, 0x42, ...Buffer.from(distinct(''))]);
      const file = await store('fake.gif', noise);
      assert.equal(file.contentType, 'application/octet-stream');
      assert.equal(file.width, undefined);
    });

    test('an SVG is recognised, with or without an XML declaration, and measured', async () => {
      const svg = `<?xml version="1.0" encoding="UTF-8"?>\n<!-- ${distinct('logo')} -->\n<svg xmlns="http://www.w3.org/2000/svg" width="120" height="80"><rect width="120" height="80"/></svg>`;
      assert.deepEqual(
        { ...(await store('logo', Buffer.from(svg))), hash: undefined, size: undefined },
        { hash: undefined, size: undefined, contentType: 'image/svg+xml', width: 120, height: 80 },
      );
      const viewBoxOnly = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 48" data-n="${distinct('')}"></svg>`;
      const file = await store('icon.svg', Buffer.from(viewBoxOnly));
      assert.equal(file.contentType, 'image/svg+xml');
      assert.deepEqual([file.width, file.height], [64, 48]);
    });

    test('a file named .svg that is not SVG is not served as SVG', async () => {
      const file = await store('evil.svg', Buffer.from(distinct('<html><script>alert(1)</script></html>')));
      assert.equal(file.contentType, 'text/plain');
    });

    test('an empty file can be stored', async () => {
      const file = await store('empty.txt', Buffer.alloc(0));
      assert.equal(file.size, 0);
      assert.equal(file.contentType, 'text/plain');
    });
  });

  describe('downloading', () => {
    test('the download URL serves the bytes without a token, with immutable caching and nosniff', async () => {
      const bytes = png(5, 7, 0x33);
      const file = await store('chart.png', bytes);
      const url = fileDownloadUrl(t.config, file.hash, 'chart.png');
      assert.equal(url, `http://quire.test/files/${file.hash}/chart.png`);
      const res = await t.app.inject({ method: 'GET', url: pathOf(url) });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.rawPayload, bytes);
      assert.equal(res.headers['content-type'], 'image/png');
      assert.equal(res.headers['content-length'], String(bytes.length));
      assert.equal(res.headers['x-content-type-options'], 'nosniff');
      assert.equal(res.headers['cache-control'], 'public, max-age=31536000, immutable');
      assert.equal(res.headers.etag, `"${file.hash}"`);
      assert.equal(res.headers['content-security-policy'], undefined, 'images need no sandbox');
      assert.equal(res.headers['content-disposition'], `inline; filename="chart.png"; filename*=UTF-8''chart.png`);
    });

    test('a token, valid or not, makes no difference', async () => {
      const file = await store('a.txt', Buffer.from(distinct('tokens')));
      const path = pathOf(fileDownloadUrl(t.config, file.hash, 'a.txt'));
      assert.equal((await t.api('GET', path, { token: 'not-a-token' })).status, 200);
      assert.equal((await t.api('GET', path)).status, 200);
    });

    test('a revalidation with the ETag is answered 304 without the bytes', async () => {
      const file = await store('b.txt', Buffer.from(distinct('cached')));
      const res = await t.app.inject({ method: 'GET', url: `/files/${file.hash}/b.txt`, headers: { 'if-none-match': `"${file.hash}"` } });
      assert.equal(res.statusCode, 304);
      assert.equal(res.body, '');
      assert.equal(res.headers.etag, `"${file.hash}"`);
    });

    test('HEAD gives the headers without the body', async () => {
      const bytes = Buffer.from(distinct('head'));
      const file = await store('c.txt', bytes);
      const res = await t.app.inject({ method: 'HEAD', url: `/files/${file.hash}/c.txt` });
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['content-length'], String(bytes.length));
      assert.equal(res.body, '');
    });

    test('SVG is served as an image, for <img>, sandboxed so that opened on its own it cannot script this origin', async () => {
      const svg = await store('pic.svg', Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"><!-- ${distinct('')} --></svg>`));
      const res = await t.app.inject({ method: 'GET', url: `/files/${svg.hash}/pic.svg` });
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['content-type'], 'image/svg+xml');
      assert.equal(res.headers['content-security-policy'], 'sandbox');
      assert.match(String(res.headers['content-disposition']), /^inline;/);
    });

    test('scripts, HTML and XML uploaded to a space are downloads of application/octet-stream, never served as what they are (issue 38)', async () => {
      const space = await buildSpace(t);
      const cr = await buildChangeRequest(t, space.id);
      const files = [
        { name: 'evil.js', contentType: 'text/javascript', text: 'fetch("/v1/user").then((r) => r.text()).then(alert)' },
        { name: 'evil.mjs', contentType: 'application/javascript', text: 'export default document.cookie' },
        { name: 'page.html', contentType: 'text/html', text: '<script>alert(document.cookie)</script>' },
        { name: 'page.xhtml', contentType: 'application/xhtml+xml', text: '<html xmlns="http://www.w3.org/1999/xhtml"><script>alert(1)</script></html>' },
        { name: 'feed.xml', contentType: 'text/xml', text: '<x:script xmlns:x="http://www.w3.org/1999/xhtml">alert(1)</x:script>' },
        { name: 'style.css', contentType: 'text/css', text: 'body { background: url(/v1/user) }' },
      ].map((file) => ({ name: file.name, contentType: file.contentType, base64: Buffer.from(`${file.text} // ${distinct('')}`).toString('base64') }));
      const written = ok(await t.api('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`, { body: { changes: [{ operation: 'insert_files', files }] } }));
      assert.equal(written.insertedFiles.length, files.length);
      for (const file of written.insertedFiles as { name: string; downloadURL: string }[]) {
        const res = await t.app.inject({ method: 'GET', url: pathOf(file.downloadURL) });
        assert.equal(res.statusCode, 200, file.name);
        assert.equal(res.headers['content-type'], 'application/octet-stream', file.name);
        assert.match(String(res.headers['content-disposition']), /^attachment; filename="/, file.name);
        assert.equal(res.headers['x-content-type-options'], 'nosniff', file.name);
        assert.equal(res.headers['content-security-policy'], 'sandbox', file.name);
      }
    });

    test('images, PDFs and plain text are shown inline as what they are', async () => {
      for (const [file, type] of [
        [await store('chart.png', png(2, 2, 0x44)), 'image/png'],
        [await store('notes.txt', Buffer.from(distinct('notes'))), 'text/plain'],
        [await store('doc.pdf', Buffer.from(`%PDF-1.4\n% ${distinct('')}\n%%EOF\n`)), 'application/pdf'],
      ] as const) {
        const res = await t.app.inject({ method: 'GET', url: `/files/${file.hash}/x` });
        assert.equal(res.headers['content-type'], type);
        assert.match(String(res.headers['content-disposition']), /^inline;/);
      }
    });

    test('the type served is the stored one, whatever name the URL gives', async () => {
      const file = await store('notes.txt', Buffer.from(distinct('<script>alert(1)</script>')));
      const res = await t.app.inject({ method: 'GET', url: `/files/${file.hash}/notes.html` });
      assert.equal(res.headers['content-type'], 'text/plain');
    });

    test('an unknown or malformed hash is a 404 in the error shape', async () => {
      for (const hash of [blobHash(Buffer.from('never stored')), 'abc', 'a%2F..%2F..', 'Z'.repeat(64)]) {
        const res = await t.api('GET', `/files/${hash}/x.png`, { token: null });
        assertError(res, 404, /No file/);
      }
      const conditional = await t.app.inject({ method: 'GET', url: `/files/${'0'.repeat(64)}/x`, headers: { 'if-none-match': '*' } });
      assert.equal(conditional.statusCode, 404);
    });

    test('names with spaces, slashes and other scripts round-trip through the URL', async () => {
      const bytes = Buffer.from(distinct('named'));
      const file = await store('x', bytes);
      for (const name of ['Rapport annuel 2026.txt', 'a/b?c#d.txt', 'naïve résumé 日本.txt', '..', '']) {
        const url = fileDownloadUrl(t.config, file.hash, name);
        assert.doesNotMatch(url.slice(`http://quire.test/files/${file.hash}/`.length), /[/?#\s]/, url);
        const res = await t.app.inject({ method: 'GET', url: pathOf(url) });
        assert.equal(res.statusCode, 200, `${name}: ${res.body}`);
        assert.deepEqual(res.rawPayload, bytes);
      }
      const res = await t.app.inject({ method: 'GET', url: pathOf(fileDownloadUrl(t.config, file.hash, 'naïve "quoted".txt')) });
      assert.equal(res.headers['content-disposition'], `inline; filename="na_ve _quoted_.txt"; filename*=UTF-8''na%C3%AFve%20%22quoted%22.txt`);
    });

    test('a very long name is shortened in the URL, which still works', async () => {
      const file = await store('y', Buffer.from(distinct('long')));
      const url = fileDownloadUrl(t.config, file.hash, `${'名'.repeat(400)}.txt`);
      assert.ok(url.length < 450, `${url.length}`);
      assert.equal((await t.app.inject({ method: 'GET', url: pathOf(url) })).statusCode, 200);
    });

    test('the download route is not in the OpenAPI document', async () => {
      const res = await t.api('GET', '/v1/openapi.json', { token: null });
      assert.equal(res.status, 200);
      assert.ok(!Object.keys(res.body.paths).some((path) => path.includes('/files/{hash}')));
    });
  });

  describe('remote files', () => {
    let server: Server;
    let base: string;
    before(async () => {
      server = createServer((req, res) => {
        if (req.url === '/images/logo%20big.png') res.writeHead(200, { 'content-type': 'image/png' }).end(png(9, 4));
        else if (req.url === '/large') res.writeHead(200).end(Buffer.alloc(4096));
        else res.writeHead(404).end('missing');
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    after(async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    });
    const local = () => ({ ...ctx, config: { ...ctx.config, allowPrivateFetch: true } });

    test('a remote image is downloaded with its name and stored', async () => {
      const remote = await fetchRemoteFile(local(), `${base}/images/logo%20big.png`);
      assert.equal(remote.name, 'logo big.png');
      assert.equal(remote.contentType, 'image/png');
      const file = await storeFileBytes(ctx, t.db, remote);
      assert.deepEqual([file.contentType, file.width, file.height], ['image/png', 9, 4]);
    });

    test('a missing remote file is a 422 with the status it got', async () => {
      await assertApiError(fetchRemoteFile(local(), `${base}/nothing.png`), 422, /answered HTTP 404/);
    });

    test('a remote file over FILE_SIZE_LIMIT is a 413', async () => {
      const small = { ...ctx, config: { ...ctx.config, allowPrivateFetch: true, fileSizeLimit: 1000 } };
      await assertApiError(fetchRemoteFile(small, `${base}/large`), 413, /larger than the 1000 bytes this server accepts per file \(FILE_SIZE_LIMIT\)/);
    });

    test('a remote file on a private address is refused by default', async () => {
      assert.equal(ctx.config.allowPrivateFetch, false);
      await assertApiError(fetchRemoteFile(ctx, `${base}/images/logo%20big.png`), 400, /loopback address/);
    });
  });
});
