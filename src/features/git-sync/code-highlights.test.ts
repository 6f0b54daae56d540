import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { markdownToDocument } from '../content/document/to-document.ts';
import { documentToMarkdown } from '../content/document/to-markdown.ts';
import { applyCodeHighlights, codeHighlightsOf } from './code-highlights.ts';

const read = (markdown: string) => markdownToDocument(markdown, (href) => ({ kind: 'url', url: href }));

describe('highlighted code lines put into a document', () => {
  test('each goes to the next block of its code, in tabs too, whatever indentation the markdown took off', () => {
    const document = read(['```js', 'a();', '```', '', '{% tabs %}', '{% tab title="One" %}', '```js', 'a();', '  b();', '```', '{% endtab %}', '{% endtabs %}', ''].join('\n'));
    const { document: highlighted, missed } = applyCodeHighlights(document, [
      { code: 'a();', lines: [1] },
      { code: '    a();\n      b();', lines: [2] },
    ]);
    assert.deepEqual(missed, []);
    assert.deepEqual(codeHighlightsOf(highlighted), [
      { code: 'a();', lines: [1] },
      { code: 'a();\n  b();', lines: [2] },
    ]);
  });

  test('the document given is left as it was (it may be a prepared one), and a block not found is answered', () => {
    const document = read('```\nx\n```\n');
    const before = JSON.stringify(document);
    const { missed } = applyCodeHighlights(document, [{ code: 'y', lines: [1] }]);
    assert.equal(JSON.stringify(document), before);
    assert.deepEqual(missed, [{ code: 'y', lines: [1] }]);
  });

  test('written back, they are GitBook’s HTML spelling of the block, which reads back as the same code and highlights', () => {
    const { document } = applyCodeHighlights(read('```py\nx = 1\ny = 2\n```\n'), [{ code: 'x = 1\ny = 2', lines: [2] }]);
    const written = documentToMarkdown(document, (ref) => (ref.kind === 'url' ? ref.url : ''));
    assert.equal(written.trim(), '<pre class="language-py"><code class="lang-py">x = 1\n<strong>y = 2\n</strong></code></pre>');
    assert.deepEqual(codeHighlightsOf(read(written)), [{ code: 'x = 1\ny = 2', lines: [2] }]);
  });
});
