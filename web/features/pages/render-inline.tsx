import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { ContentRef, InlineContent, InlineImage, Leaf, Mark, Text } from '../../../src/features/content/document/types.ts';
import { emojiCharacter } from '../../../src/features/reader/emoji.ts';
import { NamedIcon } from '../icons/named-icon.tsx';
import { InlineFormula } from '../math/formula.tsx';
import { imageSource, resolveRef, type AppLinks, type ResolvedLink } from './links.ts';
import { useRefName } from './ref-titles.ts';
import { useExpressionText } from './variables.ts';

/** Inline content (texts with marks, links, images, emoji, math, icons, …) as React nodes, as the reader renders it. */
export function renderInlines(nodes: readonly InlineContent[] | undefined, links: AppLinks, inLink = false): ReactNode[] {
  const out: ReactNode[] = [];
  (nodes ?? []).forEach((node, i) => {
    if (!node || typeof node !== 'object') return;
    if (node.object === 'text') out.push(...renderText(node, i));
    else if (node.object === 'inline') out.push(renderInline(node, links, inLink, i));
  });
  return out;
}

function renderText(node: Text, index: number): ReactNode[] {
  return (node.leaves ?? []).map((leaf, i) => renderLeaf(leaf, `${index}.${i}`));
}

function renderLeaf(leaf: Leaf, key: string): ReactNode {
  const value = typeof leaf?.text === 'string' ? leaf.text : '';
  if (!value) return null;
  let child: ReactNode = value.includes('\n') ? value.split('\n').flatMap((part, i) => (i === 0 ? [part] : [<br key={i} />, part])) : value;
  for (const mark of leaf.marks ?? []) child = applyMark(mark, child);
  return <span key={key}>{child}</span>;
}

const COLOR = /^[a-z]{2,20}$/;

function applyMark(mark: Mark, child: ReactNode): ReactNode {
  switch (mark?.type) {
    case 'bold': return <strong>{child}</strong>;
    case 'italic': return <em>{child}</em>;
    case 'strikethrough': return <s>{child}</s>;
    case 'code': return <code>{child}</code>;
    case 'keyboard': return <kbd>{child}</kbd>;
    case 'superscript': return <sup>{child}</sup>;
    case 'subscript': return <sub>{child}</sub>;
    case 'color': {
      // Theme colour names (`red`, `primary`, …): classes of the reader's stylesheet, accessible in light and dark.
      const { text, background } = (mark.data ?? {}) as { text?: unknown; background?: unknown };
      const classes = [typeof text === 'string' && COLOR.test(text) ? `color-${text}` : '', typeof background === 'string' && COLOR.test(background) ? `bg-${background}` : ''];
      const className = classes.filter(Boolean).join(' ');
      return className ? <span className={className}>{child}</span> : child;
    }
    default: return child;
  }
}

/** A link: one of the app's own through the router (no reload), another as a plain anchor. */
export function LinkTo({ link, className, children }: { link: ResolvedLink; className?: string; children: ReactNode }) {
  if (link.internal) return <Link to={link.href.replace(/^\/app/, '')} className={className}>{children}</Link>;
  return <a href={link.href} className={className} rel={link.external ? 'noopener' : undefined}>{children}</a>;
}

function renderInline(node: Exclude<InlineContent, Text>, links: AppLinks, inLink: boolean, key: number): ReactNode {
  const data = (node as { data?: Record<string, unknown> }).data ?? {};
  switch (node.type) {
    case 'link': {
      const inner = renderInlines((node.nodes ?? []) as InlineContent[], links, true);
      const link = inLink ? null : resolveRef(node.data?.ref, links);
      return link ? <LinkTo key={key} link={link}>{inner}</LinkTo> : <span key={key} className="unresolved-link">{inner}</span>;
    }
    case 'inline-image':
      return <InlineImageView key={key} node={node} links={links} />;
    case 'emoji': {
      const emoji = emojiCharacter(data.code);
      return emoji ? <span key={key} className="emoji">{emoji}</span> : null;
    }
    case 'inline-math':
      return <InlineFormula key={key} formula={typeof data.formula === 'string' ? data.formula : ''} />;
    case 'mention': {
      const ref = data.ref as (ContentRef & { user?: string }) | undefined;
      // A person has no page in the app: their name, as the editor shows it (ref-titles.ts).
      if (ref?.kind === 'user') return <PersonMention key={key} user={typeof ref.user === 'string' ? ref.user : ''} />;
      const link = inLink ? null : resolveRef(ref, links);
      return link?.title ? <LinkTo key={key} link={link} className="mention">{link.title}</LinkTo> : null;
    }
    case 'button': {
      const label = typeof data.label === 'string' ? data.label : '';
      if (!label) return null;
      const link = inLink ? null : resolveRef(data.ref as ContentRef | undefined, links);
      const className = `button button-${data.kind === 'secondary' ? 'secondary' : 'primary'}`;
      return link ? <LinkTo key={key} link={link} className={className}>{label}</LinkTo> : <span key={key} className={className}>{label}</span>;
    }
    case 'annotation': {
      const text = renderInlines(((node as { nodes?: InlineContent[] }).nodes ?? []).filter((n) => n?.object === 'text'), links, inLink);
      return <span key={key} className="annotation">{text}</span>;
    }
    case 'icon':
      return <NamedIcon key={key} name={data.icon} className="inline-icon" />;
    case 'expression':
      return <Expression key={key} expression={data.expression} />;
    default:
      return null;
  }
}

/** A variable's value, from the page's variables (variables.ts). */
function Expression({ expression }: { expression: unknown }) {
  return <span className="expression">{useExpressionText(expression)}</span>;
}

function InlineImageView({ node, links }: { node: InlineImage; links: AppLinks }) {
  const src = imageSource(node.data?.ref, links);
  if (!src) return null;
  const dark = imageSource(node.data?.refDark, links);
  const alt = node.data?.alt ?? node.data?.caption ?? '';
  const className = node.data?.size === 'line' ? 'inline-image inline-image-line' : 'inline-image';
  if (!dark) return <img className={className} src={src} alt={alt} loading="lazy" decoding="async" />;
  return (
    <>
      <img className={`${className} only-light`} src={src} alt={alt} loading="lazy" decoding="async" />
      <img className={`${className} only-dark`} src={dark} alt={alt} loading="lazy" decoding="async" />
    </>
  );
}

function PersonMention({ user }: { user: string }) {
  const name = useRefName('', { kind: 'user', user });
  return name === undefined ? <span className="mention" aria-busy="true">…</span> : <span className="mention">{name ?? 'Unknown person'}</span>;
}
