import type { Editor } from '@tiptap/core';
import { TextSelection } from '@tiptap/pm/state';
import { useEditorState } from '@tiptap/react';
import { useEffect, useReducer, useRef, useState } from 'react';
import {
  faAlignCenter, faAlignLeft, faAlignRight, faArrowsLeftRight, faCircleCheck, faCircleExclamation, faCircleInfo, faClosedCaptioning, faListOl, faMoon, faPlus,
  faTrashCan, faTriangleExclamation, faTurnDown,
} from '@fortawesome/free-solid-svg-icons';
import { Button, IconButton } from '../../ui/button.tsx';
import { Icon } from '../../ui/icon.tsx';
import { AnchoredPopover } from '../../ui/popover.tsx';
import { TextField } from '../../ui/text-field.tsx';
import { ToggleGroup } from '../../ui/toggle-group.tsx';
import { LanguagePicker } from './language-picker.tsx';
import { IntegrationSettings, refreshIntegrationBlock } from './nodes/integration-block.tsx';
import { OpenAPISettings } from './nodes/openapi.tsx';
import { TableSettings } from './nodes/table-settings.tsx';
import { blockWithData, setNodeAttrs, settingsTarget, type SettingsKind, type SettingsTarget } from './model/block-settings-target.ts';
import { formatLength, parseLength } from './model/length.ts';
import { caretInto, focusField } from './place-caret.ts';

/*
 * A block's settings in a small toolbar on the block (as GitBook, Notion and Outline show them), not as fields in
 * the text: shown over the top edge of the block the caret is in (or that is selected) while the page has the
 * keys, so nothing of it takes room in the page. Every change is one transaction on the node's attributes: saved,
 * shared and undone like typing. Alt-F10 in the page takes the keys to it; Escape gives them back.
 */

const NAMES: Record<SettingsKind, string> = { code: 'Code block', hint: 'Hint', image: 'Image', tabs: 'Tabs', embed: 'Embed', table: 'Table', openapi: 'OpenAPI operation', webhook: 'OpenAPI webhook',
  integration: 'Integration block' };

const sameTarget = (a: SettingsTarget | null, b: SettingsTarget | null) =>
  a === b || (!!a && !!b && a.kind === b.kind && a.pos === b.pos && a.node === b.node && a.parent?.node === b.parent?.node && a.parent?.index === b.parent?.index);

const typeOf = (target: { node: SettingsTarget['node'] }) => String((target.node.attrs.block as { type?: string } | null)?.type ?? '');

const dataOf = (target: { node: SettingsTarget['node'] }) => ((target.node.attrs.block as { data?: Record<string, unknown> } | null)?.data ?? {});

/** The page's element, once the editor is mounted (TipTap's view throws before). */
const pageOf = (editor: Editor): HTMLElement | null => {
  try {
    return editor.isDestroyed ? null : editor.view.dom;
  } catch {
    return null;
  }
};

/**
 * Whether the keys are in the page or in what it opened (this toolbar, its lists): elsewhere, the toolbar goes.
 * Read from the document's focus as it is drawn, drawn again as the focus moves.
 */
function useEngaged(editor: Editor): boolean {
  const [, moved] = useReducer((n: number) => n + 1, 0);
  useEffect(() => {
    document.addEventListener('focusin', moved);
    return () => document.removeEventListener('focusin', moved);
  }, []);
  // Nowhere (a closed list gave the focus back to the document): it stays as it was until the focus lands somewhere.
  const was = useRef(false);
  const active = document.activeElement;
  if (active && active !== document.body) was.current = !!pageOf(editor)?.contains(active) || !!active.closest('[data-radix-popper-content-wrapper]');
  return was.current;
}

/** Stores a file of the space (the editor's contract: `uploadFile`): an image's dark variant is one. */
type UploadFile = (file: File) => Promise<{ id: string }>;

export function BlockSettings({ editor, uploadFile }: { editor: Editor; uploadFile: UploadFile }) {
  const target = useEditorState({ editor, selector: ({ editor: e }) => (e.isEditable && pageOf(e) ? settingsTarget(e.state.selection) : null), equalityFn: sameTarget });
  const engaged = useEngaged(editor);
  const toolbar = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'F10' || !event.altKey || !(event.target instanceof Node) || !pageOf(editor)?.contains(event.target)) return;
      const first = toolbar.current?.querySelector<HTMLElement>('button:not([disabled]), input');
      if (!first) return;
      event.preventDefault();
      first.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [editor]);
  if (!target || !engaged) return null;
  // A table's cells are fields of their own (an input, a cell's editor) whose keys are theirs, Escape first: its
  // toolbar shows while the page itself has the keys (the table selected), not while a cell is edited.
  const active = document.activeElement;
  if (target.kind === 'table' && active !== pageOf(editor) && pageOf(editor)?.contains(active)) return null;
  // Over the block's top edge: below it when there is no room above (the page's first block).
  const rect = () => {
    const dom = editor.isDestroyed ? null : editor.view.nodeDOM(target.pos);
    // An image's node view has no box of its own (editor.css: the row's figures are its flex items): its figure has.
    const drawn = dom instanceof Element && getComputedStyle(dom).display === 'contents' ? dom.firstElementChild : dom;
    const box = drawn instanceof Element ? drawn.getBoundingClientRect() : new DOMRect();
    return new DOMRect(box.left, box.top, box.width, 0);
  };
  const label = `${NAMES[target.kind]} settings`;
  const props = { editor, target, uploadFile };
  return (
    <AnchoredPopover rect={rect} label={label} className="qe-block-settings" side="top" align="end" onEscape={() => editor.view.focus()}>
      <div ref={toolbar} role="group" aria-label={label} className="qe-block-settings-row" key={`${target.kind} ${target.pos}`}>
        {target.kind === 'code' && <CodeSettings {...props} />}
        {target.kind === 'hint' && <HintSettings {...props} />}
        {target.kind === 'image' && <ImageSettings {...props} />}
        {target.kind === 'tabs' && <TabsSettings {...props} />}
        {target.kind === 'embed' && <EmbedSettings {...props} />}
        {target.kind === 'table' && <TableSettings {...props} />}
        {(target.kind === 'openapi' || target.kind === 'webhook') && <OpenAPISettings type={typeOf(target)} data={dataOf(target)} onChange={(data) => setData(editor, target.pos, typeOf(target), data)} />}
        {target.kind === 'integration' && (
          <IntegrationSettings
            data={dataOf(target)}
            onRefresh={() => refreshIntegrationBlock(editor.view.nodeDOM(target.pos))}
            onDelete={() => {
              editor.chain().focus().deleteRange({ from: target.pos, to: target.pos + target.node.nodeSize }).run();
            }}
          />
        )}
      </div>
    </AnchoredPopover>
  );
}

type SettingsProps = { editor: Editor; target: SettingsTarget; uploadFile: UploadFile };

/** Changes fields of the `data` of the block at `pos` (undefined removes one), as the node is now. */
function setData(editor: Editor, pos: number, type: string, patch: Record<string, unknown>): void {
  const node = editor.state.doc.nodeAt(pos);
  if (node) editor.view.dispatch(setNodeAttrs(editor.state.tr, pos, { block: blockWithData(node, type, patch) }));
}

function CodeSettings({ editor, target }: SettingsProps) {
  const data = dataOf(target);
  const { pos } = target;
  return (
    <>
      <LanguagePicker value={String(target.node.attrs.language ?? '')} onPick={(language) => editor.view.dispatch(setNodeAttrs(editor.state.tr, pos, { language: language || null }))} />
      <IconButton size="sm" icon={faListOl} label="Line numbers" aria-pressed={data.lineNumbers === true} onClick={() => setData(editor, pos, 'code', { lineNumbers: data.lineNumbers === true ? undefined : true })} />
      <IconButton size="sm" icon={faTurnDown} label="Wrap lines" aria-pressed={data.overflow === 'wrap'} onClick={() => setData(editor, pos, 'code', { overflow: data.overflow === 'wrap' ? undefined : 'wrap' })} />
    </>
  );
}

// The model's HINT_STYLES, named (types.ts is imported for types only: its schema would bring TypeBox along).
const HINT_STYLES = [
  { value: 'info', label: 'Info', icon: faCircleInfo },
  { value: 'success', label: 'Success', icon: faCircleCheck },
  { value: 'warning', label: 'Warning', icon: faTriangleExclamation },
  { value: 'danger', label: 'Danger', icon: faCircleExclamation },
] as const;

function HintSettings({ editor, target }: SettingsProps) {
  const style = String(dataOf(target).style ?? 'info');
  return (
    <ToggleGroup
      label="Hint style"
      items={HINT_STYLES.map((s) => ({ value: s.value, label: <><Icon icon={s.icon} /> {s.label}</> }))}
      value={style}
      onValueChange={(next) => setData(editor, target.pos, 'hint', { style: next })}
    />
  );
}

const ALIGNMENTS = [
  { value: 'left', icon: faAlignLeft, name: 'Left' },
  { value: 'center', icon: faAlignCenter, name: 'Center' },
  { value: 'right', icon: faAlignRight, name: 'Right' },
] as const;

function ImageSettings({ editor, target, uploadFile }: SettingsProps) {
  const data = dataOf(target);
  const group = target.parent;
  const groupData = group ? dataOf(group) : {};
  const align = String(groupData.align ?? 'center');
  const addCaption = () => {
    const at = target.pos + target.node.nodeSize - 1;
    editor
      .chain()
      .insertContentAt(at, { type: 'fragment', attrs: { fragment: { object: 'fragment', fragment: 'caption', nodes: [] } }, content: [{ type: 'paragraph' }] })
      .command(({ tr }) => {
        caretInto(tr, at);
        return true;
      })
      .run();
    editor.view.focus();
  };
  return (
    <>
      <TextField label="Alt text" hideLabel placeholder="Alt text" value={String(data.alt ?? '')} onChange={(e) => setData(editor, target.pos, 'image', { alt: e.target.value || undefined })} />
      <WidthField editor={editor} target={target} uploadFile={uploadFile} />
      {group && (
        <>
          <ToggleGroup
            label="Image alignment"
            items={ALIGNMENTS.map((a) => ({ value: a.value, label: <><Icon icon={a.icon} /><span className="sr-only">{a.name}</span></> }))}
            value={align}
            onValueChange={(next) => setData(editor, group.pos, 'images', { align: next === 'center' && groupData.align === undefined ? undefined : next })}
          />
          <IconButton size="sm" icon={faArrowsLeftRight} label="Full width" aria-pressed={groupData.fullWidth === true} onClick={() => setData(editor, group.pos, 'images', { fullWidth: groupData.fullWidth === true ? undefined : true })} />
        </>
      )}
      {target.node.childCount === 0 && <IconButton size="sm" icon={faClosedCaptioning} label="Add caption" onClick={addCaption} />}
      <DarkVariant editor={editor} target={target} uploadFile={uploadFile} />
    </>
  );
}

/** The block at `target` as it is now: found again by its key once an upload is done (the page may have changed). */
function blockNow(editor: Editor, target: SettingsTarget): number | null {
  const key = (target.node.attrs.block as { key?: unknown } | null)?.key;
  let found: number | null = null;
  editor.state.doc.descendants((node, pos) => {
    if (found !== null) return false;
    if (node.type === target.node.type && typeof key === 'string' && (node.attrs.block as { key?: unknown } | null)?.key === key) found = pos;
    return found === null;
  });
  return found ?? (editor.state.doc.nodeAt(target.pos) === target.node ? target.pos : null);
}

/**
 * An image's picture for readers in dark mode (GitBook's `refDark`): uploaded as a file of the space from here, or
 * removed. The editor shows it beside the light one (media.tsx); readers see the one their theme asks for.
 */
function DarkVariant({ editor, target, uploadFile }: SettingsProps) {
  const input = useRef<HTMLInputElement>(null);
  const [state, setState] = useState<{ uploading: boolean; failure: string }>({ uploading: false, failure: '' });
  const hasDark = dataOf(target).refDark !== undefined;
  const choose = async (file: File | undefined) => {
    if (!file) return;
    setState({ uploading: true, failure: '' });
    try {
      const stored = await uploadFile(file);
      const pos = blockNow(editor, target);
      if (pos !== null && !editor.isDestroyed) setData(editor, pos, 'image', { refDark: { kind: 'file', file: stored.id } });
      setState({ uploading: false, failure: '' });
    } catch (error) {
      setState({ uploading: false, failure: `The dark mode image was not stored: ${error instanceof Error ? error.message : String(error)}` });
    }
  };
  return (
    <>
      <input
        ref={input}
        type="file"
        accept="image/*"
        hidden
        aria-label="Dark mode image file"
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          void choose(file);
        }}
      />
      {hasDark ? (
        <IconButton size="sm" icon={faMoon} label="Remove dark mode image" onClick={() => setData(editor, target.pos, 'image', { refDark: undefined })} />
      ) : (
        <IconButton size="sm" icon={faMoon} label={state.uploading ? 'Uploading the dark mode image…' : 'Add dark mode image'} disabled={state.uploading} onClick={() => input.current?.click()} />
      )}
      {state.failure && <span role="alert" className="qe-failure">{state.failure}</span>}
    </>
  );
}

/**
 * An image's width: pixels or a percentage (model/length.ts). What is typed stays in the field; the block takes it once it is a width, and the field says when it is not.
 */
function WidthField({ editor, target }: SettingsProps) {
  const width = dataOf(target).width;
  const shown = formatLength(width);
  const [typed, setTyped] = useState(shown);
  // Changed from elsewhere (undo, another person): show the block's width.
  const [seen, setSeen] = useState(shown);
  if (seen !== shown) {
    setSeen(shown);
    setTyped(shown);
  }
  const invalid = parseLength(typed) === null;
  return (
    <TextField
      label="Image width"
      hideLabel
      className="qe-width-field"
      placeholder="Width: auto"
      hint="Pixels (300) or a percentage (50%)"
      error={invalid ? 'A width is a number of pixels or a percentage up to 100%' : undefined}
      value={typed}
      size={8}
      onChange={(e) => {
        setTyped(e.target.value);
        const length = parseLength(e.target.value);
        if (length !== null && formatLength(length) !== formatLength(width)) setData(editor, target.pos, 'image', { width: length });
      }}
    />
  );
}

function TabsSettings({ editor, target }: SettingsProps) {
  const tab = target.parent;
  const title = tab ? String(dataOf(tab).title ?? '') || `Tab ${(tab.index ?? 0) + 1}` : '';
  const addTab = () => {
    const end = target.pos + target.node.nodeSize - 1;
    const count = target.node.childCount + 1;
    const added = editor
      .chain()
      .insertContentAt(end, { type: 'tabsItem', attrs: { block: { object: 'block', type: 'tabs-item', data: { title: `Tab ${count}` }, nodes: [] } }, content: [{ type: 'paragraph' }] })
      .command(({ tr }) => {
        caretInto(tr, end);
        return true;
      })
      .run();
    // The new tab's title takes the keys, its default name selected: what is typed next names it.
    if (added) focusField(editor, target.pos, `.qe-tab-title:nth-of-type(${count})`);
  };
  const remove = () => {
    if (!tab) return;
    // The last tab goes with its tabs block: a tabs block holds at least one tab.
    const [from, to] = target.node.childCount === 1 ? [target.pos, target.pos + target.node.nodeSize] : [tab.pos, tab.pos + tab.node.nodeSize];
    const tr = editor.state.tr.delete(from, to);
    tr.setSelection(TextSelection.near(tr.doc.resolve(Math.min(from, tr.doc.content.size))));
    editor.view.dispatch(tr);
    editor.view.focus();
  };
  return (
    <>
      <Button size="sm" variant="ghost" icon={faPlus} onClick={addTab}>Add tab</Button>
      {tab && <IconButton size="sm" icon={faTrashCan} label={`Remove tab ${title}`} onClick={remove} />}
    </>
  );
}

function EmbedSettings({ editor, target }: SettingsProps) {
  return <TextField label="Embed URL" type="url" placeholder="https://…" value={String(dataOf(target).url ?? '')} onChange={(e) => setData(editor, target.pos, 'embed', { url: e.target.value })} />;
}
