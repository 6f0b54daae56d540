import { inlineText } from '../content/document/text.ts';
import type { Document, Heading } from '../content/document/types.ts';

/*
 * Heading anchors: a heading's explicit `data.id` when it has one (links elsewhere point at it), else a slug
 * of its text. Explicit ids are placed first so a slug never takes one; a repeat gets `-2`, `-3`, … The same
 * walk serves the rendered ids and the outline, so the two always agree.
 */

export interface OutlineItem { id: string; title: string; level: 1 | 2 | 3 }

// Containers deeper than this render as text (render-document.tsx), so no heading below it needs an id.
export const MAX_DEPTH = 32;
const MAX_SLUG = 80;

export function slugify(text: string): string {
  const slug = text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, MAX_SLUG)
    .replace(/-+$/, '');
  return slug || 'section';
}

/** Every heading of the document (in containers too) with its unique anchor, in document order. */
export function headingAnchors(document: Document): Map<Heading, string> {
  const headings: Heading[] = [];
  collect(document.nodes ?? [], 0, headings);
  const taken = new Set<string>();
  const ids = new Map<Heading, string>();
  const claim = (wanted: string): string => {
    let id = wanted;
    for (let n = 2; taken.has(id); n++) id = `${wanted}-${n}`;
    taken.add(id);
    return id;
  };
  for (const heading of headings) {
    const explicit = heading.data?.id;
    if (typeof explicit === 'string' && /^[-a-z0-9.+_]+$/.test(explicit)) ids.set(heading, claim(explicit));
  }
  for (const heading of headings) if (!ids.has(heading)) ids.set(heading, claim(slugify(inlineText(heading.nodes ?? []))));
  return ids;
}

/** The "on this page" outline: the document's top-level headings, with the anchors the renderer gives them. */
export function outline(document: Document, anchors = headingAnchors(document)): OutlineItem[] {
  const items: OutlineItem[] = [];
  for (const block of document.nodes ?? []) {
    if (!isHeading(block)) continue;
    const title = inlineText(block.nodes ?? []).replace(/\s+/g, ' ').trim();
    if (title) items.push({ id: anchors.get(block)!, title, level: Number(block.type.slice(-1)) as 1 | 2 | 3 });
  }
  return items;
}

function isHeading(node: unknown): node is Heading {
  const type = (node as { type?: unknown }).type;
  return type === 'heading-1' || type === 'heading-2' || type === 'heading-3';
}

function collect(nodes: readonly unknown[], depth: number, into: Heading[]): void {
  if (depth > MAX_DEPTH) return;
  for (const node of nodes) {
    if (!node || typeof node !== 'object') continue;
    if (isHeading(node)) {
      into.push(node);
      continue;
    }
    const { nodes: children, fragments } = node as { nodes?: unknown; fragments?: unknown };
    if (Array.isArray(fragments)) for (const f of fragments) collect((f as { nodes?: unknown[] }).nodes ?? [], depth + 1, into);
    if (Array.isArray(children)) collect(children, depth + 1, into);
  }
}
