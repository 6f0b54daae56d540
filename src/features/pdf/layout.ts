/**
 * How a scope of pages is laid out in a PDF: a pure walk over GitBook JSON documents that turns each block into
 * PDFKit calls. It reads nothing and writes nowhere but the PDFKit document it is given (the caller streams it),
 * so a page's images come with the page as bytes.
 *
 * The PDF: a title page with the site's (or space's) title and a table of contents whose entries link to the
 * pages; then every page in tree order, its title a link target and a bookmark; headings, paragraphs with their
 * marks and links, lists, code blocks on a tinted background in a monospace font, tables, images (PNG and
 * JPEG), hints and quotes with a coloured bar; a page number at the foot of every PDF page.
 */

type Doc = PDFKit.PDFDocument;
type Node = Record<string, unknown>;

export interface PdfFonts {
  regular: string;
  bold: string;
  italic: string;
  boldItalic: string;
  mono: string;
}

/** The standard PDF fonts: every reader has them, Latin-1 only. */
export const STANDARD_FONTS: PdfFonts = { regular: 'Helvetica', bold: 'Helvetica-Bold', italic: 'Helvetica-Oblique', boldItalic: 'Helvetica-BoldOblique', mono: 'Courier' };

export interface TocEntry {
  id: string;
  title: string;
  /** 0 for a root page. */
  depth: number;
}

export interface LayoutPage extends TocEntry {
  description?: string | undefined;
  /** The page's JSON document; undefined for an empty or group page. */
  document: unknown;
  /** PNG or JPEG bytes of the files its images show, by file id. */
  images: ReadonlyMap<string, Buffer>;
}

export interface LayoutOptions {
  title: string;
  subtitle?: string | undefined;
  /** The standard PDF fonts by default. */
  fonts: PdfFonts;
  /** Fonts for texts the standard fonts cannot show (beyond Latin-1): DejaVu, the machine's or the bundled one. */
  unicode?: PdfFonts | undefined;
  /** A font for Chinese, Japanese and Korean text (DejaVu has none), when the machine has one. */
  cjk?: string | undefined;
  /** Ids of the pages in this PDF: links to them jump inside the document. */
  pagesInPdf: ReadonlySet<string>;
  /** File id -> name, for file blocks and images that cannot be drawn. */
  fileNames: ReadonlyMap<string, string>;
  /**
   * Whether an `if` block's condition holds for whoever the PDF is for (a site's visitor). Without it, every
   * branch is printed, as members see them in the editor.
   */
  evaluateCondition?: ((condition: string) => boolean) | undefined;
}

/** Characters outside what the standard PDF fonts encode (WinAnsi: Latin-1 and a few typographic marks). */
const NOT_WIN_ANSI = /[^\t\n\r\x20-\x7e\xa0-\xff\u2013\u2014\u2018\u2019\u201a\u201c\u201d\u201e\u2020\u2021\u2022\u2026\u2030\u2039\u203a\u20ac\u2122\u0152\u0153\u0160\u0161\u0178\u017d\u017e\u0192\u02c6\u02dc]/;

/** Han, kana, Hangul and CJK punctuation: what DejaVu lacks and a CJK font draws. */
const CJK_CHARACTERS = '\\u2e80-\\u2fdf\\u3000-\\u30ff\\u3100-\\u31ff\\u3400-\\u4dbf\\u4e00-\\u9fff\\uac00-\\ud7af\\uf900-\\ufaff\\uff00-\\uffef';
const CJK = new RegExp(`[${CJK_CHARACTERS}]`);
/** Splits a text into CJK and other spans, keeping both (the group). */
const CJK_SPANS = new RegExp(`([${CJK_CHARACTERS}]+)`);

const COLORS = { text: '#1f2328', muted: '#59636e', link: '#0969da', codeBg: '#f3f4f6', border: '#d0d7de', info: '#0969da', warning: '#bf8700', danger: '#cf222e', success: '#1a7f37' };
/** The layout's page: A4 with the same margin on every side, in points (the caller creates the document so). */
export const PAGE_MARGIN = 56;
const A4_WIDTH = 595.28;
const BODY_SIZE = 10.5;
const CODE_SIZE = 8.5;
const MAX_DEPTH = 100;

/** A named destination for a page's title: letters and digits only, as every PDF viewer accepts. */
export function pageDestination(pageId: string): string {
  return `page-${pageId.replace(/[^A-Za-z0-9_-]/g, '_')}`;
}

interface Run {
  text: string;
  bold: boolean;
  italic: boolean;
  code: boolean;
  link?: { url: string } | { goTo: string };
}

export class PdfLayout {
  private readonly left: number;
  private readonly width: number;
  private pageNumber = 0;

  constructor(
    private readonly doc: Doc,
    private readonly options: LayoutOptions,
  ) {
    this.left = PAGE_MARGIN;
    this.width = A4_WIDTH - 2 * PAGE_MARGIN;
    doc.on('pageAdded', () => this.footer());
  }

  /**
   * The font for a text: the standard PDF fonts (fast, Latin-1) unless the text has characters they lack and
   * a Unicode font was given. Most documentation is Latin script; laying it out with a TrueType font costs 4x.
   */
  private fontFor(kind: keyof PdfFonts, text: string | undefined): string {
    const { unicode, cjk } = this.options;
    if (text === undefined || !NOT_WIN_ANSI.test(text)) return this.options.fonts[kind];
    // Body text is split so that CJK reaches this font alone (runs()): some CJK fonts have no Latin letters.
    if (cjk && CJK.test(text)) return cjk;
    return unicode ? unicode[kind] : this.options.fonts[kind];
  }

  /** The page number at the foot of each PDF page, written in the bottom margin without moving the cursor. */
  private footer(): void {
    const doc = this.doc;
    this.pageNumber += 1;
    const { x, y } = doc;
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc
      .font(this.fontFor('regular', this.options.title))
      .fontSize(8)
      .fillColor(COLORS.muted)
      .text(`${this.options.title} — ${this.pageNumber}`, this.left, doc.page.height - bottom / 2 - 4, { width: this.width, align: 'center', lineBreak: false });
    doc.page.margins.bottom = bottom;
    doc.x = x;
    doc.y = y;
    doc.fillColor(COLORS.text).font(this.options.fonts.regular).fontSize(BODY_SIZE);
  }

  /** The title page and the table of contents, each entry a link to its page. */
  titlePage(toc: readonly TocEntry[]): void {
    const doc = this.doc;
    const { fonts } = this.options;
    doc.addPage();
    doc.font(this.fontFor('bold', this.options.title)).fontSize(26).fillColor(COLORS.text).text(this.options.title, this.left, 150, { width: this.width });
    if (this.options.subtitle) doc.moveDown(0.5).font(this.fontFor('regular', this.options.subtitle)).fontSize(13).fillColor(COLORS.muted).text(this.options.subtitle, { width: this.width });
    doc.moveDown(2).font(fonts.bold).fontSize(16).fillColor(COLORS.text).text('Contents', this.left, undefined, { width: this.width });
    doc.moveDown(0.5);
    for (const entry of toc) {
      const indent = Math.min(entry.depth, 6) * 14;
      doc
        .font(this.fontFor(entry.depth === 0 ? 'bold' : 'regular', entry.title))
        .fontSize(BODY_SIZE)
        .fillColor(COLORS.link)
        .text(entry.title, this.left + indent, undefined, { width: this.width - indent, goTo: pageDestination(entry.id) });
    }
    doc.fillColor(COLORS.text);
  }

  /** One page of content, starting on a new PDF page. */
  page(page: LayoutPage): void {
    const doc = this.doc;
    doc.addPage();
    doc.outline.addItem(page.title);
    doc.font(this.fontFor('bold', page.title)).fontSize(22).fillColor(COLORS.text).text(page.title, this.left, undefined, { width: this.width, destination: pageDestination(page.id) });
    if (page.description) doc.moveDown(0.2).font(this.fontFor('regular', page.description)).fontSize(12).fillColor(COLORS.muted).text(page.description, { width: this.width });
    doc.moveDown(0.6).fillColor(COLORS.text);
    const nodes = (page.document as { nodes?: unknown } | undefined)?.nodes;
    if (Array.isArray(nodes)) this.blocks(nodes, 0, page, 0);
  }

  /** A closing note (what was left out of a bounded export). */
  note(text: string): void {
    this.doc.addPage();
    this.doc.font(this.fontFor('italic', text)).fontSize(BODY_SIZE).fillColor(COLORS.muted).text(text, this.left, undefined, { width: this.width });
  }

  private blocks(nodes: readonly unknown[], indent: number, page: LayoutPage, depth: number): void {
    if (depth > MAX_DEPTH) return;
    for (const node of nodes) {
      if (!isNode(node)) continue;
      try {
        this.block(node, indent, page, depth + 1);
      } catch {
        // A block PDFKit cannot lay out (odd data in a stored document) is left out, not the whole PDF: the
        // text state of a half-written paragraph is reset so the next block starts clean.
        const state = this.doc as unknown as { _wrapper: unknown; _textOptions: unknown };
        state._wrapper = null;
        state._textOptions = null;
        this.doc.x = this.left;
      }
    }
  }

  private block(node: Node, nesting: number, page: LayoutPage, depth: number): void {
    const doc = this.doc;
    // Deeply nested blocks stop moving right: text keeps at least half of the line.
    const indent = Math.min(nesting, this.width / 2);
    const { fonts } = this.options;
    const children = Array.isArray(node.nodes) ? (node.nodes as unknown[]) : [];
    const data = isNode(node.data) ? node.data : {};
    switch (node.type) {
      case 'heading-1':
      case 'heading-2':
      case 'heading-3': {
        const size = node.type === 'heading-1' ? 17 : node.type === 'heading-2' ? 14.5 : 12.5;
        doc.moveDown(0.6);
        this.inline(children, indent, { size, bold: true });
        doc.moveDown(0.3);
        return;
      }
      case 'paragraph':
        this.inline(children, indent, { size: BODY_SIZE });
        doc.moveDown(0.5);
        return;
      case 'list-ordered':
      case 'list-unordered':
      case 'list-tasks': {
        let number = typeof data.start === 'number' ? data.start : 1;
        for (const item of children) {
          if (!isNode(item)) continue;
          const itemData = isNode(item.data) ? item.data : {};
          const marker = node.type === 'list-ordered' ? `${number++}.` : node.type === 'list-tasks' ? (itemData.checked === true ? '[x]' : '[ ]') : '•';
          const y = doc.y;
          doc.font(fonts.regular).fontSize(BODY_SIZE).fillColor(COLORS.text).text(marker, this.left + indent, y, { width: 22, lineBreak: false });
          doc.y = y;
          const itemChildren = Array.isArray(item.nodes) ? (item.nodes as unknown[]) : [];
          this.blocks(itemChildren, indent + 22, page, depth);
        }
        doc.moveDown(0.2);
        return;
      }
      case 'code':
        this.code(node, indent);
        return;
      case 'hint':
      case 'blockquote': {
        const style = typeof data.style === 'string' ? data.style : 'info';
        const color = node.type === 'hint' ? (COLORS[style as keyof typeof COLORS] ?? COLORS.info) : COLORS.border;
        const startPage = this.pageNumber;
        const top = doc.y;
        if (node.type === 'hint') {
          doc.font(fonts.bold).fontSize(BODY_SIZE).fillColor(color).text(HINT_LABELS[style] ?? 'Note', this.left + indent + 12, top, { width: this.width - indent - 12 });
          doc.fillColor(COLORS.text);
        }
        this.blocks(children, indent + 12, page, depth);
        // The bar beside the block, when it stayed on one PDF page.
        if (this.pageNumber === startPage) doc.save().rect(this.left + indent, top, 3, Math.max(doc.y - top - 4, 8)).fill(color).restore();
        doc.moveDown(0.3);
        return;
      }
      case 'divider':
        doc.moveDown(0.3).save().moveTo(this.left + indent, doc.y).lineTo(this.left + this.width, doc.y).lineWidth(0.5).strokeColor(COLORS.border).stroke().restore();
        doc.moveDown(0.8);
        return;
      case 'images':
        for (const image of children) if (isNode(image)) this.image(image, indent, page);
        return;
      case 'image':
        this.image(node, indent, page);
        return;
      case 'table':
        this.table(node, indent, page, depth);
        return;
      case 'tabs':
        for (const tab of children) {
          if (!isNode(tab)) continue;
          const title = isNode(tab.data) && typeof tab.data.title === 'string' ? tab.data.title : 'Tab';
          doc.font(this.fontFor('bold', title)).fontSize(BODY_SIZE).fillColor(COLORS.text).text(title, this.left + indent, undefined, { width: this.width - indent });
          doc.moveDown(0.2);
          this.blocks(Array.isArray(tab.nodes) ? (tab.nodes as unknown[]) : [], indent + 10, page, depth);
        }
        return;
      case 'expandable':
      case 'stepper':
      case 'stepper-step':
      case 'columns':
      case 'column':
      case 'reusable-content':
        for (const fragment of Array.isArray(node.fragments) ? (node.fragments as unknown[]) : []) {
          if (!isNode(fragment) || !Array.isArray(fragment.nodes)) continue;
          this.blocks(fragment.nodes as unknown[], indent, page, depth);
        }
        this.blocks(children, indent, page, depth);
        return;
      case 'if': {
        // The spec names the condition `expression`; older documents wrote `condition`.
        const condition = typeof data.expression === 'string' ? data.expression : typeof data.condition === 'string' ? data.condition : '';
        const evaluate = this.options.evaluateCondition;
        if (!evaluate || (condition !== '' && evaluate(condition))) this.blocks(children, indent, page, depth);
        return;
      }
      case 'embed':
        if (typeof data.url === 'string') this.plainLink(data.url, { url: data.url }, indent);
        return;
      case 'file': {
        const ref = isNode(data.ref) ? data.ref : {};
        const name = typeof ref.file === 'string' ? (this.options.fileNames.get(ref.file) ?? ref.file) : 'file';
        this.plainLink(`File: ${name}`, undefined, indent);
        return;
      }
      case 'content-ref': {
        const link = this.linkOf(data.ref);
        this.plainLink(link && 'url' in link ? link.url : 'Linked content', link, indent);
        return;
      }
      case 'math':
        if (typeof data.formula === 'string') this.monoLines([data.formula], indent);
        return;
      default:
        // Blocks without printable text (drawings, integrations, OpenAPI blocks) are left out; unknown
        // containers still show their text.
        if (children.length > 0 && node.type !== 'openapi' && node.type !== 'integration') this.blocks(children, indent, page, depth);
    }
  }

  private plainLink(text: string, link: Run['link'], indent: number): void {
    this.runs([{ text, bold: false, italic: false, code: false, ...(link ? { link } : {}) }], indent, { size: BODY_SIZE });
    this.doc.moveDown(0.5);
  }

  private linkOf(ref: unknown): Run['link'] {
    if (!isNode(ref)) return undefined;
    if (ref.kind === 'url' && typeof ref.url === 'string' && /^(https?|mailto):/i.test(ref.url)) return { url: ref.url };
    if ((ref.kind === 'page' || ref.kind === 'anchor') && typeof ref.page === 'string' && ref.space === undefined && this.options.pagesInPdf.has(ref.page)) {
      return { goTo: pageDestination(ref.page) };
    }
    return undefined;
  }

  /** Text runs of inline content: leaves with their marks, links, inline images as their alt text. */
  private runsOf(nodes: readonly unknown[], inherited: Pick<Run, 'link'> = {}, depth = 0): Run[] {
    const runs: Run[] = [];
    if (depth > MAX_DEPTH) return runs;
    for (const node of nodes) {
      if (!isNode(node)) continue;
      if (node.object === 'text' && Array.isArray(node.leaves)) {
        for (const leaf of node.leaves as unknown[]) {
          if (!isNode(leaf) || typeof leaf.text !== 'string' || leaf.text === '') continue;
          const marks = new Set((Array.isArray(leaf.marks) ? (leaf.marks as Node[]) : []).map((m) => m.type));
          runs.push({ text: leaf.text, bold: marks.has('bold'), italic: marks.has('italic'), code: marks.has('code') || marks.has('keyboard'), ...inherited });
        }
      } else if (node.type === 'link' && Array.isArray(node.nodes)) {
        const link = this.linkOf(isNode(node.data) ? node.data.ref : undefined);
        runs.push(...this.runsOf(node.nodes as unknown[], link ? { link } : {}, depth + 1));
      } else if (node.type === 'inline-image' && isNode(node.data)) {
        const alt = typeof node.data.alt === 'string' ? node.data.alt : typeof node.data.caption === 'string' ? node.data.caption : '';
        if (alt) runs.push({ text: `[${alt}]`, bold: false, italic: true, code: false });
      } else if (node.type === 'emoji' && isNode(node.data) && typeof node.data.code === 'string') {
        // Emoji have no glyph in the PDF fonts.
        continue;
      } else if (Array.isArray(node.nodes)) {
        runs.push(...this.runsOf(node.nodes as unknown[], inherited, depth + 1));
      }
    }
    return runs;
  }

  private inline(nodes: readonly unknown[], indent: number, style: { size: number; bold?: boolean }): void {
    const runs = this.runsOf(nodes);
    if (runs.length === 0) return;
    this.runs(style.bold ? runs.map((r) => ({ ...r, bold: true })) : runs, indent, style);
  }

  private runs(given: readonly Run[], indent: number, style: { size: number }): void {
    const doc = this.doc;
    doc.x = this.left + indent;
    const runs = this.options.cjk ? given.flatMap((run) => (CJK.test(run.text) ? run.text.split(CJK_SPANS).filter(Boolean).map((text) => ({ ...run, text })) : [run])) : given;
    runs.forEach((run, i) => {
      const font = this.fontFor(run.code ? 'mono' : run.bold && run.italic ? 'boldItalic' : run.bold ? 'bold' : run.italic ? 'italic' : 'regular', run.text);
      doc
        .font(font)
        .fontSize(run.code ? style.size - 1 : style.size)
        .fillColor(run.link ? COLORS.link : COLORS.text)
        .text(printable(run.text), {
          width: this.width - indent,
          continued: i < runs.length - 1,
          link: run.link && 'url' in run.link ? run.link.url : null,
          goTo: run.link && 'goTo' in run.link ? run.link.goTo : null,
          underline: run.link !== undefined,
          lineGap: 2,
        } as PDFKit.Mixins.TextOptions);
    });
    doc.fillColor(COLORS.text);
  }

  private code(node: Node, indent: number): void {
    const lines: string[] = [];
    for (const line of Array.isArray(node.nodes) ? (node.nodes as unknown[]) : []) {
      if (!isNode(line)) continue;
      lines.push(this.runsOf(Array.isArray(line.nodes) ? (line.nodes as unknown[]) : []).map((r) => r.text).join(''));
    }
    const title = isNode(node.data) && typeof node.data.title === 'string' ? node.data.title : undefined;
    if (title) this.doc.font(this.fontFor('bold', title)).fontSize(CODE_SIZE + 0.5).fillColor(COLORS.muted).text(title, this.left + indent, undefined, { width: this.width - indent });
    this.monoLines(lines, indent);
  }

  /** Code lines on a tinted background, line by line so a long block breaks across PDF pages. */
  private monoLines(lines: readonly string[], indent: number): void {
    const doc = this.doc;
    const x = this.left + indent;
    const width = this.width - indent;
    doc.font(this.options.fonts.mono).fontSize(CODE_SIZE);
    doc.y += 4;
    for (const line of lines) {
      const text = printable(line.replace(/\t/g, '  ')) || ' ';
      doc.font(this.fontFor('mono', text)).fontSize(CODE_SIZE);
      const height = doc.heightOfString(text, { width: width - 12 }) + 2;
      if (doc.y + height > doc.page.height - doc.page.margins.bottom) doc.addPage();
      const y = doc.y;
      doc.save().rect(x, y - 1, width, height).fill(COLORS.codeBg).restore();
      doc.fillColor(COLORS.text).text(text, x + 6, y, { width: width - 12, lineGap: 2 });
      doc.y = y + height;
    }
    doc.x = this.left;
    doc.y += 8;
  }

  private image(node: Node, indent: number, page: LayoutPage): void {
    const doc = this.doc;
    const data = isNode(node.data) ? node.data : {};
    const ref = isNode(data.ref) ? data.ref : {};
    const alt = typeof data.alt === 'string' ? data.alt : '';
    const bytes = ref.kind === 'file' && typeof ref.file === 'string' ? page.images.get(ref.file) : undefined;
    if (bytes) {
      try {
        const maxHeight = 320;
        if (doc.y + 60 > doc.page.height - doc.page.margins.bottom) doc.addPage();
        const opened = (doc as unknown as { openImage(src: Buffer): { width: number; height: number } }).openImage(bytes);
        const scale = Math.min(1, (this.width - indent) / opened.width, maxHeight / opened.height);
        const height = opened.height * scale;
        if (doc.y + height > doc.page.height - doc.page.margins.bottom) doc.addPage();
        const y = doc.y;
        doc.image(opened as never, this.left + indent, y, { width: opened.width * scale, height });
        doc.x = this.left;
        doc.y = y + height + 4;
      } catch {
        this.imagePlaceholder(alt || this.options.fileNames.get(String(ref.file)) || 'image', indent);
        return;
      }
      if (alt) doc.font(this.fontFor('italic', alt)).fontSize(BODY_SIZE - 1.5).fillColor(COLORS.muted).text(printable(alt), this.left + indent, undefined, { width: this.width - indent });
      doc.fillColor(COLORS.text).moveDown(0.5);
      return;
    }
    const name = ref.kind === 'file' && typeof ref.file === 'string' ? this.options.fileNames.get(ref.file) : ref.kind === 'url' ? String(ref.url) : undefined;
    this.imagePlaceholder(alt || name || 'image', indent);
  }

  private imagePlaceholder(label: string, indent: number): void {
    this.doc.font(this.fontFor('italic', label)).fontSize(BODY_SIZE).fillColor(COLORS.muted).text(`[Image: ${printable(label)}]`, this.left + indent, undefined, { width: this.width - indent });
    this.doc.fillColor(COLORS.text).moveDown(0.5);
  }

  private table(node: Node, indent: number, page: LayoutPage, depth: number): void {
    const doc = this.doc;
    const data = isNode(node.data) ? node.data : {};
    const definition = (isNode(data.definition) ? data.definition : {}) as Record<string, Node>;
    const view = isNode(data.view) ? data.view : {};
    const columns = (Array.isArray(view.columns) && view.columns.length > 0 ? (view.columns as string[]) : Object.keys(definition)).filter((id) => isNode(definition[id])).slice(0, 12);
    if (columns.length === 0) return;
    const records = Object.entries((isNode(data.records) ? data.records : {}) as Record<string, Node>)
      .filter(([, r]) => isNode(r))
      .sort(([idA, a], [idB, b]) => {
        const [oa, ob] = [String(a.orderIndex ?? ''), String(b.orderIndex ?? '')];
        return oa < ob ? -1 : oa > ob ? 1 : idA < idB ? -1 : 1;
      })
      .map(([, r]) => r);
    const fragments = new Map<string, Node>();
    for (const f of Array.isArray(node.fragments) ? (node.fragments as unknown[]) : []) if (isNode(f) && typeof f.fragment === 'string') fragments.set(f.fragment, f);
    const cellText = (column: Node, value: unknown): string => {
      if (value === undefined || value === null) return '';
      if (column.type === 'text' && typeof value === 'string') {
        const fragment = fragments.get(value);
        return fragment && Array.isArray(fragment.nodes) ? this.plainText(fragment.nodes as unknown[], depth) : '';
      }
      if (column.type === 'checkbox') return value === true ? 'Yes' : 'No';
      if (typeof value === 'string' || typeof value === 'number') return String(value);
      if (Array.isArray(value)) return value.filter((v) => typeof v === 'string').join(', ');
      if (isNode(value) && typeof value.url === 'string') return value.url;
      return '';
    };
    const header = columns.map((id) => printable(String(definition[id]!.title ?? '')));
    const rows = records.map((record) => columns.map((id) => printable(cellText(definition[id]!, isNode(record.values) ? record.values[id] : undefined))));
    const hideHeader = view.type === 'grid' && view.hideHeader === true;
    const allText = [...header, ...rows.flat()].join(' ');
    doc.font(this.fontFor('regular', allText)).fontSize(BODY_SIZE - 1).fillColor(COLORS.text);
    doc.x = this.left + indent;
    doc.table({
      data: hideHeader ? rows : [header, ...rows],
      maxWidth: this.width - indent,
      position: { x: this.left + indent },
      rowStyles: (i: number) => (i === 0 && !hideHeader ? { backgroundColor: COLORS.codeBg, font: { src: this.fontFor('bold', allText) } } : {}),
      defaultStyle: { border: 0.5, borderColor: COLORS.border, padding: 4 },
    } as never);
    doc.font(this.options.fonts.regular).fontSize(BODY_SIZE);
    doc.x = this.left;
    doc.moveDown(0.5);
    void page;
  }

  private plainText(nodes: readonly unknown[], depth: number): string {
    const parts: string[] = [];
    for (const node of nodes) {
      if (!isNode(node)) continue;
      if (node.object === 'block' && Array.isArray(node.nodes)) {
        const runs = this.runsOf(node.nodes as unknown[]);
        parts.push(runs.length > 0 ? runs.map((r) => r.text).join('') : depth < MAX_DEPTH ? this.plainText(node.nodes as unknown[], depth + 1) : '');
      }
    }
    return parts.filter((p) => p !== '').join('\n');
  }
}

const HINT_LABELS: Record<string, string> = { info: 'Info', warning: 'Warning', danger: 'Danger', success: 'Success' };

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Control characters have no glyph and can upset PDF viewers; they are dropped. */
function printable(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '');
}
