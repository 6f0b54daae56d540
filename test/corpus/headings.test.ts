import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { splitPageMarkdown } from '../../src/features/content/markdown.ts';
import { parseMarkdown } from '../../src/features/content/document/markdown-parser.ts';
import { markdownToDocument } from '../../src/features/content/document/to-document.ts';
import { documentToMarkdown } from '../../src/features/content/document/to-markdown.ts';
import type { Document, Heading } from '../../src/features/content/document/types.ts';
import { outline } from '../../src/features/reader/heading-anchors.ts';
import { renderPage } from '../../src/features/reader/layout.tsx';
import { renderDocument } from '../../src/features/reader/render-document.tsx';
import { everyPartPage, links } from '../reader-documents.ts';
import { CORPUS_DIR, corpusPages, urlRefs } from './pages.ts';

/*
 * Issue 27: GitBook's Git Sync writes the page title as `#`, heading 1 as `##`, heading 2 as `###` and heading 3
 * as `####`. Pinned on GitBook's own exported documentation.
 */

function headings(document: Document): Heading[] {
  const found: Heading[] = [];
  const stack: unknown[] = [...document.nodes];
  while (stack.length > 0) {
    const node = stack.pop() as { type?: string; nodes?: unknown[]; fragments?: { nodes?: unknown[] }[] };
    if (node.type?.startsWith('heading-')) found.push(node as Heading);
    for (const child of node.nodes ?? []) stack.push(child);
    for (const fragment of node.fragments ?? []) stack.push(...(fragment.nodes ?? []));
  }
  return found;
}

const corpusDocument = (markdown: string, file: string) => markdownToDocument(splitPageMarkdown(markdown, file).body, urlRefs);

describe('headings at GitBook’s levels', { skip: !existsSync(CORPUS_DIR) && 'the shared corpus is not on this machine' }, () => {
  test('on every page of GitBook’s docs, `##`, `###` and `####` are heading 1, 2 and 3, and none keeps another depth', () => {
    const counts = { 'heading-1': 0, 'heading-2': 0, 'heading-3': 0 };
    const written = { h2: 0, h3: 0, h4: 0 };
    for (const page of corpusPages()) {
      const { body } = splitPageMarkdown(page.markdown, page.file);
      const found = headings(markdownToDocument(body, urlRefs));
      for (const heading of found) counts[heading.type]++;
      assert.deepEqual(found.filter((heading) => heading.data.level !== undefined).map((heading) => heading.data.level), [], page.file);
      for (const token of parseMarkdown(body, {})) {
        if (token.type === 'heading_open' && token.tag in written) written[token.tag as keyof typeof written]++;
        // GitBook writes an aligned heading (`<h3 align="center">`) and a card's heading (`<h4>` in a cell) in HTML.
        if (token.type === 'html_block') for (const [, tag] of token.content.matchAll(/<(h[2-4])[\s>]/g)) written[tag as keyof typeof written]++;
      }
    }
    assert.deepEqual([counts['heading-1'], counts['heading-2'], counts['heading-3']], [written.h2, written.h3, written.h4]);
    assert.ok(written.h2 > 100 && written.h3 > 300 && written.h4 > 100, JSON.stringify(written));
  });

  test('“MCP servers for published docs”: its sections are heading 2 (h3), listed in the page’s outline, and written back as they came', async () => {
    const file = 'ai-for-your-readers/mcp-servers-for-published-docs.md';
    const markdown = readFileSync(join(CORPUS_DIR, file), 'utf8');
    const document = corpusDocument(markdown, file);
    const html = await renderDocument(document, links);
    assert.match(html, /<h3 id="choose-the-right-endpoint">Choose the right endpoint/);
    assert.match(html, /<h4 id="find-your-mcp-server-url">Find your MCP server URL/);
    assert.doesNotMatch(html, /<h5|<h6/);

    const model = await everyPartPage();
    model.page = { title: 'MCP servers for published docs', html, outline: outline(document) };
    const page = await renderPage(model);
    const listed = [...page.matchAll(/<li class="outline-level-(\d)"><a href="#([^"]+)">/g)].map((m) => `${m[1]} ${m[2]}`);
    assert.deepEqual(listed, [
      '2 choose-the-right-endpoint', '2 connect-an-ai-tool', '2 try-it', '2 requirements', '2 add-the-mcp-link-to-your-site',
      '2 privacy-and-access', '2 troubleshooting', '2 use-mcp-with-authenticated-sites',
    ]);

    const body = splitPageMarkdown(markdown, file).body;
    const headingLines = (text: string) => text.split('\n').filter((line) => /^#{1,6} /.test(line));
    assert.deepEqual(headingLines(documentToMarkdown(document, (ref) => ('url' in ref ? String(ref.url) : ''))), headingLines(body));
  });
});

describe('markdown headings GitBook does not write', () => {
  test('`#` below the title and `#####`, `######` keep their depth; old documents’ level 4 is heading 3’s own', () => {
    const document = markdownToDocument('# Top\n\n## One\n\n##### Five\n\n###### Six\n', urlRefs);
    assert.deepEqual(document.nodes.map((node) => [node.type, (node as Heading).data.level]), [['heading-1', 1], ['heading-1', undefined], ['heading-3', 5], ['heading-3', 6]]);
    assert.equal(documentToMarkdown(document, () => ''), '# Top\n\n## One\n\n##### Five\n\n###### Six\n');
    const stored: Document = { object: 'document', data: {}, nodes: [{ object: 'block', type: 'heading-3', data: { level: 4 }, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Four', marks: [] }] }] }] };
    assert.equal(documentToMarkdown(stored, () => ''), '#### Four\n');
  });
});
