import { NodeViewWrapper, type NodeViewProps } from '@tiptap/react';
import type { Ref } from '../files.ts';
import { blockOf } from './block-data.ts';
import { Picture } from './media.tsx';

const NOTE = 'Drawings are edited in GitBook; shown here as readers see them.';

/** A drawing: the image of its file, as the reader shows it (`figure.image.drawing`), kept as it is. */
export function DrawingView(props: NodeViewProps) {
  const ref = blockOf(props).data?.ref as Ref | undefined;
  return (
    <NodeViewWrapper as="figure" className="image drawing qe-drawing" data-quire="drawing" data-drag-handle title={NOTE}>
      <Picture refJson={ref} alt="Drawing" width={undefined} />
      <figcaption className="qe-drawing-note" contentEditable={false}>{NOTE}</figcaption>
    </NodeViewWrapper>
  );
}
