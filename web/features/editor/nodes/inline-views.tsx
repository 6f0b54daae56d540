import type { Editor } from '@tiptap/core';
import { NodeViewWrapper, type NodeViewProps } from '@tiptap/react';
import { useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { iconNames } from '../../../../src/features/reader/icon-shapes.ts';
import { Button } from '../../../ui/button.tsx';
import { AnchoredPopover } from '../../../ui/popover.tsx';
import { TextArea, TextField } from '../../../ui/text-field.tsx';
import { ToggleGroup } from '../../../ui/toggle-group.tsx';
import { NamedIcon, useIconSets } from '../../icons/named-icon.tsx';
import { useRefName } from '../../pages/ref-titles.ts';
import { useExpressionText, VariablesContext } from '../../pages/variables.ts';
import type { Ref } from '../files.ts';
import { onFormulaRequest, takeFormulaRequest } from '../formula-requests.ts';
import { LinkPicker } from '../link-picker.tsx';
import { annotationNote, annotationWords, matchIcons, variableChoices, withNote } from './inline-authoring.ts';

/*
 * Annotations, buttons, icons and expressions as readers see them, each opening the kit's popover to edit it on a
 * click (or right after the `/` menu or the selection toolbar made it: the same requests as a formula's,
 * formula-requests.ts). Every change writes the inline's JSON at once; Escape or Done gives the caret back after it.
 */

type Json = Record<string, unknown>;

/** Whether the inline's popover is open, opened by a click or by a request for its position. */
function useInlineEditor(props: NodeViewProps): [boolean, (open: boolean) => void] {
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

function caretAfter(editor: Editor, pos: number | undefined): void {
  if (pos !== undefined && !editor.isDestroyed) editor.chain().focus().setTextSelection(pos + 1).run();
}

/** An inline drawn by `children`, clickable to edit, with its popover (`form`) when open. */
function EditableInline({ props, label, kind, children, form }: { props: NodeViewProps; label: string; kind: string; children: ReactNode; form: (close: (caret: boolean) => void) => ReactNode }) {
  const [open, setOpen] = useInlineEditor(props);
  const anchor = useRef<HTMLSpanElement>(null);
  const close = (caret: boolean) => {
    setOpen(false);
    if (caret) caretAfter(props.editor, props.getPos());
  };
  return (
    <NodeViewWrapper as="span" className={`qe-inline qe-inline-editable qe-inline-${kind}`}>
      <span ref={anchor} onClick={() => props.editor.isEditable && setOpen(true)}>
        {children}
      </span>
      {open ? (
        <AnchoredPopover rect={() => anchor.current?.getBoundingClientRect() ?? new DOMRect()} label={label} className="qe-inline-popover" onEscape={() => close(true)} onDismiss={() => close(false)}>
          {form(close)}
        </AnchoredPopover>
      ) : null}
    </NodeViewWrapper>
  );
}

const Done = ({ close }: { close: (caret: boolean) => void }) => (
  <Button size="sm" variant="primary" onClick={() => close(true)}>
    Done
  </Button>
);
const onEnter = (close: (caret: boolean) => void) => (e: React.KeyboardEvent) => e.key === 'Enter' && (e.preventDefault(), close(true));

/** An annotation: its words underlined; its note edited in the popover, or the annotation removed, its words kept. */
export function AnnotationView({ props }: { props: NodeViewProps }) {
  const inline = props.node.attrs.inline as Json;
  const note = annotationNote(inline);
  const unwrap = () => {
    const pos = props.getPos();
    if (pos === undefined) return;
    const { state } = props.editor;
    const words = ((inline.nodes ?? []) as { object?: string; leaves?: { text?: string; marks?: { type?: string }[] }[] }[])
      .filter((n) => n.object === 'text')
      .flatMap((n) => n.leaves ?? [])
      .filter((leaf) => leaf.text)
      .map((leaf) => state.schema.text(leaf.text!, (leaf.marks ?? []).flatMap((m) => (m.type && MARKS[m.type] && state.schema.marks[MARKS[m.type]!] ? [state.schema.marks[MARKS[m.type]!]!.create((m as Json).data ? { data: (m as Json).data } : null)] : []))));
    props.editor.chain().focus().command(({ tr }) => (tr.replaceWith(pos, pos + props.node.nodeSize, words), true)).run();
  };
  return (
    <EditableInline
      props={props}
      label="Annotation"
      kind="annotation"
      form={(close) => (
        <>
          <TextArea label="Note" value={note} autoFocus rows={3} onChange={(e) => props.updateAttributes({ inline: withNote(inline, e.target.value) })} />
          <div className="qe-inline-actions">
            <Button size="sm" variant="ghost" onClick={unwrap}>
              Remove annotation
            </Button>
            <Done close={close} />
          </div>
        </>
      )}
    >
      <span className="annotation" title={note}>
        {annotationWords(inline)}
      </span>
      {note.trim() ? <span className="sr-only"> ({note.trim()})</span> : null}
    </EditableInline>
  );
}

/** Our marks' names in the editor's schema (inline.ts), for the words an annotation gives back. */
const MARKS: Record<string, string> = { bold: 'bold', italic: 'italic', strikethrough: 'strike', code: 'code', keyboard: 'keyboard', superscript: 'superscript', subscript: 'subscript', color: 'color' };

function ButtonTarget({ spaceId, refJson }: { spaceId: string; refJson: Ref | undefined }) {
  const name = useRefName(spaceId, refJson);
  return <p className="qe-inline-note">Links to {name ?? '…'}; a URL below replaces it.</p>;
}

/** A button: its label, where it leads (a URL, or a page chosen with the link picker), primary or secondary. */
export function ButtonView({ props, spaceId }: { props: NodeViewProps; spaceId: string }) {
  const inline = props.node.attrs.inline as Json;
  const data = (inline.data ?? {}) as Json;
  const ref = data.ref as (Ref & { url?: string }) | undefined;
  const update = (patch: Json) => props.updateAttributes({ inline: { ...inline, data: { ...data, ...patch } } });
  const label = String(data.label ?? '');
  // The link picker takes the popover's place while a page is chosen.
  const [picking, setPicking] = useState(false);
  const rect = () => (props.editor.view.nodeDOM(props.getPos() ?? 0) as HTMLElement | null)?.getBoundingClientRect() ?? new DOMRect();
  return (
    <>
      {picking ? (
        <LinkPicker
          spaceId={spaceId}
          rect={rect}
          label="Button link"
          onPick={(picked) => {
            update({ ref: picked.kind === 'page' ? { kind: 'page', page: picked.page } : picked });
            setPicking(false);
            caretAfter(props.editor, props.getPos());
          }}
          onClose={() => setPicking(false)}
        />
      ) : null}
      <EditableInline
        props={props}
        label="Button"
        kind="button"
        form={(close) => (
          <>
            <TextField label="Label" value={label} autoFocus onChange={(e) => update({ label: e.target.value })} onKeyDown={onEnter(close)} />
            {ref && ref.kind !== 'url' ? <ButtonTarget spaceId={spaceId} refJson={ref} /> : null}
            <TextField label="Link URL" type="url" value={ref?.kind === 'url' ? String(ref.url ?? '') : ''} placeholder="https://" onChange={(e) => update({ ref: { kind: 'url', url: e.target.value } })} onKeyDown={onEnter(close)} />
            <Button size="sm" variant="ghost" onClick={() => (close(false), setPicking(true))}>
              Link to a page…
            </Button>
            <ToggleGroup label="Style" value={data.kind === 'secondary' ? 'secondary' : 'primary'} items={[{ value: 'primary', label: 'Primary' }, { value: 'secondary', label: 'Secondary' }]} onValueChange={(kind) => update({ kind })} />
            <div className="qe-inline-actions">
              <Done close={close} />
            </div>
          </>
        )}
      >
        <span className={`button button-${data.kind === 'secondary' ? 'secondary' : 'primary'}`}>{label || 'Button'}</span>
      </EditableInline>
    </>
  );
}

/** An icon, chosen among the reader's icons by a search. */
export function IconView({ props }: { props: NodeViewProps }) {
  const inline = props.node.attrs.inline as Json;
  const data = (inline.data ?? {}) as Json;
  return (
    <EditableInline props={props} label="Icon" kind="icon" form={(close) => <IconPicker current={String(data.icon ?? '')} onPick={(icon) => (props.updateAttributes({ inline: { ...inline, data: { ...data, icon } } }), close(true))} />}>
      <NamedIcon name={data.icon} className="inline-icon" />
      {data.icon ? null : <span className="qe-inline-note">Icon</span>}
    </EditableInline>
  );
}

function IconPicker({ current, onPick }: { current: string; onPick(icon: string): void }) {
  const ready = useIconSets();
  const [query, setQuery] = useState('');
  const shown = ready ? matchIcons(iconNames(), query) : [];
  return (
    <>
      <TextField label="Search icons" value={query} autoFocus onChange={(e) => setQuery(e.target.value)} onKeyDown={(e) => e.key === 'Enter' && shown[0] && (e.preventDefault(), onPick(shown[0]))} />
      <div className="qe-icon-grid" role="group" aria-label="Icons">
        {shown.map((name) => (
          <button key={name} type="button" className="qe-icon-choice" aria-label={name} aria-pressed={name === current} title={name} onClick={() => onPick(name)}>
            <NamedIcon name={name} className="inline-icon" />
          </button>
        ))}
        {ready && shown.length === 0 ? <p className="qe-inline-note">No icon by that name</p> : null}
        {!ready ? <p className="qe-inline-note">Loading the icons…</p> : null}
      </div>
    </>
  );
}

/** An expression: its variable's value; the variables of the page and the space to pick from, or one written out. */
export function ExpressionView({ props }: { props: NodeViewProps }) {
  const inline = props.node.attrs.inline as Json;
  const data = (inline.data ?? {}) as Json;
  const expression = String(data.expression ?? '');
  const variables = useContext(VariablesContext);
  const text = useExpressionText(data.expression);
  const set = (value: string) => props.updateAttributes({ inline: { ...inline, data: { ...data, expression: value } } });
  const choices = variableChoices(variables);
  return (
    <EditableInline
      props={props}
      label="Expression"
      kind="expression"
      form={(close) => (
        <>
          <div className="qe-variable-list" role="group" aria-label="Variables">
            {choices.map((choice) => (
              <Button key={choice.expression} size="sm" variant={choice.expression === expression ? 'primary' : 'ghost'} aria-pressed={choice.expression === expression} onClick={() => (set(choice.expression), close(true))}>
                <code>{choice.expression}</code> <span className="qe-inline-note">{choice.value}</span>
              </Button>
            ))}
            {choices.length === 0 ? <p className="qe-inline-note">This page and its space have no variables yet.</p> : null}
          </div>
          <TextField label="Expression" value={expression} spellCheck={false} placeholder="space.vars.name" onChange={(e) => set(e.target.value)} onKeyDown={onEnter(close)} />
          <div className="qe-inline-actions">
            <Done close={close} />
          </div>
        </>
      )}
    >
      <span className="expression">{text}</span>
    </EditableInline>
  );
}
