import assert from 'node:assert/strict';
import { test } from 'node:test';
import { JSDOM } from 'jsdom';
import type { PMNode } from '../../../../src/features/content/document/editor/editor-json.ts';
import { htmlBlocks } from './html-blocks.ts';

/*
 * Pasted HTML as the editor's blocks, on HTML as Google Docs, Word and web pages put it on the clipboard (their
 * shapes as Chromium receives them: Google Docs' not-bold <b> wrapper and styled spans, Word's list paragraphs).
 */

const parse = (html: string) => new JSDOM(html).window.document;
const blocks = (html: string, files: (string | null)[] = []) => htmlBlocks(html, parse).place(files);

/** A node as `type: text`, its children indented: what a person would read of the blocks. */
function outline(nodes: PMNode[] | undefined, depth = 0): string[] {
  return (nodes ?? []).flatMap((node) => {
    if (node.type === 'text') return [];
    const text = (node.content ?? []).filter((c) => c.type === 'text').map((c) => c.text).join('');
    // `textref` is the model's own (which text a leaf was), not a mark a person sees.
    const marks = (node.content ?? []).flatMap((c) => (c.marks ?? []).filter((m) => m.type !== 'textref').map((m) => `${m.type}:${c.text}`));
    const line = `${'  '.repeat(depth)}${node.type}${text ? `: ${text}` : ''}${marks.length ? ` [${marks.join(', ')}]` : ''}`;
    return [line, ...outline((node.content ?? []).filter((c) => c.type !== 'text'), depth + 1)];
  });
}

const span = (text: string, style = 'font-weight:400;font-style:normal;') => `<span style="font-size:11pt;${style.includes('font-family') ? '' : 'font-family:Arial,sans-serif;'}${style}white-space:pre-wrap;">${text}</span>`;
const gdocs = (body: string) => `<meta charset="utf-8"><b style="font-weight:normal;" id="docs-internal-guid-0d3a1c2e-7fff-1b2c-3d4e-5f6a7b8c9d0e">${body}</b>`;

test('Google Docs: headings, marks from styled spans, nested lists and a checklist', () => {
  const html = gdocs(
    `<h2 dir="ltr">${span('Install')}</h2>` +
      `<p dir="ltr">${span('Run ')}${span('npm ci', 'font-family:\'Courier New\',monospace;font-weight:400;')}${span(' first, ')}${span('always', 'font-weight:700;')}${span(' and ')}${span('carefully', 'font-style:italic;')}</p><br>` +
      `<ul><li dir="ltr" aria-level="1"><p dir="ltr" role="presentation">${span('One')}</p></li><ul><li aria-level="2"><p role="presentation">${span('Nested')}</p></li></ul><li aria-level="1"><p role="presentation">${span('Two')}</p></li></ul>` +
      `<ol><li aria-level="1"><p role="presentation">${span('First')}</p></li></ol>` +
      `<ul><li role="checkbox" aria-checked="true" aria-level="1"><img src="data:image/png;base64,iVBORw0KGgo=" width="17"><p role="presentation">${span('Done', 'text-decoration:line-through;')}</p></li><li role="checkbox" aria-checked="false"><p role="presentation">${span('Open')}</p></li></ul>`,
  );
  assert.deepEqual(outline(blocks(html)), [
    'heading: Install',
    'paragraph: Run npm ci first, always and carefully [code:npm ci, bold:always, italic:carefully]',
    'bulletList',
    '  listItem',
    '    paragraph: One',
    '    bulletList',
    '      listItem',
    '        paragraph: Nested',
    '  listItem',
    '    paragraph: Two',
    'orderedList',
    '  listItem',
    '    paragraph: First',
    'taskList',
    '  taskItem',
    '    paragraph: Done [strike:Done]',
    '  taskItem',
    '    paragraph: Open',
  ]);
  const tasks = blocks(html).at(-1)!;
  assert.deepEqual(tasks.content!.map((item) => item.attrs?.checked ?? (item.attrs?.block as { data?: { checked?: boolean } })?.data?.checked), [true, false]);
});

test('Google Docs: a table with paragraphs in its cells is a table with a header row and its texts', () => {
  const cell = (text: string, tag = 'td') => `<${tag} style="border-left:solid #000000 1pt;vertical-align:top;padding:5pt;"><p dir="ltr" style="line-height:1.2;">${span(text)}</p></${tag}>`;
  const html = gdocs(`<div dir="ltr" align="left"><table style="border:none;border-collapse:collapse;"><colgroup><col width="120"><col width="200"></colgroup><tbody><tr>${cell('Company')}${cell('Status')}</tr><tr>${cell('Acme')}${cell('In progress')}</tr><tr>${cell('Globex')}${cell('Done')}</tr></tbody></table></div>`);
  const [table, ...rest] = blocks(html);
  assert.equal(table!.type, 'table');
  assert.equal(rest.length, 0);
  const json = JSON.stringify(table!.attrs);
  for (const text of ['Company', 'Status', 'Acme', 'In progress', 'Globex', 'Done']) assert.ok(json.includes(`"${text}"`), `${text} is in the table`);
});

test('Word: list paragraphs with typed bullets and numbers become nested lists, the markers gone', () => {
  const item = (text: string, level: number, marker: string, cls = 'MsoListParagraphCxSpMiddle') =>
    `<p class=${cls} style='text-indent:-.25in;mso-list:l0 level${level} lfo1'><![if !supportLists]><span style='font-family:Symbol'><span style='mso-list:Ignore'>${marker}<span style='font:7.0pt "Times New Roman"'>&nbsp;&nbsp;&nbsp; </span></span></span><![endif]>${text}<o:p></o:p></p>`;
  const html = `<html xmlns:o="urn:schemas-microsoft-com:office:office"><head><style><!-- p.MsoNormal {margin:0in;} --></style></head><body lang=EN-US><!--StartFragment--><p class=MsoNormal>Before the list<o:p></o:p></p>${item('Word bullet one', 1, '·', 'MsoListParagraphCxSpFirst')}${item('Under it', 2, 'o')}${item('Word bullet two', 1, '·', 'MsoListParagraphCxSpLast')}<p class=MsoNormal>Between<o:p></o:p></p>${item('Step one', 1, '1.')}${item('Step two', 1, '2.')}<!--EndFragment--></body></html>`;
  assert.deepEqual(outline(blocks(html)), [
    'paragraph: Before the list',
    'bulletList',
    '  listItem',
    '    paragraph: Word bullet one',
    '    bulletList',
    '      listItem',
    '        paragraph: Under it',
    '  listItem',
    '    paragraph: Word bullet two',
    'paragraph: Between',
    'orderedList',
    '  listItem',
    '    paragraph: Step one',
    '  listItem',
    '    paragraph: Step two',
  ]);
});

test('images: bytes on the clipboard become the stored files given, URLs stay, local files are counted, never silently dropped', () => {
  const html = '<h1>Shots</h1><p><img src="data:image/png;base64,iVBORw0KGgo=" alt="A chart"></p><p><img src="https://example.com/logo.png" alt="Logo"></p><p><img src="file:///C:/Users/ada/AppData/Local/Temp/msohtmlclip1/01/clip_image002.png" alt="Local"></p>';
  const pasted = htmlBlocks(html, parse);
  assert.equal(pasted.unreadable, 1);
  const json = JSON.stringify(pasted.place(['file-1']));
  assert.match(json, /"ref":\{"kind":"file","file":"file-1"\}/);
  assert.match(json, /"url":"https:\/\/example.com\/logo.png"/);
  assert.doesNotMatch(json, /pasted-image\.invalid|file:\/\//);
  assert.deepEqual(pasted.images.map((i) => i.kind), ['bytes', 'url']);
  // Both stored: the web page's image is the server's copy.
  assert.match(JSON.stringify(pasted.place(['file-1', 'file-2'])), /"ref":\{"kind":"file","file":"file-2"\}/);
  // An image that could not be stored is left out (the paste says so), not shown as a broken placeholder.
  assert.doesNotMatch(JSON.stringify(pasted.place([null])), /pasted-image\.invalid|"kind":"file"/);
});

test('a web page: code, quotes and links come through; scripts and styles do not', () => {
  const html = '<style>p{color:red}</style><article><h3>Usage</h3><p>See <a href="https://example.com/docs">the docs</a>.</p><blockquote><p>Quoted</p></blockquote><pre><code class="language-bash">npm start\n</code></pre><script>alert(1)</script></article>';
  const nodes = blocks(html);
  assert.deepEqual(nodes.map((n) => n.type), ['heading', 'paragraph', 'blockquote', 'codeBlock']);
  assert.match(JSON.stringify(nodes[1]), /https:\/\/example.com\/docs/);
  assert.doesNotMatch(JSON.stringify(nodes), /alert|color:red/);
});
