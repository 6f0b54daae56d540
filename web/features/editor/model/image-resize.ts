import type { Length } from './length.ts';

/*
 * An image resized by dragging one of its side handles: the width follows the pointer, as in GitBook, Notion and
 * Google Docs. A centred image grows on both sides, so it changes twice as much as the pointer moved; an image
 * aligned to one side grows away from it. A width set in percent stays in percent (of the column), pixels stay
 * pixels; never narrower than a thumbnail nor wider than the column.
 */

export const MIN_IMAGE_WIDTH = 32;

export interface ImageDrag {
  /** The picture's drawn width when the drag started, in CSS pixels. */
  startWidth: number;
  /** How far the pointer moved right since (negative: left). */
  dx: number;
  /** The handle dragged. */
  side: 'left' | 'right';
  /** The image group's alignment (`align` of `images`: left, center, right). */
  align: string;
  /** The column's width: the widest the image may be. */
  column: number;
  /** The width the image had: its unit is kept. */
  was: unknown;
}

/** The drawn width, in pixels, while the drag goes on. */
export function draggedWidth({ startWidth, dx, side, align, column }: ImageDrag): number {
  const outward = side === 'right' ? dx : -dx;
  const grown = startWidth + outward * (align === 'center' ? 2 : 1);
  return Math.round(Math.max(MIN_IMAGE_WIDTH, Math.min(column > 0 ? column : grown, grown)));
}

/** The width stored when the drag ends: in the unit the image's width had. */
export function resizedLength(drag: ImageDrag): Length {
  const px = draggedWidth(drag);
  const inPercent = !!drag.was && typeof drag.was === 'object' && (drag.was as { unit?: unknown }).unit === '%';
  if (inPercent && drag.column > 0) return { value: Math.max(1, Math.min(100, Math.round((px / drag.column) * 100))), unit: '%' };
  return px;
}
