import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { mergeText } from './merge-text.ts';

const clean = (text: string) => ({ conflict: false, text });

describe('merging markdown text', () => {
  test('a text changed on one side only is that side’s text', () => {
    assert.deepEqual(mergeText('a\n', 'a\n', 'b\n'), clean('b\n'));
    assert.deepEqual(mergeText('a\n', 'b\n', 'a\n'), clean('b\n'));
  });

  test('the same edit on both sides is made once', () => {
    assert.deepEqual(mergeText('# T\n\nOld.\n', '# T\n\nNew.\n', '# T\n\nNew.\n'), clean('# T\n\nNew.\n'));
  });

  test('edits of different paragraphs both survive', () => {
    const base = '# Title\n\nFirst paragraph.\n\nSecond paragraph.\n\nThird paragraph.\n';
    const ours = '# Title\n\nFirst paragraph, edited on main.\n\nSecond paragraph.\n\nThird paragraph.\n';
    const theirs = '# Title\n\nFirst paragraph.\n\nSecond paragraph.\n\nThird paragraph, edited in the change request.\n';
    assert.deepEqual(
      mergeText(base, ours, theirs),
      clean('# Title\n\nFirst paragraph, edited on main.\n\nSecond paragraph.\n\nThird paragraph, edited in the change request.\n'),
    );
  });

  test('paragraphs added at different places both survive', () => {
    const base = '# A\n\nOne.\n\n# B\n\nTwo.\n';
    const ours = '# A\n\nOne.\n\nOne and a half.\n\n# B\n\nTwo.\n';
    const theirs = '# A\n\nOne.\n\n# B\n\nTwo.\n\nThree.\n';
    assert.deepEqual(mergeText(base, ours, theirs), clean('# A\n\nOne.\n\nOne and a half.\n\n# B\n\nTwo.\n\nThree.\n'));
  });

  test('a paragraph deleted on one side and another edited on the other', () => {
    const base = 'Keep.\n\nDrop me.\n\nEdit me.\n';
    assert.deepEqual(mergeText(base, 'Keep.\n\nEdit me.\n', 'Keep.\n\nDrop me.\n\nEdited.\n'), clean('Keep.\n\nEdited.\n'));
  });

  test('edits of two neighbouring lines both survive', () => {
    assert.deepEqual(mergeText('one\ntwo\nthree\n', 'one\n2\nthree\n', 'one\ntwo\n3\n'), clean('one\n2\n3\n'));
  });

  test('a line added right after a line the other side changed', () => {
    assert.deepEqual(mergeText('- a\n- b\n', '- a\n- b\n- c\n', '- a\n- B\n'), clean('- a\n- B\n- c\n'));
  });

  test('edits of different items of one list both survive', () => {
    const base = '- apples\n- pears\n- plums\n- figs\n';
    assert.deepEqual(
      mergeText(base, '- green apples\n- pears\n- plums\n- figs\n', '- apples\n- pears\n- plums\n- dried figs\n'),
      clean('- green apples\n- pears\n- plums\n- dried figs\n'),
    );
  });

  test('edits of different rows of one table both survive', () => {
    const base = '| a | b |\n| - | - |\n| 1 | 2 |\n| 3 | 4 |\n| 5 | 6 |\n';
    const ours = '| a | b |\n| - | - |\n| 1 | two |\n| 3 | 4 |\n| 5 | 6 |\n';
    const theirs = '| a | b |\n| - | - |\n| 1 | 2 |\n| 3 | 4 |\n| 5 | six |\n';
    assert.deepEqual(mergeText(base, ours, theirs), clean('| a | b |\n| - | - |\n| 1 | two |\n| 3 | 4 |\n| 5 | six |\n'));
  });

  test('edits of different sentences of one paragraph both survive', () => {
    const base = 'The cat sat on the mat. It was warm there.\n';
    const ours = 'The dog sat on the mat. It was warm there.\n';
    const theirs = 'The cat sat on the mat. It was hot there.\n';
    assert.deepEqual(mergeText(base, ours, theirs), clean('The dog sat on the mat. It was hot there.\n'));
  });

  test('different edits of the same words are a conflict, marked on whole lines', () => {
    const base = 'Intro.\n\nInstall with npm.\n\nEnd.\n';
    const result = mergeText(base, 'Intro.\n\nInstall with pnpm.\n\nEnd.\n', 'Intro.\n\nInstall with yarn.\n\nEnd.\n');
    assert.deepEqual(result, {
      conflict: true,
      markedText: 'Intro.\n\n<<<<<<< main\nInstall with pnpm.\n||||||| base\nInstall with npm.\n=======\nInstall with yarn.\n>>>>>>> change request\n\nEnd.\n',
      regions: [{ base: 'Install with npm.\n', ours: 'Install with pnpm.\n', theirs: 'Install with yarn.\n' }],
    });
  });

  test('the conflict markers carry the given labels', () => {
    const result = mergeText('a\n', 'b\n', 'c\n', { ours: 'main', base: 'ancestor', theirs: 'change request #12' });
    assert.equal(result.conflict && result.markedText, '<<<<<<< main\nb\n||||||| ancestor\na\n=======\nc\n>>>>>>> change request #12\n');
  });

  test('different paragraphs added at the same place are a conflict that keeps both', () => {
    const result = mergeText('# Notes\n', '# Notes\n\nFrom main.\n', '# Notes\n\nFrom the change request.\n');
    assert.equal(result.conflict, true);
    assert.match(result.conflict ? result.markedText : '', /From main\.[\s\S]*From the change request\./);
  });

  test('a paragraph deleted on one side and edited on the other is a conflict', () => {
    const result = mergeText('Keep.\n\nThis one.\n', 'Keep.\n', 'Keep.\n\nThis one, edited.\n');
    assert.equal(result.conflict, true);
  });

  test('a text without a final line break merges and marks cleanly', () => {
    assert.deepEqual(mergeText('a\n\nb', 'A\n\nb', 'a\n\nB'), clean('A\n\nB'));
    const result = mergeText('x', 'y', 'z');
    assert.equal(result.conflict && result.markedText, '<<<<<<< main\ny\n||||||| base\nx\n=======\nz\n>>>>>>> change request\n');
  });

  test('several conflicts in one text are all reported', () => {
    const base = 'a\n\nb\n\nc\n';
    const result = mergeText(base, 'A1\n\nb\n\nC1\n', 'A2\n\nb\n\nC2\n');
    assert.equal(result.conflict && result.regions.length, 2);
  });

  test('a long document with blank lines everywhere merges quickly', () => {
    const paragraphs = Array.from({ length: 5000 }, (_, i) => `Paragraph ${i} of a long page.\n`);
    const text = (list: string[]) => list.join('\n');
    const ours = [...paragraphs];
    ours[10] = 'Edited on main.\n';
    const theirs = [...paragraphs];
    theirs[4990] = 'Edited in the change request.\n';
    const started = performance.now();
    const result = mergeText(text(paragraphs), text(ours), text(theirs));
    assert.ok(performance.now() - started < 2000, 'took too long');
    assert.equal(result.conflict ? '' : result.text, text(paragraphs.map((p, i) => (i === 10 ? ours[10]! : i === 4990 ? theirs[4990]! : p))));
  });

  const line = fc.stringMatching(/^[a-c ]{0,6}$/);
  const document = fc.array(line, { maxLength: 12 }).map((lines) => lines.map((l) => `${l}\n`).join(''));

  test('merging with an unchanged side gives the other side', () => {
    fc.assert(
      fc.property(document, document, (base, changed) => {
        assert.deepEqual(mergeText(base, base, changed), clean(changed));
        assert.deepEqual(mergeText(base, changed, base), clean(changed));
      }),
    );
  });

  test('merging a text with itself gives it back', () => {
    fc.assert(fc.property(document, document, (base, both) => assert.deepEqual(mergeText(base, both, both), clean(both))));
  });

  test('the marked text of a conflict holds every line of both sides', () => {
    fc.assert(
      fc.property(document, document, document, (base, ours, theirs) => {
        const result = mergeText(base, ours, theirs);
        if (!result.conflict) return;
        for (const region of result.regions) {
          assert.ok(result.markedText.includes(region.ours) && result.markedText.includes(region.theirs));
          assert.notDeepEqual(region.ours, region.theirs);
        }
      }),
    );
  });

  test('the merge is the same whichever side is called ours, conflicts aside', () => {
    fc.assert(
      fc.property(document, document, document, (base, ours, theirs) => {
        const forward = mergeText(base, ours, theirs);
        const backward = mergeText(base, theirs, ours);
        assert.equal(forward.conflict, backward.conflict);
        if (!forward.conflict && !backward.conflict) assert.equal(forward.text, backward.text);
      }),
    );
  });
});
