import type { Editor } from '@tiptap/core';
import { useEditorState } from '@tiptap/react';
import { createPortal } from 'react-dom';
import { faBold, faChevronDown, faCode, faComment, faNoteSticky, faItalic, faLink, faLinkSlash, faPalette, faRecycle, faStrikethrough } from '@fortawesome/free-solid-svg-icons';
import { Button, IconButton } from '../../ui/button.tsx';
import { Icon } from '../../ui/icon.tsx';
import { DropdownMenu, DropdownMenuCheckItem, DropdownMenuItem, DropdownMenuLabel, DropdownMenuSeparator } from '../../ui/menus.tsx';
import { TURN_INTO } from './block-menu.tsx';
import { annotateSelection, selectedWords } from './nodes/inline-authoring.ts';

export interface SelectedMarks {
  bold: boolean;
  italic: boolean;
  strike: boolean;
  code: boolean;
  link: boolean;
}

/** The marks' toggles and the link, in the page's toolbar and over selected text alike. */
export function MarkButtons({ editor, marks, onLink }: { editor: Editor; marks: SelectedMarks | undefined; onLink: () => void }) {
  return (
    <>
      <IconButton size="sm" icon={faBold} label="Bold" aria-pressed={marks?.bold ?? false} onClick={() => editor.chain().focus().toggleBold().run()} />
      <IconButton size="sm" icon={faItalic} label="Italic" aria-pressed={marks?.italic ?? false} onClick={() => editor.chain().focus().toggleItalic().run()} />
      <IconButton size="sm" icon={faStrikethrough} label="Strikethrough" aria-pressed={marks?.strike ?? false} onClick={() => editor.chain().focus().toggleStrike().run()} />
      <IconButton size="sm" icon={faCode} label="Code" aria-pressed={marks?.code ?? false} onClick={() => editor.chain().focus().toggleCode().run()} />
      <IconButton
        size="sm"
        icon={marks?.link ? faLinkSlash : faLink}
        label={marks?.link ? 'Remove link' : 'Link'}
        aria-pressed={marks?.link ?? false}
        onClick={() => (marks?.link ? editor.chain().focus().unsetMark('link').run() : onLink())}
      />
    </>
  );
}

/**
 * The toolbar over selected text, as in GitBook, Notion or Google Docs: the marks, a link (the picker, as
 * Ctrl/Cmd-K), and "Turn into" for the blocks the selection is in. Drawn in the element the editor's bubble menu
 * plugin places over the selection when it shows (menu-hosts.ts says when); the page's toolbar above keeps the
 * same actions for the keyboard.
 */
export function SelectionToolbar({ editor, host, marks, onLink, onCreateReusable, onComment }: { editor: Editor; host: HTMLElement; marks: SelectedMarks | undefined; onLink: () => void; onCreateReusable?: () => void; onComment?: () => void }) {
  // Words of one block, without links or inlines, may be annotated (an annotation holds text only).
  const annotatable = useEditorState({ editor, selector: ({ editor: e }) => selectedWords(e.state) !== null });
  return createPortal(
    <div role="toolbar" aria-label="Selected text" className="qe-selection-tools">
      <MarkButtons editor={editor} marks={marks} onLink={onLink} />
      <ColourMenu editor={editor} />
      <DropdownMenu
        label="Turn into"
        align="start"
        side="bottom"
        onCloseAutoFocus={(event) => event.preventDefault()}
        trigger={
          <Button size="sm" variant="ghost">
            Turn into <Icon icon={faChevronDown} />
          </Button>
        }
      >
        {TURN_INTO.map((item) => (
          <DropdownMenuItem key={item.label} icon={item.icon} onSelect={() => item.run(editor)}>
            {item.label}
          </DropdownMenuItem>
        ))}
      </DropdownMenu>
      {annotatable && <IconButton size="sm" icon={faNoteSticky} label="Annotate" onClick={() => annotateSelection(editor)} />}
      {onComment && (
        // The host's comment flow quotes the selection: started on the press, before the button takes the focus.
        <IconButton size="sm" icon={faComment} label="Comment" onMouseDown={(event) => (event.preventDefault(), onComment())} onKeyDown={(event) => (event.key === 'Enter' || event.key === ' ') && (event.preventDefault(), onComment())} />
      )}
      {onCreateReusable && <IconButton size="sm" icon={faRecycle} label="Create reusable content" onClick={onCreateReusable} />}
    </div>,
    host,
  );
}

/** GitBook's colours for text and its background (the reader's `color-*` and `bg-*` classes draw them). */
const COLOURS = ['red', 'orange', 'yellow', 'green', 'blue', 'purple'] as const;
const colourName = (colour: string) => colour[0]!.toUpperCase() + colour.slice(1);

type ColourData = { text?: string; background?: string };

/**
 * Sets the selection's text colour or background (GitBook's `color` mark, `{ text, background }`, each a named colour
 * or `default`), keeping the other; both back to default, the mark goes.
 */
export function setColour(editor: Editor, patch: ColourData): void {
  const current = (editor.getAttributes('color').data ?? {}) as ColourData;
  const data = { text: current.text ?? 'default', background: current.background ?? 'default', ...patch };
  const chain = editor.chain().focus();
  if (data.text === 'default' && data.background === 'default') chain.unsetMark('color').run();
  else chain.setMark('color', { data }).run();
}

/** "Colour" over selected text: its text colour and its background, each ticked where the selection has it. */
function ColourMenu({ editor }: { editor: Editor }) {
  // Followed transaction by transaction (the toolbar itself is not drawn again on each), as one string.
  const [text = 'default', background = 'default'] = useEditorState({
    editor,
    selector: ({ editor: e }) => {
      const data = (e.getAttributes('color').data ?? {}) as ColourData;
      return `${data.text ?? 'default'} ${data.background ?? 'default'}`;
    },
  }).split(' ');
  return (
    <DropdownMenu
      label="Colour"
      align="start"
      side="bottom"
      // Back to the selected text, whether a colour was chosen or the menu was left with Escape.
      onCloseAutoFocus={(event) => {
        event.preventDefault();
        editor.commands.focus();
      }}
      trigger={<IconButton size="sm" icon={faPalette} label="Colour" />}
    >
      <DropdownMenuLabel>Text</DropdownMenuLabel>
      <DropdownMenuCheckItem checked={text === 'default'} onSelect={() => setColour(editor, { text: 'default' })}>
        <span className="qe-swatch" aria-hidden="true">A</span> Default text
      </DropdownMenuCheckItem>
      {COLOURS.map((colour) => (
        <DropdownMenuCheckItem key={colour} checked={text === colour} onSelect={() => setColour(editor, { text: colour })}>
          <span className={`qe-swatch color-${colour}`} aria-hidden="true">A</span> {colourName(colour)} text
        </DropdownMenuCheckItem>
      ))}
      <DropdownMenuSeparator />
      <DropdownMenuLabel>Background</DropdownMenuLabel>
      <DropdownMenuCheckItem checked={background === 'default'} onSelect={() => setColour(editor, { background: 'default' })}>
        <span className="qe-swatch" aria-hidden="true" /> No background
      </DropdownMenuCheckItem>
      {COLOURS.map((colour) => (
        <DropdownMenuCheckItem key={colour} checked={background === colour} onSelect={() => setColour(editor, { background: colour })}>
          <span className={`qe-swatch bg-${colour}`} aria-hidden="true" /> {colourName(colour)} background
        </DropdownMenuCheckItem>
      ))}
    </DropdownMenu>
  );
}
