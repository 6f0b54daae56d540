import type { Editor } from '@tiptap/core';
import { NodeViewWrapper, type NodeViewProps } from '@tiptap/react';
import { useEffect, useRef, useState } from 'react';
import { Button } from '../../../ui/button.tsx';
import { AnchoredPopover } from '../../../ui/popover.tsx';
import { TextArea, TextField } from '../../../ui/text-field.tsx';
import { BlockFormula, InlineFormula } from '../../math/formula.tsx';
import { onFormulaRequest, takeFormulaRequest } from '../formula-requests.ts';
import { blockOf, setData } from './block-data.ts';

/*
 * Math as readers see it (temml's MathML, features/math), block and inline. A click on it, or Enter while it is
 * selected, opens the kit's popover with its TeX and a preview of what readers will see; each keystroke writes
 * the formula, and Escape gives the caret back to the page beside it.
 */

/** Whether the formula's popover is open, opened by a click or by a request (formula-requests.ts). */
function useFormulaEditor(props: NodeViewProps): [boolean, (open: boolean) => void] {
  const { editor, getPos } = props;
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const take = () => {
      if (takeFormulaRequest(editor, getPos())) setOpen(true);
    };
    take();
    return onFormulaRequest(editor, take);
  }, [editor, getPos]);
  return [open && editor.isEditable, setOpen];
}

/** The caret back in the page: after an inline formula, on a block one (Enter opens it again). */
function returnCaret(editor: Editor, pos: number | undefined, inline: boolean): void {
  if (pos === undefined || editor.isDestroyed) return;
  if (inline) editor.chain().focus().setTextSelection(pos + 1).run();
  else editor.chain().focus().setNodeSelection(pos).run();
}

function FormulaPopover({ anchor, label, formula, inline, onChange, onClose }: {
  anchor: React.RefObject<HTMLElement | null>;
  label: string;
  formula: string;
  inline: boolean;
  onChange(formula: string): void;
  /** `caret`: Escape or Done, the caret goes back to the page; a click elsewhere leaves the focus where it went. */
  onClose(caret: boolean): void;
}) {
  const field = { label, value: formula, autoFocus: true, spellCheck: false, className: 'qe-formula-field', onChange: (e: { target: { value: string } }) => onChange(e.target.value) };
  return (
    <AnchoredPopover rect={() => anchor.current?.getBoundingClientRect() ?? new DOMRect()} label={label} className="qe-formula-popover" onEscape={() => onClose(true)} onDismiss={() => onClose(false)}>
      {inline ? (
        <TextField {...field} onKeyDown={(e) => e.key === 'Enter' && (e.preventDefault(), onClose(true))} />
      ) : (
        <TextArea {...field} rows={3} />
      )}
      <div className="qe-formula-preview" role="group" aria-label="Preview">
        {formula.trim() ? inline ? <InlineFormula formula={formula} /> : <BlockFormula formula={formula} /> : <span className="qe-formula-empty">Type a formula in TeX, such as x^2</span>}
      </div>
      <div className="qe-formula-actions">
        <Button size="sm" variant="primary" onClick={() => onClose(true)}>Done</Button>
      </div>
    </AnchoredPopover>
  );
}

/** A `math` block. */
export function MathBlockView(props: NodeViewProps) {
  const block = blockOf(props);
  const formula = String(block.data?.formula ?? '');
  const [open, setOpen] = useFormulaEditor(props);
  const anchor = useRef<HTMLDivElement>(null);
  return (
    <NodeViewWrapper as="div" className="qe-math" data-quire="math" data-drag-handle>
      <div ref={anchor} contentEditable={false} className="qe-formula" onClick={() => props.editor.isEditable && setOpen(true)}>
        {formula.trim() ? <BlockFormula formula={formula} /> : <span className="qe-formula-empty">Empty formula</span>}
      </div>
      {open ? (
        <FormulaPopover
          anchor={anchor}
          label="Math formula (TeX)"
          formula={formula}
          inline={false}
          onChange={(value) => setData(props, { formula: value })}
          onClose={(caret) => {
            setOpen(false);
            if (caret) returnCaret(props.editor, props.getPos(), false);
          }}
        />
      ) : null}
    </NodeViewWrapper>
  );
}

/** An `inline-math` inline: `update` writes its data (InlineAtomView). */
export function InlineMathView({ props, formula, update }: { props: NodeViewProps; formula: string; update(patch: Record<string, unknown>): void }) {
  const [open, setOpen] = useFormulaEditor(props);
  const anchor = useRef<HTMLSpanElement>(null);
  return (
    <NodeViewWrapper as="span" className="qe-inline qe-inline-math">
      <span ref={anchor} className="qe-formula" onClick={() => props.editor.isEditable && setOpen(true)}>
        {formula.trim() ? <InlineFormula formula={formula} /> : <span className="qe-formula-empty">Empty formula</span>}
      </span>
      {open ? (
        <FormulaPopover
          anchor={anchor}
          label="Inline formula (TeX)"
          formula={formula}
          inline
          onChange={(value) => update({ formula: value })}
          onClose={(caret) => {
            setOpen(false);
            if (caret) returnCaret(props.editor, props.getPos(), true);
          }}
        />
      ) : null}
    </NodeViewWrapper>
  );
}
