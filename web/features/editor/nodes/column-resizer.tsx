import { useCallback, useRef } from 'react';
import { MIN_COLUMN_WIDTH } from '../../../../src/features/content/document/table-widths.ts';

/** How far an arrow key moves a column's edge (px); with Shift, further. */
const STEP = 16;

/**
 * The handle on a table column's header edge: dragged, the column follows the pointer (`onDrag`: drawn, not saved)
 * and takes the width once let go (`onResize`: one step, undone as one). Focused, the arrow keys move the edge, so
 * the keyboard has the same way to a width.
 */
export function ColumnResizer({ label, onDrag, onResize }: { label: string; onDrag: (width: number | null) => void; onResize: (width: number) => void }) {
  const start = useRef<{ x: number; width: number; moved: boolean } | null>(null);
  const widthOf = (handle: Element) => handle.closest('th')?.getBoundingClientRect().width ?? 0;
  const dragged = (event: React.PointerEvent) => Math.max(MIN_COLUMN_WIDTH, start.current!.width + event.clientX - start.current!.x);
  // The width it is drawn at (the layout decides it, not the block), told by a ResizeObserver after each layout:
  // read in the ref when drawn, it forced a layout of the whole page per column while the editor opened.
  const observeWidth = useCallback((handle: HTMLSpanElement | null) => {
    const column = handle?.closest('th');
    if (!handle || !column) return;
    const observer = new ResizeObserver(([entry]) => {
      const width = entry?.borderBoxSize[0]?.inlineSize ?? column.getBoundingClientRect().width;
      handle.setAttribute('aria-valuenow', String(Math.round(width)));
    });
    observer.observe(column);
    return () => observer.disconnect();
  }, []);
  return (
    <span
      role="separator"
      aria-orientation="vertical"
      aria-label={label}
      aria-valuemin={MIN_COLUMN_WIDTH}
      ref={observeWidth}
      tabIndex={0}
      className="qe-column-resizer"
      onPointerDown={(event) => {
        if (event.button !== 0) return;
        event.preventDefault();
        event.stopPropagation();
        event.currentTarget.setPointerCapture(event.pointerId);
        start.current = { x: event.clientX, width: widthOf(event.currentTarget), moved: false };
      }}
      onPointerMove={(event) => {
        if (!start.current) return;
        start.current.moved = true;
        onDrag(dragged(event));
      }}
      onPointerUp={(event) => {
        if (!start.current) return;
        const width = dragged(event);
        const moved = start.current.moved;
        start.current = null;
        onDrag(null);
        if (moved) onResize(width);
      }}
      onPointerCancel={() => {
        start.current = null;
        onDrag(null);
      }}
      onKeyDown={(event) => {
        if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
        event.preventDefault();
        event.stopPropagation();
        const step = (event.shiftKey ? 4 : 1) * STEP * (event.key === 'ArrowLeft' ? -1 : 1);
        onResize(Math.max(MIN_COLUMN_WIDTH, widthOf(event.currentTarget) + step));
      }}
    />
  );
}
