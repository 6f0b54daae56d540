import type { BlockContent, Heading as MdHeading, ListItem as MdListItem, PhrasingContent, Root, RootContent, TableCell, TableRow } from 'mdast';
import { anchorHtml, buttonHtml, figureHtml, iconHtml, imgHtml, summaryHtml } from './html.ts';
import type { HtmlImage } from './html.ts';
import { contentRefLabel, formatTag } from './liquid-tags.ts';
import type { TagName } from './liquid-tags.ts';
import { serializeMarkdown, wrap } from './markdown-serializer.ts';
import { lines, NESTING_MARKS, nestMarks } from './nest-marks.ts';
import type { Atom, NestingMark } from './nest-marks.ts';
import { blockText, ifExpression, inlineText, keptCellSource, keptHeaderSource, keptSource, oneLine } from './nodes.ts';
import { phrasingHtml } from './cell-html.ts';
import { codeHtml, hasHighlightedLines } from './code-html.ts';
import type {
  Block, Code, ContentRef, Document, Fragment, Heading, Images, InlineContent, List, RefWriter, Table, TableValue, Text,
} from './types.ts';

/**
 * Writes a JSON document as GitBook-flavoured markdown (the form Git Sync writes: `{% hint %}`, `{% tabs %}`,
 * `<details>`, `<figure>`, GFM tables and task lists). Blocks markdown cannot express (math, OpenAPI, …) are
 * left out. The output is canonical: markdownToDocument reads it back to the same document, and writing that
 * document again gives the same markdown.
 */
export function documentToMarkdown(document: Document, refs: RefWriter): string {
  const writer = new Writer(refs);
  const root: Root = { type: 'root', children: writer.flow(document.nodes ?? [], 0) };
  return serializeMarkdown(root) + writer.footnoteDefinitions();
}

/** An annotation's note: the blocks of its `annotation-body` fragment. */
function annotationBody(node: InlineContent): Fragment['nodes'] {
  const fragments = (node as { fragments?: Fragment[] }).fragments ?? [];
  return fragments.find((f) => f.fragment === 'annotation-body')?.nodes ?? fragments[0]?.nodes ?? [];
}

// Deeper than this, containers are written as the plain text of their content: markdown parsers stop
// nesting somewhere (markdown-parser.ts), and the serializer recurses.
const MAX_DEPTH = 32;

/** The attributes of `{% prompt %}` in the order GitBook writes them. */
const PROMPT_ATTRIBUTES = ['description', 'icon', 'openInAIProviders', 'defaultExpanded'];
class Writer {
  constructor(private readonly refs: RefWriter) {}

  /** Annotations' notes, numbered in the order the page refers to them; one note written twice is one footnote. */
  private readonly footnotes: Fragment['nodes'][] = [];
  private readonly footnoteNumbers = new Map<string, number>();

  private footnote(body: Fragment['nodes']): number {
    const key = JSON.stringify(body, (name, value: unknown) => (name === 'key' || name === 'meta' ? undefined : value));
    let number = this.footnoteNumbers.get(key);
    if (number === undefined) {
      this.footnotes.push(body);
      number = this.footnotes.length;
      this.footnoteNumbers.set(key, number);
    }
    return number;
  }

  /**
   * GitBook writes annotations as footnotes: the marker after the annotated text, the note at the end of the
   * page, `[^1]: ` before its first line and its other lines indented under it. A note may refer to another.
   */
  footnoteDefinitions(): string {
    const written: string[] = [];
    for (let i = 0; i < this.footnotes.length; i++) {
      const body = serializeMarkdown({ type: 'root', children: this.flow(this.footnotes[i]!, 1) }).replace(/\n+$/, '');
      const lines = body.split('\n').map((line, at) => (at === 0 || line === '' ? line : `    ${line}`));
      written.push(`[^${i + 1}]:${lines[0] ? ` ${lines.join('\n')}` : lines.join('\n')}`);
    }
    return written.length > 0 ? `\n${written.join('\n\n')}\n` : '';
  }

  /**
   * A kept paragraph source with footnote markers: each marker, in order, numbered as the writer numbers the
   * paragraph's annotations; undefined when they do not pair up (the paragraph is then written from its content).
   */
  private sourceFootnotes(source: string, nodes: readonly InlineContent[]): string | undefined {
    const annotations = nodes.filter((node) => node.object === 'inline' && node.type === 'annotation');
    const markers = [...source.matchAll(/\[\^[^\]\s]+\]/g)];
    if (annotations.length === 0 && markers.length === 0) return source;
    if (annotations.length !== markers.length) return undefined;
    let at = 0;
    return source.replace(/\[\^[^\]\s]+\]/g, () => `[^${this.footnote(annotationBody(annotations[at++]!))}]`);
  }

  flow(blocks: readonly Block[], depth: number): RootContent[] {
    const out: RootContent[] = [];
    for (const block of blocks) {
      if (depth > MAX_DEPTH) {
        const value = blockText(block);
        if (value) out.push({ type: 'paragraph', children: [{ type: 'text', value }] });
        continue;
      }
      const node = this.block(block, depth);
      if (node) out.push(node);
    }
    return out;
  }

  private block(block: Block, depth: number): RootContent | null {
    switch (block.type) {
      case 'paragraph': {
        const kept = keptSource(block);
        const markdown = kept && !kept.html ? this.sourceFootnotes(kept.markdown, block.nodes) : kept?.markdown;
        const source = kept && markdown !== undefined ? { ...kept, markdown } : undefined;
        if (source) {
          return source.html ? { type: 'html', value: source.markdown } : { type: 'paragraph', children: [{ type: 'gitbookLiteral', value: source.markdown }] };
        }
        const children = withoutTrailingBreaks(this.phrasing(block.nodes));
        return children.length > 0 ? { type: 'paragraph', children } : null;
      }
      case 'heading-1':
      case 'heading-2':
      case 'heading-3': {
        // A heading GitBook wrote as HTML (`<h3 align="center">`, `<h4>` in a card) goes back as it was while unchanged.
        const kept = keptSource(block);
        if (kept?.html) return { type: 'html', value: kept.markdown };
        const heading: MdHeading = { type: 'heading', depth: markdownDepth(block), children: withoutTrailingBreaks(this.phrasing(block.nodes)) };
        if (block.data?.id) heading.children.push({ type: 'html', value: ` ${anchorHtml(block.data.id, block.meta?.anchor === 'id')}` });
        return heading;
      }
      case 'list-ordered':
      case 'list-unordered':
      case 'list-tasks':
        return this.list(block, depth);
      case 'divider':
        return { type: 'thematicBreak' };
      case 'blockquote':
        return { type: 'blockquote', children: this.flow(block.nodes, depth + 1) as BlockContent[] };
      case 'hint': {
        const style = block.data?.style ?? 'info';
        // The style as the file spelled it (`tip`, `Info`), while it still reads as the style the hint has.
        const kept = block.meta?.styleAs === style && typeof block.meta.style === 'string' ? block.meta.style : style;
        return wrap(formatTag('hint', { style: kept, icon: block.data?.icon }), formatTag('endhint'), this.flow(block.nodes, depth + 1));
      }
      case 'code':
        return this.code(block);
      case 'table': {
        // A table GitBook wrote as HTML (cards, rich cells) goes back as it was, unless it was edited.
        const source = keptSource(block);
        return source?.html ? { type: 'html', value: source.markdown } : this.table(block);
      }
      case 'images':
        return this.images(block);
      case 'tabs':
        return wrap(
          formatTag('tabs'),
          formatTag('endtabs'),
          (block.nodes ?? []).map((tab) =>
            wrap(formatTag('tab', { title: oneLine(tab.data?.title ?? ''), icon: tab.data?.icon }), formatTag('endtab'), this.flow(tab.nodes, depth + 1)),
          ),
        );
      case 'expandable': {
        const title = fragmentOf(block.fragments, 'expandable-title');
        const body = fragmentOf(block.fragments, 'expandable-body');
        const titleText = oneLine(title ? title.nodes.map(blockText).join(' ') : '');
        const only = title?.nodes.length === 1 && title.nodes[0]!.type === 'paragraph' ? keptSource(title.nodes[0]!) : undefined;
        const open = block.data?.defaultExpanded === true ? '<details open>' : '<details>';
        return wrap(`${open}\n\n${summaryHtml(titleText, only?.markdown)}`, '</details>', this.flow(body?.nodes ?? [], depth + 1), '\n\n');
      }
      case 'embed': {
        if (!block.data?.url) return null;
        const fullWidth = block.data.fullWidth === undefined ? undefined : String(block.data.fullWidth);
        const caption = fragmentOf(block.fragments, 'caption')?.nodes ?? [];
        // A caption read from the tag's attribute goes back there while it is one line of plain text.
        const only = caption.length === 1 && caption[0]!.type === 'paragraph' ? caption[0]!.nodes : undefined;
        const plain = only?.every((node) => node.object === 'text' && (node.leaves ?? []).every((l) => (l.marks ?? []).length === 0));
        if (block.meta?.captionAttribute === true && ((plain && only) || caption.length === 0)) {
          const text = only ? inlineText(only) : '';
          if (!/[\r\n]/.test(text)) return { type: 'html', value: formatTag('embed', { url: block.data.url, caption: text, fullWidth }) };
        }
        const tag = formatTag('embed', { url: block.data.url, fullWidth });
        return caption.length > 0 ? wrap(tag, formatTag('endembed'), this.flow(caption, depth + 1)) : { type: 'html', value: tag };
      }
      case 'file': {
        if (!block.data?.ref) return null;
        const tag = formatTag('file', { src: this.refs(block.data.ref, 'image') });
        const caption = fragmentOf(block.fragments, 'caption')?.nodes ?? [];
        return caption.length > 0 ? wrap(tag, formatTag('endfile'), this.flow(caption, depth + 1)) : { type: 'html', value: tag };
      }
      case 'content-ref': {
        if (!block.data?.ref) return null;
        const url = this.refs(block.data.ref, 'link');
        // GitBook writes a plain link between the tags, for renderers that do not know them, named by its last segment.
        // The text the file had is kept while the block points where it did.
        const kept = block.meta?.labelOf === url && typeof block.meta.label === 'string' ? block.meta.label : undefined;
        const name = kept ?? contentRefLabel(url);
        const link: PhrasingContent = { type: 'link', url, children: [{ type: 'text', value: name === '' ? url : name }] };
        return wrap(formatTag('content-ref', { url }), formatTag('endcontent-ref'), [{ type: 'paragraph', children: [link] }]);
      }
      default:
        return this.other(block as unknown as OtherBlock, depth);
    }
  }

  /** The blocks of the spec that Quire keeps without a TypeScript model of their own (types.ts, BlockOpaque). */
  private other(block: OtherBlock, depth: number): RootContent | null {
    const data = block.data ?? {};
    const children = (block.nodes ?? []) as OtherBlock[];
    const str = (value: unknown) => (typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : undefined);
    const items = (open: TagName, close: TagName, child: OtherBlock['type'], attributes: (item: OtherBlock) => Record<string, string | undefined>) =>
      children
        .filter((item) => item?.type === child)
        .map((item) => wrap(formatTag(open, attributes(item)), formatTag(close), this.flow((item.nodes ?? []) as Block[], depth + 2)));
    switch (block.type) {
      case 'stepper':
        return wrap(formatTag('stepper'), formatTag('endstepper'), items('step', 'endstep', 'stepper-step', (step) => ({ icon: str(step.data?.icon) })));
      case 'columns':
        return wrap(
          formatTag('columns', { fullWidth: str(data.fullWidth) }),
          formatTag('endcolumns'),
          items('column', 'endcolumn', 'column', (column) => ({ width: lengthText(column.data?.width), valign: str(column.data?.verticalAlignment) })),
        );
      case 'updates':
        return wrap(
          formatTag('updates', { format: str(data.format) }),
          formatTag('endupdates'),
          items('update', 'endupdate', 'update', (update) => ({ date: str(update.data?.date), tags: tagList(update.data?.tags) })),
        );
      case 'if':
        return wrap(formatTag('if', {}, oneLine(ifExpression(data))), formatTag('endif'), this.flow(children as unknown as Block[], depth + 1));
      case 'prompt': {
        // A stored document's keys are sorted; GitBook writes these in this order, then any others.
        const keys = [...PROMPT_ATTRIBUTES.filter((key) => key in data), ...Object.keys(data).filter((key) => !PROMPT_ATTRIBUTES.includes(key))];
        const attributes = Object.fromEntries(keys.map((key) => [key, str(data[key])]));
        return wrap(formatTag('prompt', attributes), formatTag('endprompt'), this.flow(children as unknown as Block[], depth + 1));
      }
      case 'math': {
        const formula = str(data.formula);
        return formula ? { type: 'html', value: `$$\n${formula.replace(/^\s*\$\$\s*$/gm, '')}\n$$` } : null;
      }
      case 'reusable-content': {
        const ref = data.ref as ContentRef | undefined;
        if (!ref || ref.kind !== 'reusable-content') return null;
        const path = this.refs(ref, 'link') || str(ref.reusableContent) || '';
        return path ? { type: 'html', value: formatTag('include', {}, path) } : null;
      }
      case 'swagger':
      case 'openapi-operation':
      case 'openapi-schemas':
      case 'openapi-webhook':
        return this.openapi(block);
      default:
        // Blocks markdown cannot carry (drawings, integrations, …), and list items or code lines out of place.
        return null;
    }
  }

  /** `{% openapi src path method %}` with the link GitBook writes between the tags; the others name a spec. */
  private openapi(block: OtherBlock): RootContent | null {
    const { ref, path, method, name, schemas, grouped, spec: _spec, ...rest } = block.data ?? {};
    const extra = Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, typeof value === 'object' ? undefined : String(value)]));
    const text = (value: unknown) => (value === undefined || value === null ? undefined : String(value));
    // The markdown a file had between the tags, while the block names what it named then.
    const kept = (of: string) => (block.meta?.bodyOf === of && typeof block.meta.body === 'string' ? block.meta.body : undefined);
    if (block.type === 'swagger') {
      const src = ref && typeof ref === 'object' ? this.refs(ref as ContentRef, 'image') : '';
      if (!src) return null;
      const body = kept(src);
      const link: PhrasingContent = { type: 'link', url: src, children: [{ type: 'text', value: src }] };
      return wrap(formatTag('openapi', { src, path: text(path), method: text(method), ...extra }), formatTag('endopenapi'), [
        body === undefined ? { type: 'paragraph', children: [link] } : { type: 'gitbookLiteral', value: body },
      ]);
    }
    const spec = ref && typeof ref === 'object' ? (ref as { spec?: unknown }).spec : undefined;
    if (typeof spec !== 'string' || !spec) return null;
    const body = kept(spec);
    const tag = block.type as 'openapi-operation' | 'openapi-schemas' | 'openapi-webhook';
    const attributes: Record<string, string | undefined> =
      tag === 'openapi-operation' ? { spec, path: text(path), method: text(method) }
      : tag === 'openapi-webhook' ? { spec, name: text(name), method: text(method) }
      : { spec, schemas: Array.isArray(schemas) ? schemas.join(',') : undefined, grouped: text(grouped) };
    const open = formatTag(tag, { ...attributes, ...extra });
    return body === undefined ? { type: 'html', value: open } : wrap(open, formatTag(`end${tag}`), [{ type: 'gitbookLiteral', value: body }]);
  }

  private list(block: List, depth: number): RootContent {
    const tasks = block.type === 'list-tasks';
    const start = block.type === 'list-ordered' && typeof block.data?.start === 'number' ? block.data.start : 1;
    return {
      type: 'list',
      ordered: block.type === 'list-ordered',
      start,
      spread: false,
      children: (block.nodes ?? []).map(
        (item): MdListItem => ({
          type: 'listItem',
          spread: false,
          checked: tasks ? item.data?.checked === true : null,
          children: this.flow(item.nodes ?? [], depth + 1) as BlockContent[],
        }),
      ),
    };
  }

  private code(block: Code): RootContent {
    // Highlighted lines can be said only in GitBook's HTML spelling of a code block (code-html.ts).
    if (hasHighlightedLines(block)) return { type: 'html', value: codeHtml(block) };
    const value = (block.nodes ?? [])
      .map((line) => (line.nodes ?? []).map((node) => (node.object === 'text' ? node.leaves.map((l) => l.text).join('') : '')).join(''))
      .join('\n');
    const code: RootContent = { type: 'code', lang: block.data?.syntax || null, value };
    const { title, overflow, lineNumbers, fullWidth, expandable } = block.data ?? {};
    if (title === undefined && overflow === undefined && lineNumbers === undefined && fullWidth === undefined && expandable === undefined) return code;
    const flag = (value: boolean | undefined) => (value === undefined ? undefined : String(value));
    const attributes = { title, overflow, lineNumbers: flag(lineNumbers), fullWidth: flag(fullWidth), expandable: flag(expandable) };
    return wrap(formatTag('code', attributes), formatTag('endcode'), [code]);
  }

  private images(block: Images): RootContent | null {
    const images: HtmlImage[] = (block.nodes ?? []).map((image) => {
      const html: HtmlImage = {
        src: this.refs(image.data.ref, 'image'),
        alt: oneLine(image.data.alt ?? ''),
        caption: oneLine((fragmentOf(image.fragments, 'caption')?.nodes ?? []).map(blockText).join(' ')),
      };
      const captionBlocks = fragmentOf(image.fragments, 'caption')?.nodes ?? [];
      const captionHtml = captionBlocks.length === 1 && captionBlocks[0]!.type === 'paragraph' ? keptSource(captionBlocks[0]!) : undefined;
      if (captionHtml && !captionHtml.html) html.captionHtml = captionHtml.markdown;
      if (image.data.refDark) html.dark = this.refs(image.data.refDark, 'image');
      const width = image.data.width as { value?: unknown; unit?: unknown } | number | undefined;
      if (typeof width === 'number') html.width = width;
      else if (width && typeof width.value === 'number' && width.unit === '%') html.width = { value: width.value, unit: '%' };
      return html;
    });
    const only = images[0];
    const plain = only && !only.caption && !only.dark && only.width === undefined;
    if (images.length === 1 && plain && !block.data?.align && !block.data?.withFrame && block.data?.fullWidth === undefined) {
      return { type: 'paragraph', children: [{ type: 'image', url: only.src, alt: only.alt }] };
    }
    if (images.length === 0) return null;
    const fullWidth = block.data?.fullWidth;
    const attributes = [
      block.data?.align ? `align="${block.data.align}"` : '',
      fullWidth === undefined ? '' : `data-full-width="${fullWidth}"`,
      block.data?.withFrame ? 'data-with-frame="true"' : '',
    ].filter(Boolean);
    // Several images of one block are figures of one <div>, as GitBook writes them.
    if (attributes.length > 0 || images.length > 1) return { type: 'html', value: `<div${attributes.map((a) => ` ${a}`).join('')}>${images.map(figureHtml).join('')}</div>` };
    return { type: 'html', value: images.map(figureHtml).join('\n') };
  }

  private table(block: Table): RootContent | null {
    const { definition = {}, records = {}, view } = block.data ?? {};
    const columns = (view?.columns?.length ? view.columns : Object.keys(definition)).filter((id) => definition[id]);
    if (columns.length === 0) return null;
    const header: TableRow = {
      type: 'tableRow',
      children: columns.map((id): TableCell => ({ type: 'tableCell', children: keepEdgeWhitespace(cellText(definition[id]!.title)) })),
    };
    // Header cells written with markdown (`**Feature**`) go back as written while the table is unchanged.
    const kept = keptHeaderSource(block);
    if (kept && kept.length === columns.length) header.children = kept.map((raw): TableCell => ({ type: 'tableCell', children: raw ? [{ type: 'html', value: escapeCellPipes(raw) }] : [] }));
    // Cells name their fragments: one index, not a search of every fragment for every cell (issue 14).
    const fragments = new Map((block.fragments ?? []).map((f) => [f.fragment, f]));
    const rows = Object.entries(records)
      .sort(([idA, a], [idB, b]) => (a.orderIndex < b.orderIndex ? -1 : a.orderIndex > b.orderIndex ? 1 : idA < idB ? -1 : 1))
      .map(
        ([, record]): TableRow => ({
          type: 'tableRow',
          children: columns.map((id): TableCell => ({ type: 'tableCell', children: keepEdgeWhitespace(this.cell(fragments, definition[id]!.type, record.values?.[id], block)) })),
        }),
      );
    return {
      type: 'table',
      align: columns.map((id) => {
        const alignment = definition[id]!.textAlignment;
        return alignment === 'center' || alignment === 'right' ? alignment : null;
      }),
      children: [header, ...rows],
    };
  }

  private cell(fragments: Map<string, Fragment>, type: string, value: TableValue | undefined, table: Table): PhrasingContent[] {
    if (value === undefined || value === null) return [];
    switch (type) {
      case 'text': {
        const content = typeof value === 'string' ? fragments.get(value) : undefined;
        // The cell as it was written while it is unchanged; blocks a row's line cannot hold as GitBook writes them.
        const kept = content ? keptCellSource(table, content) : undefined;
        if (kept !== undefined) return [{ type: 'html', value: escapeCellPipes(kept) }];
        if (content && isRichCell(content)) return [{ type: 'html', value: content.nodes.map((node) => this.cellBlockHtml(node)).join('') }];
        const parts = (content?.nodes ?? []).map((node) =>
          node.type === 'paragraph' || node.type.startsWith('heading-') ? this.phrasing((node as { nodes: InlineContent[] }).nodes, true) : cellText(blockText(node)),
        );
        // A cell holds one line: its paragraphs are separated by line breaks.
        return parts.filter((p) => p.length > 0).flatMap((p, i) => (i > 0 ? [{ type: 'html', value: '<br><br>' } as PhrasingContent, ...p] : p));
      }
      case 'checkbox':
        return cellText(value === true ? '[x]' : '[ ]');
      case 'content-ref':
        if (typeof value === 'object' && !Array.isArray(value) && 'kind' in value) {
          const url = this.refs(value as ContentRef, 'link');
          return [{ type: 'link', url, children: [{ type: 'text', value: url }] }];
        }
        return [];
      default:
        return typeof value === 'number' || typeof value === 'string' ? cellText(String(value)) : [];
    }
  }

  /** A block of a rich cell as GitBook writes it in a row: `<p>…</p>`, `<ul><li>…</li></ul>`. */
  private cellBlockHtml(node: Fragment['nodes'][number]): string {
    if (node.type === 'paragraph' || node.type.startsWith('heading-')) return `<p>${phrasingHtml(this.phrasing((node as { nodes: InlineContent[] }).nodes, true))}</p>`;
    if (node.type === 'list-ordered' || node.type === 'list-unordered' || node.type === 'list-tasks') {
      const tag = node.type === 'list-ordered' ? 'ol' : 'ul';
      const items = ((node as List).nodes ?? []).map((item) => {
        const blocks = item.nodes ?? [];
        // An item of one paragraph is its text, as GitBook writes it; more blocks are each written.
        const only = blocks.length === 1 && blocks[0]!.type === 'paragraph' ? this.cellBlockHtml(blocks[0]!).slice(3, -4) : blocks.map((b) => this.cellBlockHtml(b)).join('');
        return `<li>${only}</li>`;
      });
      return `<${tag}>${items.join('')}</${tag}>`;
    }
    if (node.type === 'code') return `<p><code>${phrasingHtml([{ type: 'text', value: blockText(node) }])}</code></p>`;
    return `<p>${phrasingHtml([{ type: 'text', value: blockText(node) }])}</p>`;
  }

  /** Inline content as mdast phrasing: marks become nested strong/emphasis/delete, links and images nodes. */
  phrasing(nodes: readonly InlineContent[], inTable = false): PhrasingContent[] {
    const atoms: Atom[] = [];
    for (const node of nodes ?? []) {
      if (node.object === 'inline' && node.type === 'annotation') {
        const number = this.footnote(annotationBody(node));
        const texts = ((node as { nodes?: InlineContent[] }).nodes ?? []).filter((child) => child.object === 'text');
        // An annotation of its own number in superscript is a bare marker (to-document.ts).
        const leaves = texts.flatMap((t) => t.leaves ?? []).filter((l) => l.text !== '');
        const bare = leaves.length === 1 && leaves[0]!.text === String(number) && (leaves[0]!.marks ?? []).some((m) => m.type === 'superscript');
        if (!bare) atoms.push(...texts.flatMap((t) => textAtoms(t as Text)));
        atoms.push({ node: { type: 'gitbookLiteral', value: `[^${number}]` } });
        continue;
      }
      if (node.object === 'text') {
        atoms.push(...textAtoms(node));
      } else if (node.type === 'link') {
        // A link holds text and images, never another link (nor, so, a deep chain of them).
        const inner = (node.nodes ?? []).filter((child) => child.object === 'text' || child.type === 'inline-image');
        atoms.push({ node: { type: 'link', url: this.refs(node.data.ref, 'link'), children: this.phrasing(inner, inTable) } });
      } else if (node.type === 'inline-image') {
        // Always as HTML: `![]()` alone in a paragraph is read as an images block.
        const image: HtmlImage = { src: this.refs(node.data.ref, 'image'), alt: oneLine(node.data.alt ?? ''), caption: '' };
        if (node.data.refDark) image.dark = this.refs(node.data.refDark, 'image');
        if (node.data.size) image.size = node.data.size;
        atoms.push({ node: { type: 'html', value: imgHtml(image) } });
      } else if (node.type === 'button' && typeof (node.data as { label?: unknown } | undefined)?.label === 'string') {
        const data = node.data as { label: string; kind?: unknown; ref?: ContentRef; icon?: unknown };
        const href = data.ref ? this.refs(data.ref, 'link') : undefined;
        const style = data.kind === 'secondary' ? 'secondary' : 'primary';
        atoms.push({ node: { type: 'html', value: buttonHtml(oneLine(data.label), style, href, typeof data.icon === 'string' ? data.icon : undefined) } });
      } else if (node.type === 'inline-math' && typeof (node.data as { formula?: unknown } | undefined)?.formula === 'string') {
        const formula = (node.data as { formula: string }).formula.replace(/\s*[\r\n]+\s*/g, ' ').replace(/\$\$/g, '$ $');
        if (formula) atoms.push({ node: { type: 'gitbookLiteral', value: `$$${formula}$$` } });
      } else if (node.type === 'icon' && typeof (node.data as { icon?: unknown } | undefined)?.icon === 'string') {
        atoms.push({ node: { type: 'html', value: iconHtml((node.data as { icon: string }).icon) } });
      } else if (node.type === 'emoji' && typeof (node.data as { code?: unknown } | undefined)?.code === 'string') {
        const code = Number.parseInt((node.data as { code: string }).code, 16);
        if (Number.isInteger(code) && code > 0 && code <= 0x10ffff) atoms.push({ text: String.fromCodePoint(code), marks: [], code: false });
      }
    }
    return nestMarks(atoms, inTable);
  }
}

/** A text's leaves as atoms to nest: their marks, a colour mark by its colours. */
function textAtoms(node: Text): Atom[] {
  const atoms: Atom[] = [];
  for (const l of node.leaves ?? []) {
    if (!l.text) continue;
    const types = (l.marks ?? []).map((m) => m.type);
    const marks: NestingMark[] = NESTING_MARKS.filter((m) => m !== 'color' && types.includes(m));
    const color = (l.marks ?? []).find((m) => m.type === 'color')?.data as { text?: unknown; background?: unknown } | undefined;
    if (color) marks.push(`color:${typeof color.text === 'string' ? color.text : 'default'}:${typeof color.background === 'string' ? color.background : 'default'}`);
    atoms.push({ text: l.text, marks, code: types.includes('code') });
  }
  return atoms;
}

/** A line break that ends a paragraph means nothing in markdown (and `\\` would be read as text there). */
/**
 * A heading's markdown depth as GitBook's Git Sync writes it: heading 1, 2, 3 as `##`, `###`, `####` (the page
 * title is the `#`), or the depth it was read from when that was another (types.ts).
 */
function markdownDepth(block: Heading): MdHeading['depth'] {
  const level = block.data?.level;
  if (block.type === 'heading-1' && level === 1) return 1;
  if (block.type === 'heading-3' && (level === 5 || level === 6)) return level;
  return (Number(block.type.slice(-1)) + 1) as MdHeading['depth'];
}

function withoutTrailingBreaks(children: PhrasingContent[]): PhrasingContent[] {
  let end = children.length;
  while (end > 0 && children[end - 1]!.type === 'break') end -= 1;
  return children.slice(0, end);
}

interface OtherBlock { type: string; data?: Record<string, unknown>; meta?: Record<string, unknown>; nodes?: unknown[] }

/** A column width (the spec's Length) as GitBook writes it: `50%`, or a number. */
function lengthText(value: unknown): string | undefined {
  if (typeof value === 'number') return String(value);
  if (value && typeof value === 'object' && typeof (value as { value?: unknown }).value === 'number') {
    const { value: n, unit } = value as { value: number; unit?: unknown };
    return `${n}${typeof unit === 'string' ? unit : ''}`;
  }
  return undefined;
}

function tagList(value: unknown): string | undefined {
  if (!Array.isArray(value)) return undefined;
  const tags = value.map((t) => (t && typeof t === 'object' ? (t as { tag?: unknown }).tag : undefined)).filter((t): t is string => typeof t === 'string');
  return tags.length > 0 ? tags.join(',') : undefined;
}

function fragmentOf(fragments: readonly Fragment[] | undefined, name: string): Fragment | undefined {
  return (fragments ?? []).find((f) => f.fragment === name);
}

/** A cell whose blocks a row's one line of markdown cannot hold: several blocks, or one that is not text. */
function isRichCell(content: Fragment): boolean {
  const nodes = content.nodes ?? [];
  return nodes.length > 1 || (nodes.length === 1 && (nodes[0]!.type.startsWith('list-')));
}

function cellText(value: string): PhrasingContent[] {
  return value ? lines(value, true, (text) => ({ type: 'text', value: text })) : [];
}

/**
 * A table cell's markdown is trimmed when read, so spaces and tabs at either end of its text are written as
 * character references (`x&#x20;`), as the serializer already does at the end of a paragraph.
 */
function keepEdgeWhitespace(children: PhrasingContent[]): PhrasingContent[] {
  const reference = (whitespace: string): PhrasingContent => ({ type: 'html', value: [...whitespace].map((c) => `&#x${c.codePointAt(0)!.toString(16)};`).join('') });
  const isBlank = (c: string | undefined) => c === ' ' || c === '\t';
  const out = [...children];
  const first = out[0];
  if (first?.type === 'text') {
    // Counted, not matched: a regular expression for the trailing run backtracks quadratically on long runs.
    let start = 0;
    while (isBlank(first.value[start])) start += 1;
    if (start > 0) out.splice(0, 1, reference(first.value.slice(0, start)), ...(start < first.value.length ? [{ ...first, value: first.value.slice(start) }] : []));
  }
  const last = out[out.length - 1];
  if (last?.type === 'text') {
    let end = last.value.length;
    while (end > 0 && isBlank(last.value[end - 1])) end -= 1;
    if (end < last.value.length) out.splice(out.length - 1, 1, ...(end > 0 ? [{ ...last, value: last.value.slice(0, end) }] : []), reference(last.value.slice(end)));
  }
  return out;
}

/**
 * A cell's kept source as a row's line holds it. The table reader takes a cell's `\|` as a `|` of its text (in
 * code spans too), so every `|` in a kept source was written `\|`, and is again: unescaped, it would end the cell.
 */
function escapeCellPipes(source: string): string {
  return source.replaceAll('|', '\\|');
}
