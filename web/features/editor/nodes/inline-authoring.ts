import type { Editor } from '@tiptap/core';
import type { EditorState } from '@tiptap/pm/state';
import { requestFormulaEditor } from '../formula-requests.ts';
import { inlineFromEditor } from '../../../../src/features/content/document/editor/inline.ts';
import type { Text } from '../../../../src/features/content/document/types.ts';
import type { PMNode } from '../../../../src/features/content/document/editor/editor-json.ts';

/*
 * The inlines a person writes into a sentence besides text (GitBook's DocumentInline…): an annotation over
 * selected words with its note, a button, an icon, an expression. The editor keeps each as its JSON (an
 * `inlineAtom`, content/document/editor/inline.ts); these functions make that JSON and change it, leaving
 * everything they do not change as it was, so an inline opened and closed comes back exactly.
 */

type Json = Record<string, unknown>;

const paragraphOf = (line: string) => ({ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: line, marks: [] }] }] });

/** The text of inline or block JSON, leaves joined, a block's text apart from the next one's. */
function textOf(nodes: unknown, between = ''): string {
  if (!Array.isArray(nodes)) return '';
  return nodes
    .map((node) => {
      const n = node as { object?: string; leaves?: { text?: string }[]; nodes?: unknown };
      return n?.object === 'text' ? (n.leaves ?? []).map((l) => l.text ?? '').join('') : textOf(n?.nodes);
    })
    .join(between);
}

/** An annotation's note as text: its body's paragraphs, a line each. */
export function annotationNote(inline: Json): string {
  const fragments = (inline.fragments ?? []) as { nodes?: unknown }[];
  return fragments.map((f) => textOf(f.nodes, '\n')).join('\n');
}

/** The annotated words as text. */
export const annotationWords = (inline: Json): string => textOf(inline.nodes);

/**
 * The annotation with this note: unchanged when the note reads the same (its blocks, marks and keys kept),
 * else its body is the note's lines as paragraphs (GitBook's `annotation-body` asks for one block at least).
 */
export function withNote(inline: Json, note: string): Json {
  if (annotationNote(inline) === note) return inline;
  const old = ((inline.fragments ?? []) as Json[])[0] ?? {};
  const lines = note.split('\n');
  return { ...inline, fragments: [{ object: 'fragment', ...old, fragment: 'annotation-body', type: 'annotation-body', nodes: lines.map(paragraphOf) }] };
}

/** A new annotation over `words` (texts of our model) with its note. */
export function newAnnotation(words: Text[], note = ''): Json {
  const body = { object: 'fragment', fragment: 'annotation-body', type: 'annotation-body', nodes: note.split('\n').map(paragraphOf) };
  return { object: 'inline', type: 'annotation', isVoid: false, data: {}, nodes: words, fragments: [body] };
}

/** The selection's words as texts of our model, when they can be annotated: text only, in one block, no link. */
export function selectedWords(state: EditorState): Text[] | null {
  const { $from, $to, empty } = state.selection;
  if (empty || !$from.sameParent($to) || !$from.parent.isTextblock) return null;
  // Nor in a block that takes no inline there (a code block's lines hold text only in the editor).
  const atom = state.schema.nodes.inlineAtom;
  if (!atom || !$from.parent.canReplaceWith($from.index(), $to.indexAfter(), atom)) return null;
  const children = $from.parent.content.cut($from.parentOffset, $to.parentOffset).toJSON() as PMNode[] | null;
  if (!children?.length || children.some((child) => child.type !== 'text' || child.marks?.some((m) => m.type === 'link'))) return null;
  // New words of their own: not the texts (keys, leaves) they were cut from.
  const bare = children.map((child) => ({ ...child, marks: (child.marks ?? []).filter((m) => m.type !== 'textref') }));
  return inlineFromEditor(bare, false, true).filter((n): n is Text => (n as { object?: string }).object === 'text');
}

/** A button as GitBook writes one: its label, where it leads, its kind. */
export function newButton(label = 'Button', url = ''): Json {
  return { object: 'inline', type: 'button', isVoid: true, data: { ref: { kind: 'url', url }, label, kind: 'primary' } };
}

export const newIcon = (icon = 'star'): Json => ({ object: 'inline', type: 'icon', isVoid: true, data: { icon } });

export const newExpression = (expression = ''): Json => ({ object: 'inline', type: 'expression', isVoid: true, data: { expression } });

/** The expression naming a variable of the space or the page (`space.vars.name`, `page.vars["api-host"]`). */
export function variableExpression(scope: 'space' | 'page', name: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(name) ? `${scope}.vars.${name}` : `${scope}.vars[${JSON.stringify(name)}]`;
}

/** The variables an expression may name, as expressions with their current values, in name order. */
export function variableChoices(variables: { space?: Readonly<Record<string, unknown>> | undefined; page?: Readonly<Record<string, unknown>> | undefined }): { expression: string; scope: 'space' | 'page'; name: string; value: string }[] {
  return (['page', 'space'] as const).flatMap((scope) =>
    Object.entries(variables[scope] ?? {})
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, value]) => ({ expression: variableExpression(scope, name), scope, name, value: typeof value === 'object' ? JSON.stringify(value) : String(value) })),
  );
}

/** Icon names matching what was typed (every word in the name), the closest first, at most `limit`. */
export function matchIcons(names: readonly string[], query: string, limit = 48): string[] {
  const words = query.toLowerCase().split(/[\s-]+/).filter(Boolean);
  if (words.length === 0) return names.slice(0, limit);
  const found = names.filter((name) => words.every((w) => name.includes(w)));
  const score = (name: string) => (name === words.join('-') ? 0 : name.startsWith(words[0]!) ? 1 : 2);
  return found.sort((a, b) => score(a) - score(b) || a.length - b.length || a.localeCompare(b)).slice(0, limit);
}

/**
 * Makes the selected words an annotation with an empty note and asks its view to open the note's popover (the
 * selection toolbar's "Annotate"); false when the selection cannot be annotated (selectedWords).
 */
export function annotateSelection(editor: Editor): boolean {
  const words = selectedWords(editor.state);
  if (!words) return false;
  const { from, to } = editor.state.selection;
  // Not focusing the editor: its focus comes a frame later, and would close the popover that takes it.
  editor.chain().insertContentAt({ from, to }, { type: 'inlineAtom', attrs: { inline: newAnnotation(words), leading: null } }).run();
  requestFormulaEditor(editor, from);
  return true;
}
