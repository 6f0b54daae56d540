import type { JSONContent } from '@tiptap/core';

/*
 * The rules of GitBook's layout blocks as the editor applies them (stepper, columns, updates; their JSON is
 * GitBook's, see @gitbook/api's DocumentBlockStepper, DocumentBlockColumns, DocumentBlockUpdates): what a new
 * step, column or update is, how many columns a block may have, how columns share the width, how an update's
 * tags are written. No DOM: nodes/layout.tsx draws them, nodes/layout-keys.ts gives Enter and Backspace.
 */

type Json = Record<string, unknown>;
const block = (type: string, data: Json = {}, extra: Json = {}): Json => ({ object: 'block', type, ...extra, data, nodes: [] });
const paragraph = (): JSONContent => ({ type: 'paragraph' });

/** Columns side by side: two is GitBook's usual layout, three the most the editor makes (its reader splits 12 ways). */
export const COLUMNS_MIN = 2;
export const COLUMNS_MAX = 3;
export const canAddColumn = (count: number) => count < COLUMNS_MAX;
export const canRemoveColumn = (count: number) => count > COLUMNS_MIN;

export const newStep = (): JSONContent => ({ type: 'stepperStep', attrs: { block: block('stepper-step') }, content: [paragraph()] });
export const newColumn = (): JSONContent => ({ type: 'column', attrs: { block: block('column') }, content: [paragraph()] });
export const newUpdate = (date: string): JSONContent => ({ type: 'update', attrs: { block: block('update', { date }) }, content: [paragraph()] });

export const newStepper = (): JSONContent => ({ type: 'stepper', attrs: { block: block('stepper') }, content: [newStep()] });
export const newColumns = (): JSONContent => ({ type: 'columns', attrs: { block: block('columns', {}, { isVoid: false }) }, content: [newColumn(), newColumn()] });
export const newUpdates = (date: string): JSONContent => ({ type: 'updates', attrs: { block: block('updates', { format: 'full' }) }, content: [newUpdate(date)] });

/**
 * The layout blocks GitBook does not let stand inside a step, a column or an update (the node unions of
 * @gitbook/api's DocumentBlockStepperStep, DocumentBlockColumn, DocumentBlockUpdate): no stepper in a step,
 * no columns in columns, no layout block in an update.
 */
const NOT_INSIDE: Record<string, readonly string[]> = {
  stepperStep: ['stepper', 'columns', 'updates'],
  column: ['columns', 'updates'],
  update: ['stepper', 'columns', 'updates'],
};

/** Whether a block (`stepper`, `columns`, `updates`) may be put where the caret's ancestors are these nodes. */
export const layoutFitsIn = (block: string, ancestors: readonly string[]): boolean => ancestors.every((ancestor) => !NOT_INSIDE[ancestor]?.includes(block));

/** A day as GitBook's updates write it (`2025-12-25`), in UTC like every timestamp of the API. */
export const dayOf = (now: Date): string => now.toISOString().slice(0, 10);

/** The day an update's date shows in a date field: GitBook's Timestamp may be a whole ISO time. */
export function updateDay(date: unknown): string {
  const day = typeof date === 'string' ? /^\d{4}-\d{2}-\d{2}/.exec(date) : null;
  return day ? day[0] : '';
}

interface TagRef { kind: 'tag'; tag: string; space?: string }

/** An update's tags as one line, `beta, api`: each is a ContentRefTag named by its slug. */
export function tagsText(tags: unknown): string {
  return (Array.isArray(tags) ? tags : [])
    .map((tag) => (tag && typeof tag === 'object' ? (tag as { tag?: unknown }).tag : undefined))
    .filter((tag): tag is string => typeof tag === 'string')
    .join(', ');
}

/** Tags from such a line; a tag already there keeps its reference (its `space`), so retyping the line loses nothing. */
export function tagsFromText(text: string, previous: unknown): TagRef[] | undefined {
  const known = new Map<string, TagRef>();
  for (const tag of Array.isArray(previous) ? (previous as TagRef[]) : []) if (tag && typeof tag.tag === 'string') known.set(tag.tag, tag);
  const slugs = [...new Set(text.split(',').map((slug) => slug.trim()).filter(Boolean))];
  return slugs.length === 0 ? undefined : slugs.map((slug) => known.get(slug) ?? { kind: 'tag', tag: slug });
}

/** A GitBook Length as a share of the row: only percentages count, as GitBook's reader reads them. */
const fractionOf = (width: unknown): number => {
  const length = width as { unit?: unknown; value?: unknown } | null;
  return length && typeof length === 'object' && length.unit === '%' && typeof length.value === 'number' && length.value > 0 ? length.value / 100 : 0;
};

/**
 * The grid tracks of columns of these widths, as GitBook's reader lays them out: a column without a width
 * shares what the others leave, and when the widths given leave nothing, every column gets an equal part.
 */
export function columnTracks(widths: readonly unknown[]): string {
  const shares = widths.map(fractionOf);
  const given = shares.reduce((sum, share) => sum + share, 0);
  const unset = shares.filter((share) => share === 0).length;
  const rest = unset > 0 && given < 1 ? (1 - given) / unset : 0;
  const filled = shares.map((share) => share || rest);
  if (filled.some((share) => share === 0)) return `repeat(${widths.length}, minmax(0, 1fr))`;
  return filled.map((share) => `minmax(0, ${Math.round(share * 1000) / 10}fr)`).join(' ');
}

/** A column's data without its width: adding or removing a column shares the row equally again. */
export function withoutWidth(data: Json | undefined): Json {
  const { width: _, ...rest } = data ?? {};
  return rest;
}
