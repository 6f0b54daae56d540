import type { Node as PMNode } from '@tiptap/pm/model';
import { TextSelection } from '@tiptap/pm/state';
import { NodeViewContent, NodeViewWrapper, useEditorState, type NodeViewProps } from '@tiptap/react';
import { useEffect, useId, useState } from 'react';
import { blockWithData, setNodeAttrs } from '../model/block-settings-target.ts';
import { blockOf, setData, type BlockJson } from './block-data.ts';
import { Checkbox } from '../../../ui/choices.tsx';

/** A hint as the reader draws it; its style is set from the block's settings toolbar (block-settings.tsx). */
export function HintView(props: NodeViewProps) {
  const style = String(blockOf(props).data?.style ?? 'info');
  return (
    <NodeViewWrapper as="div" className={`hint hint-${style} qe-hint`} data-quire="hint">
      <NodeViewContent as="div" className="qe-hint-body" />
    </NodeViewWrapper>
  );
}

/** The tab the selection is in (its index), or -1: the tab shown while writing in it. */
const tabWithSelection = (editor: NodeViewProps['editor'], tabsPos: number, tabs: PMNode): number => {
  const { from } = editor.state.selection;
  if (from <= tabsPos || from >= tabsPos + tabs.nodeSize) return -1;
  let start = tabsPos + 1;
  for (let i = 0; i < tabs.childCount; i++) {
    const end = start + tabs.child(i).nodeSize;
    if (from > start && from < end) return i;
    start = end;
  }
  return -1;
};

/**
 * Tabs as the reader shows them: a strip of tabs over one tab's content. Each tab's title is edited in place on the
 * tab; a tab shows when its title is chosen or the caret goes into it; adding and removing tabs is in the block's
 * settings toolbar (block-settings.tsx).
 */
export function TabsView(props: NodeViewProps) {
  const { editor, node } = props;
  const strip = useId();
  const withSelection = useEditorState({ editor, selector: ({ editor: e }) => {
    const pos = props.getPos();
    return typeof pos === 'number' ? tabWithSelection(e, pos, props.node) : -1;
  } });
  const [chosen, setChosen] = useState(0);
  const shown = Math.min(withSelection >= 0 ? withSelection : chosen, node.childCount - 1);
  useEffect(() => {
    if (withSelection >= 0) setChosen(withSelection);
  }, [withSelection]);
  const tabPos = (index: number): number | undefined => {
    const pos = props.getPos();
    if (typeof pos !== 'number') return undefined;
    let at = pos + 1;
    for (let i = 0; i < index; i++) at += node.child(i).nodeSize;
    return at;
  };
  // The tab's content takes the selection (not the keys): its content shows, and the toolbar acts on it.
  const choose = (index: number) => {
    setChosen(index);
    const at = tabPos(index);
    if (at !== undefined && editor.isEditable) editor.view.dispatch(editor.state.tr.setSelection(TextSelection.near(editor.state.doc.resolve(at + 1))));
  };
  const rename = (index: number, title: string) => {
    const at = tabPos(index);
    if (at !== undefined) editor.view.dispatch(setNodeAttrs(editor.state.tr, at, { block: blockWithData(node.child(index), 'tabs-item', { title }) }));
  };
  const titles = Array.from({ length: node.childCount }, (_, i) => String((node.child(i).attrs.block as BlockJson | null)?.data?.title ?? ''));
  return (
    <NodeViewWrapper as="div" className="tabs qe-tabs" data-quire="tabs" data-tabs={strip} role="group" aria-label="Tabs">
      {/* Only the shown tab's content: the others are in the page (its text, its find) but not drawn. */}
      <style>{`[data-tabs="${strip}"] > .qe-tabs-items > [data-node-view-content-react] > :not(:nth-child(${shown + 1})) { display: none; }`}</style>
      <div className="tab-list qe-tab-strip" contentEditable={false}>
        {titles.map((title, i) => (
          <input
            key={i}
            className="qe-tab-title"
            aria-label="Tab title"
            aria-current={i === shown ? 'true' : undefined}
            value={title}
            placeholder={`Tab ${i + 1}`}
            readOnly={!editor.isEditable}
            onFocus={() => choose(i)}
            onChange={(e) => rename(i, e.target.value)}
          />
        ))}
      </div>
      <NodeViewContent as="div" className="qe-tabs-items" />
    </NodeViewWrapper>
  );
}

export function TabsItemView() {
  return (
    <NodeViewWrapper as="section" className="tab-panel qe-tab" data-quire="tabsItem">
      <NodeViewContent as="div" className="qe-tab-body" />
    </NodeViewWrapper>
  );
}

/** An expandable shows its title fragment then its body fragment, both edited in place. */
export function ExpandableView(props: NodeViewProps) {
  const expanded = blockOf(props).data?.defaultExpanded === true;
  return (
    <NodeViewWrapper as="div" className="qe-expandable" data-quire="expandable" role="group" aria-label="Expandable">
      <div className="qe-block-tools" contentEditable={false}>
        <Checkbox label="Open by default" checked={expanded} disabled={!props.editor.isEditable} onCheckedChange={(checked) => setData(props, { defaultExpanded: checked ? true : undefined })} />
      </div>
      <NodeViewContent as="div" className="qe-expandable-parts" />
    </NodeViewWrapper>
  );
}

const FRAGMENT_NAMES: Record<string, string> = { 'expandable-title': 'Title', 'expandable-body': 'Body', caption: 'Caption' };

export function FragmentView(props: NodeViewProps) {
  const shell = props.node.attrs.fragment as { fragment?: string; type?: string } | null;
  const name = FRAGMENT_NAMES[shell?.type ?? shell?.fragment ?? ''] ?? shell?.fragment ?? 'Part';
  return (
    <NodeViewWrapper as="div" className={`qe-fragment qe-fragment-${shell?.type ?? shell?.fragment ?? ''}`} data-quire="fragment">
      <span className="qe-fragment-name" contentEditable={false}>{name}</span>
      <NodeViewContent as="div" />
    </NodeViewWrapper>
  );
}
