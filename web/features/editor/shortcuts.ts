/**
 * The editor's keyboard shortcuts, as the help dialog (Ctrl/Cmd-/) lists them: TipTap's own for the marks and
 * blocks of the schema (src/features/content/document/editor/schema.ts keeps its extensions' defaults), ours for
 * links, the `/` menu and line breaks, and the markdown a person may type at a line's start. `Mod` is Cmd on a
 * Mac, Ctrl elsewhere. A Chromium test presses each key combination listed and reads what it did (so the quote's
 * Mod-Shift-B is not listed: Bold's Mod-B takes it first, as in TipTap's own editor; `>` makes a quote).
 */
export interface Shortcut {
  label: string;
  /** Keys pressed together, `Mod` first when there is one; or text typed (`typed`). */
  keys: string[];
  typed?: boolean;
}

export const SHORTCUT_GROUPS: { title: string; shortcuts: Shortcut[] }[] = [
  {
    title: 'Text',
    shortcuts: [
      { label: 'Bold', keys: ['Mod', 'B'] },
      { label: 'Italic', keys: ['Mod', 'I'] },
      { label: 'Strikethrough', keys: ['Mod', 'Shift', 'S'] },
      { label: 'Code', keys: ['Mod', 'E'] },
      { label: 'Link', keys: ['Mod', 'K'] },
      { label: 'Line break in a block', keys: ['Shift', 'Enter'] },
    ],
  },
  {
    title: 'Blocks',
    shortcuts: [
      { label: 'Heading 1', keys: ['Mod', 'Alt', '1'] },
      { label: 'Heading 2', keys: ['Mod', 'Alt', '2'] },
      { label: 'Heading 3', keys: ['Mod', 'Alt', '3'] },
      { label: 'Bulleted list', keys: ['Mod', 'Shift', '8'] },
      { label: 'Numbered list', keys: ['Mod', 'Shift', '7'] },
      { label: 'Task list', keys: ['Mod', 'Shift', '9'] },
      { label: 'Code block', keys: ['Mod', 'Alt', 'C'] },
      { label: 'Insert a block', keys: ['/'], typed: true },
      // The settings of the block the caret is in (a code block's language, a hint's style); Escape comes back.
      { label: 'Block settings', keys: ['Alt', 'F10'] },
    ],
  },
  {
    title: 'Typed anywhere in text',
    shortcuts: [
      { label: 'Mention a person or a page', keys: ['@'], typed: true },
      { label: 'Insert an emoji', keys: [':'], typed: true },
    ],
  },
  {
    title: 'Typed at the start of a line',
    shortcuts: [
      { label: 'Heading 1, 2, 3', keys: ['#', '##', '###'], typed: true },
      { label: 'Bulleted list', keys: ['-'], typed: true },
      { label: 'Numbered list', keys: ['1.'], typed: true },
      { label: 'Quote', keys: ['>'], typed: true },
      { label: 'Code block', keys: ['```'], typed: true },
    ],
  },
  {
    title: 'Editing',
    shortcuts: [
      { label: 'Undo', keys: ['Mod', 'Z'] },
      { label: 'Redo', keys: ['Mod', 'Shift', 'Z'] },
      { label: 'These shortcuts', keys: ['Mod', '/'] },
    ],
  },
];

/** A key as this platform names it. */
export function keyName(key: string, mac: boolean): string {
  if (key === 'Mod') return mac ? '⌘' : 'Ctrl';
  if (key === 'Alt') return mac ? '⌥' : 'Alt';
  if (key === 'Shift') return mac ? '⇧' : 'Shift';
  return key;
}
