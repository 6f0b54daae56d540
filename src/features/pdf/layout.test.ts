// @sqlite-run-only: PDF layout only; no database.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import PDFDocument from 'pdfkit';
import { readPdf } from '../../../test/pdf-text.ts';
import { PAGE_MARGIN, PdfLayout, STANDARD_FONTS, type LayoutOptions, type LayoutPage } from './layout.ts';
import { BUNDLED_DEJAVU } from './service.ts';

const leaf = (text: string) => ({ object: 'leaf', text });
const paragraph = (value: string) => ({ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [leaf(value)] }] });

/** Lays out pages into a PDF and answers its text as a reader extracts it. */
async function textOf(pages: Omit<LayoutPage, 'images' | 'depth'>[], fonts: (doc: PDFKit.PDFDocument) => Partial<LayoutOptions> = () => ({})): Promise<string> {
  const doc = new PDFDocument({ size: 'A4', margins: { top: PAGE_MARGIN, bottom: PAGE_MARGIN, left: PAGE_MARGIN, right: PAGE_MARGIN }, autoFirstPage: false });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise((resolve) => doc.on('end', resolve));
  const layout = new PdfLayout(doc, { title: 'Odd documents', fonts: STANDARD_FONTS, pagesInPdf: new Set(pages.map((p) => p.id)), fileNames: new Map(), ...fonts(doc) });
  layout.titlePage(pages.map((p) => ({ ...p, depth: 0 })));
  for (const page of pages) layout.page({ ...page, depth: 0, images: new Map() });
  doc.end();
  await done;
  return (await readPdf(Buffer.concat(chunks))).text;
}

describe('PDF layout of odd documents', () => {
  test('deep nesting, unknown blocks, empty tables and missing fields print what they can', async () => {
    let nested: object = paragraph('Deep inside');
    for (let i = 0; i < 40; i++) nested = { object: 'block', type: 'blockquote', nodes: [nested] };
    const document = {
      object: 'document',
      nodes: [
        paragraph('Before'),
        nested,
        { object: 'block', type: 'no-such-block', nodes: [paragraph('Inside unknown')] },
        { object: 'block', type: 'table', isVoid: true, data: { view: { type: 'grid', columns: [], hideHeader: true }, records: {}, definition: {} }, fragments: [] },
        { object: 'block', type: 'table', isVoid: true, data: { view: { type: 'grid', columns: ['a'], hideHeader: true }, records: {}, definition: { a: { id: 'a', title: 'A', type: 'text' } } }, fragments: [] },
        { object: 'block', type: 'list-ordered', nodes: [{ object: 'block', type: 'list-item' }, 'not a node', null] },
        { object: 'block', type: 'code', data: {}, nodes: [{ object: 'block', type: 'code-line', nodes: [{ object: 'text', leaves: [leaf('x'.repeat(3000))] }] }] },
        { object: 'block', type: 'image', data: { ref: { kind: 'file', file: 'missing' }, alt: 'Lost image' } },
        paragraph('w'.repeat(2000)),
        paragraph('After'),
      ],
    };
    const text = await textOf([{ id: 'p1', title: 'Odd page', document }]);
    // A reader may break a line where the layout did not; words are compared with single spaces.
    const words = text.replace(/\s+/g, ' ');
    for (const expected of ['Odd page', 'Before', 'Deep inside', 'Inside unknown', '[Image: Lost image]', 'After']) assert.ok(words.includes(expected), `"${expected}" is printed`);
  });

  test('a page without a document prints its title alone; links to pages outside the PDF are plain text', async () => {
    const link = { object: 'inline', type: 'link', data: { ref: { kind: 'page', page: 'elsewhere' } }, nodes: [{ object: 'text', leaves: [leaf('a page not printed')] }] };
    const text = await textOf([
      { id: 'g', title: 'A group', document: undefined },
      { id: 'd', title: 'A document', document: { object: 'document', nodes: [{ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [leaf('See ')] }, link] }] } },
    ]);
    assert.match(text, /A group[\s\S]*A document[\s\S]*See a page not printed/);
  });

  test('Greek and Cyrillic print with the DejaVu bundled from npm, on a machine without fonts; bold and code too', async () => {
    const document = {
      object: 'document',
      nodes: [
        paragraph('Καλημέρα κόσμε. Привет, мир.'),
        { object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Жирный текст', marks: [{ object: 'mark', type: 'bold' }] }] }] },
        { object: 'block', type: 'code', data: {}, nodes: [{ object: 'block', type: 'code-line', nodes: [{ object: 'text', leaves: [leaf('λ x → x ≠ ∅')] }] }] },
      ],
    };
    const text = await textOf([{ id: 'p1', title: 'Ελληνικά και русский', document }], (doc) => {
      for (const [kind, file] of Object.entries(BUNDLED_DEJAVU)) doc.registerFont(`bundled-${kind}`, file);
      return { unicode: { regular: 'bundled-regular', bold: 'bundled-bold', italic: 'bundled-italic', boldItalic: 'bundled-boldItalic', mono: 'bundled-mono' } };
    });
    const words = text.replace(/\s+/g, ' ');
    for (const expected of ['Ελληνικά και русский', 'Καλημέρα κόσμε. Привет, мир.', 'Жирный текст', 'λ x → x ≠ ∅']) assert.ok(words.includes(expected), `"${expected}" is printed: ${words}`);
  });

  const cjk = '/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf';
  test('Chinese and Japanese print with a CJK font of the machine (Droid Sans Fallback has no Hangul)', { skip: existsSync(cjk) ? false : 'no CJK font (apt-get install fonts-droid-fallback)' }, async () => {
    const document = { object: 'document', nodes: [paragraph('中文文档。日本語のテキスト。 Mixed with Latin.'), paragraph('Русский рядом.')] };
    const text = await textOf([{ id: 'p1', title: '快速入门', document }], (doc) => {
      for (const [kind, file] of Object.entries(BUNDLED_DEJAVU)) doc.registerFont(`bundled-${kind}`, file);
      doc.registerFont('cjk', cjk);
      return { unicode: { regular: 'bundled-regular', bold: 'bundled-bold', italic: 'bundled-italic', boldItalic: 'bundled-boldItalic', mono: 'bundled-mono' }, cjk: 'cjk' };
    });
    const words = text.replace(/\s+/g, ' ');
    for (const expected of ['快速入门', '中文文档。日本語のテキスト。 Mixed with Latin.', 'Русский рядом.']) assert.ok(words.includes(expected), `"${expected}" is printed: ${words}`);
  });
});
