/**
 * The parts of a page a translation reads and writes, as pure functions over GitBook's JSON document: the texts
 * to translate (never code), and the references to rewrite so that the copy in a target space points at that
 * space's pages and at the source's file bytes.
 */

/** Deeper than any document the content service accepts; a guard, not a rule. */
const MAX_DEPTH = 200;

/** Blocks and inlines whose text is code or data, never prose. */
const UNTRANSLATED = new Set(['code', 'code-line', 'math', 'inline-math', 'openapi', 'openapi-operation', 'openapi-schemas', 'openapi-webhook', 'expression', 'integration', 'drawing', 'embed']);

type Node = Record<string, unknown>;

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Every translatable text of a document in reading order, through `visit`, which returns the replacement. Leaves
 * marked as code and texts of code blocks are left alone; image `alt`/`caption` and tab titles are prose.
 */
export function mapTexts(document: unknown, visit: (text: string) => string): unknown {
  const walk = (node: unknown, depth: number): unknown => {
    if (depth > MAX_DEPTH) return node;
    if (Array.isArray(node)) return node.map((child) => walk(child, depth + 1));
    if (!isNode(node)) return node;
    if (typeof node.type === 'string' && UNTRANSLATED.has(node.type)) return node;
    if (node.object === 'leaf' && typeof node.text === 'string') {
      const marks = Array.isArray(node.marks) ? (node.marks as Node[]) : [];
      if (marks.some((m) => m.type === 'code' || m.type === 'keyboard') || node.text.trim() === '') return node;
      return { ...node, text: visit(node.text) };
    }
    const out: Node = { ...node };
    // A block's own texts (a tab's title, an image's alt) come before its content, as a reader meets them.
    if (isNode(node.data)) {
      const data: Node = { ...node.data };
      for (const key of ['title', 'alt', 'caption'] as const) {
        const value = data[key];
        if (typeof value === 'string' && value.trim() !== '') data[key] = visit(value);
      }
      out.data = data;
    }
    if (Array.isArray(node.nodes)) out.nodes = walk(node.nodes, depth + 1);
    if (Array.isArray(node.leaves)) out.leaves = walk(node.leaves, depth + 1);
    if (Array.isArray(node.fragments)) out.fragments = walk(node.fragments, depth + 1);
    return out;
  };
  return walk(document, 0);
}

/** The texts `mapTexts` would visit, in order. */
export function textsOf(document: unknown): string[] {
  const texts: string[] = [];
  mapTexts(document, (text) => {
    texts.push(text);
    return text;
  });
  return texts;
}

/** Replaces the texts of a document, in the order textsOf gave them, by `translated`. */
export function withTexts(document: unknown, translated: readonly string[]): unknown {
  let i = 0;
  return mapTexts(document, (text) => translated[i++] ?? text);
}

export function countWords(texts: readonly string[]): number {
  let words = 0;
  for (const text of texts) words += text.split(/\s+/).filter((w) => w !== '').length;
  return words;
}

export interface RefTargets {
  /** Source page id -> the page's id in the target space. */
  pages: ReadonlyMap<string, string>;
  /** Source file id -> its download URL (files stay the source's: the copy links their bytes). */
  files: ReadonlyMap<string, string>;
}

/**
 * Points a document's references at the target: a page of the source becomes its counterpart, a file of the
 * source its download URL; references to other spaces and URLs are kept.
 */
export function rewriteRefs(document: unknown, targets: RefTargets): unknown {
  const ref = (value: unknown): unknown => {
    if (!isNode(value)) return value;
    if ((value.kind === 'page' || value.kind === 'anchor') && typeof value.page === 'string' && value.space === undefined) {
      const page = targets.pages.get(value.page);
      return page ? { ...value, page } : value;
    }
    if (value.kind === 'file' && typeof value.file === 'string') {
      const url = targets.files.get(value.file);
      return url ? { kind: 'url', url } : value;
    }
    return value;
  };
  const walk = (node: unknown, depth: number): unknown => {
    if (depth > MAX_DEPTH) return node;
    if (Array.isArray(node)) return node.map((child) => walk(child, depth + 1));
    if (!isNode(node)) return node;
    // A file block names a file of its own space; the copy links the source's bytes from a paragraph instead.
    if (node.type === 'file' && isNode(node.data) && isNode(node.data.ref) && typeof node.data.ref.file === 'string') {
      const url = targets.files.get(node.data.ref.file);
      if (url) return fileLinkParagraph(url);
    }
    const out: Node = { ...node };
    for (const key of ['nodes', 'fragments'] as const) if (Array.isArray(node[key])) out[key] = walk(node[key], depth + 1);
    if (isNode(node.data)) {
      const data: Node = { ...node.data };
      if (data.ref !== undefined) data.ref = ref(data.ref);
      if (data.refDark !== undefined) data.refDark = ref(data.refDark);
      out.data = data;
    }
    return out;
  };
  return walk(document, 0);
}

function fileLinkParagraph(url: string): Node {
  const last = new URL(url).pathname.split('/').pop() ?? 'file';
  let name = last;
  try {
    name = decodeURIComponent(last);
  } catch {
    // the encoded name is still a name
  }
  const text = (value: string) => ({ object: 'text', leaves: [{ object: 'leaf', text: value }] });
  return { object: 'block', type: 'paragraph', nodes: [text(''), { object: 'inline', type: 'link', data: { ref: { kind: 'url', url } }, nodes: [text(name)] }, text('')] };
}
