import { NodeViewContent, NodeViewWrapper, type NodeViewProps } from '@tiptap/react';
import { useEffect, useState } from 'react';
import { safeImageUrl, safeLinkUrl } from '../../../../src/features/content/document/safe-url.ts';
import { api } from '../../../api/client.ts';
import { cssWidth, formatLength, parseLength } from '../model/length.ts';
import { blockOf, setData } from './block-data.ts';

type Ref = { kind?: string; url?: string; file?: string; page?: string; anchor?: string };

/**
 * Where a reference points, for a link (`usage: 'link'`) or an `<img src>`: files through the API's file route,
 * URLs through the reader's filter (safe-url.ts), so that none runs script from the editor.
 */
export function refHref(ref: Ref | undefined, spaceId: string, usage: 'link' | 'image' = 'link'): string | undefined {
  if (!ref) return undefined;
  if (ref.kind === 'url') return (usage === 'image' ? safeImageUrl(ref.url ?? '') : safeLinkUrl(ref.url ?? '')) ?? undefined;
  if (ref.kind === 'file') return `/v1/spaces/${encodeURIComponent(spaceId)}/files/${encodeURIComponent(ref.file ?? '')}/content`;
  return undefined;
}

export const refLabel = (ref: Ref | undefined): string =>
  !ref ? '' : ref.kind === 'url' ? (ref.url ?? '') : ref.kind === 'file' ? `File ${ref.file}` : ref.kind === 'page' ? `Page ${ref.page}` : ref.kind === 'anchor' ? `#${ref.anchor}` : ref.kind ?? '';

/** A group of images: its alignment and width (each image's alt text and caption are in ImageView). */
export function ImagesView(props: NodeViewProps) {
  const data = blockOf(props).data ?? {};
  const editable = props.editor.isEditable;
  return (
    <NodeViewWrapper as="div" className="qe-images" data-quire="images" role="group" aria-label="Images">
      <div className="qe-block-tools" contentEditable={false}>
        <label>
          Image alignment{' '}
          <select value={String(data.align ?? 'center')} disabled={!editable} onChange={(e) => setData(props, { align: e.target.value === 'center' && data.align === undefined ? undefined : e.target.value })}>
            <option value="center">Center</option>
            <option value="left">Left</option>
            <option value="right">Right</option>
          </select>
        </label>
        <label>
          <input type="checkbox" checked={data.fullWidth === true} disabled={!editable} onChange={(e) => setData(props, { fullWidth: e.target.checked ? true : undefined })} /> Full width
        </label>
      </div>
      <NodeViewContent as="div" className={`qe-images-row qe-align-${String(data.align ?? 'center')}`} />
    </NodeViewWrapper>
  );
}

/**
 * An image's width: pixels or a percentage (model/length.ts). What is typed stays in the field; the block takes
 * it once it is a width, and the field says when it is not.
 */
function WidthField(props: NodeViewProps) {
  const width = blockOf(props).data?.width;
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
    <label>
      Image width{' '}
      <input
        value={typed}
        size={6}
        placeholder="auto"
        readOnly={!props.editor.isEditable}
        aria-invalid={invalid}
        title="Pixels (300) or a percentage of the page (50%)"
        onChange={(e) => {
          setTyped(e.target.value);
          const length = parseLength(e.target.value);
          if (length !== null && formatLength(length) !== formatLength(width)) setData(props, { width: length });
        }}
      />
      {invalid && <span className="qe-field-error"> A width is a number of pixels or a percentage up to 100%</span>}
    </label>
  );
}

/** An image: the picture (and its dark variant), its alt text and width, and its caption fragment edited in place. */
export function ImageView(props: NodeViewProps & { spaceId: string }) {
  const data = blockOf(props).data ?? {};
  const src = refHref(data.ref as Ref, props.spaceId, 'image');
  const dark = refHref(data.refDark as Ref | undefined, props.spaceId, 'image');
  const alt = String(data.alt ?? '');
  const width = cssWidth(data.width);
  const addCaption = () => {
    const pos = props.getPos();
    if (typeof pos !== 'number') return;
    props.editor.chain().insertContentAt(pos + props.node.nodeSize - 1, {
      type: 'fragment',
      attrs: { fragment: { object: 'fragment', fragment: 'caption', nodes: [] } },
      content: [{ type: 'paragraph' }],
    }).run();
  };
  return (
    <NodeViewWrapper as="figure" className="qe-image" data-quire="image">
      <div contentEditable={false}>
        {src ? <img src={src} alt={alt} loading="lazy" style={width ? { width } : undefined} /> : <span className="qe-missing">{refLabel(data.ref as Ref)}</span>}
        {dark && <img src={dark} alt={`${alt} (dark mode)`} className="qe-image-dark" loading="lazy" style={width ? { width } : undefined} />}
        <div className="qe-block-tools">
          <label>
            Alt text <input value={alt} readOnly={!props.editor.isEditable} onChange={(e) => setData(props, { alt: e.target.value || undefined })} />
          </label>
          <WidthField {...props} />
          {props.editor.isEditable && props.node.childCount === 0 && <button type="button" onClick={addCaption}>Add caption</button>}
        </div>
      </div>
      <NodeViewContent as="div" className="qe-caption" />
    </NodeViewWrapper>
  );
}

export function EmbedView(props: NodeViewProps) {
  const url = String(blockOf(props).data?.url ?? '');
  return (
    <NodeViewWrapper as="figure" className="qe-embed" data-quire="embed">
      <div className="qe-block-tools" contentEditable={false}>
        <label>
          Embed URL <input type="url" value={url} readOnly={!props.editor.isEditable} onChange={(e) => setData(props, { url: e.target.value })} />
        </label>
      </div>
      <NodeViewContent as="div" className="qe-caption" />
    </NodeViewWrapper>
  );
}

export function FileView(props: NodeViewProps & { spaceId: string }) {
  const ref = blockOf(props).data?.ref as Ref | undefined;
  return (
    <NodeViewWrapper as="figure" className="qe-file" data-quire="file">
      <div contentEditable={false}>
        <a href={refHref(ref, props.spaceId)} download>{refLabel(ref)}</a>
      </div>
      <NodeViewContent as="div" className="qe-caption" />
    </NodeViewWrapper>
  );
}

/** Titles of the pages cards point to, asked once per page while the editor is open. */
const titles = new Map<string, Promise<string | undefined>>();
const pageTitle = (spaceId: string, page: string): Promise<string | undefined> => {
  const key = `${spaceId}/${page}`;
  if (!titles.has(key)) {
    titles.set(key, api<{ title: string }>('GET', `/spaces/${encodeURIComponent(spaceId)}/content/page/${encodeURIComponent(page)}`).then((found) => found.title, () => undefined));
  }
  return titles.get(key)!;
};

/** A content reference (GitBook's page link card): the page's title where the page is known, else where it points. */
export function ContentRefView(props: NodeViewProps & { spaceId: string }) {
  const ref = blockOf(props).data?.ref as Ref | undefined;
  const [title, setTitle] = useState<string>();
  useEffect(() => {
    setTitle(undefined);
    if (ref?.kind !== 'page' || !ref.page) return;
    let current = true;
    void pageTitle(props.spaceId, ref.page).then((found) => current && setTitle(found));
    return () => {
      current = false;
    };
  }, [props.spaceId, ref?.kind, ref?.page]);
  return (
    <NodeViewWrapper as="div" className="qe-card" data-quire="contentRef" data-drag-handle>
      <span className="qe-card-kind">Card</span> {title ?? refLabel(ref)}
    </NodeViewWrapper>
  );
}
