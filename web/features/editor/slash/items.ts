import type { Editor, JSONContent, Range } from '@tiptap/core';
import { NodeSelection, type EditorState, type Transaction } from '@tiptap/pm/state';
import {
  faCircleCheck, faCircleExclamation, faCircleInfo, faClockRotateLeft, faCode, faFileLines, faFolderOpen, faGlobe, faHeading, faImage, faListCheck, faListOl, faListUl,
  faMinus, faParagraph, faPaperclip, faPuzzlePiece, faQuoteLeft, faServer, faShoePrints, faSquareCaretDown, faSquareRootVariable, faSuperscript, faTable, faTableCellsLarge,
  faRecycle, faTableColumns, faBell, faTriangleExclamation, faEye, faTerminal, faHandPointer, faIcons, faDollarSign,
  type IconDefinition,
} from '@fortawesome/free-solid-svg-icons';
import { isFormula, requestFormulaEditor } from '../formula-requests.ts';
import { caretInto, focusField, positionOfBlock } from '../place-caret.ts';
import { rankMatches } from './fuzzy-match.ts';
import { dayOf, layoutFitsIn, newColumns, newStepper, newUpdates } from '../nodes/layout-blocks.ts';
import { conditionalFitsIn, newConditional, newPrompt, promptFitsIn } from '../nodes/conditional-blocks.ts';
import { newIntegrationBlock, type DeclaredBlock } from '../nodes/integration-blocks.ts';
import { newButton, newExpression, newIcon } from '../nodes/inline-authoring.ts';

/*
 * What the `/` menu inserts: every block of the model, as editor JSON carrying the block's shape (schema.ts),
 * in groups, found by what the person typed after the slash (fuzzy-match.ts).
 */

/** The menu's groups, in its order (GitBook's, and issue 42's): a group without items is not shown. */
export const SLASH_GROUPS = ['Text', 'Inline', 'Lists', 'Media', 'Layout', 'Code & API', 'Embeds', 'Reusable'] as const;
export type SlashGroup = (typeof SLASH_GROUPS)[number];

export interface SlashItem {
  title: string;
  /** Words that also find the item. */
  keywords: string;
  /** One line under the title: what the block is for. */
  description: string;
  group: SlashGroup;
  icon: IconDefinition;
  /** An image shown instead of the icon: an installed integration's, served by this server. */
  iconUrl?: string;
  /** Whether it may be inserted at the caret (a stepper is not put in a step); anywhere when absent. */
  fitsAt?(state: EditorState): boolean;
  run(editor: Editor, range: Range): void;
}

/** The caret's ancestors, by node name. */
const ancestorsAt = (state: EditorState): string[] => {
  const { $from } = state.selection;
  return Array.from({ length: $from.depth + 1 }, (_, depth) => $from.node(depth).type.name);
};
const layoutFitsAt = (block: string) => (state: EditorState) => layoutFitsIn(block, ancestorsAt(state));

const paragraph = (): JSONContent => ({ type: 'paragraph' });
const block = (type: string, data: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => ({ object: 'block', type, ...extra, data });

const insert = (content: JSONContent | JSONContent[]) => (editor: Editor, range: Range) => {
  editor.chain().focus().deleteRange(range).insertContent(content).run();
};

/** Inserts a block, then places the selection at it (`place` gets the inserted block's position). */
const insertThen = (place: (tr: Transaction, pos: number) => void) => (content: JSONContent) => (editor: Editor, range: Range) => {
  editor
    .chain()
    .focus()
    .deleteRange(range)
    .insertContent(content)
    .command(({ tr }) => {
      const pos = positionOfBlock(tr.doc, content.attrs?.block);
      if (pos !== undefined) place(tr, pos);
      return true;
    })
    .run();
};

/** Inserts a block holding places to type, the caret in the first of them (an expandable's title). */
const insertAndEnter = insertThen(caretInto);

/** Inserts a formula (a math block, or inline math at the caret) and opens its editor at once; `content` is new each time, as the block is found by identity. */
const insertFormula = (content: JSONContent) => (editor: Editor, range: Range) => {
  editor.chain().focus().deleteRange(range).insertContent(content).run();
  const { doc, selection } = editor.state;
  // An inline formula ends where the caret is now; a block is found by the very object inserted.
  const pos = content.type === 'inlineAtom' ? selection.from - 1 : positionOfBlock(doc, content.attrs?.block);
  if (pos !== undefined && pos >= 0 && isFormula(doc.nodeAt(pos))) requestFormulaEditor(editor, pos);
};

/** Inserts an inline at the caret and opens its popover, where it is filled in (a button's label, an icon). */
const insertInline = (inline: () => Record<string, unknown>) => (editor: Editor, range: Range) => {
  editor.chain().focus().deleteRange(range).insertContent({ type: 'inlineAtom', attrs: { inline: inline(), leading: null } }).run();
  const pos = editor.state.selection.from - 1;
  if (pos >= 0 && editor.state.doc.nodeAt(pos)?.type.name === 'inlineAtom') requestFormulaEditor(editor, pos);
};

/** Inserts a block selected as a whole: its settings toolbar (block-settings.tsx) is where it is filled in (an embed's URL). */
export const insertAndSelect = insertThen((tr, pos) => tr.setSelection(NodeSelection.create(tr.doc, pos)));

/** Inserts a table, the caret in its first cell (a card's title). */
const insertTable = (block: Record<string, unknown>) => (editor: Editor, range: Range) => {
  editor.chain().focus().deleteRange(range).insertContent({ type: 'table', attrs: { block } }).run();
  const pos = positionOfBlock(editor.state.doc, block);
  if (pos !== undefined) focusField(editor, pos, 'textarea[aria-label^="Row 1,"], textarea[aria-label^="Card 1,"]');
};

/** A grid table of `columns` text columns and `rows` rows, as GitBook writes one. */
export function newTable(columns = 2, rows = 2): Record<string, unknown> {
  const ids = Array.from({ length: columns }, (_, i) => `c${i + 1}`);
  const records: Record<string, unknown> = {};
  const fragments: unknown[] = [];
  for (let r = 1; r <= rows; r++) {
    const values: Record<string, string> = {};
    for (const id of ids) {
      values[id] = `r${r}-${id}`;
      fragments.push({ object: 'fragment', fragment: `r${r}-${id}`, nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: '', marks: [] }] }] }] });
    }
    records[`r${r}`] = { orderIndex: `a${r - 1}`, values };
  }
  const definition = Object.fromEntries(ids.map((id, i) => [id, { id, title: `Column ${i + 1}`, type: 'text', textAlignment: 'left' }]));
  return { ...block('table', { view: { type: 'grid', columns: ids, hideHeader: false }, records, definition }, { isVoid: true }), fragments };
}

/** Cards as GitBook writes them: a table whose view is `cards`, a card per record (title and text columns). */
export function newCards(count = 3): Record<string, unknown> {
  const table = newTable(2, count) as { data: { view: unknown; definition: Record<string, { title: string }> } };
  table.data.view = { type: 'cards', columns: ['c1', 'c2'], cardSize: 'medium' };
  table.data.definition.c1!.title = 'Title';
  table.data.definition.c2!.title = 'Text';
  return table;
}

/** A content reference (GitBook's page link card) to a page of the space or a URL. */
export function contentRef(ref: { kind: 'url'; url: string } | { kind: 'page'; page: string }): JSONContent {
  return { type: 'contentRef', attrs: { block: block('content-ref', { ref }, { isVoid: true }) } };
}

export function slashItems(options: {
  pickImage(editor: Editor, range: Range): void;
  pickFile(editor: Editor, range: Range): void;
  /** Asks for a page (or URL) and inserts a content reference to it. */
  pickPage(editor: Editor, range: Range): void;
  /** Asks for a reusable content of the space and inserts a block including it (absent: the host has none to offer). */
  pickReusable?(editor: Editor, range: Range): void;
  /** Asks for an operation (or a webhook) of one of the organization's OpenAPI specs and inserts it; no items without it. */
  pickOperation?(editor: Editor, range: Range, kind: 'operation' | 'webhook'): void;
  /** The blocks the integrations installed in the space declare, as known now: an item each. */
  integrationBlocks?: readonly DeclaredBlock[];
}): SlashItem[] {
  const { pickOperation } = options;
  const hintIcons = { info: faCircleInfo, warning: faTriangleExclamation, danger: faCircleExclamation, success: faCircleCheck } as const;
  const hintUse = { info: 'A note the reader should not miss', warning: 'Something to be careful about', danger: 'Something that can break or lose data', success: 'A tip, or what success looks like' } as const;
  return [
    { title: 'Text', keywords: 'paragraph plain', description: 'Plain text: a paragraph', group: 'Text', icon: faParagraph, run: (e, r) => e.chain().focus().deleteRange(r).setParagraph().run() },
    { title: 'Heading 1', keywords: 'h1 title large', description: 'A section’s title, the largest', group: 'Text', icon: faHeading, run: (e, r) => e.chain().focus().deleteRange(r).setHeading({ level: 1 }).run() },
    { title: 'Heading 2', keywords: 'h2 subtitle', description: 'A subsection’s title', group: 'Text', icon: faHeading, run: (e, r) => e.chain().focus().deleteRange(r).setHeading({ level: 2 }).run() },
    { title: 'Heading 3', keywords: 'h3', description: 'A smaller title, for a few paragraphs', group: 'Text', icon: faHeading, run: (e, r) => e.chain().focus().deleteRange(r).setHeading({ level: 3 }).run() },
    { title: 'Quote', keywords: 'blockquote citation', description: 'Words quoted from someone', group: 'Text', icon: faQuoteLeft, run: (e, r) => e.chain().focus().deleteRange(r).toggleBlockquote().run() },
    ...(['info', 'warning', 'danger', 'success'] as const).map((style): SlashItem => ({
      title: `Hint: ${style}`,
      keywords: `hint callout admonition ${style}`,
      description: hintUse[style],
      group: 'Text',
      icon: hintIcons[style],
      run: insert({ type: 'hint', attrs: { block: { ...block('hint', { style }), nodes: [] } }, content: [paragraph()] }),
    })),
    { title: 'Prompt', keywords: 'prompt ai llm copy chatgpt claude', description: 'A prompt readers copy into an AI tool, with its description', group: 'Text', icon: faTerminal, fitsAt: (state) => promptFitsIn(ancestorsAt(state)), run: (e, r) => insertAndEnter(newPrompt())(e, r) },
    { title: 'Button', keywords: 'button cta call to action url', description: 'A button within the text that readers follow', group: 'Inline', icon: faHandPointer, run: insertInline(newButton) },
    { title: 'Icon', keywords: 'icon symbol font awesome', description: 'An icon within the text, as readers see it', group: 'Inline', icon: faIcons, run: insertInline(() => newIcon()) },
    { title: 'Variable', keywords: 'expression variable value vars', description: 'A variable’s value of the page or the space, kept up to date', group: 'Inline', icon: faDollarSign, run: insertInline(() => newExpression()) },
    { title: 'Bulleted list', keywords: 'unordered ul bullet', description: 'Items in no particular order', group: 'Lists', icon: faListUl, run: (e, r) => e.chain().focus().deleteRange(r).toggleBulletList().run() },
    { title: 'Numbered list', keywords: 'ordered ol number', description: 'Steps, one after the other', group: 'Lists', icon: faListOl, run: (e, r) => e.chain().focus().deleteRange(r).toggleOrderedList().run() },
    { title: 'Task list', keywords: 'todo checkbox checklist', description: 'Items to tick off', group: 'Lists', icon: faListCheck, run: (e, r) => e.chain().focus().deleteRange(r).toggleTaskList().run() },
    { title: 'Image', keywords: 'picture photo upload', description: 'Upload a picture from this device', group: 'Media', icon: faImage, run: (e, r) => options.pickImage(e, r) },
    { title: 'File', keywords: 'attachment download upload pdf', description: 'Attach a file readers download', group: 'Media', icon: faPaperclip, run: (e, r) => options.pickFile(e, r) },
    {
      title: 'Tabs',
      keywords: 'tabs tabbed',
      description: 'Alternatives side by side, one shown at a time',
      group: 'Layout',
      icon: faFolderOpen,
      run: insert({
        type: 'tabs',
        attrs: { block: { ...block('tabs'), nodes: [] } },
        content: [{ type: 'tabsItem', attrs: { block: { ...block('tabs-item', { title: 'Tab 1' }), nodes: [] } }, content: [paragraph()] }],
      }),
    },
    {
      title: 'Expandable',
      keywords: 'details collapse accordion toggle',
      description: 'Details hidden until the reader opens them',
      group: 'Layout',
      icon: faSquareCaretDown,
      run: insertAndEnter({
        type: 'expandable',
        attrs: { block: { ...block('expandable', {}, { isVoid: true }), fragments: [] } },
        content: [
          { type: 'fragment', attrs: { fragment: { object: 'fragment', fragment: 'expandable-title', type: 'expandable-title', nodes: [] } }, content: [paragraph()] },
          { type: 'fragment', attrs: { fragment: { object: 'fragment', fragment: 'expandable-body', type: 'expandable-body', nodes: [] } }, content: [paragraph()] },
        ],
      }),
    },
    { title: 'Stepper', keywords: 'steps guide walkthrough tutorial numbered', description: 'A guide in numbered steps, each with its own blocks', group: 'Layout', icon: faShoePrints, fitsAt: layoutFitsAt('stepper'), run: (e, r) => insertAndEnter(newStepper())(e, r) },
    { title: 'Columns', keywords: 'columns side by side layout split', description: 'Two blocks of content side by side', group: 'Layout', icon: faTableColumns, fitsAt: layoutFitsAt('columns'), run: (e, r) => insertAndEnter(newColumns())(e, r) },
    { title: 'Updates', keywords: 'changelog release notes news dated', description: 'A changelog: dated entries, each with its own blocks', group: 'Layout', icon: faClockRotateLeft, fitsAt: layoutFitsAt('updates'), run: (e, r) => insertAndEnter(newUpdates(dayOf(new Date())))(e, r) },
    { title: 'Conditional content', keywords: 'if condition adaptive visitor claims audience show hide', description: 'Blocks only the visitors a condition matches see', group: 'Layout', icon: faEye, fitsAt: (state) => conditionalFitsIn(ancestorsAt(state)), run: (e, r) => insertAndEnter(newConditional())(e, r) },
    { title: 'Table', keywords: 'grid rows columns', description: 'Rows and columns of values', group: 'Layout', icon: faTable, run: (e, r) => insertTable(newTable())(e, r) },
    { title: 'Cards', keywords: 'cards links gallery', description: 'A grid of cards, each with a title and text', group: 'Layout', icon: faTableCellsLarge, run: (e, r) => insertTable(newCards())(e, r) },
    { title: 'Divider', keywords: 'hr rule separator line', description: 'A line between two parts of the page', group: 'Layout', icon: faMinus, run: (e, r) => e.chain().focus().deleteRange(r).setHorizontalRule().run() },
    { title: 'Code block', keywords: 'code snippet pre', description: 'Code with its language’s colours', group: 'Code & API', icon: faCode, run: (e, r) => e.chain().focus().deleteRange(r).setCodeBlock().run() },
    { title: 'Math', keywords: 'formula tex latex equation', description: 'A formula on a line of its own, in TeX', group: 'Code & API', icon: faSquareRootVariable, run: (e, r) => insertFormula({ type: 'opaqueBlock', attrs: { block: block('math', { formula: '' }, { isVoid: true }) } })(e, r) },
    {
      title: 'Inline math',
      keywords: 'formula tex latex inline',
      description: 'A formula within the sentence, in TeX',
      group: 'Code & API',
      icon: faSuperscript,
      run: (e, r) => insertFormula({ type: 'inlineAtom', attrs: { inline: { object: 'inline', type: 'inline-math', isVoid: true, data: { formula: '' } }, leading: null } })(e, r),
    },
    ...(pickOperation
      ? ([
          { title: 'OpenAPI operation', keywords: 'api openapi swagger endpoint rest reference', description: 'An operation of an API specification, as a reference', group: 'Code & API', icon: faServer, run: (e, r) => pickOperation(e, r, 'operation') },
          { title: 'OpenAPI webhook', keywords: 'api openapi webhook event callback payload', description: 'A webhook an API sends, with its payload', group: 'Code & API', icon: faBell, run: (e, r) => pickOperation(e, r, 'webhook') },
        ] satisfies SlashItem[])
      : []),
    { title: 'Embed', keywords: 'embed url video iframe', description: 'A video, a tweet or another site, by its URL', group: 'Embeds', icon: faGlobe, run: insertAndSelect({ type: 'embed', attrs: { block: block('embed', { url: '' }, { isVoid: true }) } }) },
    { title: 'Page link', keywords: 'content reference card page url link', description: 'A card linking to a page of the space or a URL', group: 'Embeds', icon: faFileLines, run: (e, r) => options.pickPage(e, r) },
    ...(options.pickReusable ? [reusableItem(options.pickReusable)] : []),
    ...(options.integrationBlocks ?? []).map((declared): SlashItem => ({
      title: declared.title,
      keywords: `integration ${declared.integration}`,
      description: declared.description,
      group: 'Embeds',
      icon: faPuzzlePiece,
      ...(declared.icon ? { iconUrl: declared.icon } : {}),
      // A new block object each time: the inserted block is found by identity to be selected.
      run: (e, r) => insertAndSelect({ type: 'opaqueBlock', attrs: { block: newIntegrationBlock(declared.integration, declared.id) } })(e, r),
    })),
  ];
}

function reusableItem(pick: (editor: Editor, range: Range) => void): SlashItem {
  return { title: 'Reusable content', keywords: 'reusable snippet shared include partial', description: 'Blocks kept in one place and shown in every page that includes them', group: 'Reusable', icon: faRecycle, run: pick };
}

/** The items the query finds, best first; all of them, in their groups' order, for no query. */
export function filterItems(items: readonly SlashItem[], query: string): SlashItem[] {
  return rankMatches(items, query);
}
