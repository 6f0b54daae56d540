import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseMarkedText, regionsOf, resolveMarkedText } from './conflict-text.ts';

const MARKED = `# Title

Kept as it is.

<<<<<<< main
The main line.
||||||| base
The old line.
=======
The change request line.
>>>>>>> change request #2

Also kept.
`;

describe('a content conflict a person resolves', () => {
  test('the marked text is read as merged pieces and regions with both sides and their names', () => {
    const pieces = parseMarkedText(MARKED);
    const [region] = regionsOf(pieces);
    assert.deepEqual(region, { ours: 'The main line.\n', base: 'The old line.\n', theirs: 'The change request line.\n', oursLabel: 'main', theirsLabel: 'change request #2' });
    assert.equal(pieces.length, 3);
  });

  test('keeping one side, the other, or a text of ones own gives the whole page back without markers', () => {
    const pieces = parseMarkedText(MARKED);
    assert.equal(resolveMarkedText(pieces, ['The change request line.\n']), '# Title\n\nKept as it is.\n\nThe change request line.\n\nAlso kept.\n');
    assert.equal(resolveMarkedText(pieces, ['Both, combined']), '# Title\n\nKept as it is.\n\nBoth, combined\n\nAlso kept.\n');
  });

  test('text without markers is one piece', () => {
    assert.deepEqual(parseMarkedText('Plain\n'), ['Plain\n']);
  });
});
