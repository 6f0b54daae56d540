import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { cssWidth, formatLength, parseLength } from './length.ts';

describe('image width (Length)', () => {
  test('pixels and percentages read as the model keeps them', () => {
    assert.equal(parseLength('300'), 300);
    assert.equal(parseLength(' 300px '), 300);
    assert.deepEqual(parseLength('50%'), { value: 50, unit: '%' });
    assert.deepEqual(parseLength('12.5 %'), { value: 12.5, unit: '%' });
    assert.equal(parseLength(''), undefined);
    assert.equal(parseLength('auto'), undefined);
  });

  test('what is not a width is refused', () => {
    for (const typed of ['abc', '0', '-20', '150%', '10em', '5%%']) assert.equal(parseLength(typed), null, typed);
  });

  test('a width is written back as typed, and as CSS', () => {
    assert.equal(formatLength(300), '300');
    assert.equal(formatLength({ value: 50, unit: '%' }), '50%');
    assert.equal(formatLength(undefined), '');
    assert.equal(cssWidth({ value: 50, unit: '%' }), '50%');
    assert.equal(cssWidth(300), '300px');
    assert.equal(cssWidth(undefined), undefined);
    for (const typed of ['300', '50%', '12.5%']) assert.equal(formatLength(parseLength(typed)), typed);
  });
});
