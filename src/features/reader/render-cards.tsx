import type { VNode } from 'preact';
import { blockText } from '../content/document/nodes.ts';
import type { ContentRef, Embed, FileBlock, Fragment } from '../content/document/types.ts';
import { emojiCharacter } from './emoji.ts';
import { ICONS } from './icons.tsx';
import { resolveLink } from './link-resolver.ts';
import type { RenderContext } from './render-context.ts';
import { anchor } from './render-inline.tsx';
import { safeLinkUrl } from '../content/document/safe-url.ts';
import { embedSite } from '../content/document/embed-site.ts';

/* Blocks shown as a card that links elsewhere: embeds, files, content references. */

/**
 * An embed is a link card: loading a third party's player or script would tell it who reads the page,
 * which needs the site's and the visitor's consent.
 */
export function renderEmbed(block: Embed, ctx: RenderContext): VNode | null {
  const url = typeof block.data?.url === 'string' ? safeLinkUrl(block.data.url) : null;
  if (!url) return null;
  return (
    <div class="embed card">
      <span class="card-icon" aria-hidden="true">
        {ICONS.external}
      </span>
      {anchor(
        { href: url, title: null, external: /^https?:/i.test(url) },
        ctx,
        <>
          <span class="card-title">{embedSite(url)}</span>
          <span class="card-description">{url}</span>
        </>,
        'card-link',
      )}
      {captionOf(block)}
    </div>
  );
}

/** A block's caption fragment (embeds and files have one when GitBook wrote text between their tags). */
function captionOf(block: { fragments?: Fragment[] }): VNode | null {
  const caption = (block.fragments ?? []).find((f) => f?.fragment === 'caption');
  const text = (caption?.nodes ?? []).map(blockText).join(' ').trim();
  return text ? <p class="card-caption">{text}</p> : null;
}

export function renderFile(block: FileBlock, ctx: RenderContext): VNode | null {
  const ref = block.data?.ref;
  const file = ref ? ctx.links.file(ref) : null;
  const href = file ? safeLinkUrl(file.href) : null;
  if (!file || !href) return null;
  const details = [file.contentType, typeof file.size === 'number' ? formatSize(file.size) : ''].filter(Boolean).join(' · ');
  return (
    <div class="file card">
      <span class="card-icon" aria-hidden="true">
        {ICONS.file}
      </span>
      <a class="card-link" href={href} download={file.name}>
        <span class="card-title">{file.name}</span>
        {details ? <span class="card-description">{details}</span> : null}
      </a>
      {captionOf(block)}
    </div>
  );
}

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

export function renderContentRef(ref: ContentRef | undefined, ctx: RenderContext): VNode | null {
  const link = resolveLink(ref, ctx.links);
  if (!link) return null;
  const page = ref?.kind === 'page' ? ctx.links.page(ref) : null;
  return (
    <div class="content-ref card">
      <span class="card-icon" aria-hidden="true">
        {emojiCharacter(page?.emoji) ?? ICONS.page}
      </span>
      {anchor(link, ctx, <span class="card-title">{link.title ?? link.href}</span>, 'card-link')}
    </div>
  );
}
