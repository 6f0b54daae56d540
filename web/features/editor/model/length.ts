/*
 * An image's width as the document model keeps it (the spec's Length): a number of pixels, or
 * `{ value, unit: '%' }`, which markdown writes `width="300"` and `width="50%"`. Typed as text in the editor.
 */

export type Length = number | { value: number; unit: '%' };

/** The text a person edits for a width; '' for none. */
export function formatLength(width: unknown): string {
  if (typeof width === 'number' && Number.isFinite(width)) return String(width);
  if (width && typeof width === 'object' && typeof (width as { value?: unknown }).value === 'number') {
    const { value, unit } = width as { value: number; unit?: unknown };
    return unit === '%' ? `${value}%` : String(value);
  }
  return '';
}

/** What a typed width means: a Length, undefined for none (empty), or null when it is not a width. */
export function parseLength(typed: string): Length | undefined | null {
  const text = typed.trim().toLowerCase();
  if (text === '' || text === 'auto') return undefined;
  const match = /^(\d+(?:\.\d+)?)\s*(%|px)?$/.exec(text);
  if (!match) return null;
  const value = Number(match[1]);
  if (!(value > 0)) return null;
  if (match[2] === '%') return value <= 100 ? { value, unit: '%' } : null;
  return value;
}

/** The CSS width of a Length, for showing it in the editor. */
export function cssWidth(width: unknown): string | undefined {
  const text = formatLength(width);
  if (!text) return undefined;
  return text.endsWith('%') ? text : `${text}px`;
}
