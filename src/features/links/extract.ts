/**
 * Link extraction (pure): the references a page document makes to other content. Documents are immutable and
 * stored once per distinct content, so this runs once per new document, at write time (content/document-store.ts),
 * and its rows are shared by every revision that contains the document.
 */

/** `dependsOn`: the page shows the target (an image, a file block); `reference`: it points at it. */
export type LinkRelation = 'reference' | 'dependsOn';

export interface ExtractedLink {
  kind: 'page' | 'file' | 'anchor' | 'url';
  /** A page id, a file id, a URL; for an anchor, its page ('' when the anchor is on the page itself). */
  target: string;
  anchor: string | null;
  /** The space of a page or anchor reference when it names one (links to other spaces are kept, not resolved). */
  space: string | null;
  relation: LinkRelation;
}

/** Nodes whose reference is something the page shows rather than points to. */
const DEPENDS_ON = new Set(['image', 'images', 'file', 'drawing']);

/** Documents are bounded by the body limit, but a walk must still stop on absurd inputs instead of running on. */
const MAX_NODES = 200_000;

export function extractLinks(document: unknown): ExtractedLink[] {
  const links: ExtractedLink[] = [];
  const seen = new Set<string>();
  const add = (link: ExtractedLink | undefined) => {
    if (!link) return;
    const key = JSON.stringify([link.kind, link.target, link.anchor, link.space, link.relation]);
    if (seen.has(key)) return;
    seen.add(key);
    links.push(link);
  };
  // An explicit stack, not recursion: deep nesting cannot overflow the call stack.
  const stack: unknown[] = [document];
  let visited = 0;
  while (stack.length > 0 && visited < MAX_NODES) {
    const node = stack.pop();
    visited += 1;
    if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i -= 1) stack.push(node[i]);
      continue;
    }
    if (!isObject(node)) continue;
    const type = typeof node.type === 'string' ? node.type : '';
    const relation: LinkRelation = DEPENDS_ON.has(type) ? 'dependsOn' : 'reference';
    const data = node.data;
    if (isObject(data)) {
      add(linkOfRef(data.ref, relation));
      add(linkOfRef(data.refDark, relation));
      if (type === 'embed' && typeof data.url === 'string') add(linkOfUrl(data.url, 'reference'));
    }
    // Children of blocks (`nodes`), fragments of tabs, hints and expandables (`fragments`), and a document's root.
    if (Array.isArray(node.nodes)) stack.push(node.nodes);
    if (Array.isArray(node.fragments)) stack.push(node.fragments);
    if (isObject(node.document)) stack.push(node.document);
  }
  return links;
}

function linkOfRef(ref: unknown, relation: LinkRelation): ExtractedLink | undefined {
  if (!isObject(ref)) return undefined;
  const space = typeof ref.space === 'string' && ref.space !== '' ? ref.space : null;
  switch (ref.kind) {
    case 'page':
      return typeof ref.page === 'string' && ref.page !== '' ? { kind: 'page', target: ref.page, anchor: null, space, relation } : undefined;
    case 'anchor':
      return typeof ref.anchor === 'string' && ref.anchor !== ''
        ? { kind: 'anchor', target: typeof ref.page === 'string' ? ref.page : '', anchor: ref.anchor, space, relation }
        : undefined;
    case 'file':
      return typeof ref.file === 'string' && ref.file !== '' ? { kind: 'file', target: ref.file, anchor: null, space: null, relation } : undefined;
    case 'url':
      return typeof ref.url === 'string' ? linkOfUrl(ref.url, relation) : undefined;
    default:
      // Users, collections, spaces, reusable content, OpenAPI specs: not links to check.
      return undefined;
  }
}

/** Only absolute http(s) URLs are links to check; `mailto:`, relative and empty ones are not. */
function linkOfUrl(url: string, relation: LinkRelation): ExtractedLink | undefined {
  const trimmed = url.trim();
  if (!/^https?:\/\//i.test(trimmed)) return undefined;
  return { kind: 'url', target: trimmed, anchor: null, space: null, relation };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
