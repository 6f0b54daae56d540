import { NodeViewContent, NodeViewWrapper, type NodeViewProps } from '@tiptap/react';
import { blockOf, setData } from './block-data.ts';

/**
 * A prompt as the reader draws it (reader.css: `prompt`, `prompt-description`): its description typed in place
 * where the reader shows it, its blocks (GitBook's: the code block readers copy) below.
 */
export function PromptView(props: NodeViewProps) {
  const description = String(blockOf(props).data?.description ?? '');
  return (
    <NodeViewWrapper as="div" className="prompt qe-prompt" data-quire="prompt" role="group" aria-label="Prompt">
      <div contentEditable={false}>
        <input
          className="prompt-description qe-prompt-description"
          aria-label="Prompt description"
          placeholder="Describe the prompt"
          value={description}
          readOnly={!props.editor.isEditable}
          onChange={(e) => setData(props, { description: e.target.value })}
        />
      </div>
      <NodeViewContent as="div" className="qe-prompt-body" />
    </NodeViewWrapper>
  );
}
