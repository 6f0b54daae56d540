import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { descriptionFromText, descriptionToText, hasDescription, isPlainDescription } from './description-text.ts';

describe('a change request description as plain text', () => {
  test('paragraphs parted by blank lines become paragraph blocks, and read back as the same text', () => {
    const document = descriptionFromText('Why this change.\r\n\r\n  What it does,\nline by line.  \n\n\n');
    assert.equal(document.nodes.length, 2);
    assert.deepEqual(document.nodes.map((b) => b.type), ['paragraph', 'paragraph']);
    assert.equal(descriptionToText(document), 'Why this change.\n\nWhat it does, line by line.');
    assert.equal(isPlainDescription(document), true);
  });

  test('an empty text is an empty document, which is no description', () => {
    assert.deepEqual(descriptionFromText('  \n\n ').nodes, []);
    assert.equal(hasDescription(descriptionFromText('')), false);
    assert.equal(hasDescription(undefined), false);
    assert.equal(hasDescription(descriptionFromText('Something')), true);
  });

  test('marks or other blocks make it more than its text', () => {
    const bold = { object: 'document', data: {}, nodes: [{ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Hi', marks: [{ object: 'mark', type: 'bold' }] }] }] }] };
    assert.equal(isPlainDescription(bold as never), false);
    const heading = { object: 'document', data: {}, nodes: [{ object: 'block', type: 'heading-1', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Title' }] }] }] };
    assert.equal(isPlainDescription(heading as never), false);
    assert.equal(descriptionToText(heading as never), 'Title');
  });
});
