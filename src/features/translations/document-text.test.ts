import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { countWords, rewriteRefs, textsOf, withTexts } from './document-text.ts';

const leaf = (text: string, marks: string[] = []) => ({ object: 'leaf', text, ...(marks.length ? { marks: marks.map((type) => ({ object: 'mark', type })) } : {}) });
const text = (...leaves: object[]) => ({ object: 'text', leaves });
const paragraph = (...nodes: object[]) => ({ object: 'block', type: 'paragraph', nodes });
const doc = (...nodes: object[]) => ({ object: 'document', data: {}, nodes });

describe('the texts of a document a translation sends', () => {
  test('prose is sent in reading order; code blocks, code marks and blank leaves are not', () => {
    const document = doc(
      { object: 'block', type: 'heading-1', data: {}, nodes: [text(leaf('Install'))] },
      paragraph(text(leaf('Run '), leaf('make', ['code']), leaf(' now.'), leaf('  '))),
      { object: 'block', type: 'code', data: { title: 'build.sh' }, nodes: [{ object: 'block', type: 'code-line', data: {}, nodes: [text(leaf('make all'))] }] },
      { object: 'block', type: 'images', data: {}, nodes: [{ object: 'block', type: 'image', isVoid: true, data: { ref: { kind: 'url', url: 'https://x.test/a.png' }, alt: 'A chart' }, fragments: [] }] },
    );
    assert.deepEqual(textsOf(document), ['Install', 'Run ', ' now.', 'A chart']);
  });

  test('translated texts replace the originals in place, leaving marks and structure', () => {
    const document = doc(paragraph(text(leaf('Hello', ['bold']), leaf(' world'))));
    const translated = withTexts(document, ['Bonjour', ' le monde']) as ReturnType<typeof doc>;
    assert.deepEqual(translated, doc(paragraph(text(leaf('Bonjour', ['bold']), leaf(' le monde')))));
    assert.deepEqual(document, doc(paragraph(text(leaf('Hello', ['bold']), leaf(' world')))), 'the source is not changed');
  });

  test('tab titles come before their content, and expandable fragments are prose too', () => {
    const document = doc(
      { object: 'block', type: 'tabs', nodes: [{ object: 'block', type: 'tabs-item', data: { title: 'Linux' }, nodes: [paragraph(text(leaf('Use apt.')))] }] },
      { object: 'block', type: 'expandable', isVoid: true, data: {}, fragments: [{ object: 'fragment', fragment: 'title', nodes: [paragraph(text(leaf('More')))] }] },
    );
    assert.deepEqual(textsOf(document), ['Linux', 'Use apt.', 'More']);
  });

  test('words are counted across texts', () => {
    assert.equal(countWords(['Hello world', '  three  more words ', '']), 5);
  });
});

describe('the references of a copied document', () => {
  const targets = { pages: new Map([['src-a', 'dst-a']]), files: new Map([['f1', 'https://quire.test/files/abc/guide.pdf']]) };

  test('links to pages of the source point at their counterparts; other spaces and URLs are kept', () => {
    const link = (ref: object) => ({ object: 'inline', type: 'link', data: { ref }, nodes: [text(leaf('x'))] });
    const document = doc(paragraph(link({ kind: 'page', page: 'src-a' }), link({ kind: 'anchor', page: 'src-a', anchor: 'setup' }), link({ kind: 'page', page: 'src-a', space: 'other' }), link({ kind: 'page', page: 'unknown' }), link({ kind: 'url', url: 'https://a.test' })));
    const refs = ((rewriteRefs(document, targets) as ReturnType<typeof doc>).nodes[0] as { nodes: { data: { ref: unknown } }[] }).nodes.map((n) => n.data.ref);
    assert.deepEqual(refs, [
      { kind: 'page', page: 'dst-a' },
      { kind: 'anchor', page: 'dst-a', anchor: 'setup' },
      { kind: 'page', page: 'src-a', space: 'other' },
      { kind: 'page', page: 'unknown' },
      { kind: 'url', url: 'https://a.test' },
    ]);
  });

  test("images of the source's files show their bytes by URL; a file block becomes a link to them", () => {
    const document = doc(
      { object: 'block', type: 'images', data: {}, nodes: [{ object: 'block', type: 'image', isVoid: true, data: { ref: { kind: 'file', file: 'f1' } }, fragments: [] }] },
      { object: 'block', type: 'file', isVoid: true, data: { ref: { kind: 'file', file: 'f1' } } },
    );
    const out = rewriteRefs(document, targets) as { nodes: [{ nodes: [{ data: { ref: unknown } }] }, { type: string; nodes: { type?: string; data?: { ref: unknown } }[] }] };
    assert.deepEqual(out.nodes[0].nodes[0].data.ref, { kind: 'url', url: 'https://quire.test/files/abc/guide.pdf' });
    assert.equal(out.nodes[1].type, 'paragraph');
    assert.deepEqual(out.nodes[1].nodes[1]!.data!.ref, { kind: 'url', url: 'https://quire.test/files/abc/guide.pdf' });
    assert.deepEqual(textsOf(out.nodes[1]), ['guide.pdf']);
  });
});
