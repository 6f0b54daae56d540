/*
 * A GitBook grid table's column widths (`view.columnWidths`), drawn alike by the reader and the editor, and set by
 * dragging a column's edge in the editor. GitBook stores them in two ways (@gitbook/api: TableViewGrid): shares of
 * the table's width, scaled to fill it (older tables), or exact pixels once `useNewSizing` is set (new tables).
 */

export interface GridSizing { type?: string; columns: string[]; columnWidths?: Record<string, number>; useNewSizing?: boolean }

/** The narrowest a column is dragged to: its title and a control still fit. */
export const MIN_COLUMN_WIDTH = 48;
/** A column a new-sizing table gives no width (GitBook's data may leave one out). */
export const DEFAULT_COLUMN_WIDTH = 200;

/** The CSS widths of a grid's columns and of the table, or null when it sets none (the browser sizes them). */
export function columnSizes(view: GridSizing, columns: readonly string[]): { columns: string[]; table: string } | null {
  const widths = view.columnWidths ?? {};
  const given = columns.map((id) => widths[id]).map((w) => (typeof w === 'number' && Number.isFinite(w) && w > 0 ? w : undefined));
  if (view.type === 'cards' || given.every((w) => w === undefined)) return null;
  if (view.useNewSizing === true) {
    const px = given.map((w) => Math.max(MIN_COLUMN_WIDTH, Math.round(w ?? DEFAULT_COLUMN_WIDTH)));
    return { columns: px.map((w) => `${w}px`), table: `${px.reduce((a, b) => a + b, 0)}px` };
  }
  // Shares: a column without one gets the others' mean, and together they fill the table.
  const known = given.filter((w): w is number => w !== undefined);
  const mean = known.reduce((a, b) => a + b, 0) / known.length;
  const shares = given.map((w) => w ?? mean);
  const total = shares.reduce((a, b) => a + b, 0);
  return { columns: shares.map((w) => `${Math.round((w / total) * 10000) / 100}%`), table: '100%' };
}

/**
 * The view once a column's edge is dragged to `width` px: every shown column keeps the width it is drawn at
 * (`measured`, px), and the table is in exact pixels from then on, as GitBook's new tables are. Widths of columns
 * not shown are kept as they are.
 */
export function resizeColumn<V extends GridSizing>(view: V, measured: Readonly<Record<string, number>>, id: string, width: number): V {
  const widths: Record<string, number> = { ...(view.columnWidths ?? {}) };
  for (const column of view.columns) {
    const drawn = measured[column];
    if (typeof drawn === 'number' && Number.isFinite(drawn)) widths[column] = Math.max(MIN_COLUMN_WIDTH, Math.round(drawn));
  }
  widths[id] = Math.max(MIN_COLUMN_WIDTH, Math.round(width));
  return { ...view, columnWidths: widths, useNewSizing: true };
}
