import type { Editor } from '@tiptap/core';
import { TextSelection } from '@tiptap/pm/state';
import { useEffect, useRef, useState, type KeyboardEvent, type RefObject } from 'react';
import { canMoveBlock, moveBlock } from './model/move-block.ts';

const TURN_INTO: { label: string; run(editor: Editor): boolean }[] = [
  { label: 'Text', run: (e) => e.chain().focus().clearNodes().setParagraph().run() },
  { label: 'Heading 1', run: (e) => e.chain().focus().clearNodes().setHeading({ level: 1 }).run() },
  { label: 'Heading 2', run: (e) => e.chain().focus().clearNodes().setHeading({ level: 2 }).run() },
  { label: 'Heading 3', run: (e) => e.chain().focus().clearNodes().setHeading({ level: 3 }).run() },
  { label: 'Bulleted list', run: (e) => e.chain().focus().clearNodes().toggleBulletList().run() },
  { label: 'Numbered list', run: (e) => e.chain().focus().clearNodes().toggleOrderedList().run() },
  { label: 'Task list', run: (e) => e.chain().focus().clearNodes().toggleTaskList().run() },
  { label: 'Quote', run: (e) => e.chain().focus().clearNodes().toggleBlockquote().run() },
  { label: 'Code block', run: (e) => e.chain().focus().clearNodes().setCodeBlock().run() },
];

/**
 * The menu of the block under the drag handle: turn into another kind, duplicate, move up or down (reordering
 * without dragging), delete, copy a link to it.
 * `target` is the position of that block (the handle reports it as the pointer moves).
 */
export function BlockMenu({ editor, target }: { editor: Editor; target: RefObject<number> }) {
  const [open, setOpen] = useState(false);
  const [note, setNote] = useState('');
  const handle = useRef<HTMLDivElement>(null);
  // Open, it closes on Escape (from its button too) and on a press anywhere else, as a menu does.
  useEffect(() => {
    if (!open) return;
    const outside = (event: PointerEvent) => {
      if (!handle.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', outside, true);
    return () => document.removeEventListener('pointerdown', outside, true);
  }, [open]);
  const node = () => {
    const pos = target.current;
    const found = pos >= 0 ? editor.state.doc.nodeAt(pos) : null;
    return found ? { pos, node: found } : null;
  };
  const select = (pos: number) => {
    const $inside = editor.state.doc.resolve(Math.min(pos + 1, editor.state.doc.content.size));
    editor.view.dispatch(editor.state.tr.setSelection(TextSelection.near($inside)));
  };
  // The focus goes back to the page, with the caret where the command left it: a menu that goes away would leave
  // it nowhere, and the page's caret where it was before the command.
  const act = (run: (at: { pos: number; node: NonNullable<ReturnType<Editor['state']['doc']['nodeAt']>> }) => void) => () => {
    const at = node();
    setOpen(false);
    if (at) run(at);
    editor.commands.focus();
  };
  // Escape gives the keys back to the page too: the handle shows only under the pointer, so keys left on its
  // button would be lost, and Enter there would open the menu again (for the next click on the handle to close).
  // The view's own focus, not the focus command: that one waits a frame, and a key pressed in it meets the button.
  const escape = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    setOpen(false);
    editor.view.focus();
  };
  return (
    <div className="qe-handle" ref={handle} onKeyDown={escape}>
      <button type="button" className="qe-handle-button" aria-label="Block menu" aria-expanded={open} onClick={() => setOpen(!open)}>
        ⋮⋮
      </button>
      {open && (
        <div role="menu" aria-label="Block" className="qe-block-menu">
          {TURN_INTO.map((item) => (
            <button key={item.label} type="button" role="menuitem" onClick={act(({ pos }) => { select(pos); item.run(editor); })}>
              Turn into {item.label}
            </button>
          ))}
          <button type="button" role="menuitem" onClick={act(({ pos, node: n }) => editor.chain().insertContentAt(pos + n.nodeSize, n.toJSON()).run())}>
            Duplicate
          </button>
          {(['up', 'down'] as const).map((direction) => (
            <button
              key={direction}
              type="button"
              role="menuitem"
              disabled={!(target.current >= 0 && canMoveBlock(editor.state, target.current, direction))}
              onClick={act(({ pos }) => {
                const tr = moveBlock(editor.state, pos, direction);
                if (tr) editor.view.dispatch(tr);
              })}
            >
              Move {direction}
            </button>
          ))}
          <button type="button" role="menuitem" onClick={act(({ pos, node: n }) => editor.chain().deleteRange({ from: pos, to: pos + n.nodeSize }).run())}>
            Delete
          </button>
          <button
            type="button"
            role="menuitem"
            onClick={act(({ node: n }) => {
              const key = (n.attrs.block as { key?: string } | null)?.key;
              if (!key) return setNote('This block gets its link once it is saved');
              const url = `${location.origin}${location.pathname}#${encodeURIComponent(key)}`;
              void navigator.clipboard?.writeText(url).then(() => setNote('Link copied'), () => setNote(url));
            })}
          >
            Copy link to block
          </button>
        </div>
      )}
      {note && <span role="status" className="qe-note">{note}</span>}
    </div>
  );
}
