import { escapeAttribute, escapeText } from 'entities';
import { DomUtils, ElementType, parseDocument } from 'htmlparser2';
import type { MarkType } from './types.ts';

/*
 * The bits of HTML that GitBook's markdown carries: <details>/<summary> around expandables, <figure> and <img>
 * for images, <br> in table cells, and an empty <a id> that pins a heading's anchor. Reading them goes
 * through a real HTML parser; anything else is not ours and the caller keeps it as text.
 */

type HtmlNode = ReturnType<typeof parseDocument>['children'][number];
type HtmlElement = Extract<HtmlNode, { attribs: Record<string, string> }>;

const isElement = (node: HtmlNode): node is HtmlElement => ElementType.isTag(node);
const isBlankText = (node: HtmlNode) => node.type === ElementType.Text && DomUtils.textContent(node).trim() === '';
const isComment = (node: HtmlNode) => node.type === ElementType.Comment;

/** An image as GitBook writes it in HTML: `dark` is the <picture>'s dark-scheme source, `width` the img's. */
export interface HtmlImage {
  src: string;
  alt: string;
  caption: string;
  /** The caption's own HTML (inside its `<p>`) when it has markup (`<strong>`, `<a>`, `<code>`): kept to write back. */
  captionHtml?: string;
  size?: string;
  dark?: string;
  /** Pixels, or a percentage as the spec's Length (`width="100%"`). */
  width?: number | { value: number; unit: '%' };
}

const DARK_SCHEME = /prefers-color-scheme:\s*dark/;

/** The pieces of an HTML block: details markers, and the text between them (markdown, parsed again). */
export type DetailsPiece = { kind: 'open'; expanded: boolean } | { kind: 'summary'; title: string; html: string } | { kind: 'close' } | { kind: 'markdown'; text: string };

// The <details> markers are plain, attribute-free tags in GitBook's output; locating them needs no more than this.
const DETAILS_MARKER = /<details(?:\s[^>]*)?>|<\/details\s*>|<summary(?:\s[^>]*)?>([\s\S]*?)<\/summary\s*>/gi;

/** Splits an HTML block at its <details>, <summary>…</summary> and </details> markers; null when it has none. */
export function splitDetails(html: string): DetailsPiece[] | null {
  const pieces: DetailsPiece[] = [];
  let last = 0;
  for (const match of html.matchAll(DETAILS_MARKER)) {
    const between = html.slice(last, match.index);
    if (between.trim() !== '') pieces.push({ kind: 'markdown', text: between });
    const tag = match[0].toLowerCase();
    if (tag.startsWith('<summary')) pieces.push({ kind: 'summary', title: htmlText(match[1] ?? ''), html: (match[1] ?? '').trim() });
    else if (tag.startsWith('</')) pieces.push({ kind: 'close' });
    else pieces.push({ kind: 'open', expanded: /^<details\s+open(?:\s*=\s*(?:""|'open'|"open"))?\s*>$/i.test(tag) });
    last = match.index + match[0].length;
  }
  if (pieces.length === 0) return null;
  const rest = html.slice(last);
  if (rest.trim() !== '') pieces.push({ kind: 'markdown', text: rest });
  return pieces;
}

/** True for HTML that is only comments (invisible, so left out of the document). */
export function isHtmlComment(html: string): boolean {
  const nodes = parseDocument(html).children.filter((n) => !isBlankText(n));
  return nodes.length > 0 && nodes.every(isComment);
}

/** The text of an HTML fragment, entities decoded, tags dropped, whitespace collapsed. */
export function htmlText(html: string): string {
  return DomUtils.textContent(parseDocument(html)).replace(/\s+/g, ' ').trim();
}

function imageOf(element: HtmlElement, caption: string): HtmlImage | null {
  const src = element.attribs.src;
  if (src === undefined) return null;
  const image: HtmlImage = { src, alt: element.attribs.alt ?? '', caption };
  if (element.attribs['data-size'] !== undefined) image.size = element.attribs['data-size'];
  const width = Number(element.attribs.width);
  const percent = /^(\d{1,3}(?:\.\d+)?)%$/.exec(element.attribs.width ?? '');
  if (element.attribs.width && Number.isFinite(width) && width > 0) image.width = width;
  else if (percent && Number(percent[1]) > 0) image.width = { value: Number(percent[1]), unit: '%' };
  // <picture><source srcset="dark.png" media="(prefers-color-scheme: dark)"><img src="light.png"></picture>
  const parent = element.parent as HtmlElement | null;
  if (parent && 'name' in parent && parent.name === 'picture') {
    const source = parent.children.find((c): c is HtmlElement => isElement(c) && c.name === 'source' && DARK_SCHEME.test(c.attribs.media ?? ''));
    if (source?.attribs.srcset) image.dark = source.attribs.srcset;
  }
  return image;
}

/**
 * Reads an HTML block made only of figures and images (optionally inside a <div align>, as GitBook writes
 * aligned images). `figures` is true when at least one <figure> was found: the block is then an images block;
 * bare <img> tags alone are inline images.
 */
export function readImagesHtml(html: string): { images: HtmlImage[]; figures: boolean; align?: string; frame?: boolean; fullWidth?: boolean } | null {
  const images: HtmlImage[] = [];
  let figures = false;
  let align: string | undefined;
  let frame: boolean | undefined;
  let fullWidth: boolean | undefined;
  const visit = (nodes: HtmlNode[], inDiv: boolean): boolean => {
    for (const node of nodes) {
      if (isBlankText(node) || isComment(node)) continue;
      if (!isElement(node)) return false;
      if (node.name === 'div' && !inDiv) {
        const { align: divAlign, 'data-with-frame': withFrame, 'data-full-width': full, ...others } = node.attribs;
        if (Object.keys(others).length > 0) return false;
        align = divAlign;
        if (withFrame === 'true') frame = true;
        if (full === 'true' || full === 'false') fullWidth = full === 'true';
        if (!visit(node.children, true)) return false;
      } else if (node.name === 'figure') {
        const img = DomUtils.findOne((e) => e.name === 'img', node.children);
        const caption = DomUtils.findOne((e) => e.name === 'figcaption', node.children);
        if (img && Object.keys(img.attribs).some((name) => !IMG_ATTRIBUTES.has(name))) return false;
        const image = img ? imageOf(img as HtmlElement, caption ? DomUtils.textContent(caption).replace(/\s+/g, ' ').trim() : '') : null;
        if (!image) return false;
        const markup = caption ? captionMarkup(caption as HtmlElement) : undefined;
        if (markup) image.captionHtml = markup;
        images.push(image);
        figures = true;
      } else if (node.name === 'img') {
        if (Object.keys(node.attribs).some((name) => !IMG_ATTRIBUTES.has(name))) return false;
        const image = imageOf(node, '');
        if (!image) return false;
        images.push(image);
      } else if (node.name === 'p' || node.name === 'picture') {
        if (!visit(node.children, inDiv)) return false;
      } else if (node.name === 'source' && node.parent && 'name' in node.parent && node.parent.name === 'picture') {
        // Read with the picture's <img> (imageOf).
      } else {
        return false;
      }
    }
    return true;
  };
  if (!visit(parseDocument(html).children, false) || images.length === 0) return null;
  return { images, figures, ...(align === undefined ? {} : { align }), ...(frame ? { frame } : {}), ...(fullWidth === undefined ? {} : { fullWidth }) };
}

// Attributes of an <img> that the document keeps; an image with others (a drawing's class, …) stays HTML.
const IMG_ATTRIBUTES = new Set(['src', 'alt', 'width', 'data-size']);

// Inline formatting tags: the marks they stand for, or null for those whose tags are dropped and text kept
// (GitBook writes coloured text as <mark style="…">).
const FORMATTING_TAGS: Record<string, MarkType | null> = {
  b: 'bold', strong: 'bold', i: 'italic', em: 'italic', s: 'strikethrough', del: 'strikethrough', strike: 'strikethrough',
  code: 'code', kbd: 'keyboard', sup: 'superscript', sub: 'subscript', mark: 'color', span: null, u: null, font: null, small: null,
};

const COLOR_NAME = /^(?:default|green|blue|red|orange|yellow|purple|pink|violet|cyan|\$primary|\$info|\$success|\$warning|\$danger|\$tint)$/;

/** `<mark style="color:red;background-color:blue;">`: GitBook's coloured text; null for any other style. */
function markColor(style: string): { text: string; background: string } | null {
  const color = { text: 'default', background: 'default' };
  for (const declaration of style.split(';')) {
    const [name, value] = declaration.split(':').map((part) => part?.trim() ?? '');
    if (!name) continue;
    if (!value || !COLOR_NAME.test(value)) return null;
    if (name === 'color') color.text = value;
    else if (name === 'background-color') color.background = value;
    else return null;
  }
  return color;
}

export function markHtml(color: { text: string; background: string }): string {
  const style = [color.text !== 'default' ? `color:${color.text};` : '', color.background !== 'default' ? `background-color:${color.background};` : ''].join('');
  return `<mark style="${escapeAttribute(style)}">`;
}

/** One inline HTML tag: what it means for a document, if anything. */
export type InlineHtml =
  | { kind: 'break' }
  | { kind: 'image'; image: HtmlImage }
  | { kind: 'anchor'; id: string; idOnly?: true }
  | { kind: 'anchor-end' }
  | { kind: 'format'; mark: MarkType | null; opens: boolean; color?: { text: string; background: string } }
  | { kind: 'icon'; icon: string }
  | { kind: 'picture'; opens: boolean }
  | { kind: 'button'; href: string | undefined; style: 'primary' | 'secondary'; icon?: string }
  | { kind: 'source'; dark: string }
  | { kind: 'comment' }
  | null;

export function readInlineHtml(html: string): InlineHtml {
  const tag = html.trim();
  if (/^<\/a\s*>$/i.test(tag)) return { kind: 'anchor-end' };
  const closing = /^<\/([a-z]+)\s*>$/i.exec(tag)?.[1]?.toLowerCase();
  if (closing === 'picture') return { kind: 'picture', opens: false };
  if (closing !== undefined) return closing in FORMATTING_TAGS ? { kind: 'format', mark: FORMATTING_TAGS[closing]!, opens: false } : null;
  const nodes = parseDocument(tag).children.filter((n) => !isBlankText(n));
  const element = nodes.length === 1 ? nodes[0] : undefined;
  if (element && isComment(element)) return { kind: 'comment' };
  if (!element || !isElement(element)) return null;
  if (element.name === 'picture' && element.children.length === 0 && Object.keys(element.attribs).length === 0) return { kind: 'picture', opens: true };
  if (element.name === 'source' && DARK_SCHEME.test(element.attribs.media ?? '') && element.attribs.srcset) return { kind: 'source', dark: element.attribs.srcset };
  if (element.name === 'mark' && element.children.length === 0) {
    const color = markColor(element.attribs.style ?? '');
    return color ? { kind: 'format', mark: 'color', opens: true, color } : { kind: 'format', mark: null, opens: true };
  }
  // GitBook writes an icon as <i class="fa-name">:name:</i>; the text inside is for other renderers.
  const icon = element.name === 'i' ? /^fa-([a-z0-9-]+)$/.exec(element.attribs.class ?? '')?.[1] : undefined;
  if (icon && Object.keys(element.attribs).length === 1) return { kind: 'icon', icon };
  if (element.name in FORMATTING_TAGS && element.children.length === 0 && Object.keys(element.attribs).length === 0) {
    return { kind: 'format', mark: FORMATTING_TAGS[element.name]!, opens: true };
  }
  if (element.name === 'br') return { kind: 'break' };
  if (element.name === 'img') {
    if (Object.keys(element.attribs).some((name) => !IMG_ATTRIBUTES.has(name))) return null;
    const image = imageOf(element, '');
    return image ? { kind: 'image', image } : null;
  }
  // GitBook's inline buttons: <a href="…" class="button primary" data-icon="rocket">Label</a>.
  const button = element.name === 'a' ? /^button (primary|secondary)$/.exec(element.attribs.class ?? '') : null;
  if (button && element.children.length === 0 && Object.keys(element.attribs).every((name) => ['href', 'class', 'data-icon'].includes(name))) {
    const read: InlineHtml = { kind: 'button', href: element.attribs.href, style: button[1] as 'primary' | 'secondary' };
    if (element.attribs['data-icon']) read.icon = element.attribs['data-icon'];
    return read;
  }
  if (element.name === 'a' && element.attribs.id !== undefined && element.children.length === 0) {
    // `<a id="x"></a>`: how GitBook wrote a heading's anchor before it added `href="#x"`.
    const names = Object.keys(element.attribs);
    return names.length === 1 ? { kind: 'anchor', id: element.attribs.id, idOnly: true } : { kind: 'anchor', id: element.attribs.id };
  }
  return null;
}

// GitBook escapes `&`, `"` and `'` in attribute values as hexadecimal references (`site&#x27;s`, `a=1&#x26;b=2`).
const ATTRIBUTE_ESCAPES: Record<string, string> = { '&': '&#x26;', '"': '&#x22;', "'": '&#x27;' };
const attribute = (name: string, value: string) => `${name}="${value.replace(/[&"']/g, (c) => ATTRIBUTE_ESCAPES[c]!)}"`;

export function imgHtml(image: HtmlImage): string {
  const attributes = [attribute('src', image.src), attribute('alt', image.alt)];
  if (image.width !== undefined) attributes.push(attribute('width', typeof image.width === 'number' ? String(image.width) : `${image.width.value}%`));
  if (image.size) attributes.push(attribute('data-size', image.size));
  const img = `<img ${attributes.join(' ')}>`;
  return image.dark ? `<picture><source ${attribute('srcset', image.dark)} media="(prefers-color-scheme: dark)">${img}</picture>` : img;
}

/** The HTML inside a `<figcaption><p>`, when it holds elements (a plain caption is its text). */
function captionMarkup(caption: HtmlElement): string | undefined {
  const only = caption.children.filter((c) => !isBlankText(c));
  const inner = only.length === 1 && isElement(only[0]!) && only[0].name === 'p' ? only[0] : caption;
  if (!inner.children.some((c) => isElement(c))) return undefined;
  // The tree was read with its entities decoded: its text is escaped again, as GitBook escapes it.
  const stack: HtmlNode[] = [...inner.children];
  for (let node = stack.pop(); node; node = stack.pop()) {
    if (node.type === ElementType.Text) (node as { data: string }).data = escapeCaptionText((node as { data: string }).data);
    else if (isElement(node)) stack.push(...node.children);
  }
  return DomUtils.getInnerHTML(inner, { decodeEntities: false }).trim();
}

/** Text of a caption as GitBook writes it: `&` and `<` as hexadecimal references, `>` as it is. */
export function escapeCaptionText(text: string): string {
  return text.replace(/&/g, '&#x26;').replace(/</g, '&#x3C;');
}

export function figureHtml(image: HtmlImage): string {
  // GitBook writes the <figcaption> even when it is empty.
  const inner = image.captionHtml ?? escapeCaptionText(image.caption);
  const caption = image.caption || image.captionHtml ? `<figcaption><p>${inner}</p></figcaption>` : '<figcaption></figcaption>';
  return `<figure>${imgHtml(image)}${caption}</figure>`;
}

/** `inner`: the summary's own HTML when the title was read from it unchanged (rich titles: <strong>, <code>). */
export function summaryHtml(title: string, inner?: string): string {
  return `<summary>${inner ?? escapeText(title.replace(/\s+/g, ' ').trim())}</summary>`;
}

/** `idOnly`: the older spelling without `href`, written back as a file had it. */
export function anchorHtml(id: string, idOnly = false): string {
  return idOnly ? `<a id="${escapeAttribute(id)}"></a>` : `<a href="#${escapeAttribute(id)}" id="${escapeAttribute(id)}"></a>`;
}

export function iconHtml(icon: string): string {
  return `<i class="fa-${escapeAttribute(icon)}">:${escapeText(icon)}:</i>`;
}

export function buttonHtml(label: string, style: string, href: string | undefined, icon?: string): string {
  const attributes = [href === undefined ? '' : ` ${attribute('href', href)}`, ` class="button ${escapeAttribute(style)}"`, icon ? ` ${attribute('data-icon', icon)}` : ''];
  return `<a${attributes.join('')}>${escapeText(label)}</a>`;
}

// The elements of HTML (WHATWG, with the obsolete ones still met in docs): a tag of another name in markdown
// text, like `List<T>` or `<instance-id>`, is a placeholder a writer meant as text.
const HTML_ELEMENTS = new Set(
  (
    'a abbr address area article aside audio b base bdi bdo big blockquote body br button canvas caption center cite code col colgroup ' +
    'data datalist dd del details dfn dialog dir div dl dt em embed fieldset figcaption figure font footer form frame frameset h1 h2 h3 ' +
    'h4 h5 h6 head header hgroup hr html i iframe img input ins kbd label legend li link main map mark math menu meta meter nav noscript ' +
    'object ol optgroup option output p param picture pre progress q rp rt ruby s samp script search section select slot small source ' +
    'span strike strong style sub summary sup svg table tbody td template textarea tfoot th thead time title tr track tt u ul var video wbr'
  ).split(' '),
);

/** Whether inline HTML is a tag of no HTML element (`<T>`, `</T>`, `<instance-id>`): text, not markup. */
export function isPlaceholderTag(html: string): boolean {
  const name = /^<\/?([A-Za-z][A-Za-z0-9-]*)(?:\s[^>]*)?\/?>$/.exec(html.trim())?.[1];
  return name !== undefined && !HTML_ELEMENTS.has(name.toLowerCase());
}
