import { NodeViewContent, NodeViewWrapper, type NodeViewProps } from '@tiptap/react';
import { formatFileSize, useImageSource, useLinkTarget, type Ref } from '../files.ts';
import { useRef, useState } from 'react';
import { blockWithData, setNodeAttrs } from '../model/block-settings-target.ts';
import { draggedWidth, resizedLength, type ImageDrag } from '../model/image-resize.ts';
import { cssWidth } from '../model/length.ts';
import { useRefName } from '../../pages/ref-titles.ts';
import { safeLinkUrl } from '../../../../src/features/content/document/safe-url.ts';
import { embedSite } from '../../../../src/features/content/document/embed-site.ts';
import { faUpRightFromSquare } from '@fortawesome/free-solid-svg-icons';
import { Icon } from '../../../ui/icon.tsx';
import { blockOf } from './block-data.ts';

export const refLabel = (ref: Ref | undefined): string =>
  !ref ? '' : ref.kind === 'url' ? (ref.url ?? '') : ref.kind === 'file' ? `File ${ref.file}` : ref.kind === 'page' ? `Page ${ref.page}` : ref.kind === 'anchor' ? `#${ref.anchor}` : ref.kind ?? '';

/**
 * A group of images, laid out by the reader's rules (`images`, `align-*`, `full-width`), so what is set from the
 * settings toolbar (block-settings.tsx) is what the page view and readers show.
 */
export function ImagesView(props: NodeViewProps) {
  const data = blockOf(props).data ?? {};
  const align = String(data.align ?? 'center');
  return (
    <NodeViewWrapper as="div" className="qe-images" data-quire="images" role="group" aria-label="Images">
      <NodeViewContent as="div" className={`images qe-images-row align-${align}${data.fullWidth === true ? ' full-width' : ''}`} />
    </NodeViewWrapper>
  );
}

/** A click on a block drawn as a picture or a card selects it as a whole: its settings toolbar shows. */
export function selectBlock(props: Pick<NodeViewProps, 'editor' | 'getPos'>): void {
  const pos = props.getPos();
  if (typeof pos === 'number' && props.editor.isEditable) props.editor.chain().setNodeSelection(pos).focus(undefined, { scrollIntoView: false }).run();
}

/**
 * The picture of a reference, from the file's download URL (the one the page view shows), or what stands in for
 * it while the file is looked up, or when the space has no such file.
 */
export function Picture({ refJson, alt, width, className }: { refJson: Ref | undefined; alt: string; width: string | undefined; className?: string }) {
  const { src, file } = useImageSource(refJson);
  if (src) return <img src={src} alt={alt} className={className} loading="lazy" style={width ? { width } : undefined} />;
  if (refJson?.kind === 'file' && file === undefined) return <span className="qe-image-pending" role="img" aria-label={`${alt || 'Image'} (loading)`} />;
  return <span className="qe-missing">{file === null ? `The space has no file ${refJson?.file ?? ''}: the image is missing` : refLabel(refJson)}</span>;
}

/**
 * An image: the picture (and its dark variant) and its caption fragment edited in place; a click selects it, and
 * its alt text, width and caption are set from its settings toolbar (block-settings.tsx). Selected, it has a
 * handle on each side that resizes it by dragging (model/image-resize.ts); the width field in the toolbar is the
 * keyboard's way to the same width.
 */
export function ImageView(props: NodeViewProps & { spaceId: string }) {
  const data = blockOf(props).data ?? {};
  const alt = String(data.alt ?? '');
  const [dragged, setDragged] = useState<number | null>(null);
  const width = dragged !== null ? `${dragged}px` : cssWidth(data.width);
  // A percentage is the column's share the image takes (its figure's, as the reader lays it out); pixels are its own.
  const share = width?.endsWith('%') ? width : undefined;
  const resizable = props.selected && props.editor.isEditable;
  return (
    <NodeViewWrapper as="figure" className="image qe-image" data-quire="image" style={share ? { width: share } : undefined}>
      <div contentEditable={false} className="qe-image-frame" onClick={() => selectBlock(props)}>
        <Picture refJson={data.ref as Ref | undefined} alt={alt} width={share ? '100%' : width} />
        {data.refDark !== undefined && <Picture refJson={data.refDark as Ref} alt={`${alt} (dark mode)`} width={share ? '100%' : width} className="qe-image-dark" />}
        {resizable && (['left', 'right'] as const).map((side) => <ResizeHandle key={side} side={side} props={props} onDrag={setDragged} />)}
      </div>
      <NodeViewContent as="div" className="qe-caption" />
    </NodeViewWrapper>
  );
}

/** One side's handle: the picture follows the pointer while it is held, and the block takes the width once let go. */
function ResizeHandle({ side, props, onDrag }: { side: 'left' | 'right'; props: NodeViewProps; onDrag: (width: number | null) => void }) {
  const start = useRef<Omit<ImageDrag, 'dx'> & { x: number } | null>(null);
  const dragOf = (event: React.PointerEvent) => (start.current ? { ...start.current, dx: event.clientX - start.current.x } : null);
  return (
    <span
      aria-hidden="true"
      className={`qe-resize-handle qe-resize-${side}`}
      onClick={(event) => event.stopPropagation()}
      onPointerDown={(event) => {
        const frame = event.currentTarget.parentElement;
        const picture = frame?.querySelector('img, [role="img"]');
        const pos = props.getPos();
        if (!frame || !picture || typeof pos !== 'number' || event.button !== 0) return;
        event.preventDefault();
        event.stopPropagation();
        event.currentTarget.setPointerCapture(event.pointerId);
        const group = props.editor.state.doc.resolve(pos).parent;
        const groupData = (group.attrs.block as { data?: { align?: unknown } } | null)?.data;
        const column = frame.closest('.qe-images-row')?.clientWidth ?? props.editor.view.dom.clientWidth;
        start.current = { x: event.clientX, startWidth: picture.getBoundingClientRect().width, side, align: String(groupData?.align ?? 'center'), column, was: blockOf(props).data?.width };
      }}
      onPointerMove={(event) => {
        const drag = dragOf(event);
        if (drag) onDrag(draggedWidth(drag));
      }}
      onPointerUp={(event) => {
        const drag = dragOf(event);
        start.current = null;
        onDrag(null);
        const pos = props.getPos();
        if (!drag || drag.dx === 0 || typeof pos !== 'number') return;
        // One step, undone as one; the image stays selected.
        props.editor.view.dispatch(setNodeAttrs(props.editor.state.tr, pos, { block: blockWithData(props.node, 'image', { width: resizedLength(drag) }) }));
      }}
      onPointerCancel={() => {
        start.current = null;
        onDrag(null);
      }}
    />
  );
}

/**
 * An embed: the reader's link card (render-cards.tsx: the site, the URL under it; no third party's frame, script or
 * picture, which would tell it who reads the page), its URL set from its settings toolbar; and its caption.
 */
export function EmbedView(props: NodeViewProps) {
  const url = String(blockOf(props).data?.url ?? '');
  // A link only to what a reader may follow (a `javascript:` URL stays text).
  const href = url ? safeLinkUrl(url) : null;
  return (
    <NodeViewWrapper as="figure" className="qe-embed" data-quire="embed">
      <div className="qe-embed-card embed card" contentEditable={false} onClick={() => selectBlock(props)}>
        <Icon icon={faUpRightFromSquare} className="card-icon" />
        {href ? (
          <a className="card-link" href={href} target="_blank" rel="noreferrer">
            <span className="card-title">{embedSite(href)}</span>
            <span className="card-description">{url}</span>
          </a>
        ) : url ? (
          <span className="card-link"><span className="card-title">{url}</span></span>
        ) : (
          <span className="qe-missing">No URL yet</span>
        )}
      </div>
      <NodeViewContent as="div" className="qe-caption" />
    </NodeViewWrapper>
  );
}

/** A file block: the file's name (a link to its bytes), type and size, and its caption fragment. */
export function FileView(props: NodeViewProps & { spaceId: string }) {
  const ref = blockOf(props).data?.ref as Ref | undefined;
  const { href, file } = useLinkTarget(ref);
  return (
    <NodeViewWrapper as="figure" className="qe-file" data-quire="file">
      <div contentEditable={false} className="qe-file-card">
        {file ? (
          <>
            <a href={file.downloadURL} download={file.name}>{file.name}</a> <span className="qe-file-facts">{file.contentType}, {formatFileSize(file.size)}</span>
          </>
        ) : file === null ? (
          <span className="qe-missing">The space has no file {ref?.file}: the file is missing</span>
        ) : ref?.kind === 'file' ? (
          <span className="qe-file-facts">Loading the file…</span>
        ) : (
          <a href={href}>{refLabel(ref)}</a>
        )}
      </div>
      <NodeViewContent as="div" className="qe-caption" />
    </NodeViewWrapper>
  );
}

/** A content reference (GitBook's page link card): the page's title where the page is known, else where it points. */
export function ContentRefView(props: NodeViewProps & { spaceId: string }) {
  const ref = blockOf(props).data?.ref as Ref | undefined;
  const title = useRefName(props.spaceId, ref?.kind === 'page' ? ref : undefined);
  return (
    <NodeViewWrapper as="div" className="qe-card" data-quire="contentRef" data-drag-handle>
      <span className="qe-card-kind">Card</span> {title ?? refLabel(ref)}
    </NodeViewWrapper>
  );
}
