import type { Node as PMNode } from '@tiptap/pm/model';
import { NodeSelection, type Selection, type Transaction } from '@tiptap/pm/state';

/*
 * Which block the settings toolbar is about: the innermost block with settings around the selection (a code block,
 * a hint, an image, a tabs block, an embed, a table), or the one selected as a whole. The caret in a hint inside a tab
 * configures the hint; in an image's caption, the image. A tab configures its tabs block (its title is edited on
 * the tab itself).
 */

export type SettingsKind = 'code' | 'hint' | 'image' | 'tabs' | 'embed' | 'table' | 'openapi' | 'webhook' | 'integration';

const KINDS: Record<string, SettingsKind> = { codeBlock: 'code', hint: 'hint', image: 'image', tabs: 'tabs', embed: 'embed', table: 'table' };

export interface SettingsTarget {
  kind: SettingsKind;
  pos: number;
  node: PMNode;
  /** For an image, its images block (alignment and full width are the group's); for tabs, the tab with the caret. */
  parent?: { pos: number; node: PMNode; index?: number };
}

/** Kept blocks with settings of their own, by their block's type: they are opaque blocks of the model (schema.ts). */
const OPAQUE_KINDS: Record<string, SettingsKind> = { 'openapi-operation': 'openapi', swagger: 'openapi', openapi: 'openapi', 'openapi-webhook': 'webhook', integration: 'integration' };

export function settingsTarget(selection: Selection): SettingsTarget | null {
  if (selection instanceof NodeSelection && selection.node.type.name === 'opaqueBlock') {
    const kind = OPAQUE_KINDS[(selection.node.attrs.block as { type?: string } | null)?.type ?? ''];
    return kind ? { kind, pos: selection.from, node: selection.node } : null;
  }
  if (selection instanceof NodeSelection && KINDS[selection.node.type.name]) {
    const $pos = selection.$from;
    return withParent(KINDS[selection.node.type.name]!, selection.from, selection.node, $pos.depth > 0 ? { pos: $pos.before(), node: $pos.parent } : undefined);
  }
  const $from = selection.$from;
  for (let depth = $from.depth; depth > 0; depth--) {
    const node = $from.node(depth);
    const kind = KINDS[node.type.name];
    if (!kind) continue;
    const pos = $from.before(depth);
    if (kind === 'tabs') return { kind, pos, node, ...(depth < $from.depth ? { parent: { pos: $from.before(depth + 1), node: $from.node(depth + 1), index: $from.index(depth) } } : {}) };
    return withParent(kind, pos, node, depth > 1 ? { pos: $from.before(depth - 1), node: $from.node(depth - 1) } : undefined);
  }
  return null;
}

function withParent(kind: SettingsKind, pos: number, node: PMNode, parent: { pos: number; node: PMNode } | undefined): SettingsTarget {
  return kind === 'image' && parent?.node.type.name === 'images' ? { kind, pos, node, parent } : { kind, pos, node };
}

type BlockJson = { type?: string; key?: unknown; data?: Record<string, unknown>; [field: string]: unknown };

/**
 * The node's block JSON with fields of its `data` changed (undefined removes one), the rest kept. A code block made
 * from a paragraph may still carry the paragraph's JSON (content/document/editor/blocks.ts drops it): it starts
 * afresh, keeping the key.
 */
export function blockWithData(node: PMNode, type: string, patch: Record<string, unknown>): BlockJson {
  const current = node.attrs.block as BlockJson | null;
  const block: BlockJson = current?.type === type ? current : { object: 'block', type, ...(typeof current?.key === 'string' ? { key: current.key } : {}), data: {}, ...(type === 'code' ? { nodes: [] } : {}) };
  const data: Record<string, unknown> = { ...block.data };
  for (const [field, value] of Object.entries(patch)) {
    if (value === undefined) delete data[field];
    else data[field] = value;
  }
  return { ...block, data };
}

/** Sets attributes of the node at `pos`: one step, undone as one. A block selected as a whole stays selected. */
export function setNodeAttrs(tr: Transaction, pos: number, attrs: Record<string, unknown>): Transaction {
  const node = tr.doc.nodeAt(pos);
  if (!node) return tr;
  const selected = tr.selection instanceof NodeSelection && tr.selection.from === pos;
  tr.setNodeMarkup(pos, undefined, { ...node.attrs, ...attrs });
  return selected ? tr.setSelection(NodeSelection.create(tr.doc, pos)) : tr;
}
