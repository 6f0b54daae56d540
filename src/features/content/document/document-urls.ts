import { safeImageUrl, safeLinkUrl, urlScheme } from './safe-url.ts';

/*
 * The URLs a document holds (a link's or a button's reference, an image's and its dark variant's, a card's, an
 * embed's, a table cell's) and which of them may be stored: those the reader would render (safe-url.ts), and the
 * empty URL, which renders as nothing. The renderers filter anyway; a document is refused when it holds another
 * (issue 38: `javascript:` and `data:` links reached the editor's DOM), so no client of the API, the editor's
 * included, is handed one. Conversions from sources (markdown, HTML) drop them instead of failing: a link keeps
 * its text without its target, anything else gets the empty URL.
 */

type Json = Record<string, unknown>;
type Usage = 'link' | 'image';

/** Nodes whose reference is an image's source. */
const IMAGES = new Set(['image', 'inline-image']);

/** Whether a URL of this use may be stored. */
export function isStorableUrl(url: string, usage: Usage): boolean {
  if (urlScheme(url) === null) return true;
  return safeLinkUrl(url) !== null || (usage === 'image' && safeImageUrl(url) !== null);
}

/** The first URL of the document that may not be stored: its JSON path and why; null when there is none. */
export function unsafeUrlProblem(document: unknown): { path: string; message: string } | null {
  const stack: { value: unknown; path: string }[] = [{ value: document, path: '' }];
  while (stack.length > 0) {
    const { value, path } = stack.pop()!;
    if (!isObject(value)) continue;
    for (const held of urlsOf(value, path)) {
      if (isStorableUrl(held.url, held.usage)) continue;
      const allowed = held.usage === 'image' ? 'http(s) URLs, base64 data: URLs of raster images' : 'http(s), mailto: and tel: URLs';
      return { path: held.path, message: `is a ${urlScheme(held.url)} URL, which a document may not hold: ${held.usage}s may be ${allowed}, or page, anchor and relative references` };
    }
    for (const field of ['fragments', 'nodes'] as const) {
      const children = value[field];
      if (!Array.isArray(children)) continue;
      for (let i = children.length - 1; i >= 0; i--) stack.push({ value: children[i], path: `${path}/${field}/${i}` });
    }
  }
  return null;
}

/**
 * The document without the URLs that may not be stored: a link of one is its content (its text stays, its
 * target goes), any other gets the empty URL. The same document when it holds none; else a copy.
 */
export function withoutUnsafeUrls<T>(document: T): T {
  if (unsafeUrlProblem(document) === null) return document;
  const copy = structuredClone(document);
  const stack: unknown[] = [copy];
  while (stack.length > 0) {
    const value = stack.pop();
    if (!isObject(value)) continue;
    for (const held of urlsOf(value, '')) if (!isStorableUrl(held.url, held.usage)) held.set('');
    for (const field of ['fragments', 'nodes'] as const) {
      const children = value[field];
      if (!Array.isArray(children)) continue;
      const kept: unknown[] = [];
      let joining = false;
      for (const child of children) {
        if (isUnsafeLink(child)) {
          for (const inner of Array.isArray(child.nodes) ? child.nodes : []) append(kept, inner, true);
          joining = true;
        } else {
          append(kept, child, joining);
          joining = false;
        }
      }
      value[field] = kept;
      stack.push(...kept);
    }
  }
  return copy;
}

/**
 * Adds a node; with `join`, a Text after a Text becomes part of it: a link's text runs on with the text around it,
 * as one Text (the editor holds neighbouring Texts apart only when they were apart in the page).
 */
function append(nodes: unknown[], node: unknown, join: boolean): void {
  const last = nodes.at(-1);
  if (!join || !isText(last) || !isText(node)) {
    nodes.push(node);
    return;
  }
  const leaves: Json[] = [];
  for (const leaf of [...last.leaves, ...node.leaves] as Json[]) {
    const previous = leaves.at(-1);
    if (previous && JSON.stringify(previous.marks ?? []) === JSON.stringify(leaf.marks ?? [])) leaves[leaves.length - 1] = { ...previous, text: `${String(previous.text)}${String(leaf.text)}` };
    else if (leaf.text !== '' || leaves.length === 0) leaves.push(leaf);
  }
  nodes[nodes.length - 1] = { ...last, leaves };
}

const isText = (node: unknown): node is Json & { leaves: unknown[] } => isObject(node) && node.object === 'text' && Array.isArray(node.leaves);

function isUnsafeLink(node: unknown): node is Json {
  if (!isObject(node) || node.object !== 'inline' || node.type !== 'link' || !isObject(node.data)) return false;
  const ref = node.data.ref;
  return isObject(ref) && ref.kind === 'url' && typeof ref.url === 'string' && !isStorableUrl(ref.url, 'link');
}

interface HeldUrl {
  url: string;
  usage: Usage;
  path: string;
  set(url: string): void;
}

/** The URLs a node holds itself (not its children's). */
function urlsOf(node: Json, path: string): HeldUrl[] {
  const data = node.data;
  if (!isObject(data)) return [];
  const held: HeldUrl[] = [];
  const usage: Usage = IMAGES.has(String(node.type)) ? 'image' : 'link';
  const urlRef = (ref: unknown, refPath: string, refUsage: Usage) => {
    if (isObject(ref) && ref.kind === 'url' && typeof ref.url === 'string') held.push({ url: ref.url, usage: refUsage, path: `${refPath}/url`, set: (url) => (ref.url = url) });
  };
  urlRef(data.ref, `${path}/data/ref`, usage);
  urlRef(data.refDark, `${path}/data/refDark`, usage);
  if (node.type === 'embed' && typeof data.url === 'string') held.push({ url: data.url, usage: 'link', path: `${path}/data/url`, set: (url) => (data.url = url) });
  // A table's cells: a content-ref or image column holds references.
  if (node.type === 'table' && isObject(data.records)) {
    const definition = isObject(data.definition) ? data.definition : {};
    for (const [recordId, record] of Object.entries(data.records)) {
      if (!isObject(record) || !isObject(record.values)) continue;
      for (const [column, value] of Object.entries(record.values)) {
        const columnDefinition = definition[column];
        const cellUsage: Usage = isObject(columnDefinition) && columnDefinition.type === 'image' ? 'image' : 'link';
        urlRef(value, `${path}/data/records/${pointer(recordId)}/values/${pointer(column)}`, cellUsage);
      }
    }
  }
  return held;
}

/** A key as a segment of a JSON pointer (RFC 6901). */
const pointer = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
