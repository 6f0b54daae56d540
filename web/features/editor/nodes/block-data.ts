import type { NodeViewProps } from '@tiptap/react';

/** A node's block JSON (schema.ts: `block`), and a way to change fields of its `data` while keeping the rest. */
export type BlockJson = { type: string; data?: Record<string, unknown>; [field: string]: unknown };

export const blockOf = (props: Pick<NodeViewProps, 'node'>): BlockJson => (props.node.attrs.block as BlockJson | null) ?? { type: props.node.type.name, data: {} };

export function setData(props: Pick<NodeViewProps, 'node' | 'updateAttributes'>, patch: Record<string, unknown>): void {
  const block = blockOf(props);
  const data: Record<string, unknown> = { ...block.data };
  for (const [field, value] of Object.entries(patch)) {
    if (value === undefined) delete data[field];
    else data[field] = value;
  }
  props.updateAttributes({ block: { ...block, data } });
}
