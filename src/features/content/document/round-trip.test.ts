// @sqlite-run-only: document conversions only; no database.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Ajv } from 'ajv';
import fc from 'fast-check';
import { keyDocument } from './keys.ts';
import { documentArbitrary, markdownishArbitrary, resolveRef, writeRef } from './test-fixtures.ts';
import { markdownToDocument } from './to-document.ts';
import { documentToMarkdown } from './to-markdown.ts';
import { DocumentSchema, type Heading } from './types.ts';

const validate = new Ajv({ strict: false }).compile(DocumentSchema);
// PROPERTY_RUNS=2000 for a longer search; the default keeps the suite quick on a shared machine.
const RUNS = Number(process.env.PROPERTY_RUNS ?? 100);

describe('round trips between markdown and documents (property tests)', () => {
  test('a generated document survives markdown and back (same document, same keys), its markdown is canonical, and both pass the write schema', () => {
    fc.assert(
      fc.property(documentArbitrary(), (document) => {
        assert.ok(validate(document), `generated document: ${JSON.stringify(validate.errors)}`);
        const markdown = documentToMarkdown(document, writeRef);
        const back = markdownToDocument(markdown, resolveRef);
        assert.deepEqual(back, keyDocument(JSON.parse(JSON.stringify(document))), markdown);
        assert.equal(documentToMarkdown(back, writeRef), markdown);
        assert.ok(validate(back), `document read back: ${JSON.stringify(validate.errors)}`);
      }),
      { numRuns: RUNS },
    );
  });

  for (const [name, arbitrary] of [
    ['any string', fc.string({ unit: 'binary', maxLength: 300 })],
    ['markdown-ish text', markdownishArbitrary],
  ] as const) {
    test(`reading ${name} never throws, gives a valid document, and the markdown written for it is canonical`, () => {
      fc.assert(
        fc.property(arbitrary, (input) => {
          const document = markdownToDocument(input, resolveRef);
          assert.ok(validate(document), JSON.stringify(validate.errors));
          const markdown = documentToMarkdown(document, writeRef);
          assert.equal(documentToMarkdown(markdownToDocument(markdown, resolveRef), writeRef), markdown);
        }),
        { numRuns: RUNS * 5 },
      );
    });
  }
});

// Each input a property test once failed on, named by where it was found: they stay, whatever seed runs.
describe('counterexamples the property tests found, written back canonically', () => {
  const found: [string, string][] = [
    ['a heading of one space and an anchor (PostgreSQL suite, seed 270839298)', '# <a href="#a" id="a"></a> <br>'],
    ['a table cell ending in spaces (session 7 CI)', '| a | b |\n| - | - |\n{% endcode %}### <details>'],
    ['an escaped pipe after a code span in a header cell (session 9 CI)', '`a`\\| a | b |\n| - | - |'],
    ['an escaped pipe after a code span in a body cell', '| a | b |\n| - | - |\n| `x`\\| y | `z\\|w` |'],
  ];
  for (const [name, input] of found) {
    test(name, () => {
      const document = markdownToDocument(input, resolveRef);
      assert.ok(validate(document), JSON.stringify(validate.errors));
      const markdown = documentToMarkdown(document, writeRef);
      assert.equal(documentToMarkdown(markdownToDocument(markdown, resolveRef), writeRef), markdown);
    });
  }

  test('the space before a heading anchor is the separator; a title ending in a space keeps it', () => {
    const heading = markdownToDocument('## &#x20; <a href="#a" id="a"></a>\n', resolveRef).nodes[0] as Heading;
    assert.deepEqual(heading.type === 'heading-1' && heading.data, { id: 'a' });
    assert.equal(JSON.stringify(heading.nodes), JSON.stringify([{ object: 'text', leaves: [{ object: 'leaf', text: ' ', marks: [] }] }]));
    const plain = markdownToDocument('## Title <a href="#t" id="t"></a>\n', resolveRef).nodes[0] as Heading;
    assert.equal(JSON.stringify(plain.nodes), JSON.stringify([{ object: 'text', leaves: [{ object: 'leaf', text: 'Title', marks: [] }] }]));
  });
});

describe('hostile markdown', () => {
  const inputs: [string, string][] = [
    ['100,000 nested quotes', '>'.repeat(100_000) + ' x'],
    ['20,000 nested list markers', '- '.repeat(20_000) + 'x'],
    ['a deep staircase of indented lists', Array.from({ length: 300 }, (_, i) => ' '.repeat(i * 2) + '- x').join('\n')],
    ['20,000 nested emphasis markers', '*_'.repeat(10_000) + 'x' + '_*'.repeat(10_000)],
    ['20,000 nested link brackets', '['.repeat(20_000) + 'x' + '](u)'.repeat(20_000)],
    ['5,000 unclosed hints', '{% hint style="info" %}\n'.repeat(5_000)],
    ['5,000 unclosed details', '<details>\n\n'.repeat(5_000)],
    ['2,000 nested hints, all closed', '{% hint style="info" %}\n'.repeat(2_000) + 'x\n' + '{% endhint %}\n'.repeat(2_000)],
    ['2,000 nested expandables, all closed', '<details>\n\n'.repeat(2_000) + 'x\n\n' + '</details>\n\n'.repeat(2_000)],
    ['a 200 KB line of spaces in a tag', '{% hint' + ' '.repeat(200_000) + 'x %}'],
    ['a table of 500 columns', `| ${'a | '.repeat(500)}\n| ${'- | '.repeat(500)}\n| ${'b | '.repeat(500)}`],
  ];
  for (const [name, markdown] of inputs) {
    test(`${name}: read and written back in bounded time`, () => {
      // CPU time, not the clock's: on a loaded machine the clock runs while other processes have the cores.
      const started = process.cpuUsage();
      const document = markdownToDocument(markdown, resolveRef);
      documentToMarkdown(document, writeRef);
      const { user, system } = process.cpuUsage(started);
      const ms = (user + system) / 1000;
      assert.ok(ms < 10_000, `took ${Math.round(ms)} ms of CPU`);
    });
  }

  test('a document nested far deeper than markdown goes is written as text past the limit', () => {
    let block: Parameters<typeof documentToMarkdown>[0]['nodes'][number] = { object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'deep' }] }] };
    for (let i = 0; i < 5000; i++) block = { object: 'block', type: 'blockquote', nodes: [block] };
    const markdown = documentToMarkdown({ object: 'document', nodes: [block] }, writeRef);
    assert.match(markdown, /deep/);
    markdownToDocument(markdown, resolveRef);
  });
});
