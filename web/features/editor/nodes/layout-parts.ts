import { Extension } from '@tiptap/core';
import type { Node as PMNode } from '@tiptap/pm/model';
import { Plugin } from '@tiptap/pm/state';
import { Decoration, type DecorationSet } from '@tiptap/pm/view';
import { decorationsOf, mapDecorations } from '../model/block-decorations.ts';
import type { ReactNodeViewRendererOptions } from '@tiptap/react';

/*
 * A step, column or update names itself by its place ("Remove step 2") and a column offers to go only while
 * three are left. ProseMirror redraws a node view only when its node or decorations change, not when a sibling is
 * added or removed (and TipTap's React views redraw only for a new node): each part is decorated with its place
 * among its siblings, and its view redraws when that place changes.
 */

const PARTS = new Set(['stepperStep', 'column', 'update']);

/** The places of the parts in a top-level block at `pos` (a stepper, or columns holding one). */
function placesIn(block: PMNode, at: number): Decoration[] {
  const decorations: Decoration[] = [];
  block.descendants((node, pos, parent, index) => {
    if (PARTS.has(node.type.name) && parent) decorations.push(Decoration.node(at + 1 + pos, at + 1 + pos + node.nodeSize, {}, { place: `${index + 1}/${parent.childCount}` }));
    return !node.isTextblock;
  });
  return decorations;
}

export const LayoutParts = Extension.create({
  name: 'layoutParts',
  addProseMirrorPlugins() {
    const plugin: Plugin<DecorationSet> = new Plugin<DecorationSet>({
      state: {
        init: (_, state) => decorationsOf(state.doc, placesIn),
        apply: (tr, places) => mapDecorations(tr, places, placesIn),
      },
      props: { decorations: (state) => plugin.getState(state) },
    });
    return [plugin];
  },
});

const placeIn = (decorations: readonly Decoration[]): unknown => decorations.find((decoration) => decoration.spec.place)?.spec.place;

/** The `update` of a part's React view: drawn again for a new node, as TipTap does, or for a new place. */
export const redrawOnNewPlace: NonNullable<ReactNodeViewRendererOptions['update']> = ({ oldNode, newNode, oldDecorations, newDecorations, updateProps }) => {
  if (oldNode !== newNode || placeIn(oldDecorations) !== placeIn(newDecorations)) updateProps();
  return true;
};
