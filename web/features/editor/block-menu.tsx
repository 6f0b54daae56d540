import type { Editor } from '@tiptap/core';
import { TextSelection } from '@tiptap/pm/state';
import {
  faArrowDown, faArrowUp, faCircleCheck, faCircleExclamation, faCircleInfo, faClone, faCode, faTriangleExclamation, faGripVertical, faHeading, faLink, faListCheck, faListOl, faListUl, faParagraph, faQuoteLeft, faRecycle, faTrashCan,
  type IconDefinition,
} from '@fortawesome/free-solid-svg-icons';
import { useEffect, useRef, useState, type RefObject } from 'react';
import { Icon } from '../../ui/icon.tsx';
import { DropdownMenu, DropdownMenuItem, DropdownMenuLabel, DropdownMenuSeparator } from '../../ui/menus.tsx';
import { canMoveBlock, moveBlock } from './model/move-block.ts';

const HINT_ICONS = { info: faCircleInfo, warning: faTriangleExclamation, danger: faCircleExclamation, success: faCircleCheck } as const;

/** The kinds a text block can be turned into, from the block menu and the selection's toolbar. */
export const TURN_INTO: { label: string; icon: IconDefinition; run(editor: Editor): boolean }[] = [
  { label: 'Text', icon: faParagraph, run: (e) => e.chain().focus().clearNodes().setParagraph().run() },
  { label: 'Heading 1', icon: faHeading, run: (e) => e.chain().focus().clearNodes().setHeading({ level: 1 }).run() },
  { label: 'Heading 2', icon: faHeading, run: (e) => e.chain().focus().clearNodes().setHeading({ level: 2 }).run() },
  { label: 'Heading 3', icon: faHeading, run: (e) => e.chain().focus().clearNodes().setHeading({ level: 3 }).run() },
  { label: 'Bulleted list', icon: faListUl, run: (e) => e.chain().focus().clearNodes().toggleBulletList().run() },
  { label: 'Numbered list', icon: faListOl, run: (e) => e.chain().focus().clearNodes().toggleOrderedList().run() },
  { label: 'Task list', icon: faListCheck, run: (e) => e.chain().focus().clearNodes().toggleTaskList().run() },
  { label: 'Quote', icon: faQuoteLeft, run: (e) => e.chain().focus().clearNodes().toggleBlockquote().run() },
  { label: 'Code block', icon: faCode, run: (e) => e.chain().focus().clearNodes().setCodeBlock().run() },
  // A hint holds blocks: the block goes inside one (GitBook's callout), or the hint it is in changes its style.
  ...(['info', 'warning', 'danger', 'success'] as const).map((style) => ({
    label: `Hint: ${style}`,
    icon: HINT_ICONS[style],
    run: (e: Editor) => {
      const hint = { object: 'block', type: 'hint', data: { style }, nodes: [] };
      if (e.isActive('hint')) return e.chain().focus().updateAttributes('hint', { block: hint }).run();
      return e.chain().focus().wrapIn('hint', { block: hint }).run();
    },
  })),
];

/**
 * The menu of the block under the drag handle, on the kit's DropdownMenu (kept on screen, arrow keys, typeahead):
 * turn into another kind, duplicate, move up or down (reordering without dragging), delete, copy a link to it.
 * `target` is the position of that block (the handle reports it as the pointer moves).
 */
export function BlockMenu({ editor, target, onCreateReusable }: { editor: Editor; target: RefObject<number>; onCreateReusable?: (pos: number) => void }) {
  const [open, setOpen] = useState(false);
  const [note, setNote] = useState('');
  // Open when the press on the handle began: that press, outside the menu, also closes it before the click.
  const openAtPress = useRef(false);
  // While the menu is open the handle stays by its block: the pointer leaving the page for the menu would hide it.
  // (The drag handle's plugin reads this meta; its lock commands come with the extension, not the React handle.)
  useEffect(() => {
    const lock = (locked: boolean) => void (editor.isDestroyed || editor.view.dispatch(editor.state.tr.setMeta('lockDragHandle', locked).setMeta('addToHistory', false)));
    if (!open) return;
    lock(true);
    return () => lock(false);
  }, [open, editor]);
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
    if (at) run(at);
    editor.commands.focus();
  };
  // Escape gives the keys back to the page at once: the handle shows only under the pointer, so keys left on its
  // button (where a menu puts the focus back, a task later) would be lost, and Enter there would open the menu
  // again. The view's own focus, not the focus command: that one waits a frame, and a key pressed in it meets the
  // button.
  const escape = () => editor.view.focus();
  const canMove = (direction: 'up' | 'down') => target.current >= 0 && canMoveBlock(editor.state, target.current, direction);
  return (
    <div className="qe-handle">
      {/* The handle's button is what is dragged to move the block: the menu's own trigger would take the press
          (Radix opens a menu on pointerdown and cancels it, which cancels the drag), so the button opens the menu
          on a click and the trigger is only where it opens. */}
      <button
        type="button"
        className="qe-handle-button"
        aria-label="Block menu"
        aria-haspopup="menu"
        aria-expanded={open}
        onPointerDown={() => (openAtPress.current = open)}
        onClick={(event) => setOpen(event.detail === 0 ? !open : !openAtPress.current)}
      >
        <Icon icon={faGripVertical} />
      </button>
      <DropdownMenu
        label="Block"
        align="start"
        side="right"
        open={open}
        onOpenChange={setOpen}
        onEscapeKeyDown={escape}
        onCloseAutoFocus={(event) => event.preventDefault()}
        trigger={<span className="qe-handle-anchor" aria-hidden="true" />}
      >
        <DropdownMenuLabel>Turn into</DropdownMenuLabel>
        {TURN_INTO.map((item) => (
          <DropdownMenuItem key={item.label} icon={item.icon} onSelect={act(({ pos }) => { select(pos); item.run(editor); })}>
            <span className="sr-only">Turn into </span>
            {item.label}
          </DropdownMenuItem>
        ))}
        <DropdownMenuSeparator />
        <DropdownMenuItem icon={faClone} onSelect={act(({ pos, node: n }) => editor.chain().insertContentAt(pos + n.nodeSize, n.toJSON()).run())}>
          Duplicate
        </DropdownMenuItem>
        {(['up', 'down'] as const).map((direction) => (
          <DropdownMenuItem
            key={direction}
            icon={direction === 'up' ? faArrowUp : faArrowDown}
            disabled={!canMove(direction)}
            onSelect={act(({ pos }) => {
              const tr = moveBlock(editor.state, pos, direction);
              if (tr) editor.view.dispatch(tr);
            })}
          >
            Move {direction}
          </DropdownMenuItem>
        ))}
        <DropdownMenuItem
          icon={faLink}
          onSelect={act(({ node: n }) => {
            const key = (n.attrs.block as { key?: string } | null)?.key;
            if (!key) return setNote('This block gets its link once it is saved');
            const url = `${location.origin}${location.pathname}#${encodeURIComponent(key)}`;
            void navigator.clipboard?.writeText(url).then(() => setNote('Link copied'), () => setNote(url));
          })}
        >
          Copy link to block
        </DropdownMenuItem>
        {onCreateReusable && (
          <DropdownMenuItem icon={faRecycle} onSelect={() => target.current >= 0 && onCreateReusable(target.current)}>
            Create reusable content
          </DropdownMenuItem>
        )}
        <DropdownMenuSeparator />
        <DropdownMenuItem icon={faTrashCan} danger onSelect={act(({ pos, node: n }) => editor.chain().deleteRange({ from: pos, to: pos + n.nodeSize }).run())}>
          Delete
        </DropdownMenuItem>
      </DropdownMenu>
      {note && <span role="status" className="qe-note">{note}</span>}
    </div>
  );
}
