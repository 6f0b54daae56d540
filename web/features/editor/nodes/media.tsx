import { NodeViewContent, NodeViewWrapper, type NodeViewProps } from '@tiptap/react';
import { useId, useState } from 'react';
import { formatFileSize, useImageSource, useLinkTarget, type Ref } from '../files.ts';
import { cssWidth, formatLength, parseLength } from '../model/length.ts';
import { caretInto } from '../place-caret.ts';
import { useRefName } from '../../pages/ref-titles.ts';
import { blockOf, setData } from './block-data.ts';
import { Checkbox } from '../../../ui/choices.tsx';
import { Select } from '../../../ui/select.tsx';
import { Button } from '../../../ui/button.tsx';
import { Tooltip } from '../../../ui/tooltip.tsx';
import { faPlus } from '@fortawesome/free-solid-svg-icons';

export const refLabel = (ref: Ref | undefined): string =>
  !ref ? '' : ref.kind === 'url' ? (ref.url ?? '') : ref.kind === 'file' ? `File ${ref.file}` : ref.kind === 'page' ? `Page ${ref.page}` : ref.kind === 'anchor' ? `#${ref.anchor}` : ref.kind ?? '';

/**
 * A group of images: its alignment and width (each image's alt text and caption are in ImageView). Laid out by the
 * reader's rules (`images`, `align-*`, `full-width`), so what is set here is what the page view and readers show.
 */
const ALIGNMENTS = [
  { value: 'center', label: 'Center' },
  { value: 'left', label: 'Left' },
  { value: 'right', label: 'Right' },
];

export function ImagesView(props: NodeViewProps) {
  const data = blockOf(props).data ?? {};
  const editable = props.editor.isEditable;
  const align = String(data.align ?? 'center');
  return (
    <NodeViewWrapper as="div" className="qe-images" data-quire="images" role="group" aria-label="Images">
      <div className="qe-block-tools" contentEditable={false}>
        <Select
          label="Image alignment"
          size="sm"
          options={ALIGNMENTS}
          value={align}
          disabled={!editable}
          onValueChange={(next) => setData(props, { align: next === 'center' && data.align === undefined ? undefined : next })}
        />
        <Checkbox label="Full width" checked={data.fullWidth === true} disabled={!editable} onCheckedChange={(checked) => setData(props, { fullWidth: checked ? true : undefined })} />
      </div>
      <NodeViewContent as="div" className={`images qe-images-row align-${align}${data.fullWidth === true ? ' full-width' : ''}`} />
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
  const errorId = useId();
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
      <Tooltip content="Pixels (300) or a percentage of the page (50%)">
        <input
          value={typed}
          size={6}
          placeholder="auto"
          readOnly={!props.editor.isEditable}
          aria-invalid={invalid}
          // Only when wrong: an undefined value would take the tooltip's description away (the trigger's props merge under it).
          {...(invalid ? { 'aria-describedby': errorId } : {})}
          onChange={(e) => {
            setTyped(e.target.value);
            const length = parseLength(e.target.value);
            if (length !== null && formatLength(length) !== formatLength(width)) setData(props, { width: length });
          }}
        />
      </Tooltip>
      {invalid && <span id={errorId} className="qe-field-error"> A width is a number of pixels or a percentage up to 100%</span>}
    </label>
  );
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

/** An image: the picture (and its dark variant), its alt text and width, and its caption fragment edited in place. */
export function ImageView(props: NodeViewProps & { spaceId: string }) {
  const data = blockOf(props).data ?? {};
  const alt = String(data.alt ?? '');
  const width = cssWidth(data.width);
  // A percentage is the column's share the image takes (its figure's, as the reader lays it out); pixels are its own.
  const share = width?.endsWith('%') ? width : undefined;
  const addCaption = () => {
    const pos = props.getPos();
    if (typeof pos !== 'number') return;
    const at = pos + props.node.nodeSize - 1;
    const done = props.editor
      .chain()
      .insertContentAt(at, {
        type: 'fragment',
        attrs: { fragment: { object: 'fragment', fragment: 'caption', nodes: [] } },
        content: [{ type: 'paragraph' }],
      })
      .command(({ tr }) => {
        caretInto(tr, at);
        return true;
      })
      .run();
    if (done) props.editor.view.focus();
  };
  return (
    <NodeViewWrapper as="figure" className="image qe-image" data-quire="image" style={share ? { width: share } : undefined}>
      <div contentEditable={false}>
        <Picture refJson={data.ref as Ref | undefined} alt={alt} width={share ? '100%' : width} />
        {data.refDark !== undefined && <Picture refJson={data.refDark as Ref} alt={`${alt} (dark mode)`} width={share ? '100%' : width} className="qe-image-dark" />}
        <div className="qe-block-tools">
          <label>
            Alt text <input value={alt} readOnly={!props.editor.isEditable} onChange={(e) => setData(props, { alt: e.target.value || undefined })} />
          </label>
          <WidthField {...props} />
          {props.editor.isEditable && props.node.childCount === 0 && <Button size="sm" variant="ghost" icon={faPlus} onClick={addCaption}>Add caption</Button>}
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
