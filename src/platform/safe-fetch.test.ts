import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { LookupAddress } from 'node:dns';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { nonPublicRange, safeFetch, type SafeFetchOptions } from './safe-fetch.ts';
import { assertApiError } from '../../test/assertions.ts';

// Every request these tests let through goes to a server on 127.0.0.1; refused addresses are refused before any
// connection is attempted, which is what the tests check.

const open = { allowPrivateFetch: true, fetchTimeoutMs: 2000 };
const guarded = { allowPrivateFetch: false, fetchTimeoutMs: 2000 };

/** Name resolution from a table, so no test asks a real DNS server. */
function fakeDns(table: Record<string, string[]>): SafeFetchOptions['lookup'] {
  return ((hostname: string, _options: unknown, callback: (error: Error | null, addresses: LookupAddress[]) => void) => {
    const addresses = table[hostname];
    if (!addresses) return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), []);
    callback(null, addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })));
  }) as SafeFetchOptions['lookup'];
}

describe('safe fetch', () => {
  let server: Server;
  let base: string;
  let port: number;
  const hits: string[] = [];

  before(async () => {
    server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      hits.push(`${req.headers.host} ${url.pathname}`);
      const loop = /^\/loop\/(\d+)$/.exec(url.pathname);
      if (url.pathname === '/page') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<h1>Hello</h1>');
      } else if (url.pathname === '/missing') {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('nope');
      } else if (url.pathname === '/big') {
        res.writeHead(200, { 'content-length': 2000 }).end(Buffer.alloc(2000, 'x'));
      } else if (url.pathname === '/big-chunked') {
        res.writeHead(200);
        for (let i = 0; i < 20; i += 1) res.write(Buffer.alloc(100, 'y'));
        res.end();
      } else if (url.pathname === '/gzip') {
        res.writeHead(200, { 'content-encoding': 'gzip', 'content-type': 'text/plain' }).end(gzipSync('compressed hello'));
      } else if (url.pathname === '/gzip-bomb') {
        res.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync(Buffer.alloc(1024 * 1024)));
      } else if (url.pathname === '/echo' && req.method === 'POST') {
        let body = '';
        req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
        req.on('end', () => res.writeHead(200, { 'content-type': 'text/plain' }).end(`${req.headers['content-type']} ${body}`));
      } else if (url.pathname === '/redirect') {
        res.writeHead(302, { location: url.searchParams.get('to') ?? '/' }).end();
      } else if (loop) {
        const n = Number(loop[1]);
        const end = Number(url.searchParams.get('end'));
        if (n >= end) res.writeHead(200).end(`arrived after ${n}`);
        else res.writeHead(301, { location: `/loop/${n + 1}?end=${end}` }).end();
      } else if (url.pathname === '/silent') {
        // Never answers; the fetch's timeout must end it.
      } else if (url.pathname === '/stalls') {
        res.writeHead(200, { 'content-length': 100 });
        res.write('only part of it');
      } else {
        res.writeHead(200).end('root');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    base = `http://127.0.0.1:${port}`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  describe('with private fetches allowed (a local server)', () => {
    test('a page is fetched with its status, content type and body', async () => {
      const res = await safeFetch(open, `${base}/page`, { maxBytes: 1000 });
      assert.equal(res.status, 200);
      assert.equal(res.contentType, 'text/html; charset=utf-8');
      assert.equal(res.body.toString(), '<h1>Hello</h1>');
      assert.equal(res.url, `${base}/page`);
    });

    test('an HTTP error status is returned, not thrown', async () => {
      const res = await safeFetch(open, `${base}/missing`, { maxBytes: 1000 });
      assert.equal(res.status, 404);
      assert.equal(res.body.toString(), 'nope');
    });

    test('redirects are followed and the final URL is reported', async () => {
      const res = await safeFetch(open, `${base}/redirect?to=/page`, { maxBytes: 1000 });
      assert.equal(res.status, 200);
      assert.equal(res.url, `${base}/page`);
      assert.equal(res.body.toString(), '<h1>Hello</h1>');
    });

    test('a POST sends its body and content type; its redirect is answered, not followed', async () => {
      const post = Buffer.from('{"q":["hi"]}');
      const headers = { 'content-type': 'application/json' };
      const echoed = await safeFetch(open, `${base}/echo`, { maxBytes: 1000, post, headers });
      assert.equal(echoed.body.toString(), 'application/json {"q":["hi"]}');
      const redirected = await safeFetch(open, `${base}/redirect?to=/page`, { maxBytes: 1000, post, headers });
      assert.equal(redirected.status, 302);
    });

    test('five redirects are followed, a sixth is not', async () => {
      const five = await safeFetch(open, `${base}/loop/0?end=5`, { maxBytes: 1000 });
      assert.equal(five.body.toString(), 'arrived after 5');
      await assertApiError(safeFetch(open, `${base}/loop/0?end=6`, { maxBytes: 1000 }), 422, /more than 5 redirects/);
    });

    test('a gzip body is decoded', async () => {
      const res = await safeFetch(open, `${base}/gzip`, { maxBytes: 1000 });
      assert.equal(res.body.toString(), 'compressed hello');
    });

    test('a response over the size limit is a 413, whether announced, chunked or compressed', async () => {
      await assertApiError(safeFetch(open, `${base}/big`, { maxBytes: 1000 }), 413, /larger than 1000 bytes/);
      await assertApiError(safeFetch(open, `${base}/big-chunked`, { maxBytes: 1000 }), 413, /larger than 1000 bytes/);
      await assertApiError(safeFetch(open, `${base}/gzip-bomb`, { maxBytes: 1000 }), 413, /larger than 1000 bytes/);
      assert.equal((await safeFetch(open, `${base}/big`, { maxBytes: 2000 })).body.length, 2000);
    });

    test('a server that does not answer in time gives a 422 naming the timeout', async () => {
      const quick = { allowPrivateFetch: true, fetchTimeoutMs: 200 };
      const started = Date.now();
      await assertApiError(safeFetch(quick, `${base}/silent`, { maxBytes: 1000 }), 422, /within 200 ms/);
      await assertApiError(safeFetch(quick, `${base}/stalls`, { maxBytes: 1000 }), 422, /within 200 ms/);
      assert.ok(Date.now() - started < 2000);
    });

    test('a closed port gives a 422: the connection was refused', async () => {
      const closed = createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const closedPort = (closed.address() as AddressInfo).port;
      await new Promise((resolve) => closed.close(resolve));
      await assertApiError(safeFetch(open, `http://127.0.0.1:${closedPort}/`, { maxBytes: 1000 }), 422, /connection was refused/);
    });

    test('an unknown host name gives a 422', async () => {
      await assertApiError(safeFetch(open, 'http://no-such-host.test/', { maxBytes: 1000, lookup: fakeDns({}) }), 422, /could not be resolved/);
    });
  });

  describe('with private fetches refused (the default)', () => {
    for (const url of [
      'http://127.0.0.1/',
      'http://127.1.2.3:8080/x',
      'http://2130706433/',
      'http://10.0.0.1/',
      'http://172.16.5.4/',
      'http://192.168.1.1/',
      'http://169.254.169.254/latest/meta-data/',
      'http://100.64.0.1/',
      'http://0.0.0.0/',
      'http://224.0.0.1/',
      'http://[::1]/',
      'http://[::]/',
      'http://[::ffff:127.0.0.1]/',
      'http://[::ffff:10.0.0.1]/',
      'http://[fd00::1]/',
      'http://[fe80::1]/',
      'http://[ff02::1]/',
    ]) {
      test(`${url} is refused with a 400`, async () => {
        await assertApiError(safeFetch(guarded, url, { maxBytes: 1000 }), 400, /Refusing to fetch .*: .* is .*public addresses/);
      });
    }

    test('the message says which kind of address was refused', async () => {
      await assertApiError(safeFetch(guarded, 'http://[::1]:8080/', { maxBytes: 10 }), 400, /::1 is a loopback address/);
      await assertApiError(safeFetch(guarded, 'http://10.0.0.1/', { maxBytes: 10 }), 400, /10\.0\.0\.1 is a private network address/);
      await assertApiError(safeFetch(guarded, 'http://169.254.169.254/', { maxBytes: 10 }), 400, /link-local/);
    });

    test('a name that resolves to a private address is refused', async () => {
      const lookup = fakeDns({ 'intranet.example': ['10.1.2.3'] });
      await assertApiError(safeFetch(guarded, 'http://intranet.example/', { maxBytes: 10, lookup }), 400, /intranet\.example resolves to 10\.1\.2\.3/);
    });

    test('a name is refused when any of its addresses is private, not only the first', async () => {
      // 127.0.0.1 is trusted here, so only the second address can cause the refusal.
      const lookup = fakeDns({ 'rebind.test': ['127.0.0.1', '10.0.0.1'] });
      const before = hits.length;
      await assertApiError(
        safeFetch(guarded, `http://rebind.test:${port}/page`, { maxBytes: 1000, lookup, trustedAddresses: ['127.0.0.1'] }),
        400,
        /rebind\.test resolves to 10\.0\.0\.1/,
      );
      assert.equal(hits.length, before, 'no request reached the server');
    });

    test('a trusted address is reached, by name or literally', async () => {
      const lookup = fakeDns({ 'docs.test': ['127.0.0.1'] });
      const byName = await safeFetch(guarded, `http://docs.test:${port}/page`, { maxBytes: 1000, lookup, trustedAddresses: ['127.0.0.1'] });
      assert.equal(byName.body.toString(), '<h1>Hello</h1>');
      assert.equal(hits.at(-1), `docs.test:${port} /page`);
      const literal = await safeFetch(guarded, `${base}/page`, { maxBytes: 1000, trustedAddresses: ['127.0.0.1'] });
      assert.equal(literal.status, 200);
    });

    test('a redirect from an allowed server to a private address is refused', async () => {
      const options = { maxBytes: 1000, trustedAddresses: ['127.0.0.1'], lookup: fakeDns({ 'rebind.test': ['127.0.0.1', '192.168.0.10'] }) };
      for (const to of ['http://169.254.169.254/latest/meta-data/', 'http://[::1]/', 'http://10.0.0.1/admin', `http://rebind.test:${port}/page`]) {
        await assertApiError(safeFetch(guarded, `${base}/redirect?to=${encodeURIComponent(to)}`, options), 400, /Refusing to fetch .*public addresses/);
      }
    });

    test('only http and https URLs are fetched', async () => {
      await assertApiError(safeFetch(guarded, 'ftp://example.com/file', { maxBytes: 10 }), 400, /only http and https/);
      await assertApiError(safeFetch(guarded, 'file:///etc/passwd', { maxBytes: 10 }), 400, /only http and https/);
      await assertApiError(safeFetch(guarded, 'not a url', { maxBytes: 10 }), 400, /not an absolute URL/);
      await assertApiError(
        safeFetch(guarded, `${base}/redirect?to=${encodeURIComponent('file:///etc/passwd')}`, { maxBytes: 10, trustedAddresses: ['127.0.0.1'] }),
        400,
        /redirects to "file:\/\/\/etc\/passwd": only http and https/,
      );
    });
  });

  test('public unicast addresses are the only ones classed as public', () => {
    assert.equal(nonPublicRange('93.184.216.34'), undefined);
    assert.equal(nonPublicRange('2606:2800:220:1:248:1893:25c8:1946'), undefined);
    assert.equal(nonPublicRange('127.0.0.1'), 'loopback');
    assert.equal(nonPublicRange('10.0.0.1'), 'private');
    assert.equal(nonPublicRange('172.31.255.255'), 'private');
    assert.equal(nonPublicRange('172.32.0.1'), undefined);
    assert.equal(nonPublicRange('192.168.0.1'), 'private');
    assert.equal(nonPublicRange('169.254.169.254'), 'linkLocal');
    assert.equal(nonPublicRange('100.64.0.1'), 'carrierGradeNat');
    assert.equal(nonPublicRange('0.0.0.0'), 'unspecified');
    assert.equal(nonPublicRange('::'), 'unspecified');
    assert.equal(nonPublicRange('::1'), 'loopback');
    assert.equal(nonPublicRange('fc00::1'), 'uniqueLocal');
    assert.equal(nonPublicRange('fe80::1'), 'linkLocal');
    assert.equal(nonPublicRange('::ffff:192.168.1.1'), 'private');
    assert.equal(nonPublicRange('::7f00:1'), 'reserved', 'IPv4-compatible IPv6 is not global unicast');
    assert.equal(nonPublicRange('64:ff9b::a00:1'), 'rfc6052', 'NAT64 could reach private IPv4');
  });
});
