import { Mark, Node, type AnyExtension, type Attribute } from '@tiptap/core';
import Blockquote from '@tiptap/extension-blockquote';
import Bold from '@tiptap/extension-bold';
import Code from '@tiptap/extension-code';
import CodeBlock from '@tiptap/extension-code-block';
import Document from '@tiptap/extension-document';
import Heading from '@tiptap/extension-heading';
import HorizontalRule from '@tiptap/extension-horizontal-rule';
import Italic from '@tiptap/extension-italic';
import { BulletList, ListItem, OrderedList, TaskItem, TaskList } from '@tiptap/extension-list';
import Paragraph from '@tiptap/extension-paragraph';
import Strike from '@tiptap/extension-strike';
import Subscript from '@tiptap/extension-subscript';
import Superscript from '@tiptap/extension-superscript';
import Text from '@tiptap/extension-text';
import { isStorableUrl } from '../document-urls.ts';
import { safeLinkUrl } from '../safe-url.ts';

/*
 * The editor's schema: one ProseMirror node per block of our document model (the names of TipTap's own
 * extensions where one fits, so their commands, input rules and keymaps apply), as TipTap extensions that need
 * no DOM to build a schema (`getSchema(schemaExtensions)` runs in Node). The editor extends these with node
 * views (../nodes/); the conversion (./blocks.ts, ./inline.ts) only reads and writes their JSON.
 *
 * What makes the mapping lossless: every node carries in `block` (or `fragment`, `inline`) the JSON it came
 * from, its shown children replaced by an empty array that keeps their place among the object's keys. The
 * conversion back spreads the edited fields over that shell, so a key, `meta`, `isVoid` or an unknown `data`
 * field the editor does not show comes back as it was. Attributes are not copied to a block split at its end
 * (`keepOnSplit`): the new block is a new one, without a key. A split elsewhere, a duplicate or a copy dropped
 * copies them whole, key included: the editor then gives the copy a key of its own (web/…/model/unique-keys.ts).
 */

const json = (): Attribute => ({ default: null, rendered: false, keepOnSplit: false });

/**
 * JSON that is all a copied node is (an atom's data, a container's kind and settings, a fragment's name), so it
 * rides on the clipboard as a `data-` attribute and a copy pasted in the editor is the block it copied (the
 * editor then gives it keys of its own). Only nodes shown by node views have it: the page never renders it.
 */
const carried = (name: string): Attribute => ({
  ...json(),
  rendered: true,
  renderHTML: (attributes) => (attributes[name] === null || attributes[name] === undefined ? {} : { [`data-${name}`]: JSON.stringify(attributes[name]) }),
  parseHTML: (element) => {
    const raw = element.getAttribute(`data-${name}`);
    if (raw === null) return null;
    try {
      return JSON.parse(raw) as unknown;
    } catch {
      return null;
    }
  },
});

/** The original JSON of a block (children emptied), `null` for a block made in the editor. */
const blockAttributes = () => ({ block: json() });
const carriedBlock = () => ({ block: carried('block') });
/** An inline block's empty trailing Text (which ProseMirror cannot hold): JSON, `null` for a fresh one, `false` for none. */
const inlineAttributes = () => ({ block: json(), trailing: json() });

export const QuireDocument = Document.extend({ content: 'block*', addAttributes: () => ({ document: json() }) });
export const QuireParagraph = Paragraph.extend({ addAttributes: inlineAttributes });
export const QuireHeading = Heading.extend({
  addAttributes() {
    return { ...this.parent?.(), ...inlineAttributes() };
  },
}).configure({ levels: [1, 2, 3] });
export const QuireBlockquote = Blockquote.extend({ addAttributes: blockAttributes });
export const QuireBulletList = BulletList.extend({ addAttributes: blockAttributes });
export const QuireOrderedList = OrderedList.extend({
  addAttributes() {
    return { ...this.parent?.(), ...blockAttributes() };
  },
});
export const QuireTaskList = TaskList.extend({ addAttributes: blockAttributes });
export const QuireListItem = ListItem.extend({ addAttributes: blockAttributes });
export const QuireTaskItem = TaskItem.extend({
  addAttributes() {
    return { ...this.parent?.(), ...blockAttributes() };
  },
}).configure({ nested: true });
/** `lines`: the code lines it came from (key, data, nodes), so that an unchanged line comes back as it was. */
export const QuireCodeBlock = CodeBlock.extend({
  addAttributes() {
    return { ...this.parent?.(), ...blockAttributes(), lines: json() };
  },
});
export const QuireDivider = HorizontalRule.extend({ addAttributes: blockAttributes });

const container = (name: string, content: string, group: string | undefined, tag: string) =>
  Node.create({
    name,
    content,
    ...(group ? { group } : {}),
    defining: true,
    addAttributes: carriedBlock,
    parseHTML: () => [{ tag: `${tag}[data-quire="${name}"]` }],
    renderHTML: ({ HTMLAttributes }) => [tag, { ...HTMLAttributes, 'data-quire': name }, 0],
  });

export const Hint = container('hint', 'block+', 'block', 'div');
export const Tabs = container('tabs', 'tabsItem+', 'block', 'div');
export const TabsItem = container('tabsItem', 'block+', undefined, 'section');
export const Expandable = container('expandable', 'fragment+', 'block', 'details');
export const Images = container('images', 'image+', 'block', 'div');
export const Image = container('image', 'fragment*', undefined, 'figure');
export const Embed = container('embed', 'fragment*', 'block', 'figure');
export const FileBlock = container('file', 'fragment*', 'block', 'figure');
/** GitBook's layout blocks: a stepper's steps, columns side by side, a changelog's dated updates; each child holds flow blocks. */
export const Stepper = container('stepper', 'stepperStep+', 'block', 'ol');
export const StepperStep = container('stepperStep', 'block+', undefined, 'li');
export const Columns = container('columns', 'column+', 'block', 'div');
export const Column = container('column', 'block+', undefined, 'div');
export const Updates = container('updates', 'update+', 'block', 'div');
export const Update = container('update', 'block+', undefined, 'section');
/** GitBook's `if` (content shown to the visitors its condition matches) and `prompt` (a described prompt to copy): flow blocks inside. */
export const Conditional = container('conditional', 'block+', 'block', 'div');
export const Prompt = container('prompt', 'block+', 'block', 'div');

/** A named part of a block (a caption, an expandable's title or body, a table cell): `fragment` is its shell. */
export const Fragment = Node.create({
  name: 'fragment',
  content: 'block+',
  defining: true,
  addAttributes: () => ({ fragment: carried('fragment') }),
  parseHTML: () => [{ tag: 'div[data-quire="fragment"]' }],
  renderHTML: ({ HTMLAttributes }) => ['div', { ...HTMLAttributes, 'data-quire': 'fragment' }, 0],
});

const atom = (name: string, tag: string) =>
  Node.create({
    name,
    group: 'block',
    atom: true,
    selectable: true,
    draggable: true,
    addAttributes: carriedBlock,
    parseHTML: () => [{ tag: `${tag}[data-quire="${name}"]` }],
    renderHTML: ({ HTMLAttributes }) => [tag, { ...HTMLAttributes, 'data-quire': name }],
  });

/** A table, kept whole (definition, records, cell fragments): its node view edits column titles and text cells. */
export const Table = atom('table', 'div');
export const ContentRef = atom('contentRef', 'div');
/** A block the editor keeps exactly and shows as a card: opaque types (math edits its formula) and anything the mapping cannot hold. */
export const OpaqueBlock = atom('opaqueBlock', 'div');

/** An inline image, an opaque inline (emoji, inline math, mention…) or a link the mapping cannot hold, kept as JSON. */
export const InlineAtom = Node.create({
  name: 'inlineAtom',
  group: 'inline',
  inline: true,
  atom: true,
  selectable: true,
  addAttributes: () => ({ inline: carried('inline'), leading: carried('leading') }),
  parseHTML: () => [{ tag: 'span[data-quire="inline"]' }],
  renderHTML: ({ HTMLAttributes }) => ['span', { ...HTMLAttributes, 'data-quire': 'inline' }],
});

const withData = <T extends { extend: (config: object) => T }>(mark: T): T =>
  mark.extend({
    addAttributes() {
      return { data: { default: null, rendered: false } };
    },
  });

/**
 * A link: `inline` is its JSON (nodes emptied), `id` tells two neighbouring links to the same place apart,
 * `leading`/`trailing` hold empty Texts at its edges.
 */
export const Link = Mark.create({
  name: 'link',
  inclusive: false,
  addAttributes: () => ({ inline: json(), id: { default: null, rendered: false }, leading: json(), trailing: json() }),
  // A link pasted from elsewhere is a URL link: its JSON is made from its href. One the reader would not follow
  // (`javascript:`, safe-url.ts) is pasted as its text, which the server would refuse to store as a link.
  parseHTML: () => [
    {
      tag: 'a[href]',
      getAttrs: (element) => {
        const url = element.getAttribute('href') ?? '';
        return isStorableUrl(url, 'link') ? { inline: { object: 'inline', type: 'link', data: { ref: { kind: 'url', url } }, nodes: [] } } : false;
      },
    },
  ],
  // The href goes through the reader's filter: a page stored before such links were refused, or a link another
  // editor wrote into the shared document, never becomes a live `javascript:` href in the editor.
  renderHTML: ({ mark }) => {
    const ref = (mark.attrs.inline as { data?: { ref?: { kind?: string; url?: string } } } | null)?.data?.ref;
    const href = ref?.kind === 'url' ? (safeLinkUrl(ref.url ?? '') ?? undefined) : '#';
    return ['a', { ...(href === undefined ? {} : { href }), 'data-ref': ref?.kind ?? '', rel: 'noopener noreferrer' }, 0];
  },
});
export const Keyboard = Mark.create({
  name: 'keyboard',
  addAttributes: () => ({ data: { default: null, rendered: false } }),
  parseHTML: () => [{ tag: 'kbd' }],
  renderHTML: () => ['kbd', 0],
});
/** GitBook's colour mark: `data` is `{ text, background }` (a named colour or `default`). */
export const Color = Mark.create({
  name: 'color',
  addAttributes: () => ({ data: { default: null, rendered: false } }),
  // Copied and pasted within the editor, the colours come back.
  parseHTML: () => [{ tag: 'span[data-color]', getAttrs: (element) => ({ data: { text: element.getAttribute('data-color') ?? 'default', background: element.getAttribute('data-background') ?? 'default' } }) }],
  renderHTML: ({ mark }) => {
    const data = (mark.attrs.data ?? {}) as { text?: string; background?: string };
    // The reader's classes (reader.css, which the app loads too): the editor shows the colours readers see.
    const named = (value: unknown) => typeof value === 'string' && /^[a-z]{2,20}$/.test(value) && value !== 'default';
    const classes = [named(data.text) ? `color-${data.text}` : '', named(data.background) ? `bg-${data.background}` : ''].filter(Boolean).join(' ');
    return ['span', { 'data-color': data.text ?? 'default', 'data-background': data.background ?? 'default', ...(classes ? { class: classes } : {}) }, 0];
  },
});
/**
 * Which Text (`id`, `key`) and which of its leaves (`leaf`) a run of characters belongs to. ProseMirror merges
 * neighbouring text of the same marks; this hidden mark keeps the boundaries and keys of our Texts and leaves.
 * `bare`: the leaf had no `marks` field at all.
 */
export const TextRef = Mark.create({
  name: 'textref',
  inclusive: true,
  addAttributes: () => ({
    id: { default: null, rendered: false },
    key: { default: null, rendered: false },
    leaf: { default: 0, rendered: false },
    bare: { default: false, rendered: false },
  }),
  renderHTML: () => ['span', 0],
});

// Code, in TipTap, excludes every other mark; our leaves combine code with bold and the rest.
const QuireCode = withData(Code).extend({ excludes: 'code' });

/** Marks in the order ProseMirror ranks them (the order they are listed in the schema). */
export const MARK_RANK = ['link', 'bold', 'italic', 'strike', 'code', 'keyboard', 'superscript', 'subscript', 'color', 'textref'] as const;

/** Every extension that defines the schema, marks in MARK_RANK order. */
export const schemaExtensions: AnyExtension[] = [
  QuireDocument, Text, QuireParagraph, QuireHeading, QuireBlockquote, QuireBulletList, QuireOrderedList, QuireTaskList,
  QuireListItem, QuireTaskItem, QuireCodeBlock, QuireDivider, Hint, Tabs, TabsItem, Expandable, Images, Image, Embed,
  FileBlock, Stepper, StepperStep, Columns, Column, Updates, Update, Conditional, Prompt, Fragment, Table, ContentRef, OpaqueBlock, InlineAtom,
  Link, withData(Bold), withData(Italic), withData(Strike), QuireCode, Keyboard, withData(Superscript), withData(Subscript), Color, TextRef,
];
