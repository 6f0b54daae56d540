import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { formatTag, parseTagLine } from './liquid-tags.ts';

describe('GitBook tag lines', () => {
  test('a tag with attributes is read', () => {
    assert.deepEqual(parseTagLine('{% hint style="info" %}'), { name: 'hint', attributes: { style: 'info' } });
    assert.deepEqual(parseTagLine('{% code title="a.js" lineNumbers="true" %}'), { name: 'code', attributes: { title: 'a.js', lineNumbers: 'true' } });
  });
  test('spacing and single quotes are tolerated', () => {
    assert.deepEqual(parseTagLine("  {%hint style = 'warning'%}  "), { name: 'hint', attributes: { style: 'warning' } });
  });
  test('escaped quotes and "%}" inside a value', () => {
    assert.deepEqual(parseTagLine('{% tab title="say \\"hi\\" %} here" %}'), { name: 'tab', attributes: { title: 'say "hi" %} here' } });
  });
  test('unknown tags, malformed attributes and unterminated lines are not tags', () => {
    for (const line of ['{% swagger %}', '{% hint style=info %}', '{% hint style="info" %', '{% hint style="info"', 'text {% hint %}', '{% hint %} x {% endhint %}', '{%%}']) {
      assert.equal(parseTagLine(line), null, line);
    }
  });
  test('written tags read back the same', () => {
    const attributes = { title: 'a "quoted" \\ title', style: 'info' };
    assert.deepEqual(parseTagLine(formatTag('tab', attributes)), { name: 'tab', attributes });
  });
  test('line breaks in a value are written as spaces', () => {
    assert.equal(formatTag('tab', { title: 'two\nlines' }), '{% tab title="two lines" %}');
  });
  test('undefined attributes are left out', () => {
    assert.equal(formatTag('code', { title: undefined, overflow: 'wrap' }), '{% code overflow="wrap" %}');
  });
});
