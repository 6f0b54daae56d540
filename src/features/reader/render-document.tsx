import type { ComponentChild, VNode } from 'preact';
import { renderToString } from 'preact-render-to-string';
import type { BundledLanguage } from 'shiki';
import { blockText } from '../content/document/nodes.ts';
import type {
  Block, Code, Document, Expandable, FlowBlock, Fragment, Heading, Hint, Images, InlineContent, List, Tabs,
} from '../content/document/types.ts';
import { headingAnchors, MAX_DEPTH } from './heading-anchors.ts';
import { languageOf, prepareHighlighter } from './highlight.ts';
import { loadIcons } from './icon-set.tsx';
import { HINT_ICONS } from './icons.tsx';
import type { LinkResolver } from './link-resolver.ts';
import { renderContentRef, renderEmbed, renderFile } from './render-cards.tsx';
import { renderCode } from './render-code.tsx';
import { createContext } from './render-context.ts';
import type { RenderContext, RenderOptions } from './render-context.ts';
import { imageSource, renderInlines } from './render-inline.tsx';
import { renderOtherBlock } from './render-opaque-blocks.tsx';
import type { OtherBlock } from './render-opaque-blocks.tsx';
import { renderTable } from './render-table.tsx';
import { OPENAPI_BLOCK_TYPES } from './render-openapi.tsx';

export type { RenderOptions } from './render-context.ts';

/** HTML this renderer produced (escaped by construction), as opposed to any string. */
export type RenderedHtml = string & { readonly __rendered: unique symbol };

/**
 * A JSON document as the HTML of a page's body. Headings get the anchors outline() lists; code is highlighted
 * (grammars load on first use, hence async); references resolve through `links`, and those that do not render
 * as text. Blocks of the spec this renderer does not know are skipped.
 */
export async function renderDocument(document: Document, links: LinkResolver, options: RenderOptions = {}): Promise<RenderedHtml> {
  const needs = whatDocumentNeeds(document);
  await Promise.all([prepareHighlighter(needs.languages), needs.icons ? loadIcons() : undefined]);
  const ctx = createContext(links, options, headingAnchors(document));
  return renderToString(<>{renderFlow(document.nodes ?? [], ctx, 0)}</>) as RenderedHtml;
}

/** The languages of the document's code blocks that shiki knows, and whether it names icons. */
function whatDocumentNeeds(document: Document): { languages: Set<BundledLanguage>; icons: boolean } {
  const languages = new Set<BundledLanguage>();
  let icons = false;
  const stack: { node: unknown; depth: number }[] = (document.nodes ?? []).map((node) => ({ node, depth: 0 }));
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    if (!node || typeof node !== 'object' || depth > MAX_DEPTH) continue;
    const block = node as { type?: string; data?: { syntax?: string }; nodes?: unknown[]; fragments?: { nodes?: unknown[] }[] };
    if (block.type === 'icon') icons = true;
    // An API reference shows JSON examples and a curl command.
    if (block.type && OPENAPI_BLOCK_TYPES.has(block.type)) {
      for (const syntax of ['json', 'bash']) languages.add(languageOf(syntax)!);
      continue;
    }
    if (block.type === 'code') {
      const language = languageOf(block.data?.syntax);
      if (language) languages.add(language);
      continue;
    }
    for (const child of block.nodes ?? []) stack.push({ node: child, depth: depth + 1 });
    for (const fragment of block.fragments ?? []) for (const child of fragment?.nodes ?? []) stack.push({ node: child, depth: depth + 1 });
  }
  return { languages, icons };
}

export function renderFlow(blocks: readonly Block[], ctx: RenderContext, depth: number): ComponentChild[] {
  const out: ComponentChild[] = [];
  for (const block of blocks) {
    if (!block || typeof block !== 'object') continue;
    if (depth > MAX_DEPTH) {
      // Deeper than any real document: the text, without structure (rendering recurses).
      const text = blockText(block);
      if (text) out.push(<p>{text}</p>);
      continue;
    }
    out.push(renderBlock(block as FlowBlock, ctx, depth));
  }
  return out;
}

function renderBlock(block: FlowBlock, ctx: RenderContext, depth: number): ComponentChild {
  switch (block.type) {
    case 'paragraph': {
      const align = block.data?.align;
      return <p class={align === 'center' || align === 'end' ? `align-${align}` : undefined}>{renderInlines(block.nodes, ctx)}</p>;
    }
    case 'heading-1':
    case 'heading-2':
    case 'heading-3':
      return renderHeading(block, ctx);
    case 'list-ordered':
    case 'list-unordered':
    case 'list-tasks':
      return renderList(block, ctx, depth);
    case 'divider':
      return <hr />;
    case 'blockquote':
      return <blockquote>{renderFlow(block.nodes ?? [], ctx, depth + 1)}</blockquote>;
    case 'hint':
      return renderHint(block, ctx, depth);
    case 'code':
      return renderCode(block as Code, ctx);
    case 'table':
      return renderTable(block, ctx, depth, renderFlow);
    case 'images':
      return renderImages(block, ctx, depth);
    case 'tabs':
      return renderTabs(block, ctx, depth);
    case 'expandable':
      return renderExpandable(block, ctx, depth);
    case 'embed':
      return renderEmbed(block, ctx);
    case 'file':
      return renderFile(block, ctx);
    case 'content-ref':
      return renderContentRef(block.data?.ref, ctx);
    default:
      return renderOtherBlock(block as unknown as OtherBlock, ctx, depth, renderFlow);
  }
}

function renderHeading(block: Heading, ctx: RenderContext): VNode {
  const id = ctx.anchors.get(block);
  const content = renderInlines(block.nodes, ctx);
  // The page title is the h1; the document's levels sit below it.
  const inner = (
    <>
      {content}
      {id ? (
        <a class="heading-anchor" href={`#${id}`} aria-label={`Link to ${blockText(block) || 'this section'}`}>
          #
        </a>
      ) : null}
    </>
  );
  const align = block.data?.align === 'center' || block.data?.align === 'end' ? `align-${block.data.align}` : undefined;
  if (block.type === 'heading-1') return <h2 id={id} class={align}>{inner}</h2>;
  if (block.type === 'heading-2') return <h3 id={id} class={align}>{inner}</h3>;
  // Markdown's ##### and ###### are heading-3 keeping their level (types.ts): one level down each, to h6.
  if (block.data?.level === 5) return <h5 id={id} class={align}>{inner}</h5>;
  if (block.data?.level === 6) return <h6 id={id} class={align}>{inner}</h6>;
  return <h4 id={id} class={align}>{inner}</h4>;
}

function renderList(block: List, ctx: RenderContext, depth: number): VNode {
  const items = (block.nodes ?? []).map((item) => {
    const content = renderFlow(item?.nodes ?? [], ctx, depth + 1);
    if (block.type !== 'list-tasks') return <li>{content}</li>;
    const checked = item?.data?.checked === true;
    return (
      <li class={checked ? 'task checked' : 'task'}>
        <input type="checkbox" checked={checked} disabled aria-label={checked ? 'Done' : 'Not done'} />
        <div class="task-content">{content}</div>
      </li>
    );
  });
  if (block.type === 'list-ordered') {
    const start = typeof block.data?.start === 'number' && Number.isInteger(block.data.start) ? block.data.start : undefined;
    return <ol start={start !== 1 ? start : undefined}>{items}</ol>;
  }
  return <ul class={block.type === 'list-tasks' ? 'task-list' : undefined}>{items}</ul>;
}

const HINT_LABELS = { info: 'Info', warning: 'Warning', danger: 'Danger', success: 'Success' } as const;

function renderHint(block: Hint, ctx: RenderContext, depth: number): VNode {
  const style = Object.hasOwn(HINT_LABELS, block.data?.style) ? block.data.style : 'info';
  return (
    <div class={`hint hint-${style}`} role="note" aria-label={HINT_LABELS[style]}>
      <span class="hint-icon" aria-hidden="true">
        {HINT_ICONS[style]}
      </span>
      <div class="hint-content">{renderFlow(block.nodes ?? [], ctx, depth + 1)}</div>
    </div>
  );
}

function fragmentOf(fragments: readonly Fragment[] | undefined, name: string): Fragment | undefined {
  return (fragments ?? []).find((f) => f?.fragment === name);
}

function renderImages(block: Images, ctx: RenderContext, depth: number): VNode | null {
  const figures = (block.nodes ?? []).map((image) => {
    const src = imageSource(image?.data?.ref, ctx);
    if (!src) return null;
    const dark = imageSource(image.data.refDark, ctx);
    const caption = fragmentOf(image.fragments, 'caption');
    const captionNodes = caption ? renderFlow(caption.nodes ?? [], ctx, depth + 1) : [];
    const alt = image.data.alt ?? (caption ? blockText({ object: 'block', type: 'blockquote', nodes: caption.nodes } as Block) : '');
    const size = imageSize(image.data.width, image.data.height);
    const img = (className?: string, source = src) => (
      <img src={source} alt={alt} class={className} loading="lazy" decoding="async" width={size.width} height={size.height} style={size.share ? 'width:100%' : undefined} />
    );
    return (
      <figure class="image" style={size.share ? `width:${size.share}` : undefined}>
        {dark ? (
          <>
            {img('only-light')}
            {img('only-dark', dark)}
          </>
        ) : (
          img()
        )}
        {captionNodes.length > 0 ? <figcaption>{captionNodes}</figcaption> : null}
      </figure>
    );
  });
  if (!figures.some(Boolean)) return null;
  const classes = ['images', `align-${block.data?.align ?? 'center'}`];
  if (block.data?.fullWidth) classes.push('full-width');
  if (block.data?.withFrame) classes.push('framed');
  if (figures.length > 1) classes.push('gallery');
  return <div class={classes.join(' ')}>{figures}</div>;
}

/**
 * Sizes are pixels (numbers) or percentages; anything else is ignored rather than put in a style. Pixels are the
 * image's own (within the column); a percentage is the share of the column the image takes, as GitBook shows it:
 * it sizes the figure (a flex item of `.images`) and the image fills the figure.
 */
function imageSize(width: unknown, height: unknown): { width?: number; height?: number; share?: string } {
  const out: { width?: number; height?: number; share?: string } = {};
  const pixels = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v > 0 && v < 10_000 ? Math.round(v) : undefined);
  out.width = pixels(width);
  out.height = pixels(height);
  // The spec's Length is a number or `{ value, unit }`; older documents held the percentage as a string.
  const length = width as { value?: unknown; unit?: unknown } | null;
  const asText = typeof width === 'string' ? width : length && typeof length === 'object' && typeof length.value === 'number' && length.unit === '%' ? `${length.value}%` : undefined;
  if (asText && /^\d{1,3}(?:\.\d+)?%$/.test(asText) && parseFloat(asText) <= 100) out.share = asText;
  return out;
}

/**
 * Tabs follow the WAI-ARIA tabs pattern; the script switches them. Without script every panel shows
 * (the layout's <noscript> style), so nothing is unreadable.
 */
function renderTabs(block: Tabs, ctx: RenderContext, depth: number): VNode | null {
  const items = (block.nodes ?? []).filter((item) => item && typeof item === 'object');
  if (items.length === 0) return null;
  const ids = items.map(() => ctx.nextId('tab'));
  return (
    <div class={block.data?.fullWidth ? 'tabs full-width' : 'tabs'}>
      <div class="tab-list" role="tablist">
        {items.map((item, i) => (
          <button type="button" role="tab" id={`${ids[i]}-tab`} aria-controls={`${ids[i]}-panel`} aria-selected={i === 0 ? 'true' : 'false'} tabindex={i === 0 ? 0 : -1}>
            {item.data?.title?.trim() || `Tab ${i + 1}`}
          </button>
        ))}
      </div>
      {items.map((item, i) => (
        <div class="tab-panel" role="tabpanel" id={`${ids[i]}-panel`} aria-labelledby={`${ids[i]}-tab`} tabindex={0} hidden={i !== 0}>
          {renderFlow(item.nodes ?? [], ctx, depth + 1)}
        </div>
      ))}
    </div>
  );
}

function renderExpandable(block: Expandable, ctx: RenderContext, depth: number): VNode {
  const title = fragmentOf(block.fragments, 'expandable-title');
  const body = fragmentOf(block.fragments, 'expandable-body');
  const titleNodes = (title?.nodes ?? []).flatMap((node) =>
    node && 'nodes' in node && (node.type === 'paragraph' || node.type.startsWith('heading-')) ? renderInlines(node.nodes as InlineContent[], ctx) : [],
  );
  return (
    <details class="expandable">
      <summary>{titleNodes.length > 0 ? titleNodes : 'Details'}</summary>
      <div class="expandable-body">{renderFlow(body?.nodes ?? [], ctx, depth + 1)}</div>
    </details>
  );
}
