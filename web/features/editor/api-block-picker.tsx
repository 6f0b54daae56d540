import { posToDOMRect, type Editor, type Range } from '@tiptap/core';
import { useEffect, useRef } from 'react';
import { AnchoredPopover } from '../../ui/popover.tsx';
import { ApiBlocksContext } from './api-blocks.ts';
import type { EditorApiBlocks } from './contract.ts';
import { declaredBlocks, type DeclaredBlock } from './nodes/integration-blocks.ts';
import { OperationPicker } from './nodes/openapi.tsx';
import { newOperationBlock } from './nodes/openapi-operations.ts';
import { insertAndSelect } from './slash/items.ts';

/*
 * What the `/` menu needs of OpenAPI and integration blocks (contract.ts `apiBlocks`): the operation picker shown at
 * the command's text, and the blocks installed integrations declare, asked once when the editor opens.
 */

/** The `/ OpenAPI operation` picker at the command's text: the operation picked replaces it, selected (its settings show). */
export function OperationInsert({ host, at, onClose }: { host: EditorApiBlocks; at: { editor: Editor; range: Range }; onClose(): void }) {
  return (
    <ApiBlocksContext.Provider value={host}>
      <AnchoredPopover rect={() => posToDOMRect(at.editor.view, at.range.from, at.range.to)} label="OpenAPI operation" className="qe-openapi-popover" onDismiss={onClose}>
        <OperationPicker
          onPick={(spec, op) => {
            onClose();
            insertAndSelect({ type: 'opaqueBlock', attrs: { block: newOperationBlock(spec, op) } })(at.editor, at.range);
          }}
        />
      </AnchoredPopover>
    </ApiBlocksContext.Provider>
  );
}

/** The blocks installed integrations declare, once known (none while asked, or when they cannot be listed). */
export function useDeclaredBlocks(host: EditorApiBlocks | undefined): { readonly current: readonly DeclaredBlock[] } {
  const declared = useRef<readonly DeclaredBlock[]>([]);
  useEffect(() => {
    if (!host) return;
    let current = true;
    host.integrationBlocks().then(
      (installed) => {
        if (current) declared.current = declaredBlocks(installed);
      },
      // Without them the `/` menu offers the other blocks; a block already in the page still renders.
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [host]);
  return declared;
}
