import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { draggedWidth, MIN_IMAGE_WIDTH, resizedLength, type ImageDrag } from './image-resize.ts';

const drag = (over: Partial<ImageDrag>): ImageDrag => ({ startWidth: 300, dx: 0, side: 'right', align: 'left', column: 700, was: undefined, ...over });

test('an image aligned left grows by what its right handle moved, and shrinks by what its left handle moved right', () => {
  assert.equal(draggedWidth(drag({ dx: 50 })), 350);
  assert.equal(draggedWidth(drag({ dx: 50, side: 'left' })), 250);
});

test('a centred image grows on both sides: twice what the pointer moved', () => {
  assert.equal(draggedWidth(drag({ dx: 50, align: 'center' })), 400);
  assert.equal(draggedWidth(drag({ dx: 50, align: 'center', side: 'left' })), 200);
});

test('pixels stay pixels, percent stays percent of the column', () => {
  assert.equal(resizedLength(drag({ dx: 100 })), 400);
  assert.deepEqual(resizedLength(drag({ dx: 50, was: { value: 43, unit: '%' } })), { value: 50, unit: '%' });
});

test('never narrower than a thumbnail nor wider than the column, whatever the drag', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 3000 }), fc.integer({ min: -5000, max: 5000 }), fc.constantFrom('left', 'right' as const), fc.constantFrom('left', 'center', 'right'), fc.integer({ min: 100, max: 2000 }),
      (startWidth, dx, side, align, column) => {
        const width = draggedWidth({ startWidth, dx, side: side as 'left' | 'right', align, column, was: undefined });
        assert.ok(width >= MIN_IMAGE_WIDTH && width <= column, `${width} within ${MIN_IMAGE_WIDTH}..${column}`);
        const percent = resizedLength({ startWidth, dx, side: side as 'left' | 'right', align, column, was: { value: 10, unit: '%' } });
        assert.ok(typeof percent === 'object' && percent.value >= 1 && percent.value <= 100);
      },
    ),
  );
});
