import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { zipSync, strToU8 } from 'fflate';
import { startServer, type TestServer } from '../../../test/helpers.ts';
import { buildSpace } from '../../../test/factories.ts';
import { exportToFolder, importPath } from './cli.ts';
import { CORPUS_DIR, corpusPages, ELSA_CORPUS_DIR } from '../../../test/corpus/pages.ts';

/** Made-up pages of each shape issue 32 found changing in real repositories (rich cells, captions, hint styles, …). */
const CASES_DIR = join(import.meta.dirname, '../../../test/fixtures/git-sync-cases');
import { compareCorpus, formatReport } from '../../../test/corpus/compare.ts';


function filesUnder(dir: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const full = join(d, name);
      if (statSync(full).isDirectory()) walk(full);
      else out.set(relative(dir, full), readFileSync(full));
    }
  };
  walk(dir);
  return out;
}

function flattenPages<T extends { pages?: T[] }>(pages: T[]): T[] {
  return pages.flatMap((p) => [p, ...flattenPages(p.pages ?? [])]);
}

describe('quire import and quire export', () => {
  let t: TestServer;
  const temp: string[] = [];
  const tempDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'quire-cli-'));
    temp.push(dir);
    return dir;
  };

  before(async () => {
    t = await startServer();
  });
  after(async () => {
    await t.close();
    for (const dir of temp) rmSync(dir, { recursive: true, force: true });
  });

  test('a checkout of the GitBook documentation imports, exports to the same files, and exports again byte for byte', async (context) => {
    const space = await buildSpace(t);
    const imported = await importPath(t.app.ctx, space.id, CORPUS_DIR);
    assert.ok(imported.pages >= 180, `pages: ${imported.pages}`);

    const out = tempDir();
    await exportToFolder(t.app.ctx, space.id, out);
    const original = filesUnder(CORPUS_DIR);
    const exported = filesUnder(out);
    const pages = [...original.keys()].filter((p) => p.endsWith('.md') && p !== 'SUMMARY.md');
    const assets = [...original.keys()].filter((p) => p.startsWith('.gitbook/assets/'));
    assert.deepEqual(pages.filter((p) => !exported.has(p)), [], 'every page goes back to its file');
    assert.deepEqual(assets.filter((p) => !exported.has(p)), [], 'every asset goes back to its file');
    assert.ok(assets.every((p) => original.get(p)!.equals(exported.get(p)!)), 'assets are byte-identical');
    const identical = pages.filter((p) => original.get(p)!.equals(exported.get(p)!));
    context.diagnostic(`corpus round trip: ${identical.length} of ${pages.length} pages byte-identical to the original; ${assets.length} assets identical`);

    // Issue 13's bar through Git Sync: at most 5% of the pages change in meaning (import -> export -> compare).
    const report = compareCorpus(
      corpusPages().map((page) => ({ file: page.file, original: page.markdown, result: exported.get(page.file)?.toString('utf8') ?? '' })),
    );
    context.diagnostic(formatReport(report));
    assert.ok(report.pages > 100, `only ${report.pages} pages compared`);
    assert.ok(report.changed.length <= report.pages * 0.05, formatReport(report));

    // Quire's own output is a fixed point: export -> import -> export is byte-identical.
    const copy = await buildSpace(t);
    await importPath(t.app.ctx, copy.id, out);
    const again = tempDir();
    await exportToFolder(t.app.ctx, copy.id, again);
    const second = filesUnder(again);
    assert.deepEqual([...second.keys()].sort(), [...exported.keys()].sort());
    assert.deepEqual(
      [...exported.keys()].filter((k) => !exported.get(k)!.equals(second.get(k)!)),
      [],
    );
  });

  test('an excerpt of another GitBook repository (Elsa Workflows) keeps its meaning through import and export', async () => {
    const space = await buildSpace(t);
    const imported = await importPath(t.app.ctx, space.id, ELSA_CORPUS_DIR);
    assert.equal(imported.pages, 23, 'the 20 pages and the three SUMMARY groups');
    const out = tempDir();
    await exportToFolder(t.app.ctx, space.id, out);
    const exported = filesUnder(out);
    const report = compareCorpus(
      corpusPages(ELSA_CORPUS_DIR).map((page) => ({ file: page.file, original: page.markdown, result: exported.get(page.file)?.toString('utf8') ?? '' })),
    );
    assert.equal(report.pages, 20);
    assert.ok(report.changed.length <= report.pages * 0.05, formatReport(report));
    // The SUMMARY title "C#" and the file's `# C\#` agree once the escape is read.
    assert.match(exported.get('expressions/c.md')!.toString('utf8'), /^# C\\#$/m);
  });

  test('rich table cells, embed captions, hint styles, angle brackets, redirects, structure names and asset paths survive import and export', async () => {
    const space = await buildSpace(t);
    await importPath(t.app.ctx, space.id, CASES_DIR);
    const out = tempDir();
    await exportToFolder(t.app.ctx, space.id, out);
    const original = filesUnder(CASES_DIR);
    const exported = filesUnder(out);
    // Page by page, no change of meaning.
    const report = compareCorpus(corpusPages(CASES_DIR).map((page) => ({ file: page.file, original: page.markdown, result: exported.get(page.file)?.toString('utf8') ?? '' })));
    assert.equal(report.pages, 5);
    assert.deepEqual(report.changed, [], formatReport(report));
    // The layout as it was: .gitbook.yaml byte for byte (root, readme, summary, a redirect to a URL), the content
    // under its root, every asset at its own path; LICENSE is no file of the content, so the export has none.
    assert.equal(exported.get('.gitbook.yaml')!.toString(), original.get('.gitbook.yaml')!.toString());
    const content = [...original.keys()].filter((path) => path.startsWith('docs/'));
    assert.deepEqual([...exported.keys()].sort(), ['.gitbook.yaml', ...content].sort());
    for (const asset of content.filter((path) => path.endsWith('.png'))) assert.ok(original.get(asset)!.equals(exported.get(asset)!), asset);
    const text = (path: string) => exported.get(path)!.toString('utf8');
    assert.match(text('docs/guide/embeds.md'), /\{% embed url="https:\/\/github.com\/example\/repo" caption="GitHub" %\}/);
    assert.match(text('docs/guide/README.md'), /\{% hint style="tip" %\}[\s\S]*\{% hint style="Info" %\}/);
    assert.match(text('docs/guide/text.md'), /Replace <pipeline-name> with/);
    assert.match(text('docs/guide/tables.md'), /<p>Create a cluster with <a href="https:\/\/example.com\/eks">EKS<\/a><\/p><p><strong>Note<\/strong>: it takes a while.<\/p>/);
    assert.match(text('docs/guide/tables.md'), /\| a +\| <p>first<\/p><p>second <a href="https:\/\/example.com">link<\/a><\/p> +\|/);
    assert.match(text('docs/guide/tables.md'), /<div class="box">Kept as written<\/div>/);

    // What the reader shows for the rich cells: the link and the list items, not their text run together.
    interface Listed { id: string; title: string; pages?: Listed[] }
    const pages = flattenPages<Listed>((await t.api('GET', `/v1/spaces/${space.id}/content/pages`)).body.pages);
    const tables = pages.find((p) => p.title === 'Tables')!;
    const document = (await t.api('GET', `/v1/spaces/${space.id}/content/page/${tables.id}`)).body.document;
    const cell = (document.nodes[0].fragments as { fragment: string; nodes: { type: string }[] }[]).find((f) => f.fragment === 'r2-c2')!;
    assert.deepEqual(cell.nodes.map((n) => n.type), ['list-unordered']);
  });

  test('a zip of a folder of markdown files imports', async () => {
    const dir = tempDir();
    const zip = join(dir, 'docs.zip');
    writeFileSync(zip, zipSync({ 'docs/README.md': strToU8('# Start\n'), 'docs/guide/README.md': strToU8('# Guide\n'), 'docs/guide/setup.md': strToU8('# Setup\n') }));
    const space = await buildSpace(t);
    const result = await importPath(t.app.ctx, space.id, zip);
    assert.equal(result.pages, 3);
    const pages = (await t.api('GET', `/v1/spaces/${space.id}/content/pages`)).body.pages;
    assert.deepEqual(
      pages.map((p: { title: string; pages: { title: string }[] }) => [p.title, p.pages.map((c) => c.title)]),
      [
        ['Start', []],
        ['Guide', ['Setup']],
      ],
    );
  });

  test('--project names the folder of an MkDocs site inside the checkout; its code includes reach the checkout’s files', async () => {
    const dir = tempDir();
    const zip = join(dir, 'repo.zip');
    writeFileSync(
      zip,
      zipSync({
        'docs/en/mkdocs.yml': strToU8('site_name: App\nnav:\n  - First steps: index.md\n'),
        'docs/en/docs/index.md': strToU8('# First steps\n\n/// tip | Run it\n\n`fastapi dev`\n\n///\n\n{* ../../docs_src/first_steps/tutorial001_py310.py hl[3] *}\n'),
        'docs_src/first_steps/tutorial001_py310.py': strToU8('from fastapi import FastAPI\n\napp = FastAPI()\n'),
      }),
    );
    const space = await buildSpace(t);
    const result = await importPath(t.app.ctx, space.id, zip, 'docs/en');
    assert.equal(result.report.layout, 'mkdocs');
    const pages = (await t.api('GET', `/v1/spaces/${space.id}/content/pages`)).body.pages as { id: string; title: string }[];
    assert.deepEqual(pages.map((p) => p.title), ['First steps']);
    const markdown = (await t.api('GET', `/v1/spaces/${space.id}/content/page/${pages[0]!.id}?format=markdown`)).body.markdown as string;
    assert.match(markdown, /\{% hint style="success" %\}\n\*\*Run it\*\*\n\n`fastapi dev`\n\{% endhint %\}/);
    // Line 3 highlighted (`hl[3]`): GitBook's HTML spelling of such a block.
    assert.match(markdown, /<pre class="language-python"><code class="lang-python">from fastapi import FastAPI\n\n<strong>app = FastAPI\(\)\n<\/strong><\/code><\/pre>/);
  });

  test('a missing path or space is named', async () => {
    const space = await buildSpace(t);
    await assert.rejects(importPath(t.app.ctx, space.id, '/nonexistent/place'), /no file or folder at \/nonexistent\/place/);
    await assert.rejects(importPath(t.app.ctx, 'nope', CORPUS_DIR), /No space nope/);
  });
});
