import { sha1 } from './digest.ts';
import type { Block, Fragment, Heading, Inline, InlineContent, Leaf, Mark, MarkType, Paragraph, Table, Text } from './types.ts';

export { blockText, inlineText, oneLine } from './text.ts';

/*
 * Building blocks shared by both directions, and the normal form of inline content that markdownToDocument
 * produces (the form Slate, and so GitBook, keeps documents in):
 * - a block's inline content alternates texts and inlines, starting and ending with a text (empty if need be);
 * - a text's leaves are non-empty and neighbours differ in marks; an empty text has one empty leaf;
 * - marks are listed in MARK_ORDER.
 */

export const MARK_ORDER: readonly MarkType[] = ['bold', 'italic', 'strikethrough', 'code', 'keyboard', 'superscript', 'subscript', 'color'];

export function mark(type: MarkType): Mark {
  return { object: 'mark', type };
}

/** A colour mark's data (the spec's DocumentMarkColor: a text and a background colour, `default` for none). */
export interface ColorData { text: string; background: string }

export function leaf(text: string, marks: readonly MarkType[] = [], color?: ColorData): Leaf {
  return {
    object: 'leaf',
    text,
    marks: sortMarks(marks).map((type) => (type === 'color' && color ? { object: 'mark', type, data: { text: color.text, background: color.background } } : mark(type))),
  };
}

function sortMarks(marks: readonly MarkType[]): MarkType[] {
  return [...new Set(marks)].sort((a, b) => MARK_ORDER.indexOf(a) - MARK_ORDER.indexOf(b));
}

export function text(leaves: Leaf[]): Text {
  return { object: 'text', leaves: leaves.length > 0 ? leaves : [leaf('')] };
}

export function paragraph(nodes: InlineContent[]): Paragraph {
  return { object: 'block', type: 'paragraph', data: {}, nodes: nodes.length > 0 ? nodes : [text([])] };
}

export function textParagraph(value: string): Paragraph {
  return paragraph([text(value ? [leaf(value)] : [])]);
}

export function fragment(name: string, nodes: Fragment['nodes'], type?: string): Fragment {
  return type === undefined ? { object: 'fragment', fragment: name, nodes } : { object: 'fragment', fragment: name, type, nodes };
}

/** A piece of inline content on its way to normal form. */
export type InlineSegment = { leaf: { text: string; marks: MarkType[]; color?: ColorData } } | { inline: Inline };

const sameMarks = (a: Leaf, b: Leaf) =>
  (a.marks ?? []).length === (b.marks ?? []).length &&
  (a.marks ?? []).every((m, i) => m.type === b.marks?.[i]?.type && JSON.stringify(m.data) === JSON.stringify(b.marks?.[i]?.data));

/** Puts segments into the normal form described above. */
export function inlineContent(segments: InlineSegment[]): InlineContent[] {
  const nodes: InlineContent[] = [];
  let leaves: Leaf[] = [];
  for (const segment of segments) {
    if ('inline' in segment) {
      nodes.push(text(leaves), segment.inline);
      leaves = [];
      continue;
    }
    if (segment.leaf.text === '') continue;
    const next = leaf(segment.leaf.text, segment.leaf.marks, segment.leaf.color);
    const last = leaves[leaves.length - 1];
    if (last && sameMarks(last, next)) last.text += next.text;
    else leaves.push(next);
  }
  nodes.push(text(leaves));
  return nodes;
}

/**
 * Markdown the document model cannot hold (HTML GitBook does not model, inline HTML of no mark or inline) is
 * kept with the paragraph that shows its text: `meta.markdown` is the source, `meta.digest` the digest of the
 * paragraph's content when it was read. The writer gives the source back while the content is unchanged, and
 * writes the (edited) content otherwise, so an edit is never undone by stale source.
 */
export interface SourceMeta { markdown: string; digest: string; html?: true }

/**
 * The digest of a block's content: everything but keys and meta (which hold no content). Object keys are
 * sorted first: a stored document is canonical JSON (sorted keys), and its blocks must digest as they did when
 * they were read from markdown.
 */
export function contentDigest(block: Block): string {
  const json = JSON.stringify(block, (name, value: unknown) => {
    if (name === 'key' || name === 'meta') return undefined;
    if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  });
  return sha1(json).slice(0, 16);
}

/** `html`: the source is an HTML block (written on lines of its own), not a paragraph's inline markdown. */
export function withSource<T extends Paragraph | Table | Heading>(block: T, markdown: string, html = false): T {
  block.meta = { ...block.meta, markdown, digest: contentDigest(block), ...(html ? { html: true } : {}) };
  return block;
}

/** The source kept with a block, when its content is still what it was read as. */
export function keptSource(block: Block): { markdown: string; html: boolean } | undefined {
  const meta = block.meta as Partial<SourceMeta> | undefined;
  if (typeof meta?.markdown !== 'string' || typeof meta.digest !== 'string') return undefined;
  return contentDigest(block) === meta.digest ? { markdown: meta.markdown, html: meta.html === true } : undefined;
}

/**
 * A GFM table's header cells as written, where one holds markdown a column title cannot (`**Feature**`): a
 * column's title is plain text in the document model. Kept like a paragraph's source (`meta.header`, with the
 * digest of the table when it was read) and written back while the table is unchanged.
 */
export function withHeaderSource(table: Table, cells: string[]): Table {
  table.meta = { ...table.meta, header: cells, headerDigest: contentDigest(table) };
  return table;
}

/** The header cells kept with a table, when its content is still what it was read as. */
export function keptHeaderSource(table: Table): string[] | undefined {
  const meta = table.meta as { header?: unknown; headerDigest?: unknown } | undefined;
  if (!Array.isArray(meta?.header) || typeof meta.headerDigest !== 'string') return undefined;
  if (!meta.header.every((cell) => typeof cell === 'string')) return undefined;
  return contentDigest(table) === meta.headerDigest ? (meta.header as string[]) : undefined;
}

/**
 * A GFM table cell's markdown as written, where it holds HTML (`<p>…</p><p>…</p>`, a `<div>`): kept per cell
 * (`meta.cells`, fragment name -> source and the digest of the cell's blocks when read) and written back while
 * the cell is unchanged, so HTML the blocks cannot hold is never flattened to their text.
 */
export function withCellSource(table: Table, fragment: Fragment, markdown: string): Table {
  const cells = { ...((table.meta?.cells as Record<string, unknown> | undefined) ?? {}) };
  cells[fragment.fragment] = { markdown, digest: contentDigest(fragment as unknown as Block) };
  table.meta = { ...table.meta, cells };
  return table;
}

/** The source kept for a cell's fragment, when its blocks are still what they were read as. */
export function keptCellSource(table: Table, fragment: Fragment): string | undefined {
  const kept = (table.meta?.cells as Record<string, Partial<SourceMeta>> | undefined)?.[fragment.fragment];
  if (typeof kept?.markdown !== 'string' || typeof kept.digest !== 'string') return undefined;
  return contentDigest(fragment as unknown as Block) === kept.digest ? kept.markdown : undefined;
}

/** The condition of an adaptive `if` block: the spec names it `expression`; documents stored before wrote `condition`. */
export function ifExpression(data: unknown): string {
  const { expression, condition } = (data ?? {}) as { expression?: unknown; condition?: unknown };
  return typeof expression === 'string' ? expression : typeof condition === 'string' ? condition : '';
}
