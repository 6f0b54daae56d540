import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, test } from 'node:test';
import { resolveRef } from '../content/document/test-fixtures.ts';
import { markdownToDocument } from '../content/document/to-document.ts';
import type { Document } from '../content/document/types.ts';
import { codeHighlightsOf } from './code-highlights.ts';
import { docusaurusToGitbook } from './docusaurus-markdown.ts';
import { docsPluginOptions } from './docusaurus.ts';
import { iconOfShortcode } from './icon-names.ts';
import { prepareRepositoryImport } from './import-repository.ts';
import { readAssignedLiteral } from './js-literal.ts';
import { readMkdocsConfig } from './mkdocs.ts';
import { mkdocsToGitbook } from './mkdocs-markdown.ts';
import { detectLayout } from './source-layout.ts';
import { noteKeepsMeaning } from './source-markdown.ts';

const files = (entries: Record<string, string>) => new Map(Object.entries(entries).map(([path, text]) => [path, Buffer.from(text)]));

/** The imported tree as lines: `kind title` indented by depth, documents with their first block types. */
async function importedTree(source: Map<string, Buffer>) {
  const prepared = await prepareRepositoryImport(source, {});
  const byParent = new Map<string | null, typeof prepared.pages>();
  for (const page of prepared.pages) byParent.set(page.parentId, [...(byParent.get(page.parentId) ?? []), page]);
  const lines: string[] = [];
  const walk = (parent: string | null, depth: number) => {
    for (const page of byParent.get(parent) ?? []) {
      lines.push(`${'  '.repeat(depth)}${page.kind} ${page.title}`);
      walk(page.id, depth + 1);
    }
  };
  walk(null, 0);
  return { lines, prepared };
}

/** The fixture folder as the files of a repository. */
function fixture(name: string): Map<string, Buffer> {
  const dir = join(import.meta.dirname, '../../../test/fixtures', name);
  const source = new Map<string, Buffer>();
  const walk = (folder: string) => {
    for (const name of readdirSync(folder)) {
      const full = join(folder, name);
      if (statSync(full).isDirectory()) walk(full);
      else source.set(relative(dir, full), readFileSync(full));
    }
  };
  walk(dir);
  return source;
}

/** A page's highlighted code lines as `first line of the block: line numbers`. */
const highlightsOf = (document: unknown) => codeHighlightsOf(document as Document).map((h) => `${h.code.split('\n')[0]!.trim()}: ${h.lines.join(' ')}`);

const blockTypes = (document: unknown): string[] => ((document as { nodes?: { type: string }[] } | null)?.nodes ?? []).map((n) => n.type);

describe('the layout of a repository', () => {
  test('is told by its files: SUMMARY.md or .gitbook.yaml, mkdocs.yml, docusaurus.config, else folders', () => {
    assert.equal(detectLayout(files({ 'SUMMARY.md': '', 'mkdocs.yml': '' }), ''), 'gitbook');
    assert.equal(detectLayout(files({ 'mkdocs.yml': '', 'docs/index.md': '' }), ''), 'mkdocs');
    assert.equal(detectLayout(files({ 'docusaurus.config.ts': '', 'docs/intro.md': '' }), ''), 'docusaurus');
    assert.equal(detectLayout(files({ 'guide/setup.md': '' }), ''), 'folders');
    assert.equal(detectLayout(files({ 'site/mkdocs.yml': '' }), 'site'), 'mkdocs');
  });
});

describe('plain folders of markdown', () => {
  test('each folder is one page holding its files and subfolders, README or index first, and says it read folders', async () => {
    const { lines, prepared } = await importedTree(
      files({
        'README.md': '# Devtron\n\nWelcome.',
        'setup/install.md': '# Install\n',
        'setup/upgrade.md': '---\ntitle: Upgrading\n---\n\nText.',
        'setup/getting-started/index.md': '# Getting started\n',
        'setup/getting-started/why.md': 'No title here.',
        'user-guide/README.md': '# User guide\n',
        'user-guide/apps.md': '# Applications\n',
        'user-guide/apps/create.md': '# Create an application\n\nSee [install](../../setup/install.md#helm).',
        'user-guide/jobs/run.md': '# Run a job\n',
      }),
    );
    assert.deepEqual(lines, [
      'document Devtron',
      'group Setup',
      '  document Getting started',
      '    document Why',
      '  document Install',
      '  document Upgrading',
      'document User guide',
      '  document Applications',
      '    document Create an application',
      '  document Jobs',
      '    document Run a job',
    ]);
    assert.equal(prepared.report.layout, 'folders');
    const install = prepared.pages.find((p) => p.title === 'Install')!;
    const create = prepared.pages.find((p) => p.title === 'Create an application')!;
    assert.match(JSON.stringify(create.document), new RegExp(`"kind":"anchor","anchor":"helm","page":"${install.id}"`));
  });

  test('an image in an aligned div, <details><summary> on one line or two, and an embed’s caption attribute read as GitBook writes them', async () => {
    const { prepared } = await importedTree(
      files({
        'a.md': '# A\n\n<p align="center"><img src="https://x.test/a.png" width="300"></p>\n\n<details><summary>More</summary>\n\nHidden\n\n</details>\n\n<details>\n<summary>Again</summary>\n\nHidden\n\n</details>\n\n{% embed url="https://www.youtube.com/watch?v=x" caption="A demo" %}\n',
      }),
    );
    const document = prepared.pages[0]!.document;
    assert.deepEqual(blockTypes(document), ['images', 'expandable', 'expandable', 'embed']);
    assert.match(JSON.stringify(document), /"align":"center"/);
    assert.match(JSON.stringify(document), /A demo/);
  });

  test('a <details> whose summary spans lines and whose body is a block of HTML is an expandable holding the list it draws', async () => {
    // Shaped as mkdocs/mkdocs' docs/dev-guide/plugins.md (BSD-2-Clause) writes its diagram's key.
    const { prepared } = await importedTree(
      files({
        'a.md':
          '# A\n\n<details class="card">\n  <summary>\n    See a diagram\n  </summary>\n  <div class="card-body">\n    <ul>\n      <li>Events are <b>yellow</b>.\n      <li>Arrows show the flow.\n    </ul>\n  </div>\n</details>\n<br>\n\n## Next\n\n<details>\n<summary>Markdown</summary>\n\n<div>kept</div>\n\nText\n\n</details>\n',
      }),
    );
    const document = prepared.pages[0]!.document as Document;
    const [expandable] = document.nodes;
    assert.equal(expandable!.type, 'expandable');
    const json = JSON.stringify(expandable);
    assert.match(json, /See a diagram/);
    assert.match(json, /"type":"list-unordered"/);
    assert.match(json, /"text":"yellow","marks":\[\{[^}]*"type":"bold"/);
    assert.doesNotMatch(json, /<div|<ul|<li/, 'no HTML is left in the expandable');
    // A body of markdown (a blank line inside) is read as markdown, as before.
    assert.deepEqual(blockTypes(document).filter((type) => type === 'expandable').length, 2);
  });

  test('a centred image in a list item stays the item’s, whatever spaces its attributes have; <br>s under it are left out', async () => {
    // From 0xPolygonID/tutorials' verifier/demo-verifier.md (MIT).
    const { prepared } = await importedTree(
      files({ 'a.md': '# A\n\n1. Scan the code.\n\n    <div align="center">\n    <img src= "https://x.test/demo.png" align="center" width="500"/>\n    </div>\n    <br>\n\n    Then click **Submit**.\n\n2. Done.\n' }),
    );
    const [list] = (prepared.pages[0]!.document as Document).nodes as unknown as [{ type: string; nodes: { nodes: { type: string }[] }[] }];
    assert.equal(list.type, 'list-ordered');
    assert.deepEqual(list.nodes[0]!.nodes.map((n) => n.type), ['paragraph', 'images', 'paragraph']);
    assert.match(JSON.stringify(list.nodes[0]), /"align":"center".*"width":500/);
  });

  test('an HTML block the model would read as its text is written as markdown; scripts and styles are left out and named', async () => {
    // Shaped as FastAPI's docs (MIT): a screenshot in a <div class="screenshot">, buttons of links, a script and a style.
    const source = files({
      'a.md': '# A\n\n<div class="screenshot">\n<img src="shot.png">\n</div>\n\n<div class="text-center">\n<a href="b.md" class="btn">Getting started</a>\n</div>\n\n<style>\n.x { color: red }\n</style>\n\n<script>\nalert(1)\n</script>\n\n- Item\n\n  <div class="mdx-iconsearch">\n    <input placeholder="Search icon">\n    <ol class="results"></ol>\n  </div>\n',
      'b.md': '# B\n',
      'shot.png': 'png',
    });
    const { prepared } = await importedTree(source);
    const page = prepared.pages.find((p) => p.title === 'A')!;
    const json = JSON.stringify(page.document);
    assert.deepEqual(blockTypes(page.document), ['images', 'paragraph', 'list-unordered']);
    assert.match(json, new RegExp(`"kind":"page","page":"${prepared.pages.find((p) => p.title === 'B')!.id}"`), 'the button’s link is a link to the page');
    assert.doesNotMatch(json, /alert|color: red|Search icon|<div/);
    const notes = prepared.report.pages.find((p) => p.file === 'a.md')?.notes ?? [];
    assert.ok(notes.some((n) => n.startsWith('HTML blocks written as markdown') && noteKeepsMeaning(n)), notes.join('\n'));
    assert.ok(notes.some((n) => n.startsWith('style sheets of the page') && noteKeepsMeaning(n)));
    assert.ok(notes.some((n) => n.startsWith('scripts of the page') && !noteKeepsMeaning(n)));
    assert.ok(notes.some((n) => n.startsWith('form fields of the site’s own scripts') && !noteKeepsMeaning(n)));
    // The same with Windows line ends.
    const crlf = await importedTree(files({ 'a.md': '# A\r\n\r\n<div class="screenshot">\r\n<img src="shot.png">\r\n</div>\r\n', 'shot.png': 'png' }));
    assert.deepEqual(blockTypes(crlf.prepared.pages[0]!.document), ['images']);
  });

  test('an <img> of a given width alone between blank lines is an image of that width, as GitBook writes one', async () => {
    // From mkdocs-material's docs/reference/images.md (MIT), where it is written so inside a result box.
    const { prepared } = await importedTree(files({ 'a.md': '# A\n\n  <img src="https://x.test/a.png" width="300" />\n\nText <img src="https://x.test/b.png" width="20"> inline.\n' }));
    const [images, text] = (prepared.pages[0]!.document as Document).nodes;
    assert.equal(images!.type, 'images');
    assert.match(JSON.stringify(images), /"width":300/);
    assert.equal(text!.type, 'paragraph');
    // From 0xPolygonID/tutorials' index.md: `<br>`s that make room under a centred image, a width in pixels.
    const centred = await importedTree(files({ 'a.md': '<div align="center">\n<img src="https://x.test/logo.svg" align="center" width="128px"/>\n<br /><br />\n</div>\n\nText.\n' }));
    const [figure] = (centred.prepared.pages[0]!.document as Document).nodes;
    assert.equal(figure!.type, 'images');
    assert.match(JSON.stringify(figure), /"align":"center".*"width":128/);
  });
});

describe('MkDocs', () => {
  const convert = (markdown: string, snippets: Record<string, string> = {}) => mkdocsToGitbook(markdown, { readSnippet: (path) => snippets[path] });

  test('an icon no Font Awesome set has, a word of its sentence, is an image of the site’s own icon file; a hook’s placeholder is named', async () => {
    // As in mkdocs-material's docs/blog/posts/adding-a-badge-to-your-project.md and docs/setup/changing-the-language.md (MIT).
    const { prepared } = await importedTree(
      files({
        'mkdocs.yml': 'site_name: S\ntheme:\n  name: material\n  custom_dir: overrides\nhooks:\n  - overrides/hooks/translations.py\n',
        'overrides/.icons/simple/materialformkdocs.svg': '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path d="M0 0h24v24H0z"/></svg>',
        'docs/index.md': '# Home\n\n## Adding a :simple-materialformkdocs: badge\n\nSupported:\n\n<!-- hooks/translations.py -->\n\n- :simple-nothere: Words\n',
      }),
    );
    const page = prepared.pages.find((p) => p.title === 'Home')!;
    const heading = JSON.stringify((page.document as Document).nodes[0]);
    const icon = prepared.files.find((f) => f.path === 'overrides/.icons/simple/materialformkdocs.svg')!;
    assert.match(heading, new RegExp(`"type":"inline-image".*"file":"${icon.id}"`));
    const notes = prepared.report.pages.flatMap((p) => p.notes);
    assert.ok(notes.some((n) => n.startsWith('icons no Font Awesome set has') && noteKeepsMeaning(n)), notes.join('; '));
    assert.ok(notes.some((n) => n.startsWith('content the site’s hook hooks/translations.py') && !noteKeepsMeaning(n)), notes.join('; '));
  });

  test('admonitions are hints, collapsible ones expandables, tabs are tabs, and fence titles and line numbers a code block', () => {
    const { markdown, notes } = convert(
      '!!! warning "Mind the gap"\n\n    Keep **clear**.\n\n??? note\n    Hidden.\n\n=== "C"\n\n    ``` c title="hello.c" linenums="1" hl_lines="2"\n    int x;\n    ```\n\n=== "Text"\n\n    Plain.\n',
    );
    assert.equal(
      markdown,
      [
        '{% hint style="warning" %}', '**Mind the gap**', '', 'Keep **clear**.', '{% endhint %}', '', '',
        '<details>', '', '<summary>Note</summary>', '', 'Hidden.', '', '</details>', '', '',
        '{% tabs %}', '{% tab title="C" %}', '{% code title="hello.c" lineNumbers="true" %}', '```c', 'int x;', '```', '{% endcode %}', '{% endtab %}', '',
        '{% tab title="Text" %}', 'Plain.', '{% endtab %}', '{% endtabs %}', '', '',
      ].join('\n'),
    );
    // hl_lines="2" of a one-line block highlights nothing, as pymdownx.highlight reads it.
    assert.deepEqual(notes, []);
  });

  test('snippets are inlined, a missing one kept as written and named; footnotes go on to the GitBook reader as written', () => {
    const { markdown, notes } = convert('--8<-- "includes/abbr.md"\n\nText[^1] :material-check:\n\n[^1]: A note.\n\n--8<-- "missing.md"\n', { 'includes/abbr.md': 'Shared **text**.\n' });
    assert.ok(markdown.startsWith('Shared **text**.\n'));
    assert.ok(markdown.includes('--8<-- "missing.md"'));
    assert.ok(markdown.includes('Text[^1] <i class="fa-check">:check:</i>'));
    assert.deepEqual(notes.sort(), ['icon shortcodes drawn with the Font Awesome icon of the same name', 'snippet missing.md: not found, kept as written']);
  });

  // From mkdocs-material's docs/reference/code-blocks.md (MIT, test/fixtures/mkdocs-material/LICENSE).
  const BUBBLE_SORT = ['def bubble_sort(items):', '    for i in range(len(items)):', '        for j in range(len(items) - 1 - i):', '            if items[j] > items[j + 1]:', '                items[j], items[j + 1] = items[j + 1], items[j]'];

  test('an SVG snippet is an image of its file, an <img> inside HTML (which is then written as markdown); the import makes a file of it', async () => {
    const converted = mkdocsToGitbook('# A\n\n--8<-- "docs/img/events.svg"\n\n<div>\n  <p>Key</p>\n--8<-- "docs/img/events.svg"\n</div>\n', {
      readSnippet: () => '<svg xmlns="http://www.w3.org/2000/svg"></svg>',
      snippetFile: () => '../img/events.svg',
    });
    assert.match(converted.markdown, /^!\[\]\(<\.\.\/img\/events\.svg>\)$/m);
    // In the HTML block an `<img>`, and the block, which the model would read as its text, is markdown then.
    assert.match(converted.markdown, /^Key\n\n!\[\]\(\.\.\/img\/events\.svg\)$/m);
    assert.doesNotMatch(converted.markdown, /<svg/);
    assert.ok(converted.notes.some((note) => note.startsWith('drawings inlined from an SVG file') && noteKeepsMeaning(note)));
    const { prepared } = await importedTree(
      files({
        'mkdocs.yml': 'site_name: S\n',
        'docs/guide/page.md': '# Page\n\n--8<-- "docs/img/events.svg"\n',
        'docs/img/events.svg': '<svg xmlns="http://www.w3.org/2000/svg"></svg>',
      }),
    );
    const file = prepared.files.find((f) => f.name === 'events.svg');
    assert.ok(file, 'the drawing is a file of the space');
    assert.match(JSON.stringify(prepared.pages.find((p) => p.title === 'Page')!.document), new RegExp(`"type":"images".*"file":"${file.id}"`));
  });

  test('hl_lines, single lines and ranges, are the highlighted code lines of the document the import writes', async () => {
    const page = ['``` py hl_lines="2 3"', ...BUBBLE_SORT, '```', '', '=== "Range"', '', '    ``` py linenums="1" hl_lines="3-5"', ...BUBBLE_SORT.map((l) => `    ${l}`), '    ```', ''].join('\n');
    const { markdown, notes, highlights } = convert(page);
    // The fence stays as written: the markdown is the code alone, the lines travel beside it.
    assert.ok(markdown.startsWith(['```py', ...BUBBLE_SORT, '```'].join('\n')), markdown);
    assert.deepEqual(notes, []);
    assert.deepEqual(highlights.map((h) => h.lines), [[2, 3], [3, 4, 5]]);
    assert.equal(highlights[1]!.code, BUBBLE_SORT.join('\n'));
    const { prepared } = await importedTree(files({ 'mkdocs.yml': 'nav:\n  - Code: index.md\n', 'docs/index.md': `# Code\n\n${page}` }));
    assert.deepEqual(highlightsOf(prepared.pages[0]!.document), ['def bubble_sort(items):: 2 3', 'def bubble_sort(items):: 3 4 5']);
    assert.deepEqual(prepared.report.pages, []);
  });

  test('tabs, admonitions and fence options in a list item’s content are converted under the item', () => {
    const { markdown, highlights } = convert('1. **Sign in**\n\n\tText.\n\n\t=== "Go"\n\n\t\t```go hl_lines="2"\n\t\ta := 1\n\t\tb := 2\n\t\t```\n\n2. Next\n');
    assert.ok(markdown.startsWith('1. **Sign in**\n\n    Text.\n\n    {% tabs %}\n    {% tab title="Go" %}\n    ```go\n    a := 1\n    b := 2\n    ```\n    {% endtab %}\n    {% endtabs %}\n'), markdown);
    assert.deepEqual(highlights, [{ code: 'a := 1\nb := 2', lines: [2] }]);
  });

  test('icon shortcodes are icons where Font Awesome’s solid or brands set has one of the name (a tab’s leading icon is its icon); others stay and are named', async () => {
    const { markdown, notes } = convert(
      ['Close :material-close:, code :octicons-file-code-16:, `:material-check:` in code, logo :material-material-design:.', '', '=== ":octicons-file-code-16: `mkdocs.yml`"', '', '    Text.', ''].join('\n'),
    );
    assert.ok(markdown.startsWith('Close <i class="fa-xmark">:xmark:</i>, code <i class="fa-file-code">:file-code:</i>, `:material-check:` in code, logo :material-material-design:.'), markdown);
    assert.ok(markdown.includes('{% tab title="`mkdocs.yml`" icon="file-code" %}'), markdown);
    assert.deepEqual(notes.sort(), ['icon shortcode with no icon of its name in Quire’s set (:name:): kept as written', 'icon shortcodes drawn with the Font Awesome icon of the same name']);
    // A link holds text only: its icons go just before it. From mkdocs-material's docs/reference/grids.md (MIT).
    assert.equal(convert('[:octicons-arrow-right-24: Getting started](getting-started.md)').markdown, '<i class="fa-arrow-right">:arrow-right:</i> [Getting started](getting-started.md)');
    const { prepared } = await importedTree(files({ 'mkdocs.yml': 'nav:\n  - Icons: index.md\n', 'docs/index.md': '# Icons\n\nDone :material-check:\n' }));
    assert.match(JSON.stringify(prepared.pages[0]!.document), /"type":"icon","isVoid":true,"data":\{"icon":"check"\}/);
  });

  // After FastAPI's docs/en/docs/tutorial/index.md and python-types.md (MIT).
  test('pymdownx.blocks are admonitions, details and tabs as their older spelling is; a block inside another and a caption', () => {
    const { markdown, notes } = convert(
      [
        '/// tip | Use `uv`', '', 'Run **it**.', '', '///', '',
        '/// details | What these commands do', '    type: warning', '    open: True', '', '* `uv init`', '', '```', '///', '```', '', '///', '',
        '//// tab | Python 3.10+', '', 'New.', '', '/// note', '', 'Inner.', '', '///', '', '////', '',
        '//// tab | Python 3.9+', '', 'Old.', '', '////', '',
        '![Chart](chart.png)', '/// caption', 'A chart', '///',
      ].join('\n'),
    );
    const compact = markdown.replace(/\n{2,}/g, '\n\n');
    assert.match(compact, /^\{% hint style="success" %\}\n\*\*Use `uv`\*\*\n\nRun \*\*it\*\*\.\n\{% endhint %\}/);
    assert.match(compact, /<details open>\n\n<summary>What these commands do<\/summary>\n\n\* `uv init`\n\n```\n\/\/\/\n```\n\n<\/details>/);
    assert.match(compact, /\{% tabs %\}\n\{% tab title="Python 3\.10\+" %\}\nNew\.\n\n\{% hint style="info" %\}\n\*\*Note\*\*\n\nInner\.\n\{% endhint %\}\n\{% endtab %\}\n\n\{% tab title="Python 3\.9\+" %\}\nOld\.\n\{% endtab %\}\n\{% endtabs %\}/);
    assert.match(compact, /!\[Chart\]\(chart\.png\)\n\/\/\/ caption\nA chart\n\/\/\/$/);
    assert.deepEqual(notes, ['block (/// …): kept as written']);
  });

  test('a code file included with markdown-include-variants is a code block of its recommended variant, its lines and highlights as the site shows them', async () => {
    const { prepared } = await importedTree(
      files({
        'mkdocs.yml': 'nav:\n  - Models: index.md\n',
        'docs/index.md': '# Models\n\n{* ../docs_src/models/tutorial001_py310.py ln[3:4] hl[4] *}\n\n{* ../docs_src/models/missing.py *}\n',
        'docs_src/models/tutorial001_py310.py': 'from fastapi import FastAPI\n\napp = FastAPI()\nitems = {}\n',
        'docs_src/models/tutorial001_an_py310.py': 'from typing import Annotated\n\napp = FastAPI()\nitems: Annotated[dict, "x"] = {}\nprint(items)\n',
      }),
    );
    const document = prepared.pages[0]!.document as { nodes: { type: string; data?: { syntax?: string } }[] };
    const code = document.nodes.find((n) => n.type === 'code')!;
    assert.equal(code.data?.syntax, 'python');
    assert.deepEqual(highlightsOf(document), ['# Code above omitted 👈️: 4']);
    const text = JSON.stringify(code);
    assert.ok(text.includes('items: Annotated[dict, \\"x\\"] = {}') && text.includes('# Code below omitted 👇') && !text.includes('print(items)'), text);
    assert.deepEqual(prepared.report.pages[0]!.notes.sort(), [
      'code file ../docs_src/models/missing.py: not found, kept as written',
      'code files included with markdown-include-variants ({* file hl[…] *}) as code blocks, their highlighted lines kept',
      'code includes’ other versions and full-file previews, which the site folds under the code shown ({* … *}): left out, the recommended version (_an) shown',
    ]);
  });

  // From FastAPI's docs/en/docs/features.md and tutorial/path-params.md (MIT).
  test('words with a title (<abbr>, <dfn>) are annotated with it; in a heading the words stay and the title is named', () => {
    const { markdown, notes } = convert('Such as <abbr title="Object-Relational Mapper">ORM</abbr>s, `<abbr title="x">code</abbr>`.\n\n## Data <dfn title="also known as: serialization">conversion</dfn>\n');
    assert.equal(markdown, 'Such as ORM[^annotation-1]s, `<abbr title="x">code</abbr>`.\n\n## Data conversion\n\n\n[^annotation-1]: Object-Relational Mapper\n');
    assert.deepEqual(notes.sort(), [
      'titles of words in a heading (<abbr title>, <dfn title>): left out, a heading holds no annotation',
      'words with a title (<abbr title>, <dfn title>) as GitBook’s annotations',
    ]);
  });

  // From mkdocs/mkdocs' docs/user-guide/choosing-your-theme.md (BSD-2-Clause).
  test('an id set on words is left out (GitBook anchors headings only); the words stay as they were', () => {
    const { markdown, notes } = convert('*   **`locale`**{ #mkdocs-locale }: The locale used.\n\n## Heading { #kept }\n');
    assert.equal(markdown, '*   **`locale`**: The locale used.\n\n## Heading <a href="#kept" id="kept"></a>\n');
    assert.deepEqual(notes, ['anchors set on words ({ #id } after a link or bold text): left out, GitBook anchors headings only']);
  });

  // From 0xPolygonID/tutorials' mkdocs/docs/index.md (MIT).
  test('a heading holding only tags that show nothing is left out; its words after it stay a paragraph, and a heading with words or an image stays', () => {
    const { markdown, notes } = convert('---\n\n###### <div align="center">\n<a href="https://github.com/0xPolygonID" target="_blank">Polygon ID on GitHub</a></div>\n\n## <a name="top"></a>\n\n## Setup <span>now</span>\n\n### <img src="logo.png">\n');
    assert.equal(markdown, '---\n\n<a href="https://github.com/0xPolygonID" target="_blank">Polygon ID on GitHub</a></div>\n\n\n## Setup <span>now</span>\n\n### <img src="logo.png">\n');
    assert.deepEqual(notes, ['empty headings holding only HTML tags that show nothing (###### <div align="center">): left out']);
  });

  // From mkdocs-material's docs/setup/setting-up-the-footer.md and guides/creating-a-reproduction.md (MIT).
  test('brand shortcodes are Font Awesome’s brand icons: its own, Simple Icons’ of a name it has, Octicons’ GitHub mark, Material’s logos', () => {
    const { markdown, notes } = convert('* :fontawesome-brands-x-twitter: – `fontawesome/brands/x-twitter`\n\nOn :simple-github: and :octicons-mark-github-16:, :material-linux: Linux.\n');
    assert.equal(
      markdown,
      '* <i class="fa-x-twitter">:x-twitter:</i> – `fontawesome/brands/x-twitter`\n\nOn <i class="fa-github">:github:</i> and <i class="fa-github">:github:</i>, <i class="fa-linux">:linux:</i> Linux.\n',
    );
    assert.deepEqual(notes.sort(), ['icon shortcodes drawn with the Font Awesome icon of the same name', 'icon shortcodes drawn with the nearest Font Awesome icon (Material’s magnify as magnifying-glass)']);
    // Octicons name objects and signs: its `node` is a graph's node, not Node.js's logo. A brand is not in the solid set.
    assert.deepEqual(['octicons-node-16', 'fontawesome-solid-github'].map(iconOfShortcode), [undefined, undefined]);
    // Simple Icons' slugs are brand names without hyphens; X's logo is Font Awesome's `x-twitter` (its solid `x` is a letter).
    assert.deepEqual(['simple-x', 'simple-googleplay', 'simple-nodedotjs', 'simple-stackoverflow', 'simple-materialformkdocs'].map(iconOfShortcode), ['x-twitter', 'google-play', 'node-js', 'stack-overflow', undefined]);
    assert.equal(iconOfShortcode('material-close'), 'xmark');
  });

  // Excerpts of mkdocs-material's docs (MIT, test/fixtures/mkdocs-material/LICENSE): browser-support.md, setup/index.md,
  // blog/posts/adding-a-badge-to-your-project.md, plugins/blog.md.
  test('an icon Font Awesome has under another name is drawn as that one; one it lacks is left out before the words it decorates, kept where it means something', () => {
    const nearest = convert('- :material-magnify: Search, :material-information-outline: info and :material-arrow-up-circle: up');
    assert.equal(nearest.markdown, '- <i class="fa-magnifying-glass">:magnifying-glass:</i> Search, <i class="fa-circle-info">:circle-info:</i> info and <i class="fa-circle-arrow-up">:circle-arrow-up:</i> up');
    assert.deepEqual(nearest.notes, ['icon shortcodes drawn with the nearest Font Awesome icon (Material’s magnify as magnifying-glass)']);
    const decoration = convert(
      ['| :simple-googlechrome: Chrome   |     49+ |', '', '- :material-page-layout-header: __[Header]__ – Customize the header', '-   :material-language-markdown:{ .lg .middle } __It\'s just Markdown__'].join('\n'),
    );
    assert.equal(decoration.markdown, ['| Chrome   |     49+ |', '', '- __[Header]__ – Customize the header', '-   __It\'s just Markdown__'].join('\n'));
    assert.deepEqual(decoration.notes, ['icons without a Font Awesome match before the words they stand beside: left out as decoration']);
    // The space after a left-out icon goes too: a link's text starts with its words.
    assert.equal(convert('[:simple-netlify: Netlify](https://www.netlify.com)\n\n**:simple-netlify:&nbsp;Netlify** hosts it').markdown, '[Netlify](https://www.netlify.com)\n\n**Netlify** hosts it');
    const meaning = convert('# Adding a :simple-materialformkdocs: badge to your project\n\n- :simple-simpleicons: – \n');
    assert.equal(meaning.markdown, '# Adding a :simple-materialformkdocs: badge to your project\n\n- :simple-simpleicons: – \n');
    assert.deepEqual(meaning.notes, ['icon shortcode with no icon of its name in Quire’s set (:name:): kept as written']);
    const tabs = convert('=== "blog/2024/:material-dots-horizontal:/"\n\n    Posts.\n\n=== ":simple-simpleicons: Simple Icons"\n\n    Logos.\n');
    assert.ok(tabs.markdown.includes('{% tab title="blog/2024/…/" %}') && tabs.markdown.includes('{% tab title="Simple Icons" %}'), tabs.markdown);
  });

  // From mkdocs-material's docs/reference/icons-emojis.md, setup/adding-a-git-repository.md and setup/setting-up-social-cards.md (MIT).
  test('an icon without a match is decoration before a dash and words, or before code; the dash goes with it', () => {
    const dashes = convert(
      ['- :material-material-design: – [Material Design]', '- :simple-simpleicons: - [Simple Icons]', '* :material-material-design: — `material/material-design`', '- :fontawesome-brands-git: – `fontawesome/brands/git`'].join('\n'),
    );
    assert.equal(dashes.markdown, ['- [Material Design]', '- [Simple Icons]', '* `material/material-design`', '- <i class="fa-git">:git:</i> – `fontawesome/brands/git`'].join('\n'));
    assert.deepEqual(dashes.notes.sort(), ['icon shortcodes drawn with the Font Awesome icon of the same name', 'icons without a Font Awesome match before the words they stand beside: left out as decoration']);
    // Font Awesome's solid set has no diagonal arrows; each cell's code says the place.
    const cells = convert('| :material-arrow-top-left:    `start top`    | :material-arrow-up:     `center top`    | :material-arrow-top-right:    `end top`    |');
    assert.equal(cells.markdown, '| `start top`    | <i class="fa-arrow-up">:arrow-up:</i>     `center top`    | `end top`    |');
    assert.ok(cells.notes.includes('icons without a Font Awesome match before the words they stand beside: left out as decoration'));
    // Not first in its line, or before a dash and nothing, it means something.
    const meaning = convert('Point :material-arrow-top-left: `start top` at it.\n\n- :material-material-design: –\n');
    assert.equal(meaning.markdown, 'Point :material-arrow-top-left: `start top` at it.\n\n- :material-material-design: –\n');
    assert.deepEqual(meaning.notes, ['icon shortcode with no icon of its name in Quire’s set (:name:): kept as written']);
  });

  // From mkdocs-material's docs/getting-started.md and changelog/index.md (MIT).
  test('<small> beside a heading is text of the heading, named; in code it stays', () => {
    const { markdown, notes } = convert('### with pip <small>recommended</small> { #with-pip data-toc-label="with pip" }\n\n## 9.7.6 <small>March 19, 2026</small> { id="9.7.6" }\n\n`<small>x</small>`\n');
    assert.equal(markdown, '### with pip recommended <a href="#with-pip" id="with-pip"></a>\n\n## 9.7.6 March 19, 2026 <a href="#9.7.6" id="9.7.6"></a>\n\n`<small>x</small>`\n');
    assert.deepEqual(notes, ['small print (<small>…</small>) as text of its line: GitBook has no smaller type']);
  });

  // From mkdocs-material's docs/plugins/blog.md and customization.md (MIT).
  test('Material’s badges are their words where mkdocs.yml runs its shortcodes hook, comments where it does not', () => {
    const page = ['#### <!-- md:setting config.enabled -->', '', '<!-- md:version 9.2.0 -->', '<!-- md:default `true` -->', '', 'Prior to <!-- md:version 7.0.0 --> the build. See [`enabled`][config.enabled].'].join('\n');
    const { markdown, notes } = mkdocsToGitbook(page, { readSnippet: () => undefined, materialBadges: true });
    assert.equal(
      markdown,
      ['#### `enabled` <a href="#config.enabled" id="config.enabled"></a>', '', '[config.enabled]: #config.enabled', '', '_Version 9.2.0_', '_Default:_ `true`', '', 'Prior to _Version 7.0.0_ the build. See [`enabled`][config.enabled].'].join('\n'),
    );
    assert.deepEqual(notes, ['Material’s badges (<!-- md:… -->, shown by its shortcodes hook) as their words: the box, its icon and its link left out']);
    assert.equal(convert(page).markdown, page);
  });

  // From mkdocs-material's docs/contributing/reporting-a-bug.md (MIT).
  test('a drawn icon’s colour is left out and named; a colour on anything else stays as written', () => {
    const { markdown, notes } = convert('| :material-check:{ style="color: #4DB6AC" } __Clear__ | Built-in |\n\n__Clear__{ style="color: red" }\n');
    assert.equal(markdown, '| <i class="fa-check">:check:</i> __Clear__ | Built-in |\n\n__Clear__{ style="color: red" }\n');
    assert.deepEqual(notes.sort(), ['attribute list ({ … }): kept as written', 'colours of icons ({ style="color: …" }): left out, the icon drawn in the colour of its text', 'icon shortcodes drawn with the Font Awesome icon of the same name']);
  });

  test('md-button links are GitBook buttons; attribute lists of classes, a result box and a drawn icon’s colour are left out and named', () => {
    // From mkdocs-material's docs/reference/buttons.md and docs/reference/icons-emojis.md (MIT).
    const { markdown, notes } = convert(
      [
        '[Subscribe to our newsletter](#){ .md-button .md-button--primary }',
        '',
        '[Send :fontawesome-solid-paper-plane:](#){ .md-button }',
        '',
        '<div class="result" markdown>',
        '',
        ':material-clock-fast:{ .lg .middle } __Set up in 5 minutes__',
        '',
        '</div>',
        '',
        ':fontawesome-brands-youtube:{ style="color: #EE0F0F" }',
      ].join('\n'),
    );
    assert.equal(
      markdown,
      [
        '<a href="#" class="button primary">Subscribe to our newsletter</a>',
        '',
        '<a href="#" class="button secondary" data-icon="paper-plane">Send</a>',
        '',
        '',
        '',
        '<i class="fa-stopwatch">:stopwatch:</i> __Set up in 5 minutes__',
        '',
        '',
        '',
        '<i class="fa-youtube">:youtube:</i>',
      ].join('\n'),
    );
    assert.deepEqual(notes.sort(), [
      'HTML wrapper of an example’s result (<div class="result" markdown>): its content kept, the box left out',
      'attribute lists of classes ({ .name }): left out, GitBook has no classes to style with',
      'buttons (md-button) as GitBook’s buttons',
      'colours of icons ({ style="color: …" }): left out, the icon drawn in the colour of its text',
      'icon shortcodes drawn with the Font Awesome icon of the same name',
      'icon shortcodes drawn with the nearest Font Awesome icon (Material’s magnify as magnifying-glass)',
    ]);
  });

  test('an md-button written as a reference link is a button to its definition’s target; a TeX group is no attribute list', () => {
    // From mkdocs-material's docs/contributing/requesting-a-change.md and docs/reference/math.md (MIT).
    const { markdown, notes } = convert(
      '[:octicons-comment-discussion-16:&nbsp; Start a discussion][discussion board]{ .md-button .md-button--primary }\n\n[Demo]{ .md-button }\n\n  [discussion board]: https://github.com/squidfunk/mkdocs-material/discussions\n  [Demo]: #\n\n$$\n\\cos x=\\sum_{k=0}^{\\infty}\n$$\n',
    );
    assert.ok(markdown.startsWith('<a href="https://github.com/squidfunk/mkdocs-material/discussions" class="button primary" data-icon="comments">Start a discussion</a>\n\n<a href="#" class="button secondary">Demo</a>\n'), markdown);
    assert.deepEqual(notes, ['buttons (md-button) as GitBook’s buttons']);
  });

  test('annotations, (1) in a block marked annotate and the list of notes after it, are footnotes (GitBook’s annotations), nested ones too; a tooltip is one', () => {
    // From mkdocs-material's docs/reference/annotations.md and docs/blog/posts/mkdocs-2.0.md (MIT).
    const { markdown, notes } = convert(
      [
        'Lorem ipsum dolor sit amet, (1) consectetur adipiscing elit.', '{ .annotate }', '', '1.  I\'m an annotation! (1)', '    { .annotate style="margin-bottom: 0" }', '', '    1.  I\'m an annotation as well!', '',
        '!!! note annotate "Phasellus posuere in sem ut cursus (1)"', '', '    Lorem ipsum dolor sit amet, (2) consectetur.', '', '1.  I\'m an annotation as well!', '2.  Another.', '',
        '__Update__{ title="August 21, 2024" }: The new maintainer',
      ].join('\n'),
    );
    assert.equal(
      markdown,
      [
        'Lorem ipsum dolor sit amet, [^annotation-2] consectetur adipiscing elit.', '',
        '{% hint style="info" %}', '**Phasellus posuere in sem ut cursus [^annotation-1]**', '', 'Lorem ipsum dolor sit amet, [^annotation-3] consectetur.', '{% endhint %}', '', '', '',
        '__Update__[^annotation-4]: The new maintainer', '',
        '[^annotation-1]: I\'m an annotation as well!', '', '[^annotation-2]: I\'m an annotation! [^annotation-1]', '', '[^annotation-3]: Another.', '', '[^annotation-4]: August 21, 2024', '',
      ].join('\n'),
    );
    assert.deepEqual(notes.map(noteKeepsMeaning), [true, true]);
    // Markers with no list after their block stay as written, and are named.
    assert.ok(convert('A (1) without notes.\n{ .annotate }\n\nAfter.').notes.some((note) => note.startsWith('annotations (.annotate) with no list')));
  });

  test('a style that only places a paragraph is left out and named as keeping its meaning; one that draws stays', () => {
    // From mkdocs-material's docs/blog/posts/chinese-search-support.md (MIT).
    const { markdown, notes } = convert('_Material for MkDocs終於​支持​中文​了！_\n{ style="display: inline" }\n\n_This article explains how._\n{ style="color: red" }\n');
    assert.equal(markdown, '_Material for MkDocs終於​支持​中文​了！_\n\n\n_This article explains how._\n{ style="color: red" }\n');
    assert.deepEqual(notes.map(noteKeepsMeaning), [true, false]);
  });

  test('an abbreviation is an annotation of its word’s first use in prose; its definition, and one never used, are taken out', () => {
    // From mkdocs-material's docs/reference/tooltips.md (MIT).
    const { markdown, notes } = convert('`HTML` and [HTML](h.md).\n\nThe HTML specification is maintained by the W3C.\n*[HTML]: Hyper Text Markup Language\n*[W3C]: World Wide Web Consortium\n*[CSS]: Cascading Style Sheets\n');
    assert.equal(
      markdown,
      '`HTML` and [HTML](h.md).\n\nThe HTML[^annotation-1] specification is maintained by the W3C[^annotation-2].\n\n\n[^annotation-1]: Hyper Text Markup Language\n\n[^annotation-2]: World Wide Web Consortium\n',
    );
    assert.deepEqual(notes.map(noteKeepsMeaning), [true]);
  });

  test('a grid of cards is GitBook’s cards: icon and title, text, and the title’s link as the target; a card holding code stays as written', () => {
    // From mkdocs-material's docs/setup/index.md and docs/contributing/index.md (MIT).
    const { markdown, notes } = convert(
      [
        '<div class="grid cards" markdown>',
        '',
        '- :material-page-layout-footer: __[Footer]__ – Add links to your social media profiles or websites in the footer',
        '',
        '-   :material-bug-outline: &nbsp;',
        '    __Something is not working?__',
        '',
        '    ---',
        '',
        '    Report a bug in Material for MkDocs by creating an issue with a',
        '    reproduction',
        '',
        '    ---',
        '',
        '    [:octicons-arrow-right-24: Report a bug][report a bug]',
        '',
        '</div>',
        '',
        '  [Footer]: setting-up-the-footer.md',
        '  [report a bug]: reporting-a-bug.md',
      ].join('\n'),
    );
    assert.equal(
      markdown.split('\n')[1],
      '<table data-view="cards"><thead><tr><th></th><th></th><th data-hidden data-card-target data-type="content-ref"></th></tr></thead><tbody>' +
        '<tr><td>__Footer__</td><td>Add links to your social media profiles or websites in the footer</td><td><a href="setting-up-the-footer.md">setting-up-the-footer.md</a></td></tr>' +
        '<tr><td><i class="fa-bug">:bug:</i> __Something is not working?__</td><td><p>Report a bug in Material for MkDocs by creating an issue with a reproduction</p><p><i class="fa-arrow-right">:arrow-right:</i> [Report a bug][report a bug]</p></td><td><a href="reporting-a-bug.md">reporting-a-bug.md</a></td></tr>' +
        '</tbody></table>',
    );
    assert.ok(notes.every(noteKeepsMeaning), notes.join('; '));
    assert.ok(notes.includes('grids of cards (<div class="grid cards" markdown>) as GitBook’s cards: each item’s icon and title, text and link; the rules between them left out'));

    const withCode = convert(['<div class="grid cards" markdown>', '', '-   __Social__', '', '    ``` yaml', '    social: true', '    ```', '', '</div>'].join('\n'));
    assert.match(withCode.markdown, /^- {3}__Social__$/m);
    assert.deepEqual(withCode.notes, ['grids (<div class="grid" markdown>, and grids of cards holding more than a card can) laid out in one column: their blocks kept, in order']);
    assert.ok(withCode.notes.every(noteKeepsMeaning));
  });

  test('a wrapper that only styles its content is left out, its content kept; one of other classes is named', () => {
    // From mkdocs-material's docs/plugins/tags.md and docs/reference/code-blocks.md (MIT).
    const styled = convert(['<div style="opacity: 0.5" markdown>', '', 'Use this setting.', '', '</div>', '', '<div style="--md-tooltip-width: 600px;" markdown>', '', 'Wide.', '', '</div>'].join('\n'));
    assert.equal(styled.markdown.trim().replace(/\n+/g, '\n'), 'Use this setting.\nWide.');
    assert.deepEqual(styled.notes.map(noteKeepsMeaning), [true]);
    const other = convert(['<div class="mdx-switch" markdown>', '', 'Text.', '', '</div>'].join('\n'));
    assert.deepEqual(other.notes.map(noteKeepsMeaning), [false]);
  });

  test('an admonition of the site’s own type is an info hint with its title, as Material draws a type it has no style for', () => {
    // From mkdocs-material's docs/reference/admonitions.md (MIT).
    const { markdown, notes } = convert('!!! pied-piper "Pied Piper"\n\n    Lorem ipsum.\n');
    assert.equal(markdown, '{% hint style="info" %}\n**Pied Piper**\n\nLorem ipsum.\n{% endhint %}\n\n');
    assert.deepEqual(notes.map(noteKeepsMeaning), [true]);
  });

  test('an empty paragraph that only places an anchor (the theme’s feedback widget’s) is left out', () => {
    // From mkdocs-material's docs/setup/setting-up-site-analytics.md (MIT).
    const { markdown, notes } = convert('Text.\n\n&nbsp;\n{ #feedback style="margin: 0; height: 0" }\n\nMore.\n\n&nbsp;\n');
    assert.equal(markdown, 'Text.\n\n\nMore.\n\n&nbsp;\n');
    assert.deepEqual(notes.map(noteKeepsMeaning), [true]);
  });

  test('mkdocs-material’s mdx-columns flows a list into columns: the list is kept, named as keeping its meaning', () => {
    const { markdown, notes } = convert(['<div class="mdx-columns" markdown>', '', '- [Adding an excerpt]', '- [Adding authors]', '', '</div>'].join('\n'));
    assert.equal(markdown, ['', '', '- [Adding an excerpt]', '- [Adding authors]', '', ''].join('\n'));
    assert.deepEqual(notes.map(noteKeepsMeaning), [true]);
  });

  test('==highlight== is a yellow background colour; ^^insert^^ and <u> (underlines) are emphasis, in italic', () => {
    // From mkdocs-material's docs/reference/formatting.md and docs/contributing/reporting-a-bug.md (MIT).
    const { markdown, notes } = convert('- ==This was marked (highlight)==\n- ^^This was inserted (underline)^^\n\n`a == b` and x == y, `^^a^^`\n\n__Explain the <u>what</u>__\n');
    assert.equal(markdown, '- <mark style="background-color:yellow;">This was marked (highlight)</mark>\n- *This was inserted (underline)*\n\n`a == b` and x == y, `^^a^^`\n\n__Explain the *what*__\n');
    assert.deepEqual(notes.map((note) => [note.replace(/ \(.*/, ''), noteKeepsMeaning(note)]), [['highlights', true], ['underlines', true]]);
  });

  test('a definition list is a bulleted list: each term in bold leads its item, its definitions’ blocks (a hint) under it', () => {
    // From mkdocs-material's docs/reference/lists.md and docs/reference/admonitions.md (MIT).
    const { markdown, notes } = convert(
      ['`Cras arcu libero`', '', ':   Aliquam metus eros, pretium sed nulla', '    venenatis.', '', '    Duis mollis est.', '', 'type:note', '', ':   !!! note', '', '        Lorem ipsum.', '', ':   Again.', '', 'After.'].join('\n'),
    );
    assert.equal(
      markdown,
      [
        '- **`Cras arcu libero`**', '', '    Aliquam metus eros, pretium sed nulla', '    venenatis.', '', '    Duis mollis est.', '',
        '- **type:note**', '', '    {% hint style="info" %}', '    **Note**', '', '    Lorem ipsum.', '    {% endhint %}', '', '    Again.', '', 'After.',
      ].join('\n'),
    );
    assert.deepEqual(notes.map(noteKeepsMeaning), [true]);
    assert.match(notes[0]!, /^definition lists/);
    const document = markdownToDocument(markdown, resolveRef);
    assert.deepEqual(blockTypes(document), ['list-unordered', 'paragraph']);
    assert.deepEqual((document.nodes[0] as { nodes: { nodes: { type: string }[] }[] }).nodes.map((item) => item.nodes.map((block) => block.type)), [['paragraph', 'paragraph', 'paragraph'], ['paragraph', 'hint', 'paragraph']]);
  });

  test('a definition after what is no paragraph follows it, named', () => {
    const { markdown, notes } = convert('## Heading\n\n:   Text.\n');
    assert.equal(markdown, '## Heading\n\nText.\n');
    assert.deepEqual(notes.map(noteKeepsMeaning), [false]);
  });

  test('<small> holding a code span is text of its line; one inside a code span is code', () => {
    const { markdown } = convert('Mastodon <small>automatically adds [`rel=me`][rel=me]</small> and `<small>x</small>`');
    assert.equal(markdown, 'Mastodon automatically adds [`rel=me`][rel=me] and `<small>x</small>`');
  });

  test('code stays code: a fence holding admonition syntax is not converted', () => {
    const source = '```markdown\n!!! note\n    Not a hint.\n```\n';
    assert.equal(convert(source).markdown, source);
  });

  test('a heading’s { #id } is its pinned anchor, and ++ctrl+c++ keys', () => {
    assert.equal(convert('## Setup { #install }\n\nPress ++ctrl+c++.').markdown, '## Setup <a href="#install" id="install"></a>\n\nPress <kbd>Ctrl</kbd>+<kbd>C</kbd>.');
  });

  test('???+ is an expandable shown open', () => {
    const { markdown, notes } = convert('???+ tip "Open"\n    Shown.\n');
    assert.ok(markdown.startsWith('<details open>\n\n<summary>Open</summary>\n\nShown.\n\n</details>'), markdown);
    assert.deepEqual(notes, []);
  });

  test('an image with a width in its attribute list, and Material’s captioned <figure markdown>, are GitBook figures', () => {
    assert.equal(convert('![Infra](../imgs/a.png){ width="300" loading=lazy }').markdown, '<figure><img src="../imgs/a.png" alt="Infra" width="300"><figcaption></figcaption></figure>');
    const figure = convert('<figure markdown>\n  ![3001](../imgs/3001.png){ width="1000" }\n  <figcaption>The API.</figcaption>\n</figure>\n\nAfter.');
    assert.equal(figure.markdown, '<figure><img src="../imgs/3001.png" alt="3001" width="1000"><figcaption>The API.</figcaption></figure>\n\nAfter.');
    assert.deepEqual(figure.notes, []);
    const other = convert('![A](a.png){ .center width="50%" }');
    assert.ok(other.markdown.startsWith('<figure><img src="a.png" alt="A">'));
    assert.deepEqual(other.notes, ['image attributes other than a width in pixels: left out']);
  });

  test('a light and a dark image (#only-light, #gh-dark-mode-only) are one image with a dark variant, its width the light one’s', () => {
    // From mkdocs-material's docs/reference/images.md and docs/blog/posts/zensical.md (MIT).
    const pair = convert('![Zelda light world]{ width="300" }\n![Zelda dark world]{ width="300" }\n\n  [Zelda light world]: ../assets/images/zelda-light-world.png#only-light\n  [Zelda dark world]: ../assets/images/zelda-dark-world.png#only-dark\n');
    assert.ok(
      pair.markdown.startsWith(
        '<figure><picture><source srcset="../assets/images/zelda-dark-world.png" media="(prefers-color-scheme: dark)"><img src="../assets/images/zelda-light-world.png" alt="Zelda light world" width="300"></picture><figcaption></figcaption></figure>\n\n',
      ),
      pair.markdown,
    );
    assert.deepEqual(pair.notes, []);
    const figure = convert('<figure markdown>\n\n![Zensical](./zensical/screenshot.png#gh-light-mode-only)\n![Zensical](./zensical/screenshot-dark.png#gh-dark-mode-only)\n\n  <figcaption markdown>Our public [roadmap], built with Zensical</figcaption>\n</figure>\n\n  [roadmap]: https://zensical.org/about/roadmap/\n');
    assert.ok(
      figure.markdown.startsWith(
        '<figure><picture><source srcset="./zensical/screenshot-dark.png" media="(prefers-color-scheme: dark)"><img src="./zensical/screenshot.png" alt="Zensical"></picture><figcaption><p>Our public <a href="https://zensical.org/about/roadmap/">roadmap</a>, built with Zensical</p></figcaption></figure>\n',
      ),
      figure.markdown,
    );
    // Two images of the same scheme are two images.
    assert.ok(convert('![a](a.png#only-light) ![b](b.png#only-light)').markdown.startsWith('![a]'));
  });

  test('front matter that PyYAML and gray-matter read but strict YAML refuses is written again with the same values', () => {
    const page = '---\ntitle: Claims\ndescription: "Get the claims that fulfill\nthe request."\n---\n\n# Claims\n';
    assert.equal(convert(page).markdown, '---\ntitle: Claims\ndescription: Get the claims that fulfill the request.\n---\n\n# Claims\n');
    const unreadable = '---\ntitle: [unclosed\n---\n\nText\n';
    assert.equal(convert(unreadable).markdown, unreadable);
  });

  test('mkdocs.yml: docs_dir, a nested nav with titles, bare pages and links; its Python tags are read past', () => {
    const config = readMkdocsConfig(
      'docs_dir: content\ntheme:\n  features: [navigation.indexes]\nmarkdown_extensions:\n  - pymdownx.emoji:\n      emoji_index: !!python/name:material.extensions.emoji.twemoji\nnav:\n  - Home: index.md\n  - Guide:\n    - guide/index.md\n    - guide/setup.md\n    - Deep:\n      - Inner: guide/deep/inner.md\n  - Blog: https://example.com/blog\n',
      '',
    );
    assert.equal(config.docsDir, 'content');
    assert.deepEqual(config.nav, [
      { title: 'Home', file: 'content/index.md', children: [] },
      {
        title: 'Guide',
        file: 'content/guide/index.md',
        children: [
          { title: '', file: 'content/guide/setup.md', children: [] },
          { title: 'Deep', children: [{ title: 'Inner', file: 'content/guide/deep/inner.md', children: [] }] },
        ],
      },
      { title: 'Blog', url: 'https://example.com/blog', children: [] },
    ]);
  });

  test('an excerpt of mkdocs-material’s own docs imports into its nav, with hints, tabs, code blocks and expandables', async () => {
    const { lines, prepared } = await importedTree(fixture('mkdocs-material'));
    assert.deepEqual(lines, ['document Home', 'document Reference', '  document Admonitions', '  document Code blocks', '  document Content tabs', '  document Lists']);
    assert.equal(prepared.report.layout, 'mkdocs');
    const types = (title: string) => JSON.stringify(prepared.pages.find((p) => p.title === title)!.document);
    assert.match(types('Admonitions'), /"type":"hint"/);
    assert.match(types('Admonitions'), /"type":"expandable"/);
    assert.match(types('Content tabs'), /"type":"tabs"/);
    assert.match(types('Code blocks'), /"title":"bubble_sort.py"/);
    // Octicons' mark-github is GitHub's logo, Font Awesome's brand `github`: the tab's icon.
    assert.match(types('Admonitions'), /"title":"Octicons","icon":"github"/);
  });
});

describe('Docusaurus', () => {
  test('an image whose source is a JSX expression after a space is the image it names; a component holding a link stays visible', () => {
    // From 0xPolygonID/docs' issuer/issuer-overview.md and verifier pages (MIT).
    const { markdown, notes } = docusaurusToGitbook(
      'import useBaseUrl from "@docusaurus/useBaseUrl";\n\n<div align="center"><img src= {useBaseUrl("img/8088.png")} align="center" /></div>\n\n<div align="center"><figure><img src="/img/off-chain-flow.png" alt="" width="600"><figcaption></figcaption></figure></div> <br></br>\n\n<Card href="/docs/x">\n<a href="/docs/x">Go</a>\n</Card>\n',
      { readRelative: () => undefined },
    );
    assert.match(markdown, /^<div align="center"><figure><img src="\/img\/8088\.png" alt=""><figcaption><\/figcaption><\/figure><\/div>$/m);
    assert.match(markdown, /^<div align="center"><figure><img src="\/img\/off-chain-flow\.png" alt="" width="600"><figcaption><\/figcaption><\/figure><\/div>$/m);
    assert.match(markdown, /<Card href="\/docs\/x">/, 'a component is not HTML: it stays as written');
    assert.ok(notes.some((note) => note.includes('Card')), notes.join('\n'));
  });

  // After reduxjs/redux's docs (MIT): style-guide.md, GettingStarted.md, tutorials/essentials/part-3-data-flow.md.
  test('a site component that draws a <details> is an expandable; a tag over several lines is read whole; code keeps its blank lines', () => {
    const component = "import React from 'react'\n\nexport const DetailedExplanation = ({\n  children,\n  title = 'Detailed Explanation'\n}) => {\n  return (\n    <details className=\"detailed-explanation\">\n      <summary>\n        <h4>{title}</h4>\n      </summary>\n      {children}\n    </details>\n  )\n}\n";
    const { markdown, notes } = docusaurusToGitbook(
      [
        "import { DetailedExplanation } from '../components/DetailedExplanation'",
        '',
        '<DetailedExplanation>',
        '',
        'Reducers must be **pure**.',
        '',
        '</DetailedExplanation>',
        '',
        '<DetailedExplanation title="Detailed Explanation: Example Folder Structure">',
        'An example folder structure:',
        '</DetailedExplanation>',
        '',
        '<LiteYouTubeEmbed',
        '    id="9zySeP5vH9c"',
        '    title="Learn Modern Redux"',
        '/>',
        '',
        '```ts title="ConnectedProps<T> example"',
        'const a = 1',
        '// highlight-next-line',
        'const b = 2',
        '',
        '',
        'const c = 3',
        '```',
      ].join('\n'),
      { readRelative: (path) => (path === '../components/DetailedExplanation.jsx' ? component : undefined) },
    );
    assert.equal(
      markdown,
      [
        '',
        '<details>',
        '',
        '<summary>Detailed Explanation</summary>',
        '',
        'Reducers must be **pure**.',
        '',
        '</details>',
        '',
        '<details>',
        '',
        '<summary>Detailed Explanation: Example Folder Structure</summary>',
        '',
        'An example folder structure:',
        '',
        '</details>',
        '',
        '{% embed url="https://www.youtube.com/watch?v=9zySeP5vH9c" %}',
        '',
        '{% code title="ConnectedProps<T> example" %}',
        '```ts',
        'const a = 1',
        'const b = 2',
        '',
        '',
        'const c = 3',
        '```',
        '{% endcode %}',
      ].join('\n'),
    );
    assert.deepEqual(notes.sort(), [
      "MDX import: left out (import { DetailedExplanation } from '../components/DetailedExplanation')",
      'site components that draw an expandable (a <details> with a summary around their content): expandables',
    ]);
  });

  test('admonitions with titles are hints, Tabs are tabs, details expandables, code titles kept; imports and components stay visible and are named', () => {
    const { markdown, notes } = docusaurusToGitbook(
      [
        "import Tabs from '@theme/Tabs';",
        "import TabItem from '@theme/TabItem';",
        "import Chart from '@site/src/Chart';",
        '',
        ':::tip[Good to know]',
        'Use **it**.',
        ':::',
        '',
        '<Tabs>',
        '<TabItem value="npm" label="npm">',
        '',
        '```bash title="install.sh" {2} showLineNumbers',
        'npm i',
        '```',
        '',
        '</TabItem>',
        '</Tabs>',
        '',
        '<details>',
        '<summary>More</summary>',
        'Hidden.',
        '</details>',
        '',
        '<Chart kind="pie" />',
      ].join('\n'),
    );
    for (const expected of ['{% hint style="success" %}\n**Good to know**\n\nUse **it**.\n{% endhint %}', '{% tabs %}\n{% tab title="npm" %}', '{% code title="install.sh" lineNumbers="true" %}\n```bash\nnpm i\n```\n{% endcode %}', '{% endtab %}\n\n{% endtabs %}', '<details>\n\n<summary>More</summary>\n\nHidden.\n\n</details>', '<Chart kind="pie" />']) {
      assert.ok(markdown.includes(expected), `${expected}\nin\n${markdown}`);
    }
    // Imports are code the site runs, not text it shows: left out, and named.
    assert.ok(!markdown.includes('@theme/Tabs') && !markdown.includes('@site/src/Chart'));
    assert.deepEqual(notes.sort(), [
      'MDX component <Chart>: kept as text',
      "MDX import: left out (import Chart from '@site/src/Chart';)",
      "import of a component converted here: left out (import TabItem from '@theme/TabItem';)",
      "import of a component converted here: left out (import Tabs from '@theme/Tabs';)",
    ]);
  });

  test('highlighted lines: a {1,3-4} range, and magic comments taken out of the code', () => {
    const { markdown, highlights } = docusaurusToGitbook(
      ['```js {1,3-4}', 'a();', 'b();', 'c();', 'd();', '```', '', '```py', 'x = 1', '# highlight-start', 'y = 2', 'z = 3', '# highlight-end', '```', ''].join('\n'),
    );
    assert.equal(markdown, ['```js', 'a();', 'b();', 'c();', 'd();', '```', '', '```py', 'x = 1', 'y = 2', 'z = 3', '```', ''].join('\n'));
    assert.deepEqual(highlights, [
      { code: 'a();\nb();\nc();\nd();', lines: [1, 3, 4] },
      { code: 'x = 1\ny = 2\nz = 3', lines: [2, 3] },
    ]);
  });

  test('code blocks marked tab are tabs, labelled by language, a span holding several blocks', () => {
    const { markdown, notes } = docusaurusToGitbook(['```js tab={"span":2} title="a.js"', 'a();', '```', '', '```js', 'b();', '```', '', '```ts tab', 'c();', '```', '', 'After.'].join('\n'));
    assert.equal(
      markdown,
      ['', '{% tabs %}', '{% tab title="JavaScript" %}', '', '{% code title="a.js" %}', '```js', 'a();', '```', '{% endcode %}', '', '```js', 'b();', '```', '', '{% endtab %}', '', '{% tab title="TypeScript" %}', '', '```ts', 'c();', '```', '', '{% endtab %}', '', '{% endtabs %}', '', 'After.'].join('\n').replace(/\n{3,}/g, '\n\n'),
    );
    assert.deepEqual(notes, ['code tabs synchronised across the page (tab blocks): independent']);
  });

  test('a site folder whose docs plugin reads a folder beside it says to import the folder that holds both, with no empty pages', async () => {
    const source = files({
      'docusaurus.config.js': "module.exports = { presets: [['classic', { docs: { path: '../docs', sidebarPath: require.resolve('./sidebars.json') } }]] };",
      'sidebars.json': JSON.stringify({ docs: ['getting-started'], api: ['api'] }),
    });
    const { lines, prepared } = await importedTree(source);
    assert.deepEqual(lines, []);
    assert.deepEqual(prepared.report.notes, ['the docs plugin reads ../docs, outside the imported folder: import the folder that holds both (the repository)']);
  });

  test('an excerpt of jest’s site: partials inlined, <TOCInline> and imports left out, videos embedded, magic comments and tab blocks read; all named', async () => {
    const { lines, prepared } = await importedTree(fixture('docusaurus-jest'));
    // Two sidebars: a group each; their categories below are pages (GitBook's groups are top-level only).
    assert.deepEqual(lines, ['group Docs', '  document Introduction', '    document Getting Started', '  document Framework guides', '    document Architecture', 'group Api', '  document Globals', '  document Configuring Jest']);
    const page = (title: string) => prepared.pages.find((p) => p.title === title)!;
    const text = (title: string) => JSON.stringify(page(title).document);
    // The partial _TypeScriptExamplesNote.md is an info admonition: a hint, with its code and link.
    assert.deepEqual(blockTypes(page('Globals').document).slice(0, 3), ['paragraph', 'hint', 'heading-1']);
    assert.match(text('Globals'), /import \{expect, jest, test\} from '@jest\/globals';/);
    assert.doesNotMatch(text('Globals'), /TOCInline|TypeScriptExamplesNote/);
    assert.deepEqual(blockTypes(page('Architecture').document).filter((t) => t === 'embed').length, 2);
    assert.match(text('Architecture'), /youtube\.com\/watch\?v=3YDiloj8_d0/);
    assert.deepEqual(highlightsOf(page('Getting Started').document), ['module.exports = {: 4']);
    assert.doesNotMatch(text('Getting Started'), /highlight-next-line/);
    assert.match(text('Configuring Jest'), /"type":"tabs"/);
    const notes = Object.fromEntries(prepared.report.pages.map((p) => [p.title, p.notes]));
    assert.deepEqual(notes.Globals, [
      "MDX import: left out (import TypeScriptExamplesNote from './_TypeScriptExamplesNote.md';)",
      'MDX partial ./_TypeScriptExamplesNote.md: its text inlined',
      "MDX import: left out (import TOCInline from '@theme/TOCInline';)",
      'in-page table of contents (<TOCInline>): left out, the reader’s “On this page” lists the page’s headings',
    ]);
    assert.deepEqual(notes.Architecture, ["MDX import: left out (import LiteYouTubeEmbed from 'react-lite-youtube-embed';)"]);
    assert.deepEqual(notes['Getting Started'], ['npm2yarn tabs (npm, Yarn, pnpm): the npm command kept, the others left out']);
    assert.ok(Object.values(notes).flat().every(noteKeepsMeaning));
  });

  test('import statements, on one line or several, are left out; a sentence that starts with “import” is text', () => {
    const { markdown, notes } = docusaurusToGitbook("import {\n  Demo,\n} from '@site/src/demo';\nimport './styles.css';\n\nimport the CSV file from the sheet.\n");
    assert.equal(markdown.trim(), 'import the CSV file from the sheet.');
    assert.deepEqual(notes, ["MDX import: left out (import { Demo, } from '@site/src/demo';)", "MDX import: left out (import './styles.css';)"]);
  });

  test('a type in a sentence (<BigInt, String>) and a placeholder (<PUBLIC_SERVER_URL>) are text, not components to report', () => {
    const { markdown, notes } = docusaurusToGitbook('It returns a map of <BigInt, String>.\n\nOpen http://<PUBLIC_SERVER_URL>:3001 and <Card title="x" />.\n');
    assert.ok(markdown.includes('<BigInt, String>'));
    assert.deepEqual(notes, ['MDX component <Card>: kept as text']);
  });

  test('sidebars.ts is read as data, not run: docs by id, categories with a doc page, links; the import report names the MDX left as text', async () => {
    const { lines, prepared } = await importedTree(
      files({
        'docusaurus.config.ts': 'export default {}',
        'sidebars.ts': "import type {SidebarsConfig} from '@docusaurus/plugin-content-docs';\n// the docs\nconst sidebars: SidebarsConfig = {\n  docs: [\n    'intro',\n    {type: 'category', label: 'Guides', link: {type: 'doc', id: 'guides/index'}, items: ['guides/setup', {type: 'link', label: 'Blog', href: 'https://example.com'}]},\n  ],\n};\nexport default sidebars;\n",
        'docs/intro.md': '---\nsidebar_position: 1\n---\n# Introduction\n',
        'docs/guides/index.md': '# Guides\n',
        'docs/guides/01-setup.mdx': '---\ntitle: Setup\n---\n\n<Demo />\n',
      }),
    );
    assert.deepEqual(lines, ['document Introduction', 'document Guides', '  document Setup', '  link Blog']);
    assert.equal(prepared.report.layout, 'docusaurus');
    assert.deepEqual(prepared.report.pages, [{ file: 'docs/guides/01-setup.md', title: 'Setup', notes: ['MDX component <Demo>: kept as text'] }]);
  });

  test('a site in website/ beside the code, with its docs in ../docs and its sidebars named by the config, is found', async () => {
    const { lines, prepared } = await importedTree(
      files({
        'README.md': '# The project\n',
        'src/index.md': '# Not docs\n',
        'website/docusaurus.config.js':
          "module.exports = {\n  presets: [['classic', {\n    docs: {\n      path: '../docs',\n      sidebarPath: require.resolve('./sidebars.json'),\n      editUrl: { base: 'x' },\n    },\n    blog: { path: 'blog' },\n  }]],\n};\n",
        'website/sidebars.json': '{"docs": ["start", {"type": "category", "label": "More", "items": ["more/deep"]}]}',
        'docs/start.md': '# Start\n',
        'docs/more/deep.md': '# Deep\n',
      }),
    );
    assert.equal(prepared.report.layout, 'docusaurus');
    assert.deepEqual(lines, ['document Start', 'group More', '  document Deep']);
  });

  test('the docs plugin options are read from the configuration’s text', () => {
    assert.deepEqual(docsPluginOptions("export default { presets: [['classic', { docs: { routeBasePath: '/', path: `content`, sidebarPath: './sb.ts' } }]] }"), {
      path: 'content',
      sidebarPath: './sb.ts',
    });
    assert.deepEqual(docsPluginOptions("docs: { path: '../docs', sidebarPath: path.resolve(__dirname, './sidebars.json') }"), { path: '../docs', sidebarPath: './sidebars.json' });
    assert.deepEqual(docsPluginOptions('module.exports = { themeConfig: {} }'), {});
  });

  test('without a sidebars file, the folders give the tree: _category_.json labels and positions, sidebar_position, number prefixes', async () => {
    const { lines } = await importedTree(
      files({
        'docusaurus.config.js': 'module.exports = {}',
        'docs/intro.md': '---\nsidebar_position: 1\n---\n# Intro\n',
        'docs/api/_category_.json': '{"label": "API reference", "position": 3}',
        'docs/api/auth.md': '# Auth\n',
        'docs/02-tutorial/_category_.json': '{"label": "Tutorial", "position": 2}',
        'docs/02-tutorial/b.md': '---\nsidebar_position: 2\n---\n# Second\n',
        'docs/02-tutorial/a.md': '---\nsidebar_position: 1\n---\n# First\n',
      }),
    );
    assert.deepEqual(lines, ['document Intro', 'group Tutorial', '  document First', '  document Second', 'group API reference', '  document Auth']);
  });

  test('a sidebars file that computes its sidebars is not run: the folders give the tree and the report says why', async () => {
    const { prepared } = await importedTree(
      files({ 'docusaurus.config.js': '', 'sidebars.js': "module.exports = require('./generate')();", 'docs/a.md': '# A\n' }),
    );
    assert.deepEqual(prepared.report.notes, ['sidebars.js: not plain data (it computes its sidebars), so the folders give the tree']);
    assert.deepEqual(prepared.pages.map((p) => p.title), ['A']);
  });
});

describe('reading a JavaScript literal without running it', () => {
  test('objects, arrays, strings, numbers, comments and trailing commas; calls and variables are not data', () => {
    assert.deepEqual(readAssignedLiteral("/* c */ module.exports = { a: ['x', \"y\", `z`, 1, true, null,], 'b-c': { d: -2.5 }, // end\n};", ['module.exports']), {
      a: ['x', 'y', 'z', 1, true, null],
      'b-c': { d: -2.5 },
    });
    assert.equal(readAssignedLiteral('module.exports = { a: make() };', ['module.exports']), undefined);
    assert.equal(readAssignedLiteral('const sidebars = { a: [...other] }; export default sidebars;', ['sidebars']), undefined);
    assert.equal(readAssignedLiteral('module.exports = { a: `${x}` };', ['module.exports']), undefined);
  });
});
