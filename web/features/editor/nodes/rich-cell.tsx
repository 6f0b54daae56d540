import type { Editor } from '@tiptap/core';
import { EditorContent, useEditor } from '@tiptap/react';
import { TextSelection } from '@tiptap/pm/state';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { FlowBlock } from '../../../../src/features/content/document/types.ts';
import { DocumentSync } from '../document-sync.ts';

/*
 * A table cell whose text a text input cannot hold without loss (marks, links, several paragraphs, lists): its
 * fragment's blocks edited by an editor of their own, with the page editor's blocks and marks. It is made when
 * a person starts editing the cell and let go when they leave it, so a page of large tables opens as fast as
 * one without: until then the cell shows its text.
 */

/** Extensions that belong to the page and not to a cell: its `/` menu. (Its shared document's plugins are no extensions.) */
const PAGE_ONLY = new Set(['slashMenu']);

/** prosemirror-view's record of the view's last focus, which it has no public way to set. */
interface FocusedView {
  input: { lastFocus: number };
}

export interface RichCellProps {
  /** The page's editor, whose extensions the cell's editor takes. */
  page: Editor;
  /** The cell's accessible name ("Row 2, Name"). */
  label: string;
  /** The cell fragment's blocks, and its text to show while it is not being edited. */
  nodes: FlowBlock[];
  text: string;
  editable: boolean;
  /** Each change, as the fragment's new blocks (those not edited are the very objects given). */
  onChange(nodes: FlowBlock[]): void;
  /** When its editor is made and let go: while it is there, the table keeps this cell whatever its text becomes. */
  onEditing(editing: boolean): void;
}

export function RichCell(props: RichCellProps) {
  const [editing, setEditing] = useState(false);
  // Escape gives the focus back to the cell, as leaving a dialog does; a click elsewhere keeps it where it went.
  const refocus = useRef(false);
  const shown = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (editing || !refocus.current) return;
    refocus.current = false;
    shown.current?.focus();
  }, [editing]);
  if (!props.editable) return <span className="qe-cell">{props.text}</span>;
  if (!editing) {
    // A button: the page's editor leaves events on buttons of a node view to them, where a click on other
    // elements would select the whole table (and what is typed next would replace it).
    return (
      <button
        ref={shown}
        type="button"
        className="qe-cell"
        // Its name starts with the text it shows (what a person using speech says to press it), then says what it does.
        aria-label={props.text ? `${props.text}: edit ${props.label}` : `Edit ${props.label}`}
        onClick={() => {
          props.onEditing(true);
          setEditing(true);
        }}
      >
        {props.text}
      </button>
    );
  }
  return (
    <CellEditor
      {...props}
      onDone={(escaped) => {
        // The editor's blur as it goes away comes after Escape: it must not take the request back.
        if (escaped) refocus.current = true;
        setEditing(false);
        props.onEditing(false);
      }}
    />
  );
}

function CellEditor(props: RichCellProps & { onDone(escaped: boolean): void }) {
  const latest = useRef(props);
  latest.current = props;
  const sync = useMemo(() => new DocumentSync({ object: 'document', data: {}, nodes: props.nodes }), []);
  const editor = useEditor(
    {
      extensions: props.page.options.extensions.filter((extension) => !PAGE_ONLY.has(extension.name)),
      content: sync.content(),
      immediatelyRender: true,
      shouldRerenderOnTransaction: false,
      editorProps: {
        attributes: { 'aria-label': props.label, role: 'textbox', 'aria-multiline': 'true', class: 'qe-cell-content' },
        handleKeyDown: (_view, event) => {
          if (event.key !== 'Escape') return false;
          latest.current.onDone(true);
          return true;
        },
      },
      onCreate: ({ editor: cell }) => sync.remember(cell.state.doc),
      onUpdate: ({ editor: cell }) => latest.current.onChange(sync.read(cell.state.doc).nodes),
      onBlur: () => latest.current.onDone(false),
    },
    [],
  );
  // Focused as it is made, at the end of its text: TipTap's `autofocus` waits a task and then a frame, and what a
  // person types right after the click would go nowhere meanwhile.
  useLayoutEffect(() => {
    if (!editor) return;
    const focusAtEnd = () => {
      editor.view.dispatch(editor.state.tr.setSelection(TextSelection.atEnd(editor.state.doc)));
      editor.view.focus();
      // ProseMirror takes a caret at the very start within 200 ms of a focus that no click of its own began for the
      // browser's resetting it, and puts its own back; `focus()` has just written its selection to the page, so
      // a Home pressed right away is the person's, and stays.
      (editor.view as unknown as FocusedView).input.lastFocus = 0;
    };
    focusAtEnd();
    if (editor.view.hasFocus()) return;
    // Not on the page yet (TipTap moves the view's element into EditorContent once mounted): a frame later, once.
    const frame = requestAnimationFrame(() => {
      if (!editor.isDestroyed && !editor.view.hasFocus()) focusAtEnd();
    });
    return () => cancelAnimationFrame(frame);
  }, [editor]);
  return <EditorContent editor={editor} className="qe-cell-editor" />;
}
