import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../../platform/errors.ts';
import { crawlSite, fileName, mayBePage, pageKey, type CrawlLimits, type Fetcher } from './crawl.ts';
import { assertApiError } from '../../../test/assertions.ts';

interface FakeResource {
  status?: number;
  contentType?: string;
  body?: string | Buffer;
  /** Answers as if redirected there. */
  redirectTo?: string;
  /** Waits this long before answering (or until the crawl's signal aborts). */
  delayMs?: number;
}

/** A site in memory: the fetcher answers from it the way safeFetch would, and logs every URL asked for. */
function fakeSite(resources: Record<string, FakeResource>) {
  const requested: string[] = [];
  const fetch: Fetcher = async (url, { maxBytes, signal }) => {
    requested.push(url);
    let resource = resources[url];
    let final = url;
    if (resource?.redirectTo) {
      final = resource.redirectTo;
      resource = resources[final];
    }
    if (!resource) throw new ApiError(422, `Cannot fetch ${url}: the connection was refused`);
    if (resource.delayMs) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, resource.delayMs);
        signal.addEventListener('abort', () => (clearTimeout(timer), resolve()));
      });
      if (signal.aborted) throw new ApiError(422, `Cannot fetch ${url}: the fetch was cancelled`);
    }
    const body = Buffer.from(resource.body ?? '');
    if (body.length > maxBytes) throw new ApiError(413, `Cannot fetch ${url}: the response is larger than ${maxBytes} bytes`);
    return { url: final, status: resource.status ?? 200, contentType: resource.contentType ?? 'text/html', body };
  };
  return { fetch, requested };
}

const page = (title: string, ...links: string[]) => ({ body: `<html><body><main><h1>${title}</h1>${links.map((l) => `<a href="${l}">${l}</a>`).join(' ')}</main></body></html>` });
const limits = (overrides: Partial<CrawlLimits> = {}): CrawlLimits => ({ maxPages: 50, maxDepth: 3, maxBytes: 1_000_000, maxFileBytes: 1_000_000, timeoutMs: 5_000, maxConvertedHtml: 5_000_000, ...overrides });
const titles = (result: { pages: { html: { title: string | undefined } }[] }) => result.pages.map((p) => p.html.title);

describe('crawling a site', () => {
  test('pages are found breadth-first from the start page, each fetched once', async () => {
    const site = fakeSite({
      'https://acme.test/': page('Home', '/a', '/b', '/a#again'),
      'https://acme.test/a': page('A', '/c', '/'),
      'https://acme.test/b': page('B', '/a'),
      'https://acme.test/c': page('C'),
    });
    const result = await crawlSite('https://acme.test/', limits(), site.fetch);
    assert.deepEqual(titles(result), ['Home', 'A', 'B', 'C']);
    assert.deepEqual(result.pages.map((p) => p.depth), [0, 1, 1, 2]);
    assert.deepEqual(site.requested, ['https://acme.test/', 'https://acme.test/a', 'https://acme.test/b', 'https://acme.test/c']);
    assert.equal(result.discovered, 4);
  });

  test('links to other sites, and to files that are not pages, are not followed', async () => {
    const site = fakeSite({
      'https://acme.test/docs': page('Docs', 'https://other.test/', 'http://acme.test/insecure', 'https://acme.test:8443/port', '/manual.pdf', '/data.json', '/guide'),
      'https://acme.test/guide': page('Guide'),
    });
    const result = await crawlSite('https://acme.test/docs', limits(), site.fetch);
    assert.deepEqual(titles(result), ['Docs', 'Guide']);
    assert.deepEqual(site.requested, ['https://acme.test/docs', 'https://acme.test/guide']);
  });

  test('pages past the depth bound are counted but not fetched', async () => {
    const site = fakeSite({
      'https://acme.test/': page('0', '/1'),
      'https://acme.test/1': page('1', '/2'),
      'https://acme.test/2': page('2', '/3'),
      'https://acme.test/3': page('3'),
    });
    const result = await crawlSite('https://acme.test/', limits({ maxDepth: 2 }), site.fetch);
    assert.deepEqual(titles(result), ['0', '1', '2']);
    assert.equal(result.discovered, 4);
    assert.ok(!site.requested.includes('https://acme.test/3'));
    const alone = await crawlSite('https://acme.test/', limits({ maxDepth: 0 }), site.fetch);
    assert.deepEqual(titles(alone), ['0']);
  });

  test('the crawl stops at the page bound', async () => {
    const site = fakeSite({
      'https://acme.test/': page('Home', '/a', '/b', '/c'),
      'https://acme.test/a': page('A'),
      'https://acme.test/b': page('B'),
      'https://acme.test/c': page('C'),
    });
    const result = await crawlSite('https://acme.test/', limits({ maxPages: 2 }), site.fetch);
    assert.deepEqual(titles(result), ['Home', 'A']);
    assert.equal(result.discovered, 4);
    assert.equal(site.requested.length, 2);
  });

  test('the crawl stops when the bytes are spent: a page that does not fit ends it', async () => {
    const big = { body: `<main><h1>Big</h1><p>${'x'.repeat(500)}</p></main>` };
    const site = fakeSite({
      'https://acme.test/': page('Home', '/big', '/small'),
      'https://acme.test/big': big,
      'https://acme.test/small': page('Small'),
    });
    const home = Buffer.byteLength(page('Home', '/big', '/small').body);
    const result = await crawlSite('https://acme.test/', limits({ maxBytes: home + 100 }), site.fetch);
    assert.deepEqual(titles(result), ['Home']);
    assert.ok(result.bytes <= home + 100);
  });

  test('the crawl stops at its time bound and keeps what it fetched', async () => {
    const site = fakeSite({
      'https://acme.test/': page('Home', '/slow', '/after'),
      'https://acme.test/slow': { ...page('Slow'), delayMs: 10_000 },
      'https://acme.test/after': page('After'),
    });
    const started = Date.now();
    const result = await crawlSite('https://acme.test/', limits({ timeoutMs: 200 }), site.fetch);
    assert.ok(Date.now() - started < 5_000);
    assert.deepEqual(titles(result), ['Home']);
  });

  test('a page that redirects to one already found is one page, and both of its URLs lead to it', async () => {
    const site = fakeSite({
      'https://acme.test/': page('Home', '/old', '/new'),
      'https://acme.test/old': { redirectTo: 'https://acme.test/new' },
      'https://acme.test/new': page('New'),
    });
    const result = await crawlSite('https://acme.test/', limits(), site.fetch);
    assert.deepEqual(titles(result), ['Home', 'New']);
    assert.equal(result.pages[1]!.url, 'https://acme.test/new');
    assert.deepEqual(result.pages[1]!.aliases, ['https://acme.test/old']);
    assert.equal(result.discovered, 2);
    assert.ok(!site.requested.slice(2).includes('https://acme.test/new'), 'not fetched again');
  });

  test('the site is where the start page lands after its redirects', async () => {
    const site = fakeSite({
      'http://acme.test/': { redirectTo: 'https://www.acme.test/' },
      'https://www.acme.test/': page('Home', '/a'),
      'https://www.acme.test/a': page('A'),
    });
    const result = await crawlSite('http://acme.test/', limits(), site.fetch);
    assert.deepEqual(titles(result), ['Home', 'A']);
  });

  test('a page that fails, answers an error or is not HTML is left out; the crawl goes on', async () => {
    const site = fakeSite({
      'https://acme.test/': page('Home', '/gone', '/down', '/feed', '/ok'),
      'https://acme.test/gone': { status: 404, body: 'Not found' },
      'https://acme.test/feed': { contentType: 'application/json', body: '{}' },
      'https://acme.test/ok': page('OK'),
    });
    const result = await crawlSite('https://acme.test/', limits(), site.fetch);
    assert.deepEqual(titles(result), ['Home', 'OK']);
    assert.equal(result.discovered, 5);
  });

  test('images of the pages are downloaded once each, within the file and byte bounds', async () => {
    const png = Buffer.alloc(300, 1);
    const site = fakeSite({
      'https://acme.test/': { body: '<main><img src="/a.png"><img src="https://cdn.test/b.png"><a href="/p">p</a></main>' },
      'https://acme.test/p': { body: '<main><img src="/a.png"><img src="/huge.png"><img src="/broken.png"><img src="/page.png"></main>' },
      'https://acme.test/a.png': { contentType: 'image/png', body: png },
      'https://cdn.test/b.png': { contentType: 'image/png', body: png },
      'https://acme.test/huge.png': { contentType: 'image/png', body: Buffer.alloc(2000) },
      'https://acme.test/page.png': { contentType: 'text/html', body: '<p>login</p>' },
    });
    const result = await crawlSite('https://acme.test/', limits({ maxFileBytes: 1000 }), site.fetch);
    assert.deepEqual(result.images.map((i) => [i.url, i.name]), [
      ['https://acme.test/a.png', 'a.png'],
      ['https://cdn.test/b.png', 'b.png'],
    ]);
    assert.equal(result.discovered, 2 + 5);
    assert.equal(site.requested.filter((u) => u === 'https://acme.test/a.png').length, 1);
  });

  test('images stop when the bytes are spent', async () => {
    const site = fakeSite({
      'https://acme.test/': { body: '<main><img src="/a.png"><img src="/b.png"></main>' },
      'https://acme.test/a.png': { contentType: 'image/png', body: Buffer.alloc(400) },
      'https://acme.test/b.png': { contentType: 'image/png', body: Buffer.alloc(400) },
    });
    const home = Buffer.byteLength('<main><img src="/a.png"><img src="/b.png"></main>');
    const result = await crawlSite('https://acme.test/', limits({ maxBytes: home + 500 }), site.fetch);
    assert.deepEqual(result.images.map((i) => i.url), ['https://acme.test/a.png']);
    assert.equal(result.discovered, 3);
  });
});

describe('a start URL that cannot be imported', () => {
  test('is not a URL, or not http(s): 400', async () => {
    const site = fakeSite({});
    await assertApiError(crawlSite('acme.test', limits(), site.fetch), 400, /not an absolute URL/);
    await assertApiError(crawlSite('ftp://acme.test/', limits(), site.fetch), 400, /only http and https/);
    assert.deepEqual(site.requested, []);
  });

  test('cannot be reached: the fetch error', async () => {
    await assertApiError(crawlSite('https://acme.test/', limits(), fakeSite({}).fetch), 422, /connection was refused/);
  });

  test('answers an HTTP error: 422 naming the status', async () => {
    await assertApiError(crawlSite('https://acme.test/', limits(), fakeSite({ 'https://acme.test/': { status: 404 } }).fetch), 422, /answered HTTP 404/);
  });

  test('is not an HTML page: 422 naming its type', async () => {
    const site = fakeSite({ 'https://acme.test/doc.pdf': { contentType: 'application/pdf', body: '%PDF' } });
    await assertApiError(crawlSite('https://acme.test/doc.pdf', limits(), site.fetch), 422, /not an HTML page \(Content-Type: application\/pdf\)/);
  });

  test('is larger than the byte bound: 413 naming the setting', async () => {
    await assertApiError(crawlSite('https://acme.test/', limits({ maxBytes: 10 }), fakeSite({ 'https://acme.test/': page('Home') }).fetch), 413, /IMPORT_MAX_BYTES/);
  });

  test('does not answer in time: 422 naming the setting', async () => {
    const site = fakeSite({ 'https://acme.test/': { ...page('Home'), delayMs: 10_000 } });
    await assertApiError(crawlSite('https://acme.test/', limits({ timeoutMs: 100 }), site.fetch), 422, /IMPORT_TIMEOUT_MS/);
  });
});

describe('crawl rules', () => {
  test('a page is known by its URL without its anchor', () => {
    assert.equal(pageKey('https://Acme.test:443/a?b=1#c'), 'https://acme.test/a?b=1');
  });

  test('links to known file types are not pages; other names are', () => {
    for (const path of ['/', '/guide', '/guide.html', '/v1.2', '/index.php', '/a/b/']) assert.equal(mayBePage(new URL(`https://acme.test${path}`)), true, path);
    for (const path of ['/a.pdf', '/logo.PNG', '/app.js', '/feed.xml', '/x.zip']) assert.equal(mayBePage(new URL(`https://acme.test${path}`)), false, path);
  });

  test('an image is named after the last segment of its URL', () => {
    assert.equal(fileName(new URL('https://acme.test/img/My%20Logo.png?v=2')), 'My Logo.png');
    assert.equal(fileName(new URL('https://acme.test/')), 'image');
    assert.equal(fileName(new URL('https://acme.test/%E0%A4%A')), '%E0%A4%A');
  });

  test('a page too deep to convert is left out; the start page fails naming the limit', async () => {
    const deep = { body: `<html><body><main>${'<div>'.repeat(3000)}x${'</div>'.repeat(3000)}</main></body></html>` };
    const site = fakeSite({ 'https://acme.test/': page('Home', '/deep', '/ok'), 'https://acme.test/deep': deep, 'https://acme.test/ok': page('OK') });
    const result = await crawlSite('https://acme.test/', limits(), site.fetch);
    assert.deepEqual(titles(result), ['Home', 'OK']);
    const start = fakeSite({ 'https://acme.test/': deep });
    await assert.rejects(crawlSite('https://acme.test/', limits(), start.fetch), (error: ApiError) => error.statusCode === 400 && /deep/.test(error.message));
  });

  test('pages past the HTML the import converts in all are left out', async () => {
    const long = (title: string, ...links: string[]) => ({ body: `<html><body><main><h1>${title}</h1><p>${'x'.repeat(400)}</p>${links.map((l) => `<a href="${l}">${l}</a>`).join('')}</main></body></html>` });
    const site = fakeSite({ 'https://acme.test/': long('Home', '/a', '/b'), 'https://acme.test/a': long('A'), 'https://acme.test/b': long('B') });
    const result = await crawlSite('https://acme.test/', limits({ maxConvertedHtml: 1000 }), site.fetch);
    assert.deepEqual(titles(result), ['Home', 'A']);
  });
});
