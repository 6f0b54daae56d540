import fc from 'fast-check';
import { HINT_STYLES } from './types.ts';
import type {
  ContentRef, Document, FlowBlock, Inline, InlineContent, Leaf, MarkType, RefResolver, RefWriter, Table, TableRecord,
} from './types.ts';

/*
 * What the document tests share: a fake page tree for references, terse node builders, and fast-check
 * arbitraries of documents in the subset that round-trips through markdown.
 */

/** `other.md` is page "other", `other.md#a` an anchor in it, `#a` an anchor here, `.gitbook/assets/x` file "x". */
export const resolveRef: RefResolver = (href) => {
  const anchor = /^#(.+)$/.exec(href);
  if (anchor) return { kind: 'anchor', anchor: anchor[1]! };
  const page = /^([\w-]+)\.md(?:#(.+))?$/.exec(href);
  if (page) return page[2] ? { kind: 'anchor', anchor: page[2], page: page[1]! } : { kind: 'page', page: page[1]! };
  const file = /^\.gitbook\/assets\/(.+)$/.exec(href);
  if (file) return { kind: 'file', file: file[1]! };
  return { kind: 'url', url: href };
};

export const writeRef: RefWriter = (ref) => {
  switch (ref.kind) {
    case 'anchor':
      return ref.page ? `${ref.page}.md#${ref.anchor}` : `#${ref.anchor}`;
    case 'page':
      return `${ref.page}.md`;
    case 'file':
      return `.gitbook/assets/${ref.file}`;
    case 'url':
      return ref.url;
    default:
      return '';
  }
};

// ---------------------------------------------------------------- builders (normal form, no keys)

export const leaf = (text: string, ...marks: MarkType[]): Leaf => ({ object: 'leaf', text, marks: marks.map((type) => ({ object: 'mark', type })) });
export const t = (...leaves: (Leaf | string)[]): InlineContent => ({
  object: 'text',
  leaves: leaves.length > 0 ? leaves.map((l) => (typeof l === 'string' ? leaf(l) : l)) : [leaf('')],
});
export const link = (ref: ContentRef, ...leaves: (Leaf | string)[]): Inline => ({ object: 'inline', type: 'link', data: { ref }, nodes: [t(...leaves) as never] });
export const p = (...nodes: (InlineContent | string)[]): FlowBlock => ({
  object: 'block',
  type: 'paragraph',
  data: {},
  nodes: nodes.length > 0 ? nodes.map((n) => (typeof n === 'string' ? t(n) : n)) : [t()],
});
export const h = (level: 1 | 2 | 3, ...nodes: (InlineContent | string)[]): FlowBlock => ({
  object: 'block',
  type: `heading-${level}`,
  data: {},
  nodes: nodes.map((n) => (typeof n === 'string' ? t(n) : n)),
});
export const item = (...nodes: FlowBlock[]) => ({ object: 'block' as const, type: 'list-item' as const, data: {}, nodes });
export const task = (checked: boolean, ...nodes: FlowBlock[]) => ({ object: 'block' as const, type: 'list-item' as const, data: { checked }, nodes });
export const ul = (...nodes: ReturnType<typeof item>[]): FlowBlock => ({ object: 'block', type: 'list-unordered', data: {}, nodes });
export const ol = (start: number | undefined, ...nodes: ReturnType<typeof item>[]): FlowBlock => ({
  object: 'block', type: 'list-ordered', data: start === undefined ? {} : { start }, nodes,
});
export const tasks = (...nodes: ReturnType<typeof task>[]): FlowBlock => ({ object: 'block', type: 'list-tasks', data: {}, nodes });
export const quote = (...nodes: FlowBlock[]): FlowBlock => ({ object: 'block', type: 'blockquote', data: {}, nodes });
export const hint = (style: (typeof HINT_STYLES)[number], ...nodes: FlowBlock[]): FlowBlock => ({ object: 'block', type: 'hint', data: { style }, nodes });
export const divider = (): FlowBlock => ({ object: 'block', type: 'divider', isVoid: true, data: {} });
export const code = (lines: string[], data: Record<string, unknown> = {}): FlowBlock => ({
  object: 'block',
  type: 'code',
  data,
  nodes: lines.map((line) => ({ object: 'block', type: 'code-line', data: {}, nodes: [t(line) as never] })),
});
export const image = (ref: ContentRef, alt?: string, caption?: string) => ({
  object: 'block' as const,
  type: 'image' as const,
  isVoid: true as const,
  data: alt ? { ref: ref as never, alt } : { ref: ref as never },
  fragments: caption ? [{ object: 'fragment' as const, fragment: 'caption', nodes: [p(caption)] }] : [],
});
export const images = (...nodes: ReturnType<typeof image>[]): FlowBlock => ({ object: 'block', type: 'images', isVoid: false, data: {}, nodes });
export const tab = (title: string, ...nodes: FlowBlock[]) => ({ object: 'block' as const, type: 'tabs-item' as const, data: { title }, nodes });
export const tabs = (...nodes: ReturnType<typeof tab>[]): FlowBlock => ({ object: 'block', type: 'tabs', data: {}, nodes });
export const expandable = (title: string, ...body: FlowBlock[]): FlowBlock => ({
  object: 'block',
  type: 'expandable',
  isVoid: true,
  data: {},
  fragments: [
    { object: 'fragment', fragment: 'expandable-title', type: 'expandable-title', nodes: [p(title)] },
    { object: 'fragment', fragment: 'expandable-body', type: 'expandable-body', nodes: body },
  ],
});
/** A grid table as markdownToDocument builds one: columns c1…, records r1…, a fragment per cell. */
export function table(columns: { title: string; align?: 'left' | 'center' | 'right' }[], rows: InlineContent[][][]): FlowBlock {
  const ids = columns.map((_, i) => `c${i + 1}`);
  const orderIndexes = ['a0', 'a1', 'a2', 'a3', 'a4', 'a5', 'a6', 'a7', 'a8', 'a9'];
  const records: Record<string, TableRecord> = {};
  const fragments: Table['fragments'] = [];
  rows.forEach((cells, r) => {
    const values: Record<string, string> = {};
    ids.forEach((id, c) => {
      const name = `r${r + 1}-${id}`;
      values[id] = name;
      fragments.push({ object: 'fragment', fragment: name, nodes: [p(...(cells[c] ?? []))] });
    });
    records[`r${r + 1}`] = { orderIndex: orderIndexes[r]!, values };
  });
  return {
    object: 'block',
    type: 'table',
    isVoid: true,
    data: {
      view: { type: 'grid', columns: ids, hideHeader: false },
      records,
      definition: Object.fromEntries(columns.map((c, i) => [ids[i]!, { id: ids[i]!, title: c.title, type: 'text', textAlignment: c.align ?? 'left' }])),
    },
    fragments,
  };
}
export const doc = (...nodes: FlowBlock[]): Document => ({ object: 'document', data: {}, nodes });

/** A document without its keys, to compare content. */
export function withoutKeys<T>(value: T): T {
  return JSON.parse(JSON.stringify(value, (name, v) => (name === 'key' ? undefined : v))) as T;
}

// ---------------------------------------------------------------- arbitraries

const CHARACTERS = [
  'a', 'b', 'c', 'x', 'Z', '0', '7', ' ', ' ', ' ', '*', '_', '`', '~', '#', '[', ']', '(', ')', '<', '>', '!', '|', '\\', '{', '%', '}',
  '-', '+', '.', ':', '&', ';', '"', "'", '=', '/', '$', '^', 'é', '中', '😀', '\u00a0',
];
const word = fc.string({ unit: fc.constantFrom(...CHARACTERS), minLength: 1, maxLength: 12 });
const plainWord = fc.string({ unit: fc.constantFrom('a', 'b', 'k', 'z', 'Q', '1', 'é', '-', '&', '<', '>', '"', "'", '\\', '%', '}', '*', '[', ']'), minLength: 1, maxLength: 8 });
const oneLineText = fc.array(plainWord, { minLength: 1, maxLength: 4 }).map((words) => words.join(' '));
const identifier = fc.string({ unit: fc.constantFrom('a', 'b', 'c', '1', '2', '-'), minLength: 1, maxLength: 6 }).map((s) => `x${s}`);
const MARKS: MarkType[] = ['bold', 'italic', 'strikethrough', 'code'];

const refArbitrary: fc.Arbitrary<ContentRef> = fc.oneof(
  identifier.map((id): ContentRef => ({ kind: 'page', page: id })),
  identifier.map((id): ContentRef => ({ kind: 'file', file: `${id}.png` })),
  identifier.map((id): ContentRef => ({ kind: 'anchor', anchor: id })),
  fc.tuple(identifier, identifier).map(([page, anchor]): ContentRef => ({ kind: 'anchor', anchor, page })),
  fc.constantFrom('https://example.com/', 'https://example.com/a b', 'https://x.io/(p)', 'mailto:a@b.c', 'https://x.io/?q=1&r=<2>')
    .chain((base) => identifier.map((id): ContentRef => ({ kind: 'url', url: `${base}${id}` }))),
);
const imageRefArbitrary = fc.oneof(
  identifier.map((id): ContentRef => ({ kind: 'file', file: `${id}.png` })),
  identifier.map((id): ContentRef => ({ kind: 'url', url: `https://img.example.com/${id}.png` })),
);

type Segment = { leaf: Leaf } | { inline: Inline };
const leafArbitrary = fc
  .tuple(fc.array(word, { minLength: 1, maxLength: 3 }), fc.subarray(MARKS, { maxLength: 3 }), fc.boolean())
  .map(([words, marks, breakLine]) => leaf(words.join(breakLine && !marks.includes('code') ? '\n' : ' '), ...marks));

function segmentsArbitrary(withInlines: boolean): fc.Arbitrary<Segment[]> {
  const inlineImage = fc.tuple(imageRefArbitrary, fc.option(oneLineText, { nil: undefined }), fc.boolean()).map(([ref, alt, line]): Segment => ({
    inline: {
      object: 'inline',
      type: 'inline-image',
      isVoid: true,
      data: { ref: ref as never, ...(alt ? { alt } : {}), ...(line ? { size: 'line' as const } : {}) },
    },
  }));
  const linkContent = fc.array(fc.oneof({ weight: 4, arbitrary: leafArbitrary.map((l): Segment => ({ leaf: l })) }, { weight: 1, arbitrary: inlineImage }), { maxLength: 3 });
  const inline: fc.Arbitrary<Segment> = fc.oneof(
    fc.tuple(refArbitrary, linkContent).map(([ref, segments]): Segment => ({
      inline: { object: 'inline', type: 'link', data: { ref }, nodes: normalize(segments) as never },
    })),
    inlineImage,
  );
  const segment = withInlines ? fc.oneof({ weight: 4, arbitrary: leafArbitrary.map((l) => ({ leaf: l })) }, { weight: 1, arbitrary: inline }) : leafArbitrary.map((l) => ({ leaf: l }));
  return fc.array(segment, { minLength: 1, maxLength: 5 });
}

/**
 * The normal form of inline content, plus what markdown cannot say: whitespace at the edges of a bold,
 * italic or struck leaf is not marked, a code leaf holds no line break, and a block's text does not start
 * or end with whitespace.
 */
function normalize(segments: Segment[], trimEdges = false): InlineContent[] {
  const split: Segment[] = [];
  for (const segment of segments) {
    if ('inline' in segment) {
      split.push(segment);
      continue;
    }
    const types = (segment.leaf.marks ?? []).map((m) => m.type);
    const value = segment.leaf.text;
    if (types.includes('code') || types.length === 0) {
      split.push({ leaf: leaf(value, ...types) });
      continue;
    }
    const core = value.trim();
    const start = value.slice(0, value.length - value.trimStart().length);
    const end = value.slice(value.trimEnd().length);
    if (start) split.push({ leaf: leaf(start) });
    if (core) split.push({ leaf: leaf(core, ...types) });
    if (end) split.push({ leaf: leaf(end) });
  }
  if (trimEdges) {
    while (split.length > 0) {
      const first = split[0]!;
      if ('inline' in first) break;
      const isCode = first.leaf.marks?.some((m) => m.type === 'code');
      const value = isCode ? first.leaf.text : first.leaf.text.trimStart();
      if (value) {
        split[0] = { leaf: { ...first.leaf, text: value } };
        break;
      }
      split.shift();
    }
    while (split.length > 0) {
      const last = split[split.length - 1]!;
      if ('inline' in last) break;
      const isCode = last.leaf.marks?.some((m) => m.type === 'code');
      const value = isCode ? last.leaf.text : last.leaf.text.trimEnd();
      if (value) {
        split[split.length - 1] = { leaf: { ...last.leaf, text: value } };
        break;
      }
      split.pop();
    }
  }
  const nodes: InlineContent[] = [];
  let leaves: Leaf[] = [];
  const flush = () => nodes.push({ object: 'text', leaves: leaves.length > 0 ? leaves : [leaf('')] });
  for (const segment of split) {
    if ('inline' in segment) {
      flush();
      leaves = [];
      nodes.push(segment.inline);
      continue;
    }
    const last = leaves[leaves.length - 1];
    const sameMarks = last && JSON.stringify(last.marks) === JSON.stringify(segment.leaf.marks);
    if (last && sameMarks) leaves[leaves.length - 1] = { ...last, text: last.text + segment.leaf.text };
    else leaves.push(segment.leaf);
  }
  flush();
  return nodes;
}

const hasText = (nodes: InlineContent[]) => nodes.some((n) => n.object !== 'text' || n.leaves.some((l) => l.text.length > 0));
const inlineArbitrary = (withInlines = true, breaks = true) =>
  segmentsArbitrary(withInlines)
    .map((segments) => normalize(segments, true))
    .map((nodes) => (breaks ? nodes : oneLine(nodes)))
    .filter(hasText);
// A heading is one line of markdown.
const oneLine = (nodes: InlineContent[]): InlineContent[] =>
  JSON.parse(JSON.stringify(nodes, (name, value: unknown) => (name === 'text' && typeof value === 'string' ? value.replace(/\n/g, ' ') : value)));

const paragraphArbitrary: fc.Arbitrary<FlowBlock> = inlineArbitrary().map((nodes) => ({ object: 'block', type: 'paragraph', data: {}, nodes }));

const leafBlock: fc.Arbitrary<FlowBlock> = fc.oneof(
  { weight: 6, arbitrary: paragraphArbitrary },
  {
    weight: 2,
    arbitrary: fc.tuple(fc.constantFrom(1, 2, 3), inlineArbitrary(true, false), fc.option(identifier, { nil: undefined })).map(([level, nodes, id]): FlowBlock => ({
      object: 'block',
      type: `heading-${level as 1 | 2 | 3}`,
      data: id ? { id } : {},
      nodes,
    })),
  },
  { weight: 1, arbitrary: fc.constant(null).map(() => divider()) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(
        fc.array(fc.string({ unit: fc.constantFrom('a', ' ', '`', '~', '{', '%', '}', '<', '>', '*', '\t', 'ü'), maxLength: 10 }), { minLength: 1, maxLength: 4 }),
        fc.option(fc.constantFrom('js', 'ts', 'python', 'c++', 'objective-c'), { nil: undefined }),
        fc.option(oneLineText, { nil: undefined }),
        fc.option(fc.boolean(), { nil: undefined }),
        fc.option(fc.constantFrom('wrap' as const, 'scroll' as const), { nil: undefined }),
      )
      .map(([lines, syntax, title, lineNumbers, overflow]) =>
        code(lines, {
          ...(syntax ? { syntax } : {}),
          ...(title ? { title } : {}),
          ...(overflow ? { overflow } : {}),
          ...(lineNumbers === undefined ? {} : { lineNumbers }),
        }),
      ),
  },
  {
    weight: 1,
    arbitrary: fc
      .array(fc.tuple(imageRefArbitrary, fc.option(oneLineText, { nil: undefined }), fc.option(oneLineText, { nil: undefined })), { minLength: 1, maxLength: 3 })
      .map((list) => images(...list.map(([ref, alt, caption]) => image(ref, alt, caption)))),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(
        fc.array(fc.tuple(oneLineText, fc.constantFrom('left' as const, 'center' as const, 'right' as const)), { minLength: 1, maxLength: 3 }),
        fc.array(fc.array(inlineArbitrary(), { minLength: 3, maxLength: 3 }), { maxLength: 3 }),
      )
      .map(([columns, rows]) => table(columns.map(([title, align]) => ({ title, align })), rows.map((cells) => cells.slice(0, columns.length)))),
  },
  { weight: 1, arbitrary: identifier.map((id): FlowBlock => ({ object: 'block', type: 'embed', isVoid: true, data: { url: `https://www.youtube.com/watch?v=${id}` } })) },
  { weight: 1, arbitrary: identifier.map((id): FlowBlock => ({ object: 'block', type: 'file', isVoid: true, data: { ref: { kind: 'file', file: id } } })) },
  { weight: 1, arbitrary: identifier.map((id): FlowBlock => ({ object: 'block', type: 'content-ref', isVoid: true, data: { ref: { kind: 'page', page: id } } })) },
  {
    weight: 1,
    // Depths GitBook does not write: `#` below the title, `#####` and `######` (types.ts).
    arbitrary: fc.tuple(fc.constantFrom(1, 5, 6), inlineArbitrary(true, false)).map(([level, nodes]): FlowBlock => ({
      object: 'block',
      type: level === 1 ? 'heading-1' : 'heading-3',
      data: { level: level as 1 | 5 | 6 },
      nodes,
    })),
  },
  { weight: 1, arbitrary: fc.constantFrom('x^2', 'f(x) = e^{i\\pi}', 'a \\\\ b').map((formula): FlowBlock => ({ object: 'block', type: 'math', isVoid: true, data: { formula } })) },
);

const block = (value: Record<string, unknown>): FlowBlock => ({ object: 'block', ...value }) as unknown as FlowBlock;

/** Documents of the supported subset, nested up to `depth` containers deep. */
export function documentArbitrary(depth = 3): fc.Arbitrary<Document> {
  const { flow } = fc.letrec<{ flow: FlowBlock[]; block: FlowBlock }>((tie) => ({
    flow: fc.array(tie('block'), { minLength: 1, maxLength: 3 }),
    block: fc.oneof(
      { depthSize: 'small', withCrossShrink: true, maxDepth: depth },
      leafBlock,
      tie('flow').map((nodes) => quote(...nodes)),
      fc.tuple(fc.constantFrom(...HINT_STYLES), tie('flow')).map(([style, nodes]) => hint(style, ...nodes)),
      listArbitrary(tie('flow')),
      fc.array(fc.tuple(oneLineText, tie('flow')), { minLength: 1, maxLength: 3 }).map((items) => tabs(...items.map(([title, nodes]) => tab(title, ...nodes)))),
      fc.tuple(oneLineText, tie('flow')).map(([title, body]) => expandable(title, ...body)),
      fc.array(tie('flow'), { minLength: 1, maxLength: 3 }).map((steps) => block({ type: 'stepper', data: {}, nodes: steps.map((nodes) => block({ type: 'stepper-step', data: {}, nodes })) })),
      fc.array(tie('flow'), { minLength: 1, maxLength: 2 }).map((columns) => block({ type: 'columns', data: {}, nodes: columns.map((nodes) => block({ type: 'column', data: {}, nodes })) })),
      fc.tuple(identifier, tie('flow')).map(([name, nodes]) => block({ type: 'if', data: { expression: `visitor.claims.${name}` }, nodes })),
      fc.tuple(fc.constantFrom('2024-01-15', '2025-12-25'), tie('flow')).map(([date, nodes]) => block({ type: 'updates', data: { format: 'full' }, nodes: [block({ type: 'update', data: { date }, nodes })] })),
    ),
  }));
  return flow.map((nodes) => doc(...nodes));
}

function listArbitrary(flow: fc.Arbitrary<unknown>): fc.Arbitrary<FlowBlock> {
  // A list item starts with a paragraph: a checkbox needs text after it, and markdown has no empty item line.
  const itemContent = fc.tuple(paragraphArbitrary, fc.option(flow as fc.Arbitrary<FlowBlock[]>, { nil: undefined, freq: 3 }));
  const items = fc.array(itemContent, { minLength: 1, maxLength: 3 });
  return fc.oneof(
    items.map((list) => ul(...list.map(([first, rest]) => item(first, ...(rest ?? []))))),
    fc.tuple(fc.option(fc.integer({ min: 0, max: 20 }), { nil: undefined }), items).map(([start, list]) =>
      ol(start === 1 ? undefined : start, ...list.map(([first, rest]) => item(first, ...(rest ?? [])))),
    ),
    fc.array(fc.tuple(fc.boolean(), itemContent), { minLength: 1, maxLength: 3 }).map((list) =>
      tasks(...list.map(([checked, [first, rest]]) => task(checked, first, ...(rest ?? [])))),
    ),
  );
}

/** Markdown-ish text: GitBook constructs in pieces, shuffled, to shake the reader. */
export const markdownishArbitrary: fc.Arbitrary<string> = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        '\n', '\n\n', '- ', '* ', '1. ', '> ', '  ', '    ', '# ', '### ', '```', '```js\n', '~~~', '***', '---', '| a | b |\n| - | - |\n', '|', '**', '*', '_',
        '~~', '`', '[x](y.md)', '![i](.gitbook/assets/f)', '<details>', '<summary>T</summary>', '</details>', '<figure><img src="a">', '</figure>',
        '<img src="b" alt="c">', '<br>', '{% hint style="info" %}', '{% endhint %}', '{% tabs %}', '{% tab title="A" %}', '{% endtab %}', '{% endtabs %}',
        '{% code title="x" %}', '{% endcode %}', '{% embed url="u" %}', '{% file src="f" %}', '{% content-ref url="p.md" %}', '{% endcontent-ref %}',
        '- [ ] ', '- [x] ', '<a href="#a" id="a"></a>', '&amp;', '\\', '[ref]: https://x.y\n', '[ref]', '<!-- c -->',
      ),
      word,
    ),
    { maxLength: 40 },
  )
  .map((parts) => parts.join(''));
