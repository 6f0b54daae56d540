import { Extension } from '@tiptap/core';
import type { Node as PMNode } from '@tiptap/pm/model';
import { Plugin } from '@tiptap/pm/state';
import { Decoration, DecorationSet } from '@tiptap/pm/view';
import type { ReactNodeViewRendererOptions } from '@tiptap/react';

/*
 * A step, column or update names itself by its place ("Remove step 2") and a column offers to go only while
 * three are left. ProseMirror redraws a node view only when its node or decorations change, not when a sibling is
 * added or removed (and TipTap's React views redraw only for a new node): each part is decorated with its place
 * among its siblings, and its view redraws when that place changes.
 */

const PARTS = new Set(['stepperStep', 'column', 'update']);

function placesOf(doc: PMNode): DecorationSet {
  const decorations: Decoration[] = [];
  doc.descendants((node, pos, parent, index) => {
    if (PARTS.has(node.type.name) && parent) decorations.push(Decoration.node(pos, pos + node.nodeSize, {}, { place: `${index + 1}/${parent.childCount}` }));
    return !node.isTextblock;
  });
  return DecorationSet.create(doc, decorations);
}

export const LayoutParts = Extension.create({
  name: 'layoutParts',
  addProseMirrorPlugins() {
    const plugin: Plugin<DecorationSet> = new Plugin<DecorationSet>({
      state: {
        init: (_, state) => placesOf(state.doc),
        apply: (tr, places) => (tr.docChanged ? placesOf(tr.doc) : places),
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
