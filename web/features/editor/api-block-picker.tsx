import { posToDOMRect, type Editor, type Range } from '@tiptap/core';
import { useEffect, useRef } from 'react';
import { AnchoredPopover } from '../../ui/popover.tsx';
import { ApiBlocksContext, installedBlocksOf } from './api-blocks.ts';
import type { EditorApiBlocks } from './contract.ts';
import { declaredBlocks, type DeclaredBlock } from './nodes/integration-blocks.ts';
import { OperationPicker } from './nodes/openapi.tsx';
import { newOperationBlock, newWebhookBlock } from './nodes/openapi-operations.ts';
import { insertAndSelect } from './slash/items.ts';

/*
 * What the `/` menu needs of OpenAPI and integration blocks (contract.ts `apiBlocks`): the operation picker shown at
 * the command's text, and the blocks installed integrations declare, asked once when the editor opens.
 */

/**
 * The `/ OpenAPI operation` (or `/ OpenAPI webhook`) picker at the command's text: the operation picked replaces it,
 * selected (its settings show).
 */
export function OperationInsert({ host, at, onClose }: { host: EditorApiBlocks; at: { editor: Editor; range: Range; kind: 'operation' | 'webhook' }; onClose(): void }) {
  const webhook = at.kind === 'webhook';
  return (
    <ApiBlocksContext.Provider value={host}>
      <AnchoredPopover rect={() => posToDOMRect(at.editor.view, at.range.from, at.range.to)} label={webhook ? 'OpenAPI webhook' : 'OpenAPI operation'} className="qe-openapi-popover" onDismiss={onClose}>
        <OperationPicker
          kind={at.kind}
          onPick={(spec, op) => {
            onClose();
            insertAndSelect({ type: 'opaqueBlock', attrs: { block: webhook ? newWebhookBlock(spec, op) : newOperationBlock(spec, op) } })(at.editor, at.range);
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
    installedBlocksOf(host).then(
      (installed) => {
        if (current) declared.current = declaredBlocks(installed, window.location.origin);
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
