import assert from 'node:assert/strict';
import { test } from 'node:test';
import { updateDateText } from './update-date.ts';

test("an update's date reads as its day, in UTC, whether a day or a whole time", () => {
  assert.equal(updateDateText('2024-05-01'), 'May 1, 2024');
  assert.equal(updateDateText('2024-05-01T00:00:00.000Z'), 'May 1, 2024');
  assert.equal(updateDateText('2024-12-31T23:30:00Z'), 'December 31, 2024');
});

test('a date that is not one stays as written', () => {
  assert.equal(updateDateText('soon'), 'soon');
  assert.equal(updateDateText('2024-13-45'), '2024-13-45');
  assert.equal(updateDateText(''), '');
});
