import { NodeViewContent, NodeViewWrapper, type NodeViewProps } from '@tiptap/react';
import { focusField } from '../place-caret.ts';
import { blockOf, setData } from './block-data.ts';
import { Checkbox } from '../../../ui/choices.tsx';
import { Select } from '../../../ui/select.tsx';
import { Button } from '../../../ui/button.tsx';
import { faPlus, faTrash } from '@fortawesome/free-solid-svg-icons';

// The model's HINT_STYLES, named (types.ts is imported for types only: its schema would bring TypeBox along).
const HINT_NAMES: Record<string, string> = { info: 'Info', warning: 'Warning', danger: 'Danger', success: 'Success' };
const HINT_OPTIONS = Object.entries(HINT_NAMES).map(([value, label]) => ({ value, label }));

export function HintView(props: NodeViewProps) {
  const style = String(blockOf(props).data?.style ?? 'info');
  return (
    <NodeViewWrapper as="div" className={`hint hint-${style} qe-hint`} data-quire="hint">
      <div className="qe-block-tools" contentEditable={false}>
        <Select label="Hint style" size="sm" options={HINT_OPTIONS} value={style} disabled={!props.editor.isEditable} onValueChange={(next) => setData(props, { style: next })} />
      </div>
      <NodeViewContent as="div" className="qe-hint-body" />
    </NodeViewWrapper>
  );
}

/** Tabs are edited one under the other, each with its title: every tab's content stays in view while writing. */
export function TabsView(props: NodeViewProps) {
  const addTab = () => {
    const pos = props.getPos();
    if (typeof pos !== 'number') return;
    const end = pos + props.node.nodeSize - 1;
    const count = props.node.childCount + 1;
    const added = props.editor.chain().insertContentAt(end, {
      type: 'tabsItem',
      attrs: { block: { object: 'block', type: 'tabs-item', data: { title: `Tab ${count}` }, nodes: [] } },
      content: [{ type: 'paragraph' }],
    }).run();
    // The new tab's title takes the caret, its default name selected: what is typed next names it.
    if (added) focusField(props.editor, end);
  };
  return (
    <NodeViewWrapper as="div" className="qe-tabs" data-quire="tabs" role="group" aria-label="Tabs">
      <NodeViewContent as="div" className="qe-tabs-items" />
      {props.editor.isEditable && (
        <div className="qe-block-tools" contentEditable={false}>
          <Button size="sm" variant="ghost" icon={faPlus} onClick={addTab}>Add tab</Button>
        </div>
      )}
    </NodeViewWrapper>
  );
}

export function TabsItemView(props: NodeViewProps) {
  const title = String(blockOf(props).data?.title ?? '');
  const remove = () => {
    const pos = props.getPos();
    if (typeof pos !== 'number') return;
    const $pos = props.editor.state.doc.resolve(pos);
    // The last tab goes with its tabs block: a tabs block holds at least one tab.
    if ($pos.parent.childCount === 1) {
      const tabsPos = $pos.before();
      props.editor.chain().deleteRange({ from: tabsPos, to: tabsPos + $pos.parent.nodeSize }).run();
    } else props.deleteNode();
  };
  return (
    <NodeViewWrapper as="section" className="qe-tab" data-quire="tabsItem">
      <div className="qe-block-tools" contentEditable={false}>
        <label>
          Tab title{' '}
          <input value={title} readOnly={!props.editor.isEditable} onChange={(e) => setData(props, { title: e.target.value })} />
        </label>
        {props.editor.isEditable && <Button size="sm" variant="ghost" icon={faTrash} onClick={remove} aria-label={`Remove tab ${title}`}>Remove tab</Button>}
      </div>
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
