import assert from 'node:assert/strict';
import { test } from 'node:test';
import { documentOfText, textOfDocument } from './instructions-text.ts';

test('instructions as paragraphs of text, and back', () => {
  const text = 'Answer briefly.\n\nPoint readers to the API reference\nfor endpoints.';
  const document = documentOfText(`  ${text}\n\n\n`);
  assert.equal(document.nodes.length, 2);
  assert.equal(textOfDocument(document), text);
  assert.equal(documentOfText('   ').nodes.length, 0);
});
