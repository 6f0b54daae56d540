import { Type } from 'typebox';

/*
 * The subset of GitBook's JSON document (the spec's JSONDocument, DocumentBlock*, DocumentInline*, DocumentText)
 * that Quire reads and writes, as TypeScript types and as a TypeBox schema for `format=document` writes.
 *
 * The schema is a little more lenient than the spec on one point: a container (list item, quote, hint, tab,
 * expandable body, table cell) accepts any flow block, not just the spec's per-container list. Markdown can put
 * a code block in a quote or a table in a hint, and a document read back from such markdown must be writable
 * again. Structure stays strict: a list holds list items, a code block holds code lines, tabs hold tab items,
 * images hold images. Block and inline types of the spec that Quire does not model are accepted as opaque
 * nodes (kept as they are, left out of markdown); types the spec does not know are rejected.
 */

// ---------------------------------------------------------------- TypeScript types

export interface ContentRefUrl { kind: 'url'; url: string }
export interface ContentRefFile { kind: 'file'; file: string }
export interface ContentRefPage { kind: 'page'; page: string; space?: string }
export interface ContentRefAnchor { kind: 'anchor'; anchor: string; page?: string; space?: string }
/** Other references of the spec (user, collection, space, reusable-content, openapi), kept as they are. */
export interface ContentRefOther { kind: 'user' | 'collection' | 'space' | 'reusable-content' | 'openapi'; [field: string]: unknown }
export type ContentRef = ContentRefUrl | ContentRefFile | ContentRefPage | ContentRefAnchor | ContentRefOther;

export type MarkType = 'bold' | 'italic' | 'strikethrough' | 'code' | 'keyboard' | 'superscript' | 'subscript' | 'color';
export interface Mark { object: 'mark'; type: MarkType; data?: Record<string, unknown> }
export interface Leaf { object: 'leaf'; text: string; marks?: Mark[] }
export interface Text { object: 'text'; key?: string; leaves: Leaf[] }

export interface InlineLink {
  object: 'inline';
  type: 'link';
  key?: string;
  isVoid?: false;
  data: { ref: ContentRef };
  nodes: (Text | InlineImage)[];
}
export interface InlineImage {
  object: 'inline';
  type: 'inline-image';
  key?: string;
  isVoid: true;
  data: { ref: ContentRefUrl | ContentRefFile; refDark?: ContentRefUrl | ContentRefFile; caption?: string; alt?: string; size?: 'original' | 'line' };
}
export const OPAQUE_INLINE_TYPES = ['emoji', 'icon', 'expression', 'inline-math', 'annotation', 'mention', 'button'] as const;
/** An inline of the spec that Quire keeps but does not convert. */
export interface InlineOpaque { object: 'inline'; type: (typeof OPAQUE_INLINE_TYPES)[number]; key?: string; [field: string]: unknown }
export type Inline = InlineLink | InlineImage | InlineOpaque;
export type InlineContent = Text | Inline;

interface BlockBase { object: 'block'; key?: string; meta?: Record<string, unknown> }
export interface Paragraph extends BlockBase { type: 'paragraph'; isVoid?: false; data?: { align?: 'start' | 'center' | 'end' }; nodes: InlineContent[] }
export interface Heading extends BlockBase {
  type: 'heading-1' | 'heading-2' | 'heading-3';
  isVoid?: false;
  /**
   * GitBook's Git Sync writes the page title as `#` and heading 1, 2, 3 as `##`, `###`, `####`. `level` is the
   * markdown depth a heading was read from when it is none of these, so that markdown gets it back and the
   * reader renders it: `#` below the title is `heading-1` with level 1; `#####` and `######`, which the spec has
   * no node for, are `heading-3` (the closest) with level 5 or 6. Level 4 on a `heading-3` is what documents
   * stored before this mapping hold for `####`: it is the heading's own depth now.
   */
  data: { id?: string; align?: 'start' | 'center' | 'end'; level?: 1 | 4 | 5 | 6 };
  nodes: InlineContent[];
}
export interface ListItem extends BlockBase { type: 'list-item'; isVoid?: false; data?: { checked?: boolean }; nodes: FlowBlock[] }
export interface ListOrdered extends BlockBase { type: 'list-ordered'; isVoid?: false; data: { start?: number }; nodes: ListItem[] }
export interface ListUnordered extends BlockBase { type: 'list-unordered'; isVoid?: false; data?: Record<string, never>; nodes: ListItem[] }
export interface ListTasks extends BlockBase { type: 'list-tasks'; isVoid?: false; data?: Record<string, never>; nodes: ListItem[] }
export interface Divider extends BlockBase { type: 'divider'; isVoid: true; data: Record<string, never> }
export interface Quote extends BlockBase { type: 'blockquote'; isVoid?: false; data?: Record<string, never>; nodes: FlowBlock[] }
export const HINT_STYLES = ['info', 'warning', 'danger', 'success'] as const;
export type HintStyle = (typeof HINT_STYLES)[number];
export interface Hint extends BlockBase { type: 'hint'; isVoid?: false; data: { style: HintStyle; icon?: string }; nodes: FlowBlock[] }
export interface CodeLine extends BlockBase { type: 'code-line'; isVoid?: false; data: { highlighted?: boolean }; nodes: (Text | InlineOpaque)[] }
export interface Code extends BlockBase {
  type: 'code';
  isVoid?: false;
  data: { syntax?: string; title?: string; overflow?: 'scroll' | 'wrap'; lineNumbers?: boolean; fullWidth?: boolean; expandable?: boolean };
  nodes: CodeLine[];
}
export interface Fragment { object: 'fragment'; key?: string; fragment: string; type?: string; nodes: FlowBlock[] }
export type TableValue = number | string | boolean | null | string[] | ContentRef | Record<string, unknown>;
export interface TableRecord { orderIndex: string; values: Record<string, TableValue> }
export interface TableDefinition {
  id: string;
  title: string;
  type: 'text' | 'number' | 'checkbox' | 'files' | 'users' | 'rating' | 'select' | 'content-ref' | 'image';
  textAlignment?: 'left' | 'center' | 'right';
  [field: string]: unknown;
}
export interface TableViewGrid { type: 'grid'; columns: string[]; hideHeader: boolean; columnWidths?: Record<string, number>; useNewSizing?: boolean }
export interface TableViewCards { type: 'cards'; columns: string[]; cardSize: 'medium' | 'large'; [field: string]: unknown }
export interface Table extends BlockBase {
  type: 'table';
  isVoid: true;
  data: { view: TableViewGrid | TableViewCards; records: Record<string, TableRecord>; definition: Record<string, TableDefinition>; fullWidth?: boolean };
  fragments: Fragment[];
}
export interface Image extends BlockBase {
  type: 'image';
  isVoid: true;
  data: { ref: ContentRefUrl | ContentRefFile; refDark?: ContentRefUrl | ContentRefFile; alt?: string; width?: unknown; height?: unknown };
  fragments: Fragment[];
}
export interface Images extends BlockBase {
  type: 'images';
  isVoid: false;
  data: { align?: 'center' | 'left' | 'right'; fullWidth?: boolean; withFrame?: boolean };
  nodes: Image[];
}
export interface TabsItem extends BlockBase { type: 'tabs-item'; isVoid?: false; data: { title?: string; icon?: string }; nodes: FlowBlock[] }
export interface Tabs extends BlockBase { type: 'tabs'; isVoid?: false; data?: { fullWidth?: boolean }; nodes: TabsItem[] }
export interface Expandable extends BlockBase { type: 'expandable'; isVoid: true; data: { defaultExpanded?: boolean }; fragments: Fragment[] }
/** `fragments`: a `caption` fragment, as images have (GitBook writes it between `{% embed %}` and `{% endembed %}`). */
export interface Embed extends BlockBase { type: 'embed'; isVoid: true; data: { url: string; fullWidth?: boolean }; fragments?: Fragment[] }
export interface FileBlock extends BlockBase { type: 'file'; isVoid: true; data: { ref: ContentRefFile }; fragments?: Fragment[] }
export interface ContentRefBlock extends BlockBase { type: 'content-ref'; isVoid: true; data: { ref: ContentRef } }
export const OPAQUE_BLOCK_TYPES = [
  'math', 'drawing', 'if', 'openapi', 'openapi-operation', 'openapi-schemas', 'openapi-webhook', 'integration',
  'reusable-content', 'stepper', 'stepper-step', 'columns', 'column', 'swagger', 'updates', 'update', 'prompt',
] as const;
/** A block of the spec that Quire keeps but does not convert to markdown. */
export interface BlockOpaque extends BlockBase { type: (typeof OPAQUE_BLOCK_TYPES)[number]; [field: string]: unknown }

export type List = ListOrdered | ListUnordered | ListTasks;
/** A block that may stand in the flow of a document or of a container. */
export type FlowBlock =
  | Paragraph | Heading | List | Divider | Quote | Hint | Code | Table | Images | Tabs | Expandable | Embed | FileBlock
  | ContentRefBlock | BlockOpaque;
export type Block = FlowBlock | ListItem | CodeLine | Image | TabsItem;

export interface Document { object: 'document'; data?: Record<string, unknown>; nodes: FlowBlock[] }

/**
 * Turns a link's href (`usage: 'link'`) or an image's src (`usage: 'image'`) into a reference. The caller knows
 * the page tree and the files (`../other.md` -> page, `.gitbook/assets/x.png` -> file). For an image, only a
 * `url` or `file` reference is kept; anything else falls back to the src as a URL. May throw to reject.
 */
export type RefResolver = (href: string, usage: 'link' | 'image') => ContentRef;
/** The reverse: the href or src to write for a reference. */
export type RefWriter = (ref: ContentRef, usage: 'link' | 'image') => string;

// ---------------------------------------------------------------- TypeBox schema

// additionalProperties stays open: validation accepts fields GitBook may add, and a response serialized
// through this schema keeps them (fast-json-stringify drops what a closed object does not name).
const Obj = <T extends Parameters<typeof Type.Object>[0]>(properties: T) => Type.Object(properties, { additionalProperties: true });
const Key = Type.Optional(Type.String({ maxLength: 100 }));
const Meta = Type.Optional(Type.Record(Type.String(), Type.Unknown()));
const Literals = (values: readonly string[]) => Type.Union(values.map((v) => Type.Literal(v)));
const ObjectBlock = Type.Literal('block');

const RefUrl = Obj({ kind: Type.Literal('url'), url: Type.String() });
const RefFile = Obj({ kind: Type.Literal('file'), file: Type.String() });
const RefPage = Obj({ kind: Type.Literal('page'), page: Type.String(), space: Type.Optional(Type.String()) });
const RefAnchor = Obj({
  kind: Type.Literal('anchor'),
  anchor: Type.String(),
  page: Type.Optional(Type.String()),
  space: Type.Optional(Type.String()),
});
const RefOther = Obj({ kind: Literals(['user', 'collection', 'space', 'reusable-content', 'openapi']) });
const ContentRefSchema = Type.Union([RefUrl, RefFile, RefPage, RefAnchor, RefOther]);
const ImageRef = Type.Union([RefUrl, RefFile]);

const MarkSchema = Obj({
  object: Type.Literal('mark'),
  type: Literals(['bold', 'italic', 'strikethrough', 'code', 'keyboard', 'superscript', 'subscript', 'color']),
  data: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
});
const LeafSchema = Obj({ object: Type.Literal('leaf'), text: Type.String(), marks: Type.Optional(Type.Array(MarkSchema)) });
const TextSchema = Obj({ object: Type.Literal('text'), key: Key, leaves: Type.Array(LeafSchema) });
const InlineImageSchema = Obj({
  object: Type.Literal('inline'),
  type: Type.Literal('inline-image'),
  key: Key,
  isVoid: Type.Optional(Type.Literal(true)),
  data: Obj({
    ref: ImageRef,
    refDark: Type.Optional(ImageRef),
    caption: Type.Optional(Type.String()),
    alt: Type.Optional(Type.String()),
    size: Type.Optional(Literals(['original', 'line'])),
  }),
});
const InlineLinkSchema = Obj({
  object: Type.Literal('inline'),
  type: Type.Literal('link'),
  key: Key,
  isVoid: Type.Optional(Type.Literal(false)),
  data: Obj({ ref: ContentRefSchema }),
  nodes: Type.Array(Type.Union([TextSchema, InlineImageSchema])),
});
const InlineOpaqueSchema = Obj({ object: Type.Literal('inline'), type: Literals(OPAQUE_INLINE_TYPES), key: Key });
const InlineContentSchema = Type.Union([TextSchema, InlineLinkSchema, InlineImageSchema, InlineOpaqueSchema]);
const Align = Type.Optional(Literals(['start', 'center', 'end']));
const Empty = Type.Object({}, { additionalProperties: false });

// Containers refer to FlowBlock, which refers back to them: the schema is a cyclic set of definitions. The
// names become `$id`s (and OpenAPI component names), hence the spec's names with a Quire prefix.
const Flow = Type.Ref('QuireDocumentFlowBlock');
const Fragments = Type.Array(
  Obj({
    object: Type.Literal('fragment'),
    key: Key,
    fragment: Type.String(),
    type: Type.Optional(Type.String()),
    nodes: Type.Array(Flow),
  }),
);

const definitions = {
  QuireDocumentParagraph: Obj({
    object: ObjectBlock, type: Type.Literal('paragraph'), key: Key, meta: Meta, isVoid: Type.Optional(Type.Literal(false)),
    data: Type.Optional(Obj({ align: Align })),
    nodes: Type.Array(InlineContentSchema),
  }),
  QuireDocumentHeading: Obj({
    object: ObjectBlock, type: Literals(['heading-1', 'heading-2', 'heading-3']), key: Key, meta: Meta,
    isVoid: Type.Optional(Type.Literal(false)),
    data: Obj({
      id: Type.Optional(Type.String({ pattern: '^[-a-z0-9.+_]+$' })),
      align: Align,
      level: Type.Optional(Type.Union([Type.Literal(1), Type.Literal(4), Type.Literal(5), Type.Literal(6)])),
    }),
    nodes: Type.Array(InlineContentSchema),
  }),
  QuireDocumentListItem: Obj({
    object: ObjectBlock, type: Type.Literal('list-item'), key: Key, meta: Meta, isVoid: Type.Optional(Type.Literal(false)),
    data: Type.Optional(Obj({ checked: Type.Optional(Type.Boolean()) })),
    nodes: Type.Array(Flow),
  }),
  QuireDocumentList: Obj({
    object: ObjectBlock, type: Literals(['list-ordered', 'list-unordered', 'list-tasks']), key: Key, meta: Meta,
    isVoid: Type.Optional(Type.Literal(false)),
    data: Type.Optional(Obj({ start: Type.Optional(Type.Number()) })),
    nodes: Type.Array(Type.Ref('QuireDocumentListItem')),
  }),
  QuireDocumentDivider: Obj({
    object: ObjectBlock, type: Type.Literal('divider'), key: Key, meta: Meta, isVoid: Type.Optional(Type.Literal(true)),
    data: Type.Optional(Empty),
  }),
  QuireDocumentQuote: Obj({
    object: ObjectBlock, type: Type.Literal('blockquote'), key: Key, meta: Meta, isVoid: Type.Optional(Type.Literal(false)),
    data: Type.Optional(Empty),
    nodes: Type.Array(Flow),
  }),
  QuireDocumentHint: Obj({
    object: ObjectBlock, type: Type.Literal('hint'), key: Key, meta: Meta, isVoid: Type.Optional(Type.Literal(false)),
    data: Obj({ style: Literals(HINT_STYLES), icon: Type.Optional(Type.String({ maxLength: 50 })) }),
    nodes: Type.Array(Flow),
  }),
  QuireDocumentCode: Obj({
    object: ObjectBlock, type: Type.Literal('code'), key: Key, meta: Meta, isVoid: Type.Optional(Type.Literal(false)),
    data: Obj({
      syntax: Type.Optional(Type.String()),
      title: Type.Optional(Type.String()),
      overflow: Type.Optional(Literals(['scroll', 'wrap'])),
      lineNumbers: Type.Optional(Type.Boolean()),
      fullWidth: Type.Optional(Type.Boolean()),
      expandable: Type.Optional(Type.Boolean()),
    }),
    nodes: Type.Array(
      Obj({
        object: ObjectBlock, type: Type.Literal('code-line'), key: Key, meta: Meta, isVoid: Type.Optional(Type.Literal(false)),
        data: Type.Optional(Obj({ highlighted: Type.Optional(Type.Boolean()) })),
        nodes: Type.Array(Type.Union([TextSchema, InlineOpaqueSchema])),
      }),
    ),
  }),
  QuireDocumentTable: Obj({
    object: ObjectBlock, type: Type.Literal('table'), key: Key, meta: Meta, isVoid: Type.Optional(Type.Literal(true)),
    data: Obj({
      view: Type.Union([
        Obj({
          type: Type.Literal('grid'),
          columns: Type.Array(Type.String()),
          hideHeader: Type.Boolean(),
          columnWidths: Type.Optional(Type.Record(Type.String(), Type.Number())),
          useNewSizing: Type.Optional(Type.Boolean()),
        }),
        Obj({ type: Type.Literal('cards'), columns: Type.Array(Type.String()), cardSize: Literals(['medium', 'large']) }),
      ]),
      records: Type.Record(Type.String(), Obj({ orderIndex: Type.String(), values: Type.Record(Type.String(), Type.Unknown()) })),
      definition: Type.Record(
        Type.String(),
        Obj({
          id: Type.String(),
          title: Type.String(),
          type: Literals(['text', 'number', 'checkbox', 'files', 'users', 'rating', 'select', 'content-ref', 'image']),
          textAlignment: Type.Optional(Literals(['left', 'center', 'right'])),
        }),
      ),
      fullWidth: Type.Optional(Type.Boolean()),
    }),
    fragments: Fragments,
  }),
  QuireDocumentImages: Obj({
    object: ObjectBlock, type: Type.Literal('images'), key: Key, meta: Meta, isVoid: Type.Optional(Type.Literal(false)),
    data: Obj({
      align: Type.Optional(Literals(['center', 'left', 'right'])),
      fullWidth: Type.Optional(Type.Boolean()),
      withFrame: Type.Optional(Type.Boolean()),
    }),
    nodes: Type.Array(
      Obj({
        object: ObjectBlock, type: Type.Literal('image'), key: Key, meta: Meta, isVoid: Type.Optional(Type.Literal(true)),
        data: Obj({ ref: ImageRef, refDark: Type.Optional(ImageRef), alt: Type.Optional(Type.String()) }),
        fragments: Type.Optional(Fragments),
      }),
    ),
  }),
  QuireDocumentTabs: Obj({
    object: ObjectBlock, type: Type.Literal('tabs'), key: Key, meta: Meta, isVoid: Type.Optional(Type.Literal(false)),
    data: Type.Optional(Obj({ fullWidth: Type.Optional(Type.Boolean()) })),
    nodes: Type.Array(
      Obj({
        object: ObjectBlock, type: Type.Literal('tabs-item'), key: Key, meta: Meta, isVoid: Type.Optional(Type.Literal(false)),
        data: Type.Optional(Obj({ title: Type.Optional(Type.String()), icon: Type.Optional(Type.String({ maxLength: 50 })) })),
        nodes: Type.Array(Flow),
      }),
    ),
  }),
  QuireDocumentExpandable: Obj({
    object: ObjectBlock, type: Type.Literal('expandable'), key: Key, meta: Meta, isVoid: Type.Optional(Type.Literal(true)),
    data: Type.Optional(Type.Object({ defaultExpanded: Type.Optional(Type.Boolean()) }, { additionalProperties: false })),
    fragments: Fragments,
  }),
  QuireDocumentEmbed: Obj({
    object: ObjectBlock, type: Type.Literal('embed'), key: Key, meta: Meta, isVoid: Type.Optional(Type.Literal(true)),
    data: Obj({ url: Type.String(), fullWidth: Type.Optional(Type.Boolean()) }),
    fragments: Type.Optional(Fragments),
  }),
  QuireDocumentFile: Obj({
    object: ObjectBlock, type: Type.Literal('file'), key: Key, meta: Meta, isVoid: Type.Optional(Type.Literal(true)),
    data: Obj({ ref: RefFile }),
    fragments: Type.Optional(Fragments),
  }),
  QuireDocumentContentRef: Obj({
    object: ObjectBlock, type: Type.Literal('content-ref'), key: Key, meta: Meta, isVoid: Type.Optional(Type.Literal(true)),
    data: Obj({ ref: ContentRefSchema }),
  }),
  QuireDocumentOpaqueBlock: Obj({ object: ObjectBlock, type: Literals(OPAQUE_BLOCK_TYPES), key: Key }),
  QuireDocumentFlowBlock: Type.Union([
    Type.Ref('QuireDocumentParagraph'),
    Type.Ref('QuireDocumentHeading'),
    Type.Ref('QuireDocumentList'),
    Type.Ref('QuireDocumentDivider'),
    Type.Ref('QuireDocumentQuote'),
    Type.Ref('QuireDocumentHint'),
    Type.Ref('QuireDocumentCode'),
    Type.Ref('QuireDocumentTable'),
    Type.Ref('QuireDocumentImages'),
    Type.Ref('QuireDocumentTabs'),
    Type.Ref('QuireDocumentExpandable'),
    Type.Ref('QuireDocumentEmbed'),
    Type.Ref('QuireDocumentFile'),
    Type.Ref('QuireDocumentContentRef'),
    Type.Ref('QuireDocumentOpaqueBlock'),
  ]),
  QuireDocument: Obj({
    object: Type.Literal('document'),
    data: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    nodes: Type.Array(Type.Ref('QuireDocumentFlowBlock')),
  }),
};

/**
 * Validates a JSON document on writes (`format=document`). Use it as the `document` property of a body
 * schema; the static type of a validated value is `Document`.
 */
export const DocumentSchema = Type.Unsafe<Document>(Type.Cyclic(definitions, 'QuireDocument'));
