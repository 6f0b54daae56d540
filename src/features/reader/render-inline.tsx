import type { ComponentChild, VNode } from 'preact';
import { blockText } from '../content/document/nodes.ts';
import type { Block, ContentRef, InlineContent, InlineImage, Leaf, Mark, Text } from '../content/document/types.ts';
import { emojiCharacter } from './emoji.ts';
import { namedIcon } from './icon-set.tsx';
import { resolveLink } from './link-resolver.ts';
import type { ResolvedLink } from './link-resolver.ts';
import { expressionValue } from './expression-value.ts';
import { formulaToMathMl } from './math.ts';
import type { RenderContext } from './render-context.ts';
import { safeImageUrl } from '../content/document/safe-url.ts';

/** Inline content (texts with marks, links, images, emoji, math, …) as preact nodes. */
export function renderInlines(nodes: readonly InlineContent[] | undefined, ctx: RenderContext, inLink = ctx.inLink === true): ComponentChild[] {
  const out: ComponentChild[] = [];
  for (const node of nodes ?? []) {
    if (!node || typeof node !== 'object') continue;
    if (node.object === 'text') out.push(...renderText(node));
    else if (node.object === 'inline') out.push(renderInline(node, ctx, inLink));
  }
  return out;
}

function renderText(node: Text): ComponentChild[] {
  return (node.leaves ?? []).map(renderLeaf);
}

const MARK_ELEMENTS: Partial<Record<Mark['type'], string>> = {
  bold: 'strong', italic: 'em', strikethrough: 's', code: 'code', keyboard: 'kbd', superscript: 'sup', subscript: 'sub',
};

function renderLeaf(leaf: Leaf): ComponentChild {
  const value = typeof leaf?.text === 'string' ? leaf.text : '';
  if (!value) return null;
  // Slate keeps soft line breaks as "\n" in the text.
  let child: ComponentChild = value.includes('\n') ? value.split('\n').flatMap((part, i) => (i === 0 ? [part] : [<br />, part])) : value;
  for (const mark of leaf.marks ?? []) {
    const tag = MARK_ELEMENTS[mark?.type];
    if (tag) child = h(tag, child);
    else if (mark?.type === 'color') child = colorMark(mark, child);
  }
  return child;
}

function h(tag: string, child: ComponentChild): VNode {
  switch (tag) {
    case 'strong': return <strong>{child}</strong>;
    case 'em': return <em>{child}</em>;
    case 's': return <s>{child}</s>;
    case 'code': return <code>{child}</code>;
    case 'kbd': return <kbd>{child}</kbd>;
    case 'sup': return <sup>{child}</sup>;
    default: return <sub>{child}</sub>;
  }
}

const COLOR = /^[a-z]{2,20}$/;
/** Colours are theme names (`red`, `primary`, …): classes the stylesheet maps to accessible light/dark colours. */
function colorMark(mark: Mark, child: ComponentChild): ComponentChild {
  const { text, background } = (mark.data ?? {}) as { text?: unknown; background?: unknown };
  const classes = [
    typeof text === 'string' && COLOR.test(text) ? `color-${text}` : '',
    typeof background === 'string' && COLOR.test(background) ? `bg-${background}` : '',
  ].filter(Boolean);
  return classes.length > 0 ? <span class={classes.join(' ')}>{child}</span> : child;
}

/** An `<a>` for a resolved link; external links honour the site's target setting. */
export function anchor(link: ResolvedLink, ctx: RenderContext, children: ComponentChild, className?: string): VNode {
  const blank = link.external && ctx.options.externalLinks === 'blank';
  return (
    <a href={link.href} class={className} target={blank ? '_blank' : undefined} rel={link.external ? (blank ? 'noopener noreferrer' : 'noopener') : undefined}>
      {children}
      {blank ? <span class="sr-only"> (opens in a new tab)</span> : null}
    </a>
  );
}

function renderInline(node: Exclude<InlineContent, Text>, ctx: RenderContext, inLink: boolean): ComponentChild {
  const data = (node as { data?: Record<string, unknown> }).data ?? {};
  switch (node.type) {
    case 'link': {
      // A link inside a link is invalid HTML: render its content only.
      const inner = renderInlines((node.nodes ?? []) as InlineContent[], ctx, true);
      const link = inLink ? null : resolveLink(node.data?.ref, ctx.links);
      return link ? anchor(link, ctx, inner) : <span class="unresolved-link">{inner}</span>;
    }
    case 'inline-image':
      return renderInlineImage(node, ctx);
    case 'emoji': {
      const emoji = emojiCharacter(data.code);
      return emoji ? <span class="emoji">{emoji}</span> : null;
    }
    case 'inline-math': {
      const formula = typeof data.formula === 'string' ? data.formula : '';
      const mathml = formulaToMathMl(formula, false);
      // temml's output is escaped MathML; the only HTML this renderer does not build itself.
      return mathml ? <span class="math-inline" dangerouslySetInnerHTML={{ __html: mathml }} /> : <code>{formula}</code>;
    }
    case 'mention': {
      const link = inLink ? null : resolveLink(data.ref as ContentRef | undefined, ctx.links);
      return link?.title ? anchor(link, ctx, link.title, 'mention') : null;
    }
    case 'button': {
      const label = typeof data.label === 'string' ? data.label : '';
      const link = inLink ? null : resolveLink(data.ref as ContentRef | undefined, ctx.links);
      if (!label) return null;
      const kind = data.kind === 'secondary' ? 'secondary' : 'primary';
      return link ? anchor(link, ctx, label, `button button-${kind}`) : <span class={`button button-${kind}`}>{label}</span>;
    }
    case 'annotation': {
      // The note shows on hover and focus (title), and is read by screen readers after the text.
      const fragments = (node as { fragments?: { nodes?: Block[] }[] }).fragments ?? [];
      const note = fragments.flatMap((f) => f.nodes ?? []).map(blockText).join(' ').trim();
      const text = renderInlines(((node as { nodes?: InlineContent[] }).nodes ?? []).filter((n) => n?.object === 'text'), ctx, inLink);
      return note ? (
        <span class="annotation" title={note}>
          {text}
          <span class="sr-only"> ({note})</span>
        </span>
      ) : text;
    }
    case 'icon':
      return namedIcon(data.icon, 'inline-icon');
    case 'expression': {
      // A variable's value; readers see nothing of an expression without one (GitBook shows an undefined as '').
      const value = expressionValue(data.expression, ctx.options.variables ?? {});
      return value === null ? null : <span class="expression">{value}</span>;
    }
    default:
      return null;
  }
}

function renderInlineImage(node: InlineImage, ctx: RenderContext): ComponentChild {
  const src = imageSource(node.data?.ref, ctx);
  if (!src) return null;
  const dark = imageSource(node.data?.refDark, ctx);
  const alt = node.data?.alt ?? node.data?.caption ?? '';
  const className = node.data?.size === 'line' ? 'inline-image inline-image-line' : 'inline-image';
  if (!dark) return <img class={className} src={src} alt={alt} loading="lazy" decoding="async" />;
  return (
    <>
      <img class={`${className} only-light`} src={src} alt={alt} loading="lazy" decoding="async" />
      <img class={`${className} only-dark`} src={dark} alt={alt} loading="lazy" decoding="async" />
    </>
  );
}

/** The URL of an image reference (a URL or a file of the space), or null. */
export function imageSource(ref: ContentRef | undefined, ctx: RenderContext): string | null {
  if (!ref || typeof ref !== 'object') return null;
  if (ref.kind === 'url') return typeof ref.url === 'string' ? safeImageUrl(ref.url) : null;
  if (ref.kind === 'file') {
    const file = ctx.links.file(ref);
    return file ? safeImageUrl(file.href) : null;
  }
  return null;
}
