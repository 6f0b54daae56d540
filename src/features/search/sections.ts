import { createHash } from 'node:crypto';
import type { Block, Document, Heading } from '../content/document/types.ts';
import { blockText, inlineText } from '../content/document/nodes.ts';
import { slugify } from '../content/tree.ts';

/** A section of a page as search indexes it: the text before the first heading (anchor ''), then one per heading. */
export interface PageSection {
  anchor: string;
  heading: string;
  body: string;
}

/** Bodies longer than this are cut: search excerpts need the start of a section, not a book. */
const MAX_SECTION_CHARS = 20_000;
const MAX_SECTIONS = 500;

/**
 * Splits a page's document at its top-level headings. Headings inside containers (a hint, a tab) stay text of
 * the section around them, as the reader's outline shows only top-level headings. Linear in the document and
 * without recursion (`blockText` walks with a stack), so a deep or big document is a normal input.
 */
export function documentSections(document: Document | undefined): PageSection[] {
  const sections: { anchor: string; heading: string; parts: string[]; length: number }[] = [{ anchor: '', heading: '', parts: [], length: 0 }];
  const anchors = new Set<string>();
  for (const node of document?.nodes ?? []) {
    if (isHeading(node) && sections.length < MAX_SECTIONS) {
      const heading = inlineText(node.nodes).replace(/\s+/g, ' ').trim();
      sections.push({ anchor: uniqueAnchor(node.data?.id || slugify(heading), anchors), heading, parts: [], length: 0 });
      continue;
    }
    const current = sections[sections.length - 1]!;
    if (current.length >= MAX_SECTION_CHARS) continue;
    const text = blockText(node as Block);
    if (!text) continue;
    current.parts.push(text);
    current.length += text.length + 1;
  }
  return sections
    .map((s) => ({ anchor: s.anchor, heading: s.heading, body: s.parts.join('\n').slice(0, MAX_SECTION_CHARS) }))
    .filter((s, i) => i === 0 || s.heading !== '' || s.body !== '');
}

function isHeading(node: { type: string }): node is Heading {
  return node.type === 'heading-1' || node.type === 'heading-2' || node.type === 'heading-3';
}

function uniqueAnchor(base: string, taken: Set<string>): string {
  let anchor = base;
  for (let i = 1; taken.has(anchor); i++) anchor = `${base}-${i}`;
  taken.add(anchor);
  return anchor;
}

/** Characters of a section an embedding model reads at most: its start (a small model's context is short). */
const EMBEDDED_CHARS = 2_000;

/** The text an embedding model reads of a section: where it is (page title, heading), then its start. */
export function embeddedText(title: string, heading: string, body: string): string {
  return [heading ? `${title} › ${heading}` : title, body].join('\n').slice(0, EMBEDDED_CHARS);
}

/** What names a section's embedded text (search_sections.content_hash): equal texts share a vector. */
export function contentHash(text: string): string {
  return createHash('sha256').update(text).digest('base64url');
}
