import { useState } from 'react';
import { blockText, oneLine } from '../../../src/features/content/document/text.ts';
import type { Block, Document, FlowBlock } from '../../../src/features/content/document/types.ts';
import type { AppLinks } from '../pages/links.ts';
import { DocumentView } from '../pages/render-document.tsx';
import type { SaveConflict } from './save-queue.ts';

/**
 * A save refused because someone else changed the same part since: each conflicting block (or page field) with
 * both versions, and the person chooses which one stays. Nothing is overwritten until they do.
 */
export function ConflictPanel({ conflicts, message, document, links, onResolve }: {
  conflicts: SaveConflict[];
  message?: string;
  /** The merged page, where each conflicting block stands: its place names it for people. */
  document?: Document;
  links: AppLinks;
  onResolve(choices: Map<number, 'mine' | 'theirs'>): void;
}) {
  const [choices, setChoices] = useState(() => new Map<number, 'mine' | 'theirs'>());
  const choose = (index: number, side: 'mine' | 'theirs') => {
    const next = new Map(choices).set(index, side);
    setChoices(next);
    if (next.size === conflicts.length) onResolve(next);
  };
  return (
    <section className="save-conflict" role="alert" aria-labelledby="conflict-title">
      <h2 id="conflict-title">Someone else changed the same part of this page</h2>
      <p>{message}</p>
      {conflicts.map((conflict, index) => {
        const what = conflict.field === 'document' ? blockName(conflict, document) : `The ${conflict.field}`;
        return (
          <fieldset key={index} className="conflict">
            <legend>{what}: {conflict.kind === 'deleted' ? 'deleted on one side, changed on the other' : 'changed by both'}</legend>
            <div className="conflict-sides">
              <div>
                <h3>Your version</h3>
                <Side value={conflict.ours} field={conflict.field} links={links} />
              </div>
              <div>
                <h3>Their version</h3>
                <Side value={conflict.theirs} field={conflict.field} links={links} />
              </div>
            </div>
            <button type="button" onClick={() => choose(index, 'mine')} aria-pressed={choices.get(index) === 'mine'}>
              Keep mine ({what.toLowerCase()})
            </button>{' '}
            <button type="button" onClick={() => choose(index, 'theirs')} aria-pressed={choices.get(index) === 'theirs'}>
              Keep theirs ({what.toLowerCase()})
            </button>
          </fieldset>
        );
      })}
    </section>
  );
}

function Side({ value, field, links }: { value: unknown; field: string; links: AppLinks }) {
  if (value === null || value === undefined || value === '') return <p className="conflict-none">(deleted)</p>;
  if (field !== 'document') return <p>{String(value)}</p>;
  const document = { object: 'document', data: {}, nodes: [value as FlowBlock] } as Document;
  return <DocumentView document={document} links={links} />;
}

/** “Block 2 (“Second paragraph…”)”: where the block is on the page and how it begins, rather than its key. */
function blockName(conflict: SaveConflict, document: Document | undefined): string {
  const at = (document?.nodes ?? []).findIndex((n) => (n as { key?: string }).key === conflict.block);
  const block = (conflict.ours ?? conflict.theirs ?? conflict.base) as Block | null;
  const text = block ? oneLine(blockText(block)).slice(0, 40) : '';
  return `Block ${at >= 0 ? at + 1 : conflict.block}${text ? ` (“${text}${text.length === 40 ? '…' : ''}”)` : ''}`;
}
