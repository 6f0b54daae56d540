import { generateNKeysBetween } from 'fractional-indexing';
import { htmlText, isHtmlComment, isPlaceholderTag, readImagesHtml, readInlineHtml, splitDetails, summaryHtml } from './html.ts';
import type { HtmlImage, InlineHtml } from './html.ts';
import { readHtmlTable } from './html-table.ts';
import { isCodeHtml, readCodeHtml } from './code-html.ts';
import { withoutUnsafeUrls } from './document-urls.ts';
import { keyDocument } from './keys.ts';
import { contentRefLabel, parseTagLine } from './liquid-tags.ts';
import type { TagLine } from './liquid-tags.ts';
import { parseMarkdown, unescapeMarkdown } from './markdown-parser.ts';
import type { Token } from './markdown-parser.ts';
import { fragment, inlineContent, inlineText, leaf, oneLine, paragraph, text, textParagraph, withCellSource, withHeaderSource, withSource } from './nodes.ts';
import { cellHtmlToMarkdown, isRichCellHtml, isWrittenCellHtml } from './cell-html.ts';
import type { ColorData, InlineSegment } from './nodes.ts';
import { pairItems, tokensText, tokenTree } from './token-tree.ts';
import type { Item, TokenNode } from './token-tree.ts';
import { HINT_STYLES } from './types.ts';
import type {
  Block, BlockOpaque, Code, ContentRef, ContentRefFile, ContentRefUrl, Document, Embed, FlowBlock, Fragment, Heading, Hint, Image, Images,
  InlineContent, InlineImage, Leaf, ListItem, MarkType, RefResolver, Table, TableDefinition, TableRecord, TabsItem,
} from './types.ts';

/**
 * Converts GitBook-flavoured markdown to a JSON document. Never throws on any markdown (unless `refs` does):
 * what it does not understand stays text, and a `{% tag %}` or `<details>` without its partner is a paragraph.
 * A URL a document may not hold (`javascript:`, document-urls.ts) is dropped, a link keeping its text, as
 * markdown-it leaves such a link as its text: an imported page is not refused for one link. Blocks get
 * deterministic keys (see keys.ts), so the same markdown always gives the same document.
 */
export function markdownToDocument(markdown: string, refs: RefResolver): Document {
  const env: Record<string, unknown> = {};
  const tokens = parseMarkdown(markdown, env);
  const reader = new Reader(refs, env, footnotesOf(tokens));
  const nodes = reader.flow(tokenTree(tokens)) as Document['nodes'];
  return keyDocument(withoutUnsafeUrls({ object: 'document', data: {}, nodes }));
}

const HEADING_ID = /^[-a-z0-9.+_]+$/;

// GitBook's Git Sync writes the page title `#`, heading 1 `##`, heading 2 `###` and heading 3 `####` (types.ts).
const headingType = (written: number): 1 | 2 | 3 => Math.min(Math.max(written - 1, 1), 3) as 1 | 2 | 3;
const headingLevel = (written: number): 1 | 5 | 6 | undefined => (written === 1 ? 1 : written >= 5 ? (Math.min(written, 6) as 5 | 6) : undefined);
const MAX_TAG_DEPTH = 64;
const MARKS_OF_TOKEN: Record<string, MarkType> = { strong: 'bold', em: 'italic', s: 'strikethrough' };

/** A page's footnotes: each definition's blocks by label (the first of a label), and the labels referenced. */
interface Footnotes {
  definitions: Map<string, TokenNode[]>;
  referenced: Set<string>;
  /** Labels by the order of their first reference: a footnote's number, as a reader sees it. */
  numbers: Map<string, number>;
  /** Definitions being read, so that one referring to itself (or round a cycle) is not read forever. */
  reading: Set<string>;
}

function footnotesOf(tokens: Token[]): Footnotes {
  const footnotes: Footnotes = { definitions: new Map(), referenced: new Set(), numbers: new Map(), reading: new Set() };
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    // A marker in a link's text stays text (Reader.inline): its definition is not read there.
    let inLink = 0;
    for (const child of token.children ?? []) {
      if (child.type === 'link_open' || child.type === 'link_close') inLink += child.type === 'link_open' ? 1 : -1;
      if (child.type !== 'footnote_ref' || inLink > 0) continue;
      const label = String(child.meta?.label);
      footnotes.referenced.add(label);
      if (!footnotes.numbers.has(label)) footnotes.numbers.set(label, footnotes.numbers.size + 1);
    }
    if (token.type !== 'footnote_open') continue;
    let depth = 1;
    let end = i + 1;
    for (; end < tokens.length && depth > 0; end++) depth += tokens[end]!.type === 'footnote_open' ? 1 : tokens[end]!.type === 'footnote_close' ? -1 : 0;
    const label = String(token.meta?.label);
    if (!footnotes.definitions.has(label)) footnotes.definitions.set(label, tokenTree(tokens.slice(i + 1, end - 1)));
  }
  return footnotes;
}

class Reader {
  constructor(
    private readonly refs: RefResolver,
    private readonly env: Record<string, unknown>,
    private readonly footnotes: Footnotes = footnotesOf([]),
  ) {}

  /** The blocks of a flow (the document, a quote, a list item, …). */
  flow(nodes: TokenNode[]): Block[] {
    const items = this.items(nodes);
    return this.group(items, pairItems(items), 0, items.length, null, 0);
  }

  private items(nodes: TokenNode[]): Item[] {
    const items: Item[] = [];
    for (const node of nodes) {
      const { token } = node;
      if (token.type === 'gitbook_tag') {
        items.push({ kind: 'tag', tag: token.meta as unknown as TagLine, raw: token.content.trim() });
        continue;
      }
      // An HTML block runs to the next blank line, while GitBook ends it at a tag line (`<figure>…</figure>`
      // right above `{% endcolumn %}`): such lines are taken out as tags, the HTML around them read again.
      // A code block in HTML (highlighted lines) is code: a line of it that looks like a tag or a marker is its text.
      if (token.type === 'html_block' && isCodeHtml(token.content)) {
        items.push({ kind: 'node', node });
        continue;
      }
      const tagged = token.type === 'html_block' ? splitTagLines(token.content) : null;
      if (tagged) {
        for (const piece of tagged) {
          if (typeof piece === 'string') for (const item of this.items(tokenTree(parseMarkdown(piece, this.env)))) items.push(item);
          else items.push(piece);
        }
        continue;
      }
      const pieces = token.type === 'html_block' ? splitDetails(token.content) : null;
      if (!pieces) {
        items.push({ kind: 'node', node });
        continue;
      }
      for (const piece of pieces) {
        if (piece.kind === 'markdown') {
          // Text around the markers holds no marker itself, so this recursion is one level deep.
          for (const item of this.items(tokenTree(parseMarkdown(piece.text, this.env)))) items.push(item);
        } else if (piece.kind === 'summary') {
          items.push({ kind: 'summary', title: piece.title, html: piece.html, raw: `<summary>${piece.title}</summary>` });
        } else {
          if (piece.kind === 'open') items.push({ kind: 'details-open', raw: '<details>', ...(piece.expanded ? { expanded: true } : {}) });
          else items.push({ kind: 'details-close', raw: '</details>' });
        }
      }
    }
    return items;
  }

  /**
   * The blocks of items[from, to): paired tags and <details> become containers of what lies between them.
   * Past MAX_TAG_DEPTH nested containers, tags are left as text (the walk recurses once per level).
   */
  private group(items: Item[], pairs: Map<number, number>, from: number, to: number, within: string | null, depth: number): Block[] {
    const blocks: Block[] = [];
    for (let i = from; i < to; i++) {
      const item = items[i]!;
      if (item.kind === 'node') {
        for (const block of this.block(item.node)) blocks.push(block);
        continue;
      }
      const close = pairs.get(i);
      const paired = close !== undefined && close < to && depth < MAX_TAG_DEPTH;
      if (item.kind === 'tag') {
        const { name, attributes } = item.tag;
        const parent = CHILD_TAGS[name];
        if (paired && (parent === undefined || within === parent)) {
          const inner = () => this.group(items, pairs, i + 1, close, name, depth + 1);
          blocks.push(...this.container(item, inner, items[close]!, () => oneParagraphSource(items.slice(i + 1, close))));
          i = close;
        } else if (name === 'embed' && attributes.url) {
          blocks.push(embedBlock(attributes, []));
        } else if ((name === 'file' && attributes.src) || (name === 'content-ref' && attributes.url)) {
          blocks.push(this.reference(item.tag, item.raw));
        } else if (name === 'include' && item.tag.argument) {
          blocks.push(this.include(item.tag.argument));
        } else if (name.startsWith('openapi') && (attributes.src || attributes.spec)) {
          blocks.push(this.openapi(item.tag));
        } else {
          // A tag without its partner (`{% endhint %}` after a hint GitBook could not read) shows as text, and
          // its line is written back as it was.
          blocks.push(withSource(textParagraph(item.raw), item.raw, true));
        }
        continue;
      }
      if (item.kind === 'details-open' && paired) {
        let start = i + 1;
        let title = textParagraph('');
        const first = items[start];
        if (start < close && first?.kind === 'summary') {
          title = textParagraph(first.title);
          // A title with markup (<strong>, <code>) keeps its HTML, as other HTML does.
          if (summaryHtml(first.title) !== `<summary>${first.html}</summary>`) withSource(title, first.html);
          start += 1;
        }
        const body = this.group(items, pairs, start, close, null, depth + 1) as FlowBlock[];
        blocks.push({
          object: 'block',
          type: 'expandable',
          isVoid: true,
          // `<details open>`: shown expanded (the spec's defaultExpanded).
          data: item.expanded ? { defaultExpanded: true } : {},
          fragments: [
            fragment('expandable-title', [title], 'expandable-title'),
            fragment('expandable-body', ensureBlocks(body), 'expandable-body'),
          ],
        });
        i = close;
        continue;
      }
      blocks.push(textParagraph(item.raw));
    }
    return blocks;
  }

  /** `between`: the markdown between the tags when it is one paragraph. */
  private container(open: Item & { kind: 'tag' }, inner: () => Block[], close: Item, between: () => string | undefined): Block[] {
    const { name, attributes } = open.tag;
    switch (name) {
      case 'hint': {
        // A style GitBook does not list shows as `info` (`Info` as `info`), as GitBook shows it; the spelling the
        // file had is kept and written back while the style is not changed.
        const written = attributes.style ?? '';
        const style = HINT_STYLES.find((known) => known === written.toLowerCase()) ?? 'info';
        const hint: Hint = { object: 'block', type: 'hint', data: { style }, nodes: ensureBlocks(inner() as FlowBlock[]) };
        if (attributes.icon) hint.data.icon = attributes.icon;
        if (written !== style && written !== '') hint.meta = { style: written, styleAs: style };
        return [hint];
      }
      case 'tabs':
        return [{ object: 'block', type: 'tabs', data: {}, nodes: childItems(inner(), 'tabs-item', (nodes) => tabItem({}, nodes)) }];
      case 'tab':
        return [tabItem(attributes, inner() as FlowBlock[])];
      case 'stepper':
        return [{ object: 'block', type: 'stepper', data: {}, nodes: childItems(inner(), 'stepper-step', (nodes) => stepBlock({}, nodes)) }];
      case 'step':
        return [stepBlock(attributes, inner() as FlowBlock[])];
      case 'columns': {
        const columns: BlockOpaque = { object: 'block', type: 'columns', data: {}, nodes: childItems(inner(), 'column', (nodes) => columnBlock({}, nodes)) };
        if (attributes.fullWidth === 'true' || attributes.fullWidth === 'false') (columns.data as Record<string, unknown>).fullWidth = attributes.fullWidth === 'true';
        return [columns];
      }
      case 'column':
        return [columnBlock(attributes, inner() as FlowBlock[])];
      case 'if':
        return [{ object: 'block', type: 'if', data: { expression: open.tag.argument ?? '' }, nodes: ensureBlocks(inner() as FlowBlock[]) }];
      case 'updates':
        return [{ object: 'block', type: 'updates', data: { format: attributes.format ?? 'full' }, nodes: childItems(inner(), 'update', (nodes) => updateBlock({}, nodes)) }];
      case 'update':
        return [updateBlock(attributes, inner() as FlowBlock[])];
      case 'prompt':
        return [{ object: 'block', type: 'prompt', data: { ...attributes }, nodes: ensureBlocks(inner() as FlowBlock[]) }];
      case 'embed':
        return attributes.url ? [embedBlock(attributes, inner() as FlowBlock[])] : [textParagraph(open.raw), ...inner(), textParagraph(close.kind === 'tag' ? close.raw : '')];
      case 'openapi':
      case 'openapi-operation':
      case 'openapi-schemas':
      case 'openapi-webhook':
        // As for content-ref: what lies between the tags is a link GitBook writes for other renderers. It is kept
        // as written (a file's name as its text, the signed URL of GitBook's copy of a spec) while the block names
        // the same spec (to-markdown.ts).
        if (!(attributes.src || attributes.spec)) return [textParagraph(open.raw), ...inner(), textParagraph(close.kind === 'tag' ? close.raw : '')];
        {
          const block = this.openapi(open.tag);
          const body = between();
          const of = attributes.src ?? attributes.spec!;
          if (body !== undefined && body !== `[${of}](${of})` && body !== `<${of}>`) block.meta = { body, bodyOf: of };
          return [block];
        }
      case 'code': {
        const blocks = inner();
        const code = blocks.length === 1 && blocks[0]!.type === 'code' ? (blocks[0] as Code) : null;
        if (!code) return [textParagraph(open.raw), ...blocks, textParagraph(close.kind === 'tag' ? close.raw : '')];
        if (attributes.title) code.data.title = attributes.title;
        if (attributes.overflow === 'wrap' || attributes.overflow === 'scroll') code.data.overflow = attributes.overflow;
        if (attributes.lineNumbers === 'true' || attributes.lineNumbers === 'false') code.data.lineNumbers = attributes.lineNumbers === 'true';
        if (attributes.fullWidth === 'true' || attributes.fullWidth === 'false') code.data.fullWidth = attributes.fullWidth === 'true';
        if (attributes.expandable === 'true' || attributes.expandable === 'false') code.data.expandable = attributes.expandable === 'true';
        return [code];
      }
      case 'file': {
        // GitBook writes a file's caption between the tags; it is kept as the block's caption fragment.
        if (!attributes.src) return [textParagraph(open.raw), ...inner()];
        const block = this.reference(open.tag, open.raw);
        const caption = inner() as FlowBlock[];
        if (block.type === 'file') {
          if (caption.length > 0) block.fragments = [fragment('caption', caption)];
          return [block];
        }
        // Not a file of the content (see reference): the caption follows the link, then the closing tag, kept.
        const end = caption.length > 0 && close.kind === 'tag' ? [withSource(textParagraph(''), close.raw, true)] : [];
        return [block, ...caption, ...end];
      }
      case 'content-ref': {
        // The content between the tags is a link GitBook writes for other renderers; the reference is the tag's.
        // The link's text (the title of a page of another space, which this content cannot know) is kept.
        if (!attributes.url) return [textParagraph(open.raw), ...inner()];
        const block = this.reference(open.tag, open.raw);
        const [only] = inner();
        const label = only?.type === 'paragraph' ? inlineText(only.nodes).trim() : '';
        if (label && label !== contentRefLabel(attributes.url)) block.meta = { label, labelOf: attributes.url };
        return [block];
      }
      default:
        return [textParagraph(open.raw), ...inner()];
    }
  }

  /** `{% include "path" %}`: reusable content; a path the resolver does not know stays its id, so it is written back. */
  private include(path: string): FlowBlock {
    const ref = this.refs(path, 'link');
    const data = { ref: ref.kind === 'reusable-content' ? ref : { kind: 'reusable-content' as const, reusableContent: path } };
    return { object: 'block', type: 'reusable-content', isVoid: true, data };
  }

  /** The OpenAPI blocks: `openapi` (a spec file or URL, the spec's `swagger` block) and those of a named spec. */
  private openapi(tag: TagLine): FlowBlock {
    const { name, attributes } = tag;
    const known = new Set(['src', 'spec', 'path', 'method', 'schemas', 'grouped', 'name', 'expanded', 'fullWidth']);
    const data: Record<string, unknown> = {};
    if (name === 'openapi') {
      data.ref = imageRef(this.refs, attributes.src ?? '');
      data.path = attributes.path ?? '';
      data.method = attributes.method ?? '';
      for (const flag of ['expanded', 'fullWidth'] as const) if (attributes[flag] === 'true' || attributes[flag] === 'false') data[flag] = attributes[flag] === 'true';
    } else {
      data.ref = { kind: 'openapi', spec: attributes.spec ?? '' };
      if (name === 'openapi-operation') Object.assign(data, { path: attributes.path ?? '', method: attributes.method ?? '' });
      if (name === 'openapi-webhook') Object.assign(data, { name: attributes.name ?? '', method: attributes.method ?? '' });
      if (name === 'openapi-schemas') {
        data.schemas = (attributes.schemas ?? '').split(',').map((s) => s.trim()).filter(Boolean);
        if (attributes.grouped === 'true' || attributes.grouped === 'false') data.grouped = attributes.grouped === 'true';
      }
    }
    // Attributes GitBook may add that the block does not name are kept, so they are written back.
    for (const [key, value] of Object.entries(attributes)) if (!known.has(key)) data[key] = value;
    return { object: 'block', type: name === 'openapi' ? 'swagger' : name, isVoid: true, data } as BlockOpaque;
  }

  private reference(tag: TagLine, raw: string): FlowBlock {
    if (tag.name === 'content-ref') {
      return { object: 'block', type: 'content-ref', isVoid: true, data: { ref: this.refs(tag.attributes.url!, 'link') } };
    }
    const src = tag.attributes.src!;
    const ref = this.refs(src, 'image');
    if (ref.kind === 'file') return { object: 'block', type: 'file', isVoid: true, data: { ref } };
    // A file the content does not hold (a URL, an asset missing from the repository) cannot be a file block: it
    // shows as a link, and the tag is kept to be written back while that link is unchanged.
    return withSource(paragraph(inlineContent([{ inline: { object: 'inline', type: 'link', data: { ref }, nodes: [text([leaf(src)])] } }])), raw, true);
  }

  private block(node: TokenNode): Block[] {
    const { token, children } = node;
    switch (token.type) {
      case 'paragraph_open':
        return [this.paragraph(children[0]?.token)];
      case 'heading_open':
        return [this.heading(token, children[0]?.token)];
      case 'blockquote_open':
        return [{ object: 'block', type: 'blockquote', data: {}, nodes: ensureBlocks(this.flow(children) as FlowBlock[]) }];
      case 'bullet_list_open':
      case 'ordered_list_open':
        return [this.list(token, children)];
      case 'hr':
        return [{ object: 'block', type: 'divider', isVoid: true, data: {} }];
      case 'fence':
      case 'code_block':
        return [codeBlock(token)];
      case 'math_block':
        return [{ object: 'block', type: 'math', isVoid: true, data: { formula: token.content } }];
      case 'html_block': {
        const text = this.textHtml(token.content);
        if (text) return text;
        const block = this.htmlBlock(token.content);
        return block ? [block] : [];
      }
      case 'table_open':
        return [this.table(children)];
      case 'footnote_open':
        return this.unreferencedFootnote(token, children);
      default:
        return [];
    }
  }

  /**
   * A footnote's definition is read where its reference is (an annotation); one that nothing refers to shows
   * nothing in MkDocs or on GitHub, but it is the author's text: it stays where it was, as the text it was.
   */
  private unreferencedFootnote(open: Token, children: TokenNode[]): Block[] {
    const label = String(open.meta?.label);
    if (this.footnotes.referenced.has(label)) return [];
    const blocks = this.flow(children);
    const marker = { leaf: { text: `[^${label}]: `, marks: [] as MarkType[] } };
    const first = blocks[0];
    if (first?.type === 'paragraph' && !first.meta) {
      first.nodes = inlineContent([marker, ...first.nodes.flatMap((node): InlineSegment[] => (node.object === 'text' ? node.leaves.map((l) => ({ leaf: { text: l.text, marks: (l.marks ?? []).map((m) => m.type) } })) : [{ inline: node }]))]);
      return blocks;
    }
    return [paragraph(inlineContent([marker])), ...blocks];
  }

  /**
   * GitBook reads a footnote as an annotation of the word right before its marker (`word[^1]`), the note its
   * definition's blocks. A marker after a space, a link or nothing annotates its own number, in superscript, as
   * a footnote's number shows (to-markdown.ts writes that one back as the bare marker).
   */
  private annotation(label: string, before: InlineSegment[], marks: MarkType[]): InlineSegment | undefined {
    const definition = this.footnotes.definitions.get(label);
    if (!definition || this.footnotes.reading.has(label)) return undefined;
    this.footnotes.reading.add(label);
    const body = ensureBlocks(this.flow(definition) as FlowBlock[]);
    this.footnotes.reading.delete(label);
    // markdown-it leaves empty texts where emphasis delimiters were (`__a.__[^1]`).
    while (before.length > 0 && 'leaf' in before[before.length - 1]! && (before[before.length - 1] as { leaf: { text: string } }).leaf.text === '') before.pop();
    const last = before[before.length - 1];
    const word = last && 'leaf' in last ? /\S+$/.exec(last.leaf.text) : null;
    let annotated: Leaf;
    if (last && 'leaf' in last && word) {
      annotated = leaf(word[0], last.leaf.marks, last.leaf.color);
      last.leaf.text = last.leaf.text.slice(0, word.index);
      if (last.leaf.text === '') before.pop();
    } else {
      annotated = leaf(String(this.footnotes.numbers.get(label) ?? 1), [...marks, 'superscript']);
    }
    return {
      inline: { object: 'inline', type: 'annotation', isVoid: false, nodes: [text([annotated])], fragments: [fragment('annotation-body', body, 'annotation-body')] },
    };
  }

  private paragraph(inline: Token | undefined): FlowBlock {
    const tokens = inline?.children ?? [];
    const images = tokens.filter((t) => t.type === 'image');
    const onlyImages =
      images.length > 0 &&
      tokens.every((t) => t.type === 'image' || t.type === 'softbreak' || (t.type === 'text' && t.content.trim() === ''));
    if (onlyImages) {
      return imagesBlock(images.map((t) => ({ src: String(t.attrGet('src') ?? ''), alt: tokensText(t.children ?? []), caption: '' })), this.refs);
    }
    const { segments, lossy } = this.inline(tokens);
    const block = paragraph(inlineContent(segments));
    // The source is kept only when it reads back, on its own, as the one paragraph it was: a paragraph's lazy
    // continuation lines (`> a` then `| - |`) would read otherwise once the writer prefixes every line, and a
    // reference link or image (`[text][label]`) is text without the page's definition of its label, which no block holds.
    if (!lossy || !inline) return block;
    const source = withInlineReferences(inline.content, this.env.references as References | undefined);
    return readsAlone(source, linkCount(tokens)) ? withSource(block, source) : block;
  }

  private heading(open: Token, inline: Token | undefined): Heading {
    const written = Number(open.tag.slice(1)) || 1;
    const { segments, anchor, anchorIdOnly } = this.inline(inline?.children ?? [], true);
    const heading: Heading = { object: 'block', type: `heading-${headingType(written)}`, data: {}, nodes: [] };
    const level = headingLevel(written);
    if (level !== undefined) heading.data.level = level;
    if (anchor !== undefined && HEADING_ID.test(anchor)) {
      heading.data.id = anchor;
      if (anchorIdOnly) heading.meta = { anchor: 'id' };
      // GitBook writes "## Title <a …></a>": the one space before the anchor is not part of the title. Only that
      // one: a title's own trailing space was written as a character reference and stays (`# &#x20; <a …>`).
      const last = segments[segments.length - 1];
      if (last && 'leaf' in last && last.leaf.text.endsWith(' ')) last.leaf.text = last.leaf.text.slice(0, -1);
    }
    heading.nodes = inlineContent(segments);
    return heading;
  }

  /** Flattens inline tokens into leaves and inlines, tracking marks as counters (no recursion). */
  private inline(tokens: Token[], inHeading = false): { segments: InlineSegment[]; anchor?: string; anchorIdOnly?: boolean; lossy: boolean } {
    let lossy = false;
    const segments: InlineSegment[] = [];
    const open: Record<MarkType, number> = { bold: 0, italic: 0, strikethrough: 0, code: 0, keyboard: 0, superscript: 0, subscript: 0, color: 0 };
    const colors: ColorData[] = [];
    const marks = (extra?: MarkType) => {
      const list = (Object.keys(open) as MarkType[]).filter((m) => open[m] > 0);
      return extra ? [...list, extra] : list;
    };
    // The text of an icon (`:name:` between <i> and </i>) is for renderers that do not know icons.
    let inIcon = false;
    // A button's label: the text up to its </a>.
    let button: { read: Extract<InlineHtml, { kind: 'button' }>; label: string } | null = null;
    // <picture><source …dark…><img …></picture>: one inline image with a dark variant.
    let picture: { dark: string | undefined } | null = null;
    let link: { ref: ContentRef; segments: InlineSegment[] } | null = null;
    let anchor: string | undefined;
    let anchorIdOnly = false;
    const push = (segment: InlineSegment) => {
      if (inIcon) return;
      if (button) {
        if ('leaf' in segment) button.label += segment.leaf.text;
        else lossy = true;
        return;
      }
      const color = colors[colors.length - 1];
      if (color && 'leaf' in segment && segment.leaf.marks.includes('color')) segment.leaf.color = color;
      (link ? link.segments : segments).push(segment);
    };
    for (const token of tokens) {
      const [name, edge] = token.type.split(/_(?=open$|close$)/);
      const markType = MARKS_OF_TOKEN[name ?? ''];
      if (markType && edge) {
        open[markType] = Math.max(0, open[markType] + (edge === 'open' ? 1 : -1));
        continue;
      }
      if (button && (token.type !== 'text' && token.type !== 'text_special' && !(token.type === 'html_inline' && /^<\/a\s*>$/i.test(token.content.trim())))) {
        // Only text makes a label; anything else and the HTML is kept as it was.
        lossy = true;
        push({ leaf: { text: button.label, marks: marks() } });
        button = null;
      }
      switch (token.type) {
        case 'text':
        case 'text_special':
          push({ leaf: { text: token.content, marks: marks() } });
          break;
        case 'softbreak':
          push({ leaf: { text: ' ', marks: marks() } });
          break;
        case 'hardbreak':
          push({ leaf: { text: '\n', marks: marks() } });
          break;
        case 'code_inline':
          push({ leaf: { text: token.content, marks: marks('code') } });
          break;
        case 'math_inline':
          push({ inline: { object: 'inline', type: 'inline-math', isVoid: true, data: { formula: token.content } } });
          break;
        case 'footnote_ref': {
          // A link holds text only: a marker in a link's text stays text, and the paragraph its source.
          const label = String(token.meta?.label);
          const annotation = link || button || inIcon ? undefined : this.annotation(label, segments, marks());
          if (annotation) push(annotation);
          else {
            push({ leaf: { text: `[^${label}]`, marks: marks() } });
            lossy = true;
          }
          break;
        }
        case 'link_open':
          if (!link) link = { ref: this.refs(String(token.attrGet('href') ?? ''), 'link'), segments: [] };
          break;
        case 'link_close':
          if (link) {
            const { ref, segments: inner } = link;
            link = null;
            push({ inline: { object: 'inline', type: 'link', data: { ref }, nodes: inlineContent(inner) as (InlineContent & { object: 'text' })[] } });
          }
          break;
        case 'image':
          push({ inline: this.inlineImage({ src: String(token.attrGet('src') ?? ''), alt: tokensText(token.children ?? []), caption: '' }) });
          break;
        case 'html_inline': {
          if (isPlaceholderTag(token.content)) {
            push({ leaf: { text: token.content, marks: marks() } });
            break;
          }
          const html = readInlineHtml(token.content);
          if (html?.kind === 'break') push({ leaf: { text: '\n', marks: marks() } });
          else if (html?.kind === 'button') button = { read: html, label: '' };
          else if (button && html?.kind === 'anchor-end') {
            const { read, label } = button;
            button = null;
            const data: Record<string, unknown> = { label: label.trim(), kind: read.style };
            if (read.icon) data.icon = read.icon;
            if (read.href !== undefined && read.href !== '') data.ref = this.refs(read.href, 'link');
            else data.action = { action: 'search' };
            if (read.href === '') lossy = true;
            push({ inline: { object: 'inline', type: 'button', isVoid: true, data } });
          } else if (html?.kind === 'picture') picture = html.opens ? { dark: undefined } : null;
          else if (html?.kind === 'source' && picture) picture.dark = html.dark;
          else if (html?.kind === 'image') push({ inline: this.inlineImage(picture?.dark ? { ...html.image, dark: picture.dark } : html.image) });
          else if (html?.kind === 'icon') {
            push({ inline: { object: 'inline', type: 'icon', isVoid: true, data: { icon: html.icon } } });
            inIcon = true;
          } else if (inIcon && html?.kind === 'format' && html.mark === 'italic' && !html.opens) inIcon = false;
          else if (html?.kind === 'format') {
            if (html.mark) open[html.mark] = Math.max(0, open[html.mark] + (html.opens ? 1 : -1));
            else lossy = true;
            if (html.mark === 'color') {
              if (html.opens && html.color) colors.push(html.color);
              else if (!html.opens) colors.pop();
            }
          } else if (inHeading && html?.kind === 'anchor') {
            anchor = html.id;
            anchorIdOnly = html.idOnly === true;
          }
          else if (html?.kind !== 'comment' && !(inHeading && html?.kind === 'anchor-end')) lossy = true;
          break;
        }
        default:
          break;
      }
    }
    if (button) {
      lossy = true;
      push({ leaf: { text: button.label, marks: marks() } });
    }
    if (link) segments.push(...link.segments);
    return anchor === undefined ? { segments, lossy } : { segments, anchor, anchorIdOnly, lossy };
  }

  private inlineImage(image: HtmlImage): InlineImage {
    const data: InlineImage['data'] = { ref: imageRef(this.refs, image.src) };
    if (image.dark) data.refDark = imageRef(this.refs, image.dark);
    const alt = oneLine(image.alt);
    if (alt) data.alt = alt;
    if (image.size === 'line' || image.size === 'original') data.size = image.size;
    return { object: 'inline', type: 'inline-image', isVoid: true, data };
  }

  private list(open: Token, items: TokenNode[]): FlowBlock {
    // As in GFM, a list is a task list when every item has a checkbox; otherwise "[ ]" is text.
    const tasks = items.length > 0 && items.every((item) => typeof item.token.meta?.checked === 'boolean');
    if (!tasks) {
      for (const item of items) {
        const marker = item.token.meta?.marker;
        const inline = item.children[0]?.children[0]?.token;
        const first = inline?.children?.[0];
        if (typeof marker === 'string' && first) {
          first.content = marker + first.content;
          inline!.content = marker + inline!.content;
        }
      }
    }
    const nodes: ListItem[] = items
      .filter((item) => item.token.type === 'list_item_open')
      .map((item) => ({
        object: 'block',
        type: 'list-item',
        data: tasks ? { checked: item.token.meta?.checked === true } : {},
        nodes: ensureBlocks(this.flow(item.children) as FlowBlock[]),
      }));
    if (tasks) return { object: 'block', type: 'list-tasks', data: {}, nodes };
    if (open.type === 'bullet_list_open') return { object: 'block', type: 'list-unordered', data: {}, nodes };
    const start = Number(open.attrGet('start') ?? 1);
    return { object: 'block', type: 'list-ordered', data: Number.isSafeInteger(start) && start !== 1 ? { start } : {}, nodes };
  }

  private htmlBlock(html: string): FlowBlock | null {
    const code = readCodeHtml(html);
    if (code) return code;

    const read = readImagesHtml(html);
    if (read?.figures) {
      const block = imagesBlock(read.images, this.refs);
      if (read.align === 'left' || read.align === 'center' || read.align === 'right') block.data.align = read.align;
      if (read.frame) block.data.withFrame = true;
      if (read.fullWidth !== undefined) block.data.fullWidth = read.fullWidth;
      return block;
    }
    if (read) {
      // Images a person wrapped (`<p align="center"><img …></p>`) keep the wrapper while unchanged.
      const images = paragraph(inlineContent(read.images.map((image) => ({ inline: this.inlineImage(image) }))));
      return /^<(?:p|div)\b/i.test(html.trim()) ? withSource(images, html.trim(), true) : images;
    }
    // A comment shows nothing, but it is the author's (notes, linter switches): kept to be written back.
    if (isHtmlComment(html)) return withSource(textParagraph(''), html.trim(), true);
    const table = readHtmlTable(html, this.refs, (markdown) => {
      const blocks = isRichCellHtml(markdown) ? cellHtmlToMarkdown(markdown) : null;
      return this.flow(tokenTree(parseMarkdown(blocks ?? markdown, this.env))) as FlowBlock[];
    });
    if (table) return withSource(table, html.trim(), true);
    // HTML that means nothing to a document: its text is the paragraph's, the HTML itself is kept to write back.
    return withSource(textParagraph(htmlText(html)), html.trim(), true);
  }

  /**
   * Paragraphs and headings GitBook wrote as HTML, to say their alignment (`<p align="center">`, `<h3 align="center">`)
   * or, in a card, a heading (`<h4>`): the blocks with their alignment, their content read as the markdown inline it
   * is (buttons, icons, links). Each one's HTML is kept to be written back while it is unchanged.
   */
  private textHtml(html: string): FlowBlock[] | null {
    const blocks: FlowBlock[] = [];
    // GitBook writes a card's heading and text one after the other (`<h4>Title</h4><p>Text</p>`).
    for (let rest = html.trim(); rest !== ''; ) {
      const element = TEXT_HTML.exec(rest);
      if (!element) return null;
      rest = rest.slice(element[0].length).trim();
      const tokens = parseMarkdown(element[3]!.trim(), this.env);
      const [open, inline, close] = tokens;
      if (tokens.length !== 3 || open?.type !== 'paragraph_open' || inline?.type !== 'inline' || close?.type !== 'paragraph_close') return null;
      const align = element[2] ? ({ left: 'start', center: 'center', right: 'end' } as const)[element[2].toLowerCase() as 'left' | 'center' | 'right'] : undefined;
      const tag = element[1]!.toLowerCase();
      if (tag === 'p') {
        const block = paragraph(inlineContent(this.inline(inline.children ?? []).segments));
        if (align) block.data = { align };
        blocks.push(withSource(block, element[0], true));
        continue;
      }
      const heading = this.heading({ tag } as Token, inline);
      if (align) heading.data.align = align;
      blocks.push(withSource(heading, element[0], true));
    }
    return blocks.length > 0 ? blocks : null;
  }

  private table(sections: TokenNode[]): Table {
    const rows = sections.flatMap((section) => section.children.filter((row) => row.token.type === 'tr_open'));
    const [header, ...body] = rows;
    const headerCells = header?.children ?? [];
    const columns = headerCells.map((_, index) => `c${index + 1}`);
    const definition: Record<string, TableDefinition> = {};
    const headerSource: string[] = [];
    let marked = false;
    headerCells.forEach((cell, index) => {
      const style = String(cell.token.attrGet('style') ?? '');
      const align = /text-align:\s*(left|center|right)/.exec(style)?.[1] as TableDefinition['textAlignment'];
      const title = oneLine(tokensText(cell.children[0]?.token.children ?? []));
      definition[columns[index]!] = { id: columns[index]!, title, type: 'text', textAlignment: align ?? 'left' };
      const raw = (cell.children[0]?.token.content ?? '').trim();
      headerSource.push(raw);
      // Escapes are not markup: `\*a` is the title `*a`, which the writer escapes again.
      if ((cell.children[0]?.token.children ?? []).some((t) => !['text', 'text_special', 'softbreak'].includes(t.type))) marked = true;
    });
    const orderIndexes = body.length > 0 ? generateNKeysBetween(null, null, body.length) : [];
    const records: Record<string, TableRecord> = {};
    const fragments: Table['fragments'] = [];
    const sources: [Fragment, string][] = [];
    body.forEach((row, rowIndex) => {
      const recordId = `r${rowIndex + 1}`;
      const values: TableRecord['values'] = {};
      columns.forEach((column, columnIndex) => {
        const inline = row.children[columnIndex]?.children[0]?.token;
        const name = `${recordId}-${column}`;
        const tokens = inline?.children ?? [];
        // A cell with HTML blocks (`<p>…</p><p>…</p>`, `<ul>…</ul>`) holds those blocks. Its source is kept where
        // writing the blocks would lose something (HTML they cannot hold, a lone paragraph's `<p>`) or write them
        // otherwise than their author did.
        const rich = isRichCellHtml(inline?.content ?? '') ? cellHtmlToMarkdown(inline!.content) : null;
        let blocks: FlowBlock[];
        let lossy: boolean;
        if (rich !== null) {
          blocks = ensureBlocks(this.flow(tokenTree(parseMarkdown(rich, this.env))) as FlowBlock[]);
          lossy = (blocks.length === 1 && blocks[0]!.type === 'paragraph') || holdsKeptSource(blocks) || !isWrittenCellHtml(inline!.content.trim());
        } else {
          const read = this.inline(tokens);
          blocks = [paragraph(inlineContent(read.segments))];
          lossy = read.lossy;
        }
        const cell = fragment(name, blocks);
        fragments.push(cell);
        if (lossy) sources.push([cell, inline!.content.trim()]);
        values[column] = name;
      });
      records[recordId] = { orderIndex: orderIndexes[rowIndex]!, values };
    });
    const table: Table = {
      object: 'block',
      type: 'table',
      isVoid: true,
      data: { view: { type: 'grid', columns, hideHeader: false }, records, definition },
      fragments,
    };
    for (const [cell, source] of sources) withCellSource(table, cell, source);
    return marked ? withHeaderSource(table, headerSource) : table;
  }
}

/** Whether a block, or one inside it, keeps markdown it could not hold (nodes.ts, withSource). */
function holdsKeptSource(blocks: readonly Block[]): boolean {
  const stack: unknown[] = [...blocks];
  while (stack.length > 0) {
    const node = stack.pop() as { meta?: { markdown?: unknown }; nodes?: unknown[] } | null;
    if (!node || typeof node !== 'object') continue;
    if (typeof node.meta?.markdown === 'string') return true;
    if (Array.isArray(node.nodes)) stack.push(...node.nodes);
  }
  return false;
}

// One element, as GitBook writes an aligned paragraph or heading: its tag, its alignment, its content.
const TEXT_HTML = /^<(p|h[1-6])(?:\s+align="(left|center|right)")?\s*>((?:(?!<\/?(?:p|h[1-6]|div|ul|ol|li|table|figure|details)\b)[\s\S])*)<\/\1>/i;

function codeBlock(token: Token): Code {
  // A fence's content ends with a newline for each line, so "" is no line and "\n" one empty line; a
  // document's code block has at least one line either way.
  const content = token.content.endsWith('\n') ? token.content.slice(0, -1) : token.content;
  const syntax = token.type === 'fence' ? unescapeMarkdown(token.info).trim().split(/\s+/)[0] : '';
  const code: Code = {
    object: 'block',
    type: 'code',
    data: {},
    nodes: content.split('\n').map((line) => ({ object: 'block', type: 'code-line', data: {}, nodes: [text(line ? [leaf(line)] : [])] })),
  };
  if (syntax) code.data.syntax = syntax;
  return code;
}

function imageRef(refs: RefResolver, src: string): ContentRefUrl | ContentRefFile {
  const ref = refs(src, 'image');
  return ref.kind === 'url' || ref.kind === 'file' ? ref : { kind: 'url', url: src };
}

function imagesBlock(images: HtmlImage[], refs: RefResolver): Images {
  return {
    object: 'block',
    type: 'images',
    isVoid: false,
    data: {},
    nodes: images.map((image): Image => {
      const data: Image['data'] = { ref: imageRef(refs, image.src) };
      if (image.dark) data.refDark = imageRef(refs, image.dark);
      if (image.width !== undefined) data.width = image.width;
      const alt = oneLine(image.alt);
      if (alt) data.alt = alt;
      const caption = oneLine(image.caption);
      return {
        object: 'block',
        type: 'image',
        isVoid: true,
        data,
        // A caption with markup keeps its HTML, written back while its text is unchanged (as a summary's).
        fragments: caption ? [fragment('caption', [image.captionHtml ? withSource(textParagraph(caption), image.captionHtml) : textParagraph(caption)])] : [],
      };
    }),
  };
}

function tabItem(attributes: Record<string, string>, nodes: FlowBlock[]): TabsItem {
  const tab: TabsItem = { object: 'block', type: 'tabs-item', data: { title: oneLine(attributes.title ?? '') }, nodes: ensureBlocks(nodes) };
  if (attributes.icon) tab.data.icon = attributes.icon;
  return tab;
}

function stepBlock(attributes: Record<string, string>, nodes: FlowBlock[]): BlockOpaque {
  return { object: 'block', type: 'stepper-step', data: attributes.icon ? { icon: attributes.icon } : {}, nodes: ensureBlocks(nodes) };
}

/** A column; its width is written `50%` (or a number of pixels) and kept as the spec's Length. */
function columnBlock(attributes: Record<string, string>, nodes: FlowBlock[]): BlockOpaque {
  const data: Record<string, unknown> = {};
  const width = /^(\d+(?:\.\d+)?)(%|px)?$/.exec(attributes.width ?? '');
  if (width) data.width = width[2] ? { value: Number(width[1]), unit: width[2] } : Number(width[1]);
  if (attributes.valign === 'top' || attributes.valign === 'middle' || attributes.valign === 'bottom') data.verticalAlignment = attributes.valign;
  return { object: 'block', type: 'column', data, nodes: ensureBlocks(nodes) };
}

function updateBlock(attributes: Record<string, string>, nodes: FlowBlock[]): BlockOpaque {
  const data: Record<string, unknown> = { date: attributes.date ?? '' };
  const tags = (attributes.tags ?? '').split(',').map((tag) => tag.trim()).filter(Boolean);
  if (tags.length > 0) data.tags = tags.map((tag) => ({ kind: 'tag', tag }));
  return { object: 'block', type: 'update', data, nodes: ensureBlocks(nodes) };
}

function embedBlock(attributes: Record<string, string>, caption: FlowBlock[]): Embed {
  const embed: Embed = { object: 'block', type: 'embed', isVoid: true, data: { url: attributes.url ?? '' } };
  if (attributes.fullWidth === 'true' || attributes.fullWidth === 'false') embed.data.fullWidth = attributes.fullWidth === 'true';
  const content = caption.filter((block) => !isEmptyParagraph(block));
  // `{% embed url="…" caption="GitHub" %}`: the caption as an attribute, plain text; written back in that form
  // (`caption=""` too).
  if (content.length === 0 && attributes.caption !== undefined) {
    if (attributes.caption) content.push(textParagraph(attributes.caption));
    embed.meta = { captionAttribute: true };
  }
  if (content.length > 0) embed.fragments = [fragment('caption', content)];
  return embed;
}

/**
 * The items of a container that holds one kind of block (tabs hold tabs, a stepper steps, …): blocks between
 * the item tags belong to the item before them (or to a new first item).
 */
function childItems<T extends Block>(blocks: Block[], type: T['type'], make: (nodes: FlowBlock[]) => T): T[] {
  const items: T[] = [];
  for (const block of blocks) {
    if (block.type === type) {
      items.push(block as T);
      continue;
    }
    if (isEmptyParagraph(block)) continue;
    const last = items[items.length - 1] as (T & { nodes: FlowBlock[] }) | undefined;
    if (last) last.nodes = [...last.nodes.filter((n) => !isEmptyParagraph(n)), block as FlowBlock];
    else items.push(make([block as FlowBlock]));
  }
  return items;
}

type References = Record<string, { href: string; title?: string }>;

/**
 * A paragraph's reference links and images (`[text][label]`, `![alt][label]`, `[label]`) written inline with the
 * target the page defines for their label: the source kept with a block is read on its own later, without the
 * page's definitions. Code spans are left as they are.
 */
function withInlineReferences(markdown: string, references: References | undefined): string {
  if (!references || !markdown.includes('[')) return markdown;
  const target = (label: string) => references[label.trim().replace(/\s+/g, ' ').toLowerCase().toUpperCase()];
  const destination = (ref: { href: string; title?: string }) => {
    const href = /[\s()<>]/.test(ref.href) ? `<${ref.href.replace(/[<>]/g, (c) => encodeURIComponent(c))}>` : ref.href;
    return `(${href}${ref.title ? ` "${ref.title.replace(/"/g, '\\"')}"` : ''})`;
  };
  return markdown
    .split(/(`+[^`]*`+)/)
    .map((piece, i) =>
      i % 2 === 1
        ? piece
        : piece.replace(/(!?)\[((?:[^[\]\\]|\\.)*)\](?:\[((?:[^[\]\\]|\\.)*)\])?(?![(:])/g, (whole, bang: string, text: string, label: string | undefined) => {
            const ref = target(label || text);
            return ref ? `${bang}[${text}]${destination(ref)}` : whole;
          }),
    )
    .join('');
}

/** Whether a paragraph's source, read on its own, is one paragraph of that text with as many links and images. */
function readsAlone(markdown: string, links: number): boolean {
  const tokens = parseMarkdown(markdown);
  return tokens.length === 3 && tokens[0]!.type === 'paragraph_open' && tokens[1]!.content === markdown && linkCount(tokens[1]!.children ?? []) === links;
}

function linkCount(tokens: readonly Token[]): number {
  return tokens.filter((t) => t.type === 'link_open' || t.type === 'image').length;
}

/** An HTML block's text split at its tag lines; null when it has none. The pieces between hold no tag line. */
function splitTagLines(html: string): (string | Item)[] | null {
  // A comment is the author's, whole: tag lines inside it were commented out.
  if (!html.includes('{%') || isHtmlComment(html)) return null;
  const pieces: (string | Item)[] = [];
  let text = '';
  for (const line of html.split('\n')) {
    const tag = /^ {0,3}\{%/.test(line) ? parseTagLine(line) : null;
    if (!tag) {
      text += `${line}\n`;
      continue;
    }
    if (text.trim() !== '') pieces.push(text);
    text = '';
    pieces.push({ kind: 'tag', tag, raw: line.trim() });
  }
  if (pieces.length === 0) return null;
  if (text.trim() !== '') pieces.push(text);
  return pieces;
}

/** Tags that only mean something inside their container's tags (elsewhere they stay text). */
const CHILD_TAGS: Record<string, string> = { tab: 'tabs', step: 'stepper', column: 'columns', update: 'updates' };

/** The markdown of items that are one paragraph, as written. */
function oneParagraphSource(items: Item[]): string | undefined {
  const [only] = items;
  if (items.length !== 1 || only?.kind !== 'node' || only.node.token.type !== 'paragraph_open') return undefined;
  const inline = only.node.children[0]?.token;
  return inline?.type === 'inline' ? inline.content : undefined;
}

const isEmptyParagraph = (block: Block) => block.type === 'paragraph' && inlineText(block.nodes) === '' && block.nodes.length === 1;

/** A container holds at least one block: an empty paragraph when markdown gave it nothing. */
function ensureBlocks(blocks: FlowBlock[]): FlowBlock[] {
  return blocks.length > 0 ? blocks : [textParagraph('')];
}
