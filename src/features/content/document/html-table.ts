import { generateNKeysBetween } from 'fractional-indexing';
import { DomUtils, ElementType, parseDocument } from 'htmlparser2';
import { fragment } from './nodes.ts';
import type { FlowBlock, RefResolver, Table, TableDefinition, TableRecord, TableValue } from './types.ts';

/*
 * GitBook writes tables with rich cells, column types or a cards view as HTML:
 *   <table data-view="cards"><thead><tr><th>Topic</th><th data-card-target data-type="content-ref">…</th></tr></thead>
 *   <tbody><tr><td><strong>Free trial</strong></td><td><a href="free-trial.md">free-trial.md</a></td></tr></tbody></table>
 * Such a table becomes a table block (grid or cards, with text, content-ref and files columns); each text cell's
 * HTML is read as markdown by the caller (`cell`). The HTML itself is kept by the caller with the block, so a
 * table nobody edited is written back as it was (nodes.ts, withSource).
 */

type HtmlNode = ReturnType<typeof parseDocument>['children'][number];
type HtmlElement = Extract<HtmlNode, { attribs: Record<string, string> }>;
const isElement = (node: HtmlNode): node is HtmlElement => ElementType.isTag(node);
const children = (node: { children: HtmlNode[] }, name: string) => node.children.filter((c): c is HtmlElement => isElement(c) && c.name === name);

// `data-search` and `data-card-wrap` change nothing the document holds; the kept HTML writes them back.
const TABLE_ATTRIBUTES = new Set(['data-view', 'data-card-size', 'data-full-width', 'data-header-hidden', 'data-search', 'data-card-wrap']);
const COLUMN_TYPES = new Set(['text', 'content-ref', 'files', 'image', 'number', 'checkbox']);

/** A table block for a GitBook HTML table; null when the HTML is not one table of the shape GitBook writes. */
export function readHtmlTable(html: string, refs: RefResolver, cell: (markdown: string) => FlowBlock[]): Table | null {
  const nodes = parseDocument(html).children.filter((n) => !(n.type === ElementType.Text && DomUtils.textContent(n).trim() === ''));
  const table = nodes.length === 1 && isElement(nodes[0]!) && nodes[0].name === 'table' ? nodes[0] : null;
  if (!table || Object.keys(table.attribs).some((name) => !TABLE_ATTRIBUTES.has(name))) return null;
  const head = children(table, 'thead')[0];
  const body = children(table, 'tbody')[0];
  const headerRow = head ? children(head, 'tr')[0] : undefined;
  if (!headerRow) return null;
  const headers = children(headerRow, 'th');
  if (headers.length === 0) return null;

  const definition: Record<string, TableDefinition> = {};
  const visible: string[] = [];
  let target: string | undefined;
  let cover: string | undefined;
  const widths: Record<string, number> = {};
  headers.forEach((th, index) => {
    const id = `c${index + 1}`;
    const type = th.attribs['data-type'] ?? 'text';
    const column: TableDefinition = { id, title: DomUtils.textContent(th).replace(/\s+/g, ' ').trim(), type: (COLUMN_TYPES.has(type) ? type : 'text') as TableDefinition['type'] };
    if (column.type === 'text') column.textAlignment = 'left';
    definition[id] = column;
    if (th.attribs['data-card-target'] !== undefined) target = id;
    if (th.attribs['data-card-cover'] !== undefined) cover = id;
    if (th.attribs['data-hidden'] === undefined) visible.push(id);
    const width = Number(th.attribs.width);
    if (th.attribs.width && Number.isFinite(width)) widths[id] = width;
  });

  const rows = body ? children(body, 'tr') : [];
  const orderIndexes = rows.length > 0 ? generateNKeysBetween(null, null, rows.length) : [];
  const records: Record<string, TableRecord> = {};
  const fragments: Table['fragments'] = [];
  rows.forEach((row, rowIndex) => {
    const recordId = `r${rowIndex + 1}`;
    const cells = children(row, 'td');
    const values: Record<string, TableValue> = {};
    headers.forEach((_, columnIndex) => {
      const id = `c${columnIndex + 1}`;
      const td = cells[columnIndex];
      const inner = td ? td.children.map((c) => DomUtils.getOuterHTML(c, { decodeEntities: false })).join('') : '';
      const column = definition[id]!;
      const link = td ? DomUtils.findOne((e) => e.name === 'a' && e.attribs.href !== undefined, td.children) : null;
      if (column.type === 'content-ref') {
        if (link) values[id] = refs(link.attribs.href!, 'link');
      } else if (column.type === 'image') {
        // A card cover: a link to the image (or the image itself), a file of the space or a URL.
        const img = td ? DomUtils.findOne((e) => e.name === 'img' && e.attribs.src !== undefined, td.children) : null;
        const src = link?.attribs.href ?? img?.attribs.src;
        const ref = src ? refs(src, 'image') : undefined;
        if (ref && (ref.kind === 'file' || ref.kind === 'url')) values[id] = ref;
      } else if (column.type === 'files') {
        const ref = link ? refs(link.attribs.href!, 'image') : undefined;
        if (ref?.kind === 'file') values[id] = [ref.file];
      } else if (column.type === 'number') {
        const n = Number(DomUtils.textContent(td ?? []).trim());
        if (Number.isFinite(n) && DomUtils.textContent(td ?? []).trim() !== '') values[id] = n;
      } else if (column.type === 'checkbox') {
        values[id] = /checked|true|\[x\]/i.test(inner);
      } else {
        const name = `${recordId}-${id}`;
        fragments.push(fragment(name, cell(inner.trim())));
        values[id] = name;
      }
    });
    records[recordId] = { orderIndex: orderIndexes[rowIndex]!, values };
  });

  const view: Table['data']['view'] =
    table.attribs['data-view'] === 'cards'
      ? {
          type: 'cards',
          columns: visible,
          cardSize: table.attribs['data-card-size'] === 'large' ? 'large' : 'medium',
          ...(target ? { targetDefinition: target } : {}),
          ...(cover ? { coverDefinition: cover } : {}),
        }
      : {
          type: 'grid',
          columns: visible,
          hideHeader: table.attribs['data-header-hidden'] !== undefined,
          ...(Object.keys(widths).length > 0 ? { columnWidths: widths } : {}),
        };
  const block: Table = { object: 'block', type: 'table', isVoid: true, data: { view, records, definition }, fragments };
  if (table.attribs['data-full-width'] === 'true') block.data.fullWidth = true;
  return block;
}
