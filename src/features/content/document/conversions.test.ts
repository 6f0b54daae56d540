import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { keyDocument } from './keys.ts';
import { withSource } from './nodes.ts';
import {
  code, divider, doc, expandable, h, hint, image, images, item, leaf, link, ol, p, quote, resolveRef, t, tab, table, tabs, task, tasks, ul,
  withoutKeys, writeRef,
} from './test-fixtures.ts';
import { markdownToDocument } from './to-document.ts';
import { documentToMarkdown } from './to-markdown.ts';
import type { Document, FlowBlock, InlineOpaque, Leaf, Paragraph } from './types.ts';

/** GitBook's annotation: its text, and the note (the annotation-body fragment's blocks). */
const annotation = (annotated: Leaf, ...note: FlowBlock[]): InlineOpaque => ({
  object: 'inline',
  type: 'annotation',
  isVoid: false,
  nodes: [{ object: 'text', leaves: [annotated] }],
  fragments: [{ object: 'fragment', fragment: 'annotation-body', type: 'annotation-body', nodes: note }],
});

/*
 * Each case is canonical markdown and its document: reading the markdown gives the document, and writing the
 * document gives the markdown back, byte for byte.
 */
const cases: [name: string, markdown: string, nodes: FlowBlock[]][] = [
  ['a paragraph', 'Hello world\n', [p('Hello world')]],
  ['two paragraphs', 'One\n\nTwo\n', [p('One'), p('Two')]],
  ['headings of three levels, one below the page title as GitBook writes them', '## One\n\n### Two\n\n#### Three\n', [h(1, 'One'), h(2, 'Two'), h(3, 'Three')]],
  ['a heading with a fixed anchor', '### Setup <a href="#install" id="install"></a>\n', [{ ...h(2, 'Setup'), data: { id: 'install' } } as FlowBlock]],
  ['bold text', 'a **b** c\n', [p(t('a ', leaf('b', 'bold'), ' c'))]],
  ['italic text', 'a *b* c\n', [p(t('a ', leaf('b', 'italic'), ' c'))]],
  ['struck text', 'a ~~b~~ c\n', [p(t('a ', leaf('b', 'strikethrough'), ' c'))]],
  ['inline code', 'run `npm test` now\n', [p(t('run ', leaf('npm test', 'code'), ' now'))]],
  ['bold and italic together', '**_both_**\n', [p(t(leaf('both', 'bold', 'italic')))]],
  ['italic inside bold', '**a *b* c**\n', [p(t(leaf('a ', 'bold'), leaf('b', 'bold', 'italic'), leaf(' c', 'bold')))]],
  ['code inside bold', '**see `x`**\n', [p(t(leaf('see ', 'bold'), leaf('x', 'bold', 'code')))]],
  ['a hard line break', 'one\\\ntwo\n', [p('one\ntwo')]],
  ['markdown characters in text are escaped', '\\*not bold\\* \\[x] \\<b> # \\_ \\` \\~\n', [p('*not bold* [x] <b> # _ ` ~')]],
  ['text that would start a heading is escaped', '\\# not a heading\n', [p('# not a heading')]],
  ['text that would start a list is escaped', '1\\. not a list\n', [p('1. not a list')]],
  ['a line that looks like a GitBook tag is escaped', '\\{% hint style="info" %}\n', [p('{% hint style="info" %}')]],
  ['a link to a URL', 'see [the site](https://example.com/a)\n', [p(t('see '), link({ kind: 'url', url: 'https://example.com/a' }, 'the site'), t())]],
  ['a link to a page', '[Other](other.md)\n', [p(t(), link({ kind: 'page', page: 'other' }, 'Other'), t())]],
  ['a link to a file', '[the PDF](.gitbook/assets/guide.pdf)\n', [p(t(), link({ kind: 'file', file: 'guide.pdf' }, 'the PDF'), t())]],
  ['a link to an anchor of this page', '[below](#usage)\n', [p(t(), link({ kind: 'anchor', anchor: 'usage' }, 'below'), t())]],
  ['a link to an anchor of another page', '[there](other.md#usage)\n', [p(t(), link({ kind: 'anchor', anchor: 'usage', page: 'other' }, 'there'), t())]],
  ['marks inside a link', '[a **b**](other.md)\n', [p(t(), link({ kind: 'page', page: 'other' }, 'a ', leaf('b', 'bold')), t())]],
  ['a link whose text is its URL', '<https://example.com>\n', [p(t(), link({ kind: 'url', url: 'https://example.com' }, 'https://example.com'), t())]],
  ['a link with spaces in its URL', '[x](<https://example.com/a b>)\n', [p(t(), link({ kind: 'url', url: 'https://example.com/a b' }, 'x'), t())]],
  ['an unordered list', '- one\n- two\n', [ul(item(p('one')), item(p('two')))]],
  ['an ordered list', '1. one\n2. two\n', [ol(undefined, item(p('one')), item(p('two')))]],
  ['an ordered list from 3', '3. three\n4. four\n', [ol(3, item(p('three')), item(p('four')))]],
  ['a task list', '- [ ] todo\n- [x] done\n', [tasks(task(false, p('todo')), task(true, p('done')))]],
  [
    'nested lists',
    '- a\n  1. b\n     - [x] c\n- d\n',
    [ul(item(p('a'), ol(undefined, item(p('b'), tasks(task(true, p('c')))))), item(p('d')))],
  ],
  ['a list item with two paragraphs', '- one\n\n  two\n', [ul(item(p('one'), p('two')))]],
  ['two lists in a row stay two lists', '- a\n\n* b\n', [ul(item(p('a'))), ul(item(p('b')))]],
  ['a code block with a language', '```js\nconst a = 1;\n\nlog(a);\n```\n', [code(['const a = 1;', '', 'log(a);'], { syntax: 'js' })]],
  ['a code block without a language', '```\nplain\n```\n', [code(['plain'])]],
  ['an empty code block', '```\n```\n', [code([''])]],
  ['code holding backticks', '````\n```\n````\n', [code(['```'])]],
  [
    'a code block with a title and options',
    '{% code title="index.ts" overflow="wrap" lineNumbers="true" %}\n```ts\nlet x\n```\n{% endcode %}\n',
    [code(['let x'], { syntax: 'ts', title: 'index.ts', overflow: 'wrap', lineNumbers: true })],
  ],
  ['a quote', '> said\n', [quote(p('said'))]],
  ['a quote in a quote', '> a\n>\n> > b\n', [quote(p('a'), quote(p('b')))]],
  ['an info hint', '{% hint style="info" %}\nNote this.\n{% endhint %}\n', [hint('info', p('Note this.'))]],
  ['a warning hint', '{% hint style="warning" %}\nCareful.\n{% endhint %}\n', [hint('warning', p('Careful.'))]],
  ['a danger hint', '{% hint style="danger" %}\nStop.\n{% endhint %}\n', [hint('danger', p('Stop.'))]],
  ['a success hint', '{% hint style="success" %}\nDone.\n{% endhint %}\n', [hint('success', p('Done.'))]],
  [
    'a hint holding a list and a code block',
    '{% hint style="info" %}\n- a\n- b\n\n```sh\nls\n```\n{% endhint %}\n',
    [hint('info', ul(item(p('a')), item(p('b'))), code(['ls'], { syntax: 'sh' }))],
  ],
  ['a hint in a list item', '- a\n  {% hint style="info" %}\n  b\n  {% endhint %}\n', [ul(item(p('a'), hint('info', p('b'))))]],
  ['a divider', 'a\n\n***\n\nb\n', [p('a'), divider(), p('b')]],
  [
    'a table',
    '| Name | Value |\n| ---- | ----- |\n| a    | **b** |\n',
    [table([{ title: 'Name' }, { title: 'Value' }], [[[t('a')], [t(leaf('b', 'bold'))]]])],
  ],
  [
    'a table with aligned columns, a pipe and a line break in cells',
    '| L      |     C    |      R |\n| ------ | :------: | -----: |\n| a \\| b | `x \\| y` | c<br>d |\n',
    [table([{ title: 'L' }, { title: 'C', align: 'center' }, { title: 'R', align: 'right' }], [[[t('a | b')], [t(leaf('x | y', 'code'))], [t('c\nd')]]])],
  ],
  ['a table without rows', '| Only |\n| ---- |\n', [table([{ title: 'Only' }], [])]],
  ['an image', '![A cat](.gitbook/assets/cat.png)\n', [images(image({ kind: 'file', file: 'cat.png' }, 'A cat'))]],
  ['an image from a URL', '![](https://img.example.com/a.png)\n', [images(image({ kind: 'url', url: 'https://img.example.com/a.png' }))]],
  [
    'an image with a caption',
    '<figure><img src=".gitbook/assets/cat.png" alt="Cat"><figcaption><p>A &#x3C;b> cat &#x26; dog</p></figcaption></figure>\n',
    [images(image({ kind: 'file', file: 'cat.png' }, 'Cat', 'A <b> cat & dog'))],
  ],
  [
    'several images in one block',
    '<div><figure><img src=".gitbook/assets/a.png" alt=""><figcaption></figcaption></figure><figure><img src=".gitbook/assets/b.png" alt=""><figcaption></figcaption></figure></div>\n',
    [images(image({ kind: 'file', file: 'a.png' }), image({ kind: 'file', file: 'b.png' }))],
  ],
  [
    'an inline image',
    'an <img src=".gitbook/assets/i.png" alt="icon" data-size="line"> icon\n',
    [p(t('an '), { object: 'inline', type: 'inline-image', isVoid: true, data: { ref: { kind: 'file', file: 'i.png' }, alt: 'icon', size: 'line' } }, t(' icon'))],
  ],
  [
    'tabs',
    '{% tabs %}\n{% tab title="JavaScript" %}\njs\n{% endtab %}\n\n{% tab title="Python" %}\n```python\nprint(1)\n```\n{% endtab %}\n{% endtabs %}\n',
    [tabs(tab('JavaScript', p('js')), tab('Python', code(['print(1)'], { syntax: 'python' })))],
  ],
  ['a tab title with quotes', '{% tabs %}\n{% tab title="Say \\"hi\\"" %}\nx\n{% endtab %}\n{% endtabs %}\n', [tabs(tab('Say "hi"', p('x')))]],
  [
    'an expandable',
    '<details>\n\n<summary>More &amp; less</summary>\n\nHidden *text*.\n\n</details>\n',
    [expandable('More & less', p(t('Hidden ', leaf('text', 'italic'), '.')))],
  ],
  [
    'an expandable in a list item, followed by more of the item',
    '- a\n  <details>\n\n  <summary>T</summary>\n\n  b\n\n  </details>\n\n  c\n',
    [ul(item(p('a'), expandable('T', p('b')), p('c')))],
  ],
  ['an embed', '{% embed url="https://www.youtube.com/watch?v=x" %}\n', [{ object: 'block', type: 'embed', isVoid: true, data: { url: 'https://www.youtube.com/watch?v=x' } }]],
  ['a file block', '{% file src=".gitbook/assets/guide.pdf" %}\n', [{ object: 'block', type: 'file', isVoid: true, data: { ref: { kind: 'file', file: 'guide.pdf' } } }]],
  [
    'a content reference',
    '{% content-ref url="other.md" %}\n[other.md](other.md)\n{% endcontent-ref %}\n',
    [{ object: 'block', type: 'content-ref', isVoid: true, data: { ref: { kind: 'page', page: 'other' } } }],
  ],
  // GitBook's docs (create-content/formatting/inline.md): footnotes are annotations of the word before the marker.
  [
    'a footnote, an annotation of the word before its marker',
    "Here's a simple footnote[^1], and here's a longer one[^2].\n\n[^1]: This is the first footnote.\n\n[^2]: Here's one with multiple paragraphs and code.\n\n    Indent paragraphs to include them in the footnote.\n\n    `{ my code }`\n",
    [
      p(
        t("Here's a simple "),
        annotation(leaf('footnote'), p('This is the first footnote.')),
        t(", and here's a longer "),
        annotation(leaf('one'), p("Here's one with multiple paragraphs and code."), p('Indent paragraphs to include them in the footnote.'), p(t(leaf('{ my code }', 'code')))),
        t('.'),
      ),
    ],
  ],
  ['a footnote after bold text annotates the bold word', '**the internet**[^1]\n\n[^1]: A note.\n', [p(t(leaf('the ', 'bold')), annotation(leaf('internet', 'bold'), p('A note.')), t())]],
  [
    'a footnote after a link annotates its number, in superscript',
    'with [MathJax](https://www.mathjax.org)[^1] – or not\n\n[^1]: A note.\n',
    [p(t('with '), link({ kind: 'url', url: 'https://www.mathjax.org' }, 'MathJax'), t(), annotation(leaf('1', 'superscript'), p('A note.')), t(' – or not'))],
  ],
  // CommonMark takes an emoji for punctuation: `a**😀b**` is not bold, so the emoji and the letter before
  // the run are written as references.
  ['an emoji at the edge of bold text', '&#x61;**&#x1F600;b**c\n', [p(t('a', leaf('😀b', 'bold'), 'c'))]],
];

describe('markdown and documents, both ways', () => {
  for (const [name, markdown, nodes] of cases) {
    test(`${name}: markdown -> document`, () => {
      assert.deepEqual(markdownToDocument(markdown, resolveRef), keyDocument(doc(...nodes)));
    });
    test(`${name}: document -> markdown`, () => {
      assert.equal(documentToMarkdown(doc(...nodes), writeRef), markdown);
    });
  }
});

describe('markdown in other spellings', () => {
  const read = (markdown: string): Document => withoutKeys(markdownToDocument(markdown, resolveRef));
  const same = (markdown: string, ...nodes: FlowBlock[]) => assert.deepEqual(read(markdown), doc(...nodes));

  test('underscores, asterisks and dashes mean what they mean', () => {
    same('_i_ __b__\n\n* x\n\n---\n', p(t(leaf('i', 'italic'), ' ', leaf('b', 'bold'))), ul(item(p('x'))), divider());
  });
  test('setext headings are headings; `#` below the title and depths past `####` keep their depth', () => {
    const level = (heading: FlowBlock, n: 1 | 5 | 6) => ({ ...heading, data: { level: n } }) as FlowBlock;
    same('Title\n=====\n\nOne\n---\n\n#### Three\n\n##### Five\n\n###### Six\n', level(h(1, 'Title'), 1), h(1, 'One'), h(3, 'Three'), level(h(3, 'Five'), 5), level(h(3, 'Six'), 6));
  });
  test('soft line breaks are spaces; two trailing spaces are a hard break', () => {
    same('one\ntwo  \nthree\n', p('one two\nthree'));
  });
  test('indented code is a code block', () => {
    same('    a\n    b\n', code(['a', 'b']));
  });
  test('footnotes are numbered in the order they are referred to, their notes at the end; one note referred to twice is one footnote', () => {
    const markdown = 'a[^note] b[^first]\n\n[^first]: First.\n\nc[^note]\n\n[^note]: The note.\n';
    const document = read(markdown);
    const note = annotation(leaf('a'), p('The note.'));
    assert.deepEqual(document, doc(p(t(), note, t(' '), annotation(leaf('b'), p('First.')), t()), p(t(), { ...note, nodes: [{ object: 'text', leaves: [leaf('c')] }] }, t())));
    assert.equal(documentToMarkdown(document, writeRef), 'a[^1] b[^2]\n\nc[^1]\n\n[^1]: The note.\n\n[^2]: First.\n');
  });
  test('a footnote nothing refers to stays where it was, as its text; a marker without a definition is text', () => {
    same('[^lost]: Never shown.\n\nx[^none]\n', p('[^lost]: Never shown.'), p('x[^none]'));
  });
  test('reference links resolve through their definitions', () => {
    same('[the page][ref]\n\n[ref]: other.md\n', p(t(), link({ kind: 'page', page: 'other' }, 'the page'), t()));
  });
  test('a bare URL stays text', () => {
    same('www.example.com and https://example.com\n', p('www.example.com and https://example.com'));
  });
  test('an upper-case X checks a task', () => {
    same('- [X] done\n', tasks(task(true, p('done'))));
  });
  test('a list where only some items have checkboxes is not a task list', () => {
    same('- [ ] a\n- b\n', ul(item(p('[ ] a')), item(p('b'))));
  });
  test('an escaped checkbox is text', () => {
    same('- \\[ ] a\n', ul(item(p('[ ] a'))));
  });
  test('a hint style GitBook does not list shows as info, and its spelling is written back until the style changes', () => {
    for (const [written, style] of [['tip', 'info'], ['Info', 'info'], ['WARNING', 'warning']] as const) {
      const markdown = `{% hint style="${written}" %}\nx\n{% endhint %}\n`;
      const document = read(markdown);
      assert.deepEqual({ ...document.nodes[0], meta: undefined }, { ...hint(style, p('x')), meta: undefined });
      assert.equal(documentToMarkdown(document, writeRef), markdown);
      const restyled = { ...document, nodes: [{ ...document.nodes[0]!, data: { style: 'danger' } }] } as Document;
      assert.equal(documentToMarkdown(restyled, writeRef), '{% hint style="danger" %}\nx\n{% endhint %}\n');
    }
  });
  test("an embed's caption attribute is its caption, written back as the attribute while it is plain text", () => {
    const markdown = '{% embed url="https://github.com/example/repo" caption="GitHub" %}\n';
    const document = read(markdown);
    const embed = document.nodes[0] as Extract<FlowBlock, { type: 'embed' }>;
    assert.equal(embed.fragments?.[0]?.fragment, 'caption');
    assert.deepEqual(withoutKeys({ object: 'document', nodes: embed.fragments![0]!.nodes } as Document).nodes, [p('GitHub')]);
    assert.equal(documentToMarkdown(document, writeRef), markdown);
    const bold = { ...embed, fragments: [{ ...embed.fragments![0]!, nodes: [p(t(leaf('GitHub', 'bold')))] }] } as FlowBlock;
    assert.equal(documentToMarkdown(doc(bold), writeRef), '{% embed url="https://github.com/example/repo" %}\n**GitHub**\n{% endembed %}\n');
  });
  test('what GitBook wrote comes back byte for byte: caption markup with its escapes, the text of a content-ref to another space', () => {
    for (const markdown of [
      '<figure><img src=".gitbook/assets/cat.png" alt=""><figcaption><p>Click <strong>Presets &#x26; settings ></strong> to save</p></figcaption></figure>\n',
      '{% content-ref url="https://app.gitbook.com/o/org/s/space/" %}\n[Audacity Plugins](https://app.gitbook.com/o/org/s/space/)\n{% endcontent-ref %}\n',
      '{% content-ref url="setup.md" %}\n[setup.md](setup.md)\n{% endcontent-ref %}\n',
    ]) {
      assert.equal(documentToMarkdown(markdownToDocument(markdown, resolveRef), writeRef), markdown);
    }
  });
  test('a tag of no HTML element in a sentence is written as it was, not escaped', () => {
    const markdown = 'Replace <pipeline-name> with the name of `List<T>` and </end>.\n';
    assert.match(JSON.stringify(read(markdown)), /"text":"Replace <pipeline-name> with the name of ".*"text":" and <\/end>\."/);
    assert.equal(documentToMarkdown(read(markdown), writeRef), markdown);
    // At a line's start a tag alone would open an HTML block, and a real element is markup: both stay escaped.
    assert.equal(documentToMarkdown(doc(p('<step>')), writeRef), '\\<step>\n');
    assert.equal(documentToMarkdown(doc(p('a <div> b')), writeRef), 'a \\<div> b\n');
  });
  test('a compact <details> on consecutive lines is an expandable', () => {
    same('<details>\n<summary>T</summary>\nbody *x*\n</details>\n', expandable('T', p(t('body ', leaf('x', 'italic')))));
    same('<details><summary>T</summary>\n\nbody\n\n</details>\n', expandable('T', p('body')));
  });
  test('an expandable without a summary has an empty title', () => {
    same('<details>\n\nbody\n\n</details>\n', expandable('', p('body')));
  });
  test('an empty hint holds an empty paragraph', () => {
    same('{% hint style="info" %}\n{% endhint %}\n', hint('info', p()));
  });
  test('content between tabs before any tab gets an untitled tab', () => {
    same('{% tabs %}\nloose\n{% tab title="A" %}\na\n{% endtab %}\n{% endtabs %}\n', tabs(tab('', p('loose')), tab('A', p('a'))));
  });
  test('a figure inside an aligned div keeps the alignment', () => {
    const [block] = read('<div align="center"><figure><img src=".gitbook/assets/a.png" alt=""></figure></div>\n').nodes;
    assert.deepEqual(block, { ...images(image({ kind: 'file', file: 'a.png' })), data: { align: 'center' } });
  });
  test('an image width in percent is the spec’s Length, and is written back', () => {
    const markdown = '<div align="center"><figure><img src=".gitbook/assets/a.png" alt="" width="100%"><figcaption></figcaption></figure></div>\n';
    const document = read(markdown);
    assert.deepEqual((document.nodes[0] as { nodes: { data: unknown }[] }).nodes[0]!.data, { ref: { kind: 'file', file: 'a.png' }, width: { value: 100, unit: '%' } });
    assert.equal(documentToMarkdown(document, writeRef), markdown);
  });
  test('a figure with an empty caption is a plain image', () => {
    same('<figure><img src=".gitbook/assets/a.png" alt="A"><figcaption></figcaption></figure>\n', images(image({ kind: 'file', file: 'a.png' }, 'A')));
  });
  test('several images on one line are one images block', () => {
    same('![a](.gitbook/assets/a.png) ![b](.gitbook/assets/b.png)\n', images(image({ kind: 'file', file: 'a.png' }, 'a'), image({ kind: 'file', file: 'b.png' }, 'b')));
  });
  test('an image among text is an inline image', () => {
    same('see ![i](.gitbook/assets/i.png) here\n', p(t('see '), { object: 'inline', type: 'inline-image', isVoid: true, data: { ref: { kind: 'file', file: 'i.png' }, alt: 'i' } }, t(' here')));
  });
  test('an image source the resolver takes for a page is kept as a URL', () => {
    same('![x](other.md)\n', images(image({ kind: 'url', url: 'other.md' }, 'x')));
  });
  test('HTML formatting tags become marks, <mark> colours colour marks', () => {
    const red: Leaf = { object: 'leaf', text: 'd', marks: [{ object: 'mark', type: 'color', data: { text: 'red', background: 'default' } }] };
    same('a <strong>b</strong> <em>c</em> <mark style="color:red;">d</mark>\n', p(t('a ', leaf('b', 'bold'), ' ', leaf('c', 'italic'), ' ', red)));
  });
  test('inline HTML of no mark keeps its text, and the paragraph keeps its source to write back', () => {
    same('a <span>e</span>\n', withSource(p('a e') as Paragraph, 'a <span>e</span>'));
  });
  test('a paragraph of inline HTML keeps its reference links and images written inline: the definitions are no block to write back', () => {
    // From mkdocs-material's docs/contributing/reporting-a-bug.md (MIT) and 0xPolygonID/tutorials' index.md.
    const markdown = [
      'Explain the <u>what</u> – [how to reproduce the bug][Steps to reproduce], `[Steps to reproduce]`.',
      '',
      '<a href="https://twitter.com/x">![Chat on Twitter][ico]</a> [ico]',
      '',
      '[Steps to reproduce]: https://example.com/steps',
      '[ico]: <https://img.example.com/a b.svg> "Badge"',
      '',
    ].join('\n');
    assert.equal(
      documentToMarkdown(markdownToDocument(markdown, resolveRef), writeRef),
      'Explain the <u>what</u> – [how to reproduce the bug](https://example.com/steps), `[Steps to reproduce]`.\n\n' +
        '<a href="https://twitter.com/x">![Chat on Twitter](<https://img.example.com/a b.svg> "Badge")</a> [ico](<https://img.example.com/a b.svg> "Badge")\n',
    );
  });
  test('HTML comments are left out', () => {
    same('a <!-- note --> b\n\n<!-- block note -->\n', p('a  b'), withSource(p('') as Paragraph, '<!-- block note -->', true));
  });
  test('other HTML shows its text, and is kept as written', () => {
    same('<div>x</div>\n', withSource(p('x') as Paragraph, '<div>x</div>', true));
  });
  test('a table row with missing cells gets empty ones, extra cells are dropped', () => {
    same('| a | b |\n| - | - |\n| 1 |\n| 2 | 3 | 4 |\n', table([{ title: 'a' }, { title: 'b' }], [[[t('1')], [t()]], [[t('2')], [t('3')]]]));
  });
  test('a file tag with a caption keeps the caption as the file block caption fragment', () => {
    same('{% file src=".gitbook/assets/a.pdf" %}\nThe guide\n{% endfile %}\n', {
      object: 'block',
      type: 'file',
      isVoid: true,
      data: { ref: { kind: 'file', file: 'a.pdf' } },
      fragments: [{ object: 'fragment', fragment: 'caption', nodes: [p('The guide')] }],
    });
  });
  test('a file tag whose source is not a file of the space is a link, and the tag is written back until it is edited', () => {
    const tag = '{% file src="https://x.io/a.pdf" %}';
    const shown = () => p(t(), link({ kind: 'url', url: 'https://x.io/a.pdf' }, 'https://x.io/a.pdf'), t()) as Paragraph;
    same(`${tag}\n`, withSource(shown(), tag, true));
    assert.equal(documentToMarkdown(markdownToDocument(`${tag}\n`, resolveRef), writeRef), `${tag}\n`);
    const captioned = `${tag}\n\nA *caption*.\n\n{% endfile %}\n`;
    assert.equal(documentToMarkdown(markdownToDocument(captioned, resolveRef), writeRef), captioned);
    // Edited, the link is written as what it now is.
    const edited = read(`${tag}\n`);
    (edited.nodes[0] as Paragraph).nodes.push(t(' more'));
    assert.equal(documentToMarkdown(edited, writeRef), '<https://x.io/a.pdf> more\n');
  });
  test('GFM header cells with markup and figure captions with HTML are written back as they were', () => {
    const table = '| **Feature** | Plan |\n| ----------- | ---- |\n| AI          | Pro  |\n';
    const document = markdownToDocument(table, resolveRef);
    assert.equal((document.nodes[0] as unknown as { data: { definition: { c1: { title: string } } } }).data.definition.c1.title, 'Feature');
    assert.equal(documentToMarkdown(document, writeRef), table);
    const figure = '<figure><img src="a.png" alt="A site&#x27;s look"><figcaption><p>The <strong>Page options</strong> panel.</p></figcaption></figure>\n';
    assert.equal(documentToMarkdown(markdownToDocument(figure, resolveRef), writeRef), figure);
  });
});

describe('broken GitBook markdown degrades to text', () => {
  // What a document shows; the source a block keeps to be written back is checked apart.
  const read = (markdown: string): Document =>
    JSON.parse(JSON.stringify(withoutKeys(markdownToDocument(markdown, resolveRef)), (name, value: unknown) => (name === 'meta' ? undefined : value))) as Document;
  const same = (markdown: string, ...nodes: FlowBlock[]) => assert.deepEqual(read(markdown), doc(...nodes));

  test('a tag without its partner is written back as it was, not escaped', () => {
    for (const markdown of ['text\n\n{% endhint %}\n', '{% tab title="A" %}\n\na\n\n{% endtab %}\n']) {
      assert.equal(documentToMarkdown(markdownToDocument(markdown, resolveRef), writeRef), markdown);
    }
  });

  test('a hint that is never closed', () => {
    same('{% hint style="info" %}\nbody\n', p('{% hint style="info" %}'), p('body'));
  });
  test('a closing tag without its opener', () => {
    same('text\n{% endhint %}\n', p('text'), p('{% endhint %}'));
  });
  test('tags closed in the wrong order keep what pairs', () => {
    same(
      '{% hint style="info" %}\n{% tabs %}\na\n{% endhint %}\n{% endtabs %}\n',
      hint('info', p('{% tabs %}'), p('a')),
      p('{% endtabs %}'),
    );
  });
  test('a tab outside tabs', () => {
    same('{% tab title="A" %}\na\n{% endtab %}\n', p('{% tab title="A" %}'), p('a'), p('{% endtab %}'));
  });
  test('a code tag around something else than code', () => {
    same('{% code title="t" %}\nnot code\n{% endcode %}\n', p('{% code title="t" %}'), p('not code'), p('{% endcode %}'));
  });
  test('an unknown tag is plain text', () => {
    same('{% swagger src="x" %}\n', p('{% swagger src="x" %}'));
  });
  test('a tag and its closer on one line is plain text', () => {
    same('{% hint style="info" %} x {% endhint %}\n', p('{% hint style="info" %} x {% endhint %}'));
  });
  test('a <details> never closed, and a </details> alone', () => {
    same('<details>\n\n<summary>T</summary>\n\nbody\n', p('<details>'), p('<summary>T</summary>'), p('body'));
    same('</details>\n', p('</details>'));
  });
});

describe('a whole page', () => {
  const page = [
    '## Getting started <a href="#start" id="start"></a>',
    '',
    'Read the [install guide](install.md), the [API](https://api.example.com) and [below](#usage).',
    '',
    '{% hint style="warning" %}',
    'Back up **first**.',
    '{% endhint %}',
    '',
    '### Steps',
    '',
    '1. Download:',
    '   ```sh',
    '   curl -O https://example.com/x.tgz',
    '   ```',
    '2. Check:',
    '   - [x] size',
    '   - [ ] signature',
    '',
    '| Option    | Default |',
    '| --------- | :-----: |',
    '| `--force` |  false  |',
    '',
    '![Diagram](.gitbook/assets/diagram.png)',
    '',
    '{% tabs %}',
    '{% tab title="macOS" %}',
    '`brew install x`',
    '{% endtab %}',
    '',
    '{% tab title="Linux" %}',
    '`apt install x`',
    '{% endtab %}',
    '{% endtabs %}',
    '',
    '<details>',
    '',
    '<summary>Troubleshooting</summary>',
    '',
    '> Still stuck? Ask.',
    '',
    '</details>',
    '',
    '***',
    '',
  ].join('\n');

  test('GitBook markdown reads and writes back unchanged', () => {
    assert.equal(documentToMarkdown(markdownToDocument(page, resolveRef), writeRef), page);
  });

  test('it has the expected blocks', () => {
    const types = markdownToDocument(page, resolveRef).nodes.map((n) => n.type);
    assert.deepEqual(types, ['heading-1', 'paragraph', 'hint', 'heading-2', 'list-ordered', 'table', 'images', 'tabs', 'expandable', 'divider']);
  });

  test('the resolver is asked about links as links and images as images', () => {
    const asked: string[] = [];
    markdownToDocument(page, (href, usage) => {
      asked.push(`${usage} ${href}`);
      return resolveRef(href, usage);
    });
    assert.deepEqual(asked, ['link install.md', 'link https://api.example.com', 'link #usage', 'image .gitbook/assets/diagram.png']);
  });

  test('the writer is asked for every reference', () => {
    const document = markdownToDocument(page, resolveRef);
    const asked: string[] = [];
    documentToMarkdown(document, (ref, usage) => {
      asked.push(`${usage} ${ref.kind}`);
      return writeRef(ref, usage);
    });
    assert.deepEqual(asked, ['link page', 'link url', 'link anchor', 'image file']);
  });
});
