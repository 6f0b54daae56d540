import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Ajv } from 'ajv';
import { comparePages } from '../../../../test/corpus/compare.ts';
import { resolveRef, writeRef } from './test-fixtures.ts';
import { markdownToDocument } from './to-document.ts';
import { documentToMarkdown } from './to-markdown.ts';
import { DocumentSchema } from './types.ts';
import type { Block, Code, Document } from './types.ts';

/*
 * Issue 13: what GitBook writes, read into the document model and written back. The excerpts are taken from
 * real Git Sync repositories (GitbookIO/public-docs); each names the node it must become and must come back
 * as the same markdown (exactly, or, where the model has one spelling for several, with the same meaning).
 */

const validate = new Ajv({ strict: false }).compile(DocumentSchema);

/** Every node type in a document, depth first. */
function types(document: Document): string[] {
  const out: string[] = [];
  const walk = (node: { type?: string; object?: string; nodes?: unknown[]; fragments?: { nodes?: unknown[] }[] }) => {
    if (node.type && (node.object === 'block' || node.object === 'inline')) out.push(node.type);
    for (const f of node.fragments ?? []) for (const child of f.nodes ?? []) walk(child as Block);
    for (const child of node.nodes ?? []) walk(child as Block);
  };
  for (const block of document.nodes) walk(block);
  return out;
}

const excerpts: [name: string, markdown: string, nodes: string[], exact?: boolean][] = [
  ['a stepper', '{% stepper %}\n{% step %}\n#### Create a space\n\nOpen the **Actions menu**.\n{% endstep %}\n\n{% step %}\n#### Publish it\n\nDone.\n{% endstep %}\n{% endstepper %}\n', ['stepper', 'stepper-step', 'heading-3', 'paragraph', 'stepper-step', 'heading-3', 'paragraph']],
  ['columns with a width', '{% columns %}\n{% column width="50%" %}\n**Create a seamless experience**\n{% endcolumn %}\n\n{% column %}\n<figure><img src=".gitbook/assets/columns.png" alt="Columns"><figcaption></figcaption></figure>\n{% endcolumn %}\n{% endcolumns %}\n', ['columns', 'column', 'paragraph', 'column', 'images', 'image'], false],
  ['a condition', '{% if visitor.claims.unsigned.example_attribute_A %}\nThis content is only visible to users with attribute A.\n{% endif %}\n', ['if', 'paragraph']],
  ['updates', '{% updates format="full" %}\n{% update date="2025-12-25" tags="beta" %}\n### A brand new update\n\nUse this block to tell users about a new update.\n{% endupdate %}\n{% endupdates %}\n', ['updates', 'update', 'heading-2', 'paragraph']],
  ['a prompt', '{% prompt description="Example prompt" icon="rectangle-terminal" defaultExpanded="full" %}\n```markdown\nSummarize the key changes in this release note.\n```\n{% endprompt %}\n', ['prompt', 'code', 'code-line']],
  ['an OpenAPI operation from a URL', '{% openapi src="https://petstore3.swagger.io/api/v3/openapi.json" path="/pet" method="post" %}\n[https://petstore3.swagger.io/api/v3/openapi.json](https://petstore3.swagger.io/api/v3/openapi.json)\n{% endopenapi %}\n', ['swagger'], false],
  ['OpenAPI schemas of a named spec', '{% openapi-schemas spec="petstore" schemas="Pet" grouped="false" %}\n', ['openapi-schemas']],
  ['reusable content', '{% include "../../.gitbook/includes/reusable-block.md" %}\n', ['reusable-content']],
  ['an embed with a caption', '{% embed url="https://www.youtube.com/watch?v=D_uLM5i0Z4c" %}\nA short demo.\n{% endembed %}\n', ['embed', 'paragraph']],
  ['a file with a caption', '{% file src=".gitbook/assets/example.pdf" %}\nThis is a caption on a file.\n{% endfile %}\n', ['file', 'paragraph']],
  ['a hint and a tab with icons', '{% hint style="info" icon="books" %}\nRead this first.\n{% endhint %}\n\n{% tabs %}\n{% tab title="Safari" icon="safari" %}\nOpen Safari.\n{% endtab %}\n{% endtabs %}\n', ['hint', 'paragraph', 'tabs', 'tabs-item', 'paragraph']],
  ['expandable code', '{% code title="index.js" overflow="wrap" lineNumbers="true" expandable="true" %}\n```javascript\nconsole.log(1);\n```\n{% endcode %}\n', ['code', 'code-line']],
  ['headings 4 to 6', '### Three\n\n#### Four\n\n##### Five\n\n###### Six\n', ['heading-2', 'heading-3', 'heading-3', 'heading-3']],
  ['math', '$$\nf(x) = x * e^{2 pi i \\xi x}\n$$\n\nInline formula: $$E = mc^2$$\n', ['math', 'paragraph', 'inline-math']],
  ['light and dark images', '1. Open the page\'s **Action menu** <picture><source srcset=".gitbook/assets/actions_dark.svg" media="(prefers-color-scheme: dark)"><img src=".gitbook/assets/actions_light.svg" alt="The Actions menu icon"></picture>.\n', ['list-ordered', 'list-item', 'paragraph', 'inline-image']],
  ['a framed figure with a width', '<div data-with-frame="true"><figure><img src=".gitbook/assets/site.png" alt="" width="375"><figcaption><p>The site</p></figcaption></figure></div>\n', ['images', 'image', 'paragraph']],
  ['keys, colours and icons', 'Press <kbd>⌘</kbd> + <kbd>K</kbd>. <mark style="color:orange;">This text is orange.</mark> Open **Integrations** <i class="fa-puzzle-piece">:puzzle-piece:</i> now.\n', ['paragraph', 'icon']],
  ['a button', 'Show a button: <a href="https://gitbook.com" class="button primary">Sign up</a>\n', ['paragraph', 'button']],
  ['a card table', '<table data-view="cards"><thead><tr><th>Topic</th><th data-card-target data-type="content-ref">Learn more</th></tr></thead><tbody><tr><td>Free trial</td><td><a href="free-trial.md">free-trial.md</a></td></tr></tbody></table>\n', ['table', 'paragraph']],
  // GitBook writes a code block with highlighted lines in HTML, each such line in a <strong> (create-content/openapi/guides/managing-api-operations.md).
  ['code with highlighted lines', '<pre class="language-yaml" data-title="openapi.yaml"><code class="lang-yaml">components:\n  securitySchemes:\n    apiKey:\n<strong>      x-gitbook-prefix: Token\n</strong><strong>      x-gitbook-token-placeholder: YOUR_CUSTOM_TOKEN\n</strong></code></pre>\n', ['code', 'code-line', 'code-line', 'code-line', 'code-line', 'code-line']],
  // … and `<` in its text as `&#x3C;` (publish/adaptive-content/enabling-adaptive-content/feature-flags.md).
  ['highlighted code with markup in its text', '<pre class="language-javascript"><code class="lang-javascript"><strong>import { withReflag } from \'@gitbook/adaptive\';\n</strong>    return (\n        &#x3C;LDProvider>\n            &#x3C;MyApplication />\n</code></pre>\n', ['code', 'code-line', 'code-line', 'code-line', 'code-line']],
  // Aligned headings and paragraphs are HTML in GitBook's markdown (README.md, docs-as-code/gitbook-mcp.md).
  ['an aligned heading', '<h3 align="center">How do you want to work?</h3>\n', ['heading-2']],
  ['an aligned paragraph of buttons', '<p align="center"><a href="https://claude.ai/x" class="button secondary" data-icon="claude">Install Claude plugin</a> <a href="https://cursor.com/x" class="button secondary" data-icon="cursor">Install Cursor plugin</a></p>\n', ['paragraph', 'button', 'button']],
  ['an expandable with a rich title', '<details>\n\n<summary><strong>Example 1</strong></summary>\n\nThe body.\n\n</details>\n', ['expandable', 'paragraph', 'paragraph']],
];

describe('GitBook blocks read from real markdown and written back', () => {
  for (const [name, markdown, expected, exact = true] of excerpts) {
    test(name, () => {
      const document = markdownToDocument(markdown, resolveRef);
      assert.ok(validate(document), JSON.stringify(validate.errors));
      assert.deepEqual(types(document), expected);
      const written = documentToMarkdown(document, writeRef);
      if (exact) assert.equal(written, markdown);
      else assert.equal(comparePages(markdown, written).changed, false, written);
      assert.equal(documentToMarkdown(markdownToDocument(written, resolveRef), writeRef), written, 'canonical');
    });
  }

  test('kept HTML gives way to an edit of its text', () => {
    const document = markdownToDocument('<div class="x">old</div>\n', resolveRef);
    const paragraph = document.nodes[0] as { nodes: { leaves: { text: string }[] }[] };
    paragraph.nodes[0]!.leaves[0]!.text = 'new';
    assert.equal(documentToMarkdown(document, writeRef), 'new\n');
  });

  test('a card table is a cards view with a content-ref target column', () => {
    const [table] = markdownToDocument(excerpts.find(([name]) => name === 'a card table')![1], resolveRef).nodes as unknown as [{ data: Record<string, unknown> }];
    const { view, definition, records } = table.data as { view: Record<string, unknown>; definition: Record<string, { type: string }>; records: Record<string, { values: Record<string, unknown> }> };
    assert.deepEqual(view, { type: 'cards', columns: ['c1', 'c2'], cardSize: 'medium', targetDefinition: 'c2' });
    assert.equal(definition.c2!.type, 'content-ref');
    assert.deepEqual(records.r1!.values.c2, { kind: 'page', page: 'free-trial' });
  });

  test('code with highlighted lines holds them, its language, title and text; without any it is written as fenced code', () => {
    const [code] = markdownToDocument(excerpts.find(([name]) => name === 'code with highlighted lines')![1], resolveRef).nodes as unknown as [Code];
    assert.deepEqual(code.data, { syntax: 'yaml', title: 'openapi.yaml' });
    assert.deepEqual(code.nodes.map((line) => line.data.highlighted === true), [false, false, false, true, true]);
    const [markup] = markdownToDocument(excerpts.find(([name]) => name === 'highlighted code with markup in its text')![1], resolveRef).nodes as unknown as [Code];
    assert.deepEqual(markup.nodes[2]!.nodes, [{ object: 'text', leaves: [{ object: 'leaf', text: '        <LDProvider>', marks: [] }] }]);
    const plain = markdownToDocument('<pre class="language-yaml" data-title="openapi.yaml" data-overflow="wrap"><code class="lang-yaml">a: &#x3C;b> &#x26; c\n</code></pre>\n', resolveRef);
    assert.equal(documentToMarkdown(plain, writeRef), '{% code title="openapi.yaml" overflow="wrap" %}\n```yaml\na: <b> & c\n```\n{% endcode %}\n');
    // Other markup in the code is not GitBook's spelling: the HTML stays as it was.
    assert.equal(markdownToDocument('<pre><code>a <em>b</em>\n</code></pre>\n', resolveRef).nodes[0]!.type, 'paragraph');
  });

  test('an aligned heading and paragraph hold their alignment; a card’s heading and text are blocks of its cell', () => {
    const [heading] = markdownToDocument('<h3 align="center">How do you want to work?</h3>\n', resolveRef).nodes as unknown as [{ type: string; data: unknown }];
    assert.deepEqual({ type: heading.type, data: heading.data }, { type: 'heading-2', data: { align: 'center' } });
    // From analytics/guides.md: `<h4>Title</h4><p>Text</p>` in a card's cell.
    const [table] = markdownToDocument(
      '<table data-view="cards"><thead><tr><th></th><th></th></tr></thead><tbody><tr><td><h4><i class="fa-chart-line">:chart-line:</i></h4></td><td><h4>Track documentation metrics</h4><p>Choose useful metrics.</p></td></tr></tbody></table>\n',
      resolveRef,
    ).nodes as unknown as [{ fragments: { nodes: { type: string }[] }[] }];
    assert.deepEqual(table.fragments.map((f) => f.nodes.map((n) => n.type)), [['heading-3'], ['heading-3', 'paragraph']]);
  });

  test('a heading keeps its level in the document and in markdown', () => {
    const document = markdownToDocument('##### Five\n', resolveRef);
    assert.deepEqual({ type: document.nodes[0]!.type, data: (document.nodes[0] as { data: unknown }).data }, { type: 'heading-3', data: { level: 5 } });
  });
});
