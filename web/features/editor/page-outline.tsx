import type { Editor } from '@tiptap/core';
import type { Node as PmNode } from '@tiptap/pm/model';
import { TextSelection } from '@tiptap/pm/state';
import { useEditorState } from '@tiptap/react';
import { faListUl } from '@fortawesome/free-solid-svg-icons';
import { useRef, useState } from 'react';
import { Button } from '../../ui/button.tsx';
import { Icon } from '../../ui/icon.tsx';
import { Popover } from '../../ui/popover.tsx';

export interface OutlineEntry {
  level: number;
  text: string;
  /** Where the heading starts in the document. */
  pos: number;
}

/** The page's headings, in order (those in tabs, hints and expandables too), and how many words it holds. */
export function outlineOf(doc: PmNode): { headings: OutlineEntry[]; words: number } {
  const headings: OutlineEntry[] = [];
  doc.descendants((node, pos) => {
    if (node.type.name === 'heading') headings.push({ level: Number(node.attrs.level) || 1, text: node.textContent, pos });
    return true;
  });
  const words = doc.textBetween(0, doc.content.size, ' ', ' ').match(/[\p{L}\p{N}][\p{L}\p{N}'’_-]*/gu)?.length ?? 0;
  return { headings, words };
}

/**
 * The page's outline and word count while editing: a toolbar button whose popover lists the headings (a click puts
 * the caret there and scrolls to it) under the count of words.
 */
export function PageOutline({ editor }: { editor: Editor }) {
  const [open, setOpen] = useState(false);
  // A heading chosen puts the caret in the page: the closing popover must not give the focus back to its button.
  const chosen = useRef(false);
  const outline = useEditorState({
    editor,
    selector: ({ editor: e }) => (open ? outlineOf(e.state.doc) : null),
    equalityFn: (a, b) => JSON.stringify(a) === JSON.stringify(b),
  });
  const go = (pos: number) => {
    chosen.current = true;
    setOpen(false);
    const { state, view } = editor;
    const inside = state.doc.resolve(Math.min(pos + 1, state.doc.content.size));
    view.dispatch(state.tr.setSelection(TextSelection.near(inside)).scrollIntoView());
    editor.commands.focus();
  };
  return (
    <Popover
      label="Outline"
      open={open}
      onOpenChange={setOpen}
      onCloseAutoFocus={(event) => {
        if (!chosen.current) return;
        chosen.current = false;
        event.preventDefault();
        editor.commands.focus();
      }}
      trigger={
        <Button size="sm" variant="ghost" aria-label="Outline and word count">
          <Icon icon={faListUl} /> Outline
        </Button>
      }
    >
      <div className="qe-outline">
        <p className="qe-outline-count" role="status">
          {outline ? `${outline.words.toLocaleString('en')} ${outline.words === 1 ? 'word' : 'words'}` : ''}
        </p>
        {outline && outline.headings.length > 0 ? (
          <nav aria-label="Headings of the page">
            <ul>
              {outline.headings.map((heading) => (
                <li key={heading.pos} style={{ paddingInlineStart: `${(heading.level - 1) * 0.75}rem` }}>
                  <Button variant="ghost" size="sm" className="qe-outline-link" onClick={() => go(heading.pos)}>
                    {heading.text || 'Untitled heading'}
                  </Button>
                </li>
              ))}
            </ul>
          </nav>
        ) : (
          <p className="qe-outline-empty">No heading yet: headings (type # at a line&apos;s start) make the outline.</p>
        )}
      </div>
    </Popover>
  );
}
